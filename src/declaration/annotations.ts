/**
 * The one reader of directive uses: readAnnotations() walks a schema built
 * with the vocabulary (directives.ts) once and turns every use into its
 * typed record (annotationTypes.ts), indexed by the type, field or enum
 * value it sits on. An argument whose value is not of its type is a
 * problem here, once, naming where it is and its line.
 *
 * Every other module reads the records (test/unit/annotations.test.ts
 * finds a directive read by name anywhere else): the model's phases through
 * the Annotations buildModel.ts passes them, the layers above through the
 * Model or readAnnotations() of the schema they serve. Federation's
 * directives, @link and an operation's @skip/@include are read here too,
 * for the same reason.
 */
import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  visit,
  type ConstDirectiveNode,
  type DirectiveNode,
  type DocumentNode,
  type GraphQLEnumValue,
  type GraphQLSchema,
} from 'graphql';
import type { AccessNote, AttributeNote, FederationKeyNote, FieldNotes, IndexedNote, IndexNote, LinkNote, TableNote, TypeNotes } from './annotationTypes.js';
import { DIRECTIVE_NAMES, type DirectiveName } from './directives.js';
import type { Problems } from './problems.js';

type Values = Record<string, unknown>;
type Located = { astNode?: { directives?: readonly ConstDirectiveNode[] } | null };

const VOCABULARY = new Set<string>(DIRECTIVE_NAMES);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const strings = (v: unknown): string[] | null => (Array.isArray(v) ? (v as string[]) : null);

const EMPTY_FIELD: FieldNotes = Object.freeze({
  uses: [],
  query: null,
  read: null,
  children: null,
  edges: null,
  attribute: null,
  get: null,
  create: null,
  update: null,
  delete: null,
  addEdge: null,
  removeEdge: null,
  catalog: null,
  access: null,
  changes: null,
  parent: false,
  createdAt: false,
  propagating: false,
}) as FieldNotes;
const EMPTY_TYPE: TypeNotes = Object.freeze({ uses: [], item: null, indexed: [], access: null }) as TypeNotes;

/** The records of one schema's directive uses. */
export class Annotations {
  table: TableNote | null = null;
  /** Every @table use (a model has one; a second is refused in layout.ts). */
  readonly tables: TableNote[] = [];
  readonly indexes: IndexNote[] = [];
  readonly #fields = new Map<object, FieldNotes>();
  readonly #types = new Map<string, TypeNotes>();
  readonly #values = new Map<object, AttributeNote>();

  /** The vocabulary's directives on a field, an argument or an input field (none: an empty record). */
  field(field: object): FieldNotes {
    return this.#fields.get(field) ?? EMPTY_FIELD;
  }
  /** The vocabulary's directives on a type, by the type or its name. */
  type(type: { name: string } | string): TypeNotes {
    return this.#types.get(typeof type === 'string' ? type : type.name) ?? EMPTY_TYPE;
  }
  /** @attribute on an enum value, or null. */
  enumValue(value: object): AttributeNote | null {
    return this.#values.get(value) ?? null;
  }
  /** @internal readAnnotations fills the records. */
  setField(field: object, notes: FieldNotes): void {
    this.#fields.set(field, notes);
  }
  setType(name: string, notes: TypeNotes): void {
    this.#types.set(name, notes);
  }
  setValue(value: object, note: AttributeNote): void {
    this.#values.set(value, note);
  }
}

/** Every vocabulary directive use of `schema`, typed; a value not of its argument's type is reported to `problems` (when given) and its use left out. */
export function readAnnotations(schema: GraphQLSchema, problems?: Problems): Annotations {
  const notes = new Annotations();
  const values = (where: string, node: ConstDirectiveNode): Values | null => {
    const directive = schema.getDirective(node.name.value);
    if (!directive) return null;
    try {
      // getDirectiveValues reads the first use on a node; each use is its own node here.
      return getDirectiveValues(directive, { kind: Kind.SCHEMA_DEFINITION, directives: [node] } as never) ?? {};
    } catch (error) {
      problems?.add(`${where} @${node.name.value}`, (error as Error).message, node);
      return null;
    }
  };
  const uses = (where: string, located: Located) =>
    (located.astNode?.directives ?? []).flatMap((node) => {
      if (!VOCABULARY.has(node.name.value)) return [];
      const args = values(where, node);
      return args ? [{ name: node.name.value as DirectiveName, args, node }] : [];
    });
  for (const node of [schema.astNode, ...schema.extensionASTNodes].flatMap((n) => n?.directives ?? [])) {
    const args = node.name.value === 'table' || node.name.value === 'index' ? values('schema', node) : null;
    if (!args) continue;
    if (node.name.value === 'table')
      notes.tables.push({ pk: String(args.pk), sk: str(args.sk), casing: (str(args.casing) ?? 'NONE') as TableNote['casing'], node });
    else
      notes.indexes.push({ name: String(args.name), pk: strings(args.pk) ?? [], sk: strings(args.sk), casing: str(args.casing) as IndexNote['casing'], node });
  }
  notes.table = notes.tables[0] ?? null;
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      notes.setType(type.name, typeNotes(uses(type.name, type)));
      for (const field of Object.values(type.getFields())) {
        notes.setField(field, fieldNotes(uses(`${type.name}.${field.name}`, field)));
        for (const arg of field.args) notes.setField(arg, fieldNotes(uses(`${type.name}.${field.name}(${arg.name})`, arg)));
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) notes.setField(field, fieldNotes(uses(`${type.name}.${field.name}`, field)));
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) {
        const found = uses(`${type.name}.${value.name}`, value as Located).find((u) => u.name === 'attribute');
        if (found) notes.setValue(value, attributeNote(found.args, found.node));
      }
    }
  }
  return notes;
}

