/**
 * Phase: a federated model's entities (docs/federation.md). Every object
 * type with a @key is an entity; for each resolvable @key this finds how
 * the gateway reads the entity a representation of that key names (a
 * KeyLookup), or refuses the key at start-up, one line naming the type,
 * the key and what would serve it.
 *
 * What finds an item type: its id alone (a top-level or derived-id type, an
 * inverted child), the placeholders of its table key, or the key of an
 * index it is @indexed in. A key field that is a reference (or the parent)
 * selects what makes the referred id: `{ id }`, or the fields a derived id
 * is made of. A keyless type is found by `id` alone, with no read. Other
 * types with @key are values (another subgraph's entity whose stub the
 * model stores): only a key with resolvable: false serves them.
 *
 * Also refused: @key on an interface (entity interfaces are served as
 * @interfaceObject types) and @context/@fromContext (an argument here
 * comes from the request alone).
 */
import {
  Kind,
  parse,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
  type DefinitionNode,
  type DocumentNode,
  isInterfaceType,
} from 'graphql';
import type { Entity, EntityKey, Federation, ItemType, KeyField, KeyLookup, KeylessType } from './model.js';
import type { FederationLink } from './federationLink.js';
import type { Problems } from './problems.js';
import { isObject } from './schemaShape.js';
import { carries, federationKeys, hasDirectives, usesIn } from './annotations.js';

/** Directives the gateway cannot serve, by canonical name, and why. */
const NOT_SERVED: Readonly<Record<string, string>> = {
  context: 'an argument is taken from the request, not from a context set by a parent type',
  fromContext: 'an argument is taken from the request, not from a context set by a parent type',
};

/** A @key's field set read as key fields; a string when it is no plain selection of fields. */
export function parseFieldSet(fields: string): readonly KeyField[] | string {
  let set: SelectionSetNode;
  try {
    const document = parse(`{${fields}}`, { noLocation: true });
    set = (document.definitions[0] as { selectionSet: SelectionSetNode }).selectionSet;
  } catch (error) {
    return `does not parse: ${(error as Error).message.replace(/^Syntax Error: /, '')}`;
  }
  const read = (s: SelectionSetNode): KeyField[] | string => {
    const out: KeyField[] = [];
    for (const selection of s.selections) {
      if (selection.kind !== Kind.FIELD || selection.alias || selection.arguments?.length || hasDirectives(selection)) {
        return 'selects something other than plain fields (fragments, aliases, arguments or directives)';
      }
      const sub = selection.selectionSet ? read(selection.selectionSet) : null;
      if (typeof sub === 'string') return sub;
      out.push({ field: selection.name.value, sub });
    }
    return out;
  };
  return read(set);
}

const names = (selection: readonly KeyField[]) =>
  selection
    .map((f) => f.field)
    .sort()
    .join(' ');
const sameFields = (selection: readonly KeyField[], fields: Iterable<string>) => names(selection) === [...new Set(fields)].sort().join(' ');

/** What one field of an item type is to a key: its id, a scalar, or a reference to (or the parent of) another type; null when none. */
function keyFieldKind(item: ItemType, field: string): { kind: 'id' } | { kind: 'scalar' } | { kind: 'ref'; type: string } | null {
  if (field === 'id') return { kind: 'id' };
  if (item.parent?.field === field) return { kind: 'ref', type: item.parent.type };
  const a = item.attributes.find((x) => x.name === field);
  if (!a || a.shape) return null;
  if (a.reference) return { kind: 'ref', type: a.reference.type };
  return a.kind === 'Float' || a.kind === 'Boolean' ? null : { kind: 'scalar' };
}

interface Known {
  items: ReadonlyMap<string, ItemType>;
  keyless: ReadonlyMap<string, KeylessType>;
}