interface FoundUse {
  name: DirectiveName;
  args: Values;
  node: ConstDirectiveNode;
}

function typeNotes(found: FoundUse[]): TypeNotes {
  if (found.length === 0) return EMPTY_TYPE;
  const item = found.find((u) => u.name === 'item');
  const access = found.find((u) => u.name === 'access');
  const indexed: IndexedNote[] = found
    .filter((u) => u.name === 'indexed')
    .map(({ args, node }) => ({ index: String(args.index), pk: strings(args.pk), sk: strings(args.sk), when: str(args.when), node }));
  return {
    uses: found.map((u) => u.name),
    item: item
      ? {
          pk: String(item.args.pk),
          sk: String(item.args.sk),
          inverted: item.args.inverted === true,
          claim: str(item.args.claim),
          claimSetting: str(item.args.claimSetting),
          constants: (item.args.constants as { attribute: string; value: string }[] | null | undefined) ?? [],
          node: item.node,
        }
      : null,
    indexed,
    access: access ? accessNote(access.args, access.node) : null,
  };
}

const accessNote = (a: Values, node: ConstDirectiveNode): AccessNote => ({
  rule: a.rule as AccessNote['rule'],
  of: str(a.of),
  argument: str(a.argument),
  field: str(a.field),
  resultField: str(a.resultField),
  node,
});

const attributeNote = (a: Values, node: ConstDirectiveNode): AttributeNote => ({
  name: str(a.name),
  min: num(a.min),
  max: num(a.max),
  format: str(a.format) as AttributeNote['format'],
  counter: str(a.counter),
  sequence: str(a.sequence),
  pad: num(a.pad),
  given: (node.arguments ?? []).map((arg) => arg.name.value),
  node,
});

function fieldNotes(found: FoundUse[]): FieldNotes {
  if (found.length === 0) return EMPTY_FIELD;
  const notes: FieldNotes = { ...EMPTY_FIELD, uses: found.map((u) => u.name) };
  // A directive is used once per place (graphql's SDL rules): the first use is the one.
  for (const { name, args: a, node } of [...found].reverse()) {
    const order = a.order === 'DESCENDING' ? 'DESCENDING' : 'ASCENDING';
    if (name === 'query') notes.query = { index: str(a.index), from: str(a.from), until: str(a.until), filter: strings(a.filter), order, node };
    else if (name === 'children') notes.children = { counter: str(a.counter), index: str(a.index), order, node };
    else if (name === 'edges')
      notes.edges = {
        inverseOf: str(a.inverseOf),
        copy: (a.copy as { field: string; attribute: string }[] | null | undefined) ?? null,
        counter: str(a.counter),
        shards: str(a.shards),
        maxShards: Number(a.maxShards),
        shardsCopy: str(a.shardsCopy),
        pk: str(a.pk),
        sk: str(a.sk),
        index: str(a.index),
        order,
        from: str(a.from),
        until: str(a.until),
        node,
      };
    else if (name === 'attribute') notes.attribute = attributeNote(a, node);
    else if (name === 'get') notes.get = { by: a.by === 'NODE' || a.by === 'CALLER' ? a.by : 'KEY', node };
    else if (name === 'create' || name === 'update') notes[name] = { parent: str(a.parent), node };
    else if (name === 'delete') notes.delete = { type: str(a.type), parent: str(a.parent), match: strings(a.match), node };
    else if (name === 'addEdge' || name === 'removeEdge')
      notes[name] = { edges: String(a.edges), from: String(a.from), to: String(a.to), phrase: str(a.phrase), node };
    else if (name === 'catalog')
      notes.catalog = {
        type: String(a.type),
        by: String(a.by),
        key: String(a.key),
        sortKey: String(a.sortKey),
        prefixArgument: str(a.prefixArgument),
        node,
      };
    else if (name === 'access') notes.access = accessNote(a, node);
    else if (name === 'changes') notes.changes = { field: str(a.field), node };
    else if (name === 'parent' || name === 'createdAt' || name === 'propagating') notes[name] = true;
  }
  notes.read = readOf(notes);
  return notes;
}