/** Why `selection` cannot be read as key values of `item` (each field a scalar, its id, or a reference selecting what makes the referred id), or null. */
function selectionProblem(known: Known, item: ItemType, selection: readonly KeyField[]): string | null {
  for (const { field, sub } of selection) {
    const kind = keyFieldKind(item, field);
    if (kind === null) return `${item.name}.${field} is no id, text, Int, enum, DateTime or reference field of ${item.name}`;
    if (kind.kind !== 'ref') {
      if (sub) return `${item.name}.${field} holds a value: select it without { … }`;
      continue;
    }
    if (!sub) return `${item.name}.${field} is a reference: select what makes its id, ${field} { id }`;
    const problem = idSelectionProblem(known, kind.type, sub);
    if (problem) return problem;
  }
  return null;
}

/** Why `sub` does not make an id of `type` without a read (`{ id }`, or the fields a derived id is made of), or null. */
function idSelectionProblem(known: Known, type: string, sub: readonly KeyField[]): string | null {
  if (sameFields(sub, ['id'])) return sub[0]!.sub ? `${type}.id holds a value: select it without { … }` : null;
  const item = known.items.get(type);
  if (!item || !item.derivedId || !sameFields(sub, item.derivedId)) {
    const derived = item?.derivedId ? ` or { ${item.derivedId.join(' ')} }` : '';
    return `{ ${names(sub)} } does not make an id of ${type}: select { id }${derived}`;
  }
  return selectionProblem(known, item, sub);
}

/** The fields of a table key or index key as a @key names them: a reference or the parent with `{ id }`. */
function asFieldSet(item: ItemType, placeholders: readonly string[]): string {
  const ref = (p: string) => item.parent?.field === p || item.attributes.some((a) => a.name === p && a.reference);
  return [...new Set(placeholders)].map((p) => (ref(p) ? `${p} { id }` : p)).join(' ');
}

/** How an item type is found from a representation of `key`, or why it cannot be. */
function itemLookup(known: Known, item: ItemType, selection: readonly KeyField[]): KeyLookup | string {
  const problem = selectionProblem(known, item, selection);
  if (problem) return problem;
  if (sameFields(selection, ['id'])) {
    if (item.keyFields.length > 0 && !item.derivedId)
      return `a ${item.name} is found with the values its key holds (${item.keyFields.map((f) => `{${f}}`).join(', ')}): key it by "${asFieldSet(item, [...item.pk.placeholders, ...item.sk.placeholders])}"`;
    if (!item.parent || item.inverted || item.derivedId) return { kind: 'id' };
    return `a ${item.name} is found with its parent's id too (its key holds {${item.parent.field}}): key it by "id ${item.parent.field} { id }", or make it inverted: true`;
  }
  if (sameFields(selection, [...item.pk.placeholders, ...item.sk.placeholders])) return { kind: 'key' };
  for (const placement of item.indexed) {
    const parts = [...placement.pk, ...placement.sk];
    const placeholders = parts.flatMap((p) => p.template.placeholders);
    if (!sameFields(selection, placeholders)) continue;
    if (placement.sk.length > 1)
      return `the index ${placement.index} has a sort key of ${placement.sk.length} attributes: a key is read from an index whose sort key is one attribute`;
    const numeric = placeholders.find((p) => ['Int', 'Float'].includes(item.attributes.find((a) => a.name === p)?.kind ?? ''));
    if (numeric) return `${item.name}.${numeric} is a number: a key is read from an index by text`;
    return { kind: 'index', index: placement.index };
  }
  const table = asFieldSet(item, [...item.pk.placeholders, ...item.sk.placeholders]);
  const indexes = item.indexed.map(
    (p) =>
      `"${asFieldSet(
        item,
        [...p.pk, ...p.sk].flatMap((x) => x.template.placeholders),
      )}" (${p.index})`,
  );
  return `a ${item.name} is found by its table key "${table}"${item.parent && !item.derivedId ? '' : ', by "id"'}${indexes.length ? `, or by the key of an index: ${indexes.join(', ')}` : ''}; key it so, or make the key resolvable: false`;
}

/** The entity's keys, each with its lookup; a problem for each key that is resolvable and cannot be served. */
function readKeys(known: Known, type: GraphQLNamedType, key: string, problems: Problems): EntityKey[] {
  const keys: EntityKey[] = [];
  for (const { fields, resolvable, node } of federationKeys(type, key)) {
    const where = `${type.name} @${key}(fields: "${fields}")`;
    const selection = parseFieldSet(fields);
    if (typeof selection === 'string') {
      problems.add(where, selection, node);
      continue;
    }
    let lookup: KeyLookup | null = null;
    if (resolvable) {
      const item = known.items.get(type.name);
      const found: KeyLookup | string = item
        ? itemLookup(known, item, selection)
        : known.keyless.has(type.name)
          ? sameFields(selection, ['id'])
            ? { kind: 'representation' }
            : `${type.name} is keyless (an id and no @item): it is found by "id" alone`
          : `${type.name} has no @item and no id: the gateway has nothing to find it by; make the key resolvable: false (another subgraph's entity, stored here as a value)`;
      if (typeof found === 'string') problems.add(where, found, node);
      else lookup = found;
    }
    keys.push({ fields, selection, resolvable, lookup });
  }
  return keys;
}

/**
 * A federated model may extend a type it does not define (`extend type
 * Query`, `extend type User @key(…)`), as Federation allows: each such
 * first extension becomes the type's definition, so the schema builds;
 * `extended` names them, so the SDL prints them as written (an extension's
 * @external key fields are another subgraph's to resolve).
 */
export function withOrphanExtensionsDefined(document: DocumentNode): { document: DocumentNode; extended: string[] } {
  const defined = new Set(
    document.definitions.flatMap((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION ? [d.name.value] : [])),
  );
  const extended: string[] = [];
  const definitions = document.definitions.map((d) => {
    if ((d.kind !== Kind.OBJECT_TYPE_EXTENSION && d.kind !== Kind.INTERFACE_TYPE_EXTENSION) || defined.has(d.name.value)) return d;
    defined.add(d.name.value);
    extended.push(d.name.value);
    return { ...d, kind: d.kind === Kind.OBJECT_TYPE_EXTENSION ? Kind.OBJECT_TYPE_DEFINITION : Kind.INTERFACE_TYPE_DEFINITION } as DefinitionNode;
  });
  return { document: { ...document, definitions }, extended };
}

/** The model's entities (types with @key) and what the gateway cannot serve of its Federation directives. */
export function readFederation(
  schema: GraphQLSchema,
  document: DocumentNode,
  link: FederationLink & { extended: readonly string[] },
  known: Known,
  problems: Problems,
): Federation {
  const { names } = link;
  const entities = new Map<string, Entity>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    const keyed = carries(type, names.key!);
    if (!keyed) continue;
    if (isInterfaceType(type)) {
      problems.add(
        `${type.name} @${names.key}`,
        `is on an interface: the gateway serves an entity interface of the supergraph as an object type with @${names.interfaceObject ?? 'interfaceObject'} (Federation v2.3)`,
        type.astNode,
      );
      continue;
    }
    if (!isObject(type)) continue;
    const keys = readKeys(known, type, names.key!, problems);
    const allExternal = carries(type, names.external!);
    const external = Object.values(type.getFields())
      .filter((f) => allExternal || carries(f, names.external!))
      .map((f) => f.name);
    const kind = known.items.has(type.name) ? 'item' : known.keyless.has(type.name) ? 'keyless' : 'value';
    entities.set(type.name, { name: type.name, keys, kind, external });
  }
  const refused = Object.entries(NOT_SERVED).flatMap(([name, why]) => (names[name] ? [[names[name]!, why] as const] : []));
  if (refused.length > 0) {
    for (const { name, node } of usesIn(
      document,
      refused.map(([n]) => n),
    )) {
      const found = refused.find(([n]) => n === name)!;
      problems.add(`@${found[0]}`, `is not served: ${found[1]}`, node);
    }
  }
  return { minor: link.minor, names, entities, extended: link.extended };
}