/** @children and @edges as the @query they are sugar for (beside @children, @query narrows the children: the read is @children's). */
function readOf({ query, children, edges }: FieldNotes): FieldNotes['read'] {
  if (children) return { by: 'children', index: children.index, order: children.order, from: null, until: null, filter: null, node: children.node };
  if (edges) return { by: 'edges', index: edges.index, order: edges.order, from: edges.from, until: edges.until, filter: null, node: edges.node };
  return query ? { by: 'query', ...query } : null;
}

/** The stored text of an enum value: its @attribute(name:), else its name (read without a schema's directive definitions: the value as written). */
export function enumValueText(value: Pick<GraphQLEnumValue, 'name' | 'astNode'>): string {
  const directive = value.astNode?.directives?.find((d) => d.name.value === 'attribute');
  const name = directive?.arguments?.find((a) => a.name.value === 'name')?.value;
  return name?.kind === Kind.STRING ? name.value : value.name;
}

// Apollo Federation's directives, under the names the model's link gives them (federationLink.ts).

const argumentValue = (node: ConstDirectiveNode, name: string): unknown => {
  const arg = node.arguments?.find((a) => a.name.value === name);
  return arg ? valueFromASTUntyped(arg.value) : undefined;
};

type Extended = Located & { extensionASTNodes?: readonly { directives?: readonly ConstDirectiveNode[] }[] };
const usesNamed = (type: Extended, name: string) =>
  [type.astNode, ...(type.extensionASTNodes ?? [])].flatMap((n) => (n?.directives ?? []).filter((d) => d.name.value === name));

/** The uses of Federation's @key (named `key` in the model) on a type and its extensions. */
export const federationKeys = (type: object, key: string): FederationKeyNote[] =>
  usesNamed(type as Extended, key).map((node) => ({
    fields: String(argumentValue(node, 'fields') ?? ''),
    resolvable: argumentValue(node, 'resolvable') !== false,
    node,
  }));

/** Does a type or one of its extensions, or a field, carry the directive the model names `name` (a Federation directive)? */
export const carries = (located: object, name: string): boolean => usesNamed(located as Extended, name).length > 0;

/** Every use of the directives named in `names` anywhere in the document, with its node. */
export function usesIn(document: DocumentNode, names: readonly string[]): { name: string; node: DirectiveNode }[] {
  const found: { name: string; node: DirectiveNode }[] = [];
  visit(document, {
    Directive(node) {
      if (names.includes(node.name.value)) found.push({ name: node.name.value, node });
    },
  });
  return found;
}

/** The @link uses on the schema definitions and extensions of a document (before any schema is built). */
export function linkUses(document: DocumentNode): LinkNote[] {
  return document.definitions.flatMap((d) =>
    d.kind === Kind.SCHEMA_DEFINITION || d.kind === Kind.SCHEMA_EXTENSION
      ? (d.directives ?? [])
          .filter((x) => x.name.value === 'link')
          .map((node) => ({
            url: node.arguments?.find((a) => a.name.value === 'url')?.value,
            import: node.arguments?.find((a) => a.name.value === 'import')?.value,
            node,
          }))
      : [],
  );
}

/** Does a selection's @skip/@include leave it in, with these variables (a variable not sent: in)? */
export function includedUnder(node: { directives?: readonly DirectiveNode[] }, variables: Readonly<Record<string, unknown>>): boolean {
  const condition = (directive: typeof GraphQLSkipDirective) => {
    const use = node.directives?.find((d) => d.name.value === directive.name);
    const arg = use?.arguments?.find((a) => a.name.value === 'if');
    if (!arg || (arg.value.kind === Kind.VARIABLE && !(arg.value.name.value in variables))) return undefined;
    return valueFromASTUntyped(arg.value, variables as Record<string, unknown>);
  };
  return condition(GraphQLSkipDirective) !== true && condition(GraphQLIncludeDirective) !== false;
}

/** Does any directive of a selection take a variable (its inclusion depends on the request)? */
export const readsVariables = (node: { directives?: readonly DirectiveNode[] }): boolean =>
  (node.directives ?? []).some((d) => d.arguments?.some((a) => a.value.kind !== Kind.BOOLEAN));

/** The directive's name when a node of a document is a directive use, else null (a walk over a model's text before its schema is built). */
export const directiveUseName = (node: unknown): string | null => {
  const n = node as { kind?: string; name?: { value: string } };
  return n.kind === Kind.DIRECTIVE && n.name ? n.name.value : null;
};

/** A use of the directive `name` without arguments (Federation's @shareable, written on PageInfo). */
export const directiveUse = (name: string): ConstDirectiveNode => ({ kind: Kind.DIRECTIVE, name: { kind: Kind.NAME, value: name }, arguments: [] });

/** Does a node carry any directive? */
export const hasDirectives = (node: { directives?: readonly unknown[] }): boolean => (node.directives?.length ?? 0) > 0;

/** The document without uses of the vocabulary's directives (another program's view of the model, federation/sdl.ts). */
export const withoutVocabulary = (document: DocumentNode): DocumentNode =>
  visit(document, { Directive: (node) => (VOCABULARY.has(node.name.value) ? null : undefined) }) as DocumentNode;
