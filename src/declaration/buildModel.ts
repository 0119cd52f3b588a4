/**
 * buildModel(): a model file's SDL → the Model, or every problem at once.
 *
 * Phases, each reporting what it finds (problems.ts) and going on:
 *  1. parse the model file (syntax errors end here), and add the types it
 *     may leave out (writtenTypes.ts: PageInfo, connections and edges);
 *  2. unknown types and redefined vocabulary (names the model may not use);
 *  3. build the schema with the supplied directive definitions (graphql's
 *     own SDL rules: directive placement, arguments, duplicate names);
 *  4. item types (itemTypes.ts): key templates, placeholders, parents,
 *     attributes, flags;
 *  5. relations (relations.ts): @children and @edges connection fields,
 *     then one meaning per stored attribute of an item or an edge item,
 *     and the counters and sequences creates keep on other items (counted.ts);
 *  6. partitions (partitions.ts): sort-key prefixes that overlap in one
 *     partition; collections (collections.ts): connections over a union or
 *     interface of types sharing a partition;
 *  7. root and mutation fields (operations.ts) and access rules;
 *  8. the table's layout (layout.ts): @table and @index, and the indexes
 *     the other declarations read; what cased keys can serve (casing.ts).
 *
 * A model that passes keeps no source locations (dropLocations below).
 */
import { buildASTSchema, Kind, parse, type DefinitionNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { DIRECTIVE_DEFINITIONS, DIRECTIVE_NAMES, SUPPLIED_TYPE_NAMES } from './directives.js';
import type { Model } from './model.js';
import { ModelError, Problems } from './problems.js';
import { checkKeyFields, checkReferences, readItemTypes, readKeylessTypes } from './itemTypes.js';
import { readRelations } from './relations.js';
import { checkStoredNames } from './storedNames.js';
import { checkItemSizes } from './itemSize.js';
import { checkPartitions } from './partitions.js';
import { readCollections } from './collections.js';
import { readOperations } from './operations.js';
import { checkServedLayout, keyAttributeTypes, readLayout } from './layout.js';
import { checkReadPartitions, readIndexed } from './indexed.js';
import { withWrittenTypes } from './writtenTypes.js';
import { directiveUseName, readAnnotations } from './annotations.js';
import { FEDERATION_DIRECTIVES, federationDefinitions, readFederationLink, type FederationLink } from './federationLink.js';
import { readFederation, withOrphanExtensionsDefined } from './federation.js';
import { checkCountedReferences } from './counted.js';
import { checkCasing } from './casing.js';
import { checkEnumTexts } from './storedText.js';
import { checkInputDefaults } from './defaults.js';

const BUILT_IN_TYPES = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
let supplied: DocumentNode | undefined;
/** The supplied directive definitions, parsed once. */
export const suppliedDefinitions = (): DocumentNode => (supplied ??= parse(DIRECTIVE_DEFINITIONS));

export interface BuildOptions {
  /**
   * The text was validated before (loadModel.ts: by the bundler, same code
   * and same text): graphql's SDL rules and type-system validation are not
   * run again. The model's own phases always run.
   */
  validated?: boolean;
}

/** The model in `sdl` (read from `source`, named in messages); throws ModelError listing every problem. */
export function buildModel(sdl: string, source: string, { validated = false }: BuildOptions = {}): Model {
  const problems = new Problems();
  let document: DocumentNode;
  try {
    document = parse(sdl);
  } catch (error) {
    const e = error as { message: string; locations?: { line: number }[] };
    throw new ModelError(source, [{ where: 'syntax', message: e.message.replace(/^Syntax Error: /, ''), line: e.locations?.[0]?.line ?? null }]);
  }
  // A model linking Apollo Federation 2 is served as a subgraph (federation.ts, docs/federation.md).
  const link = readFederationLink(document, problems);
  let extended: string[] = [];
  if (link) ({ document, extended } = withOrphanExtensionsDefined(document));
  document = withWrittenTypes(document);
  // A Federation link refused for its version already said what to link.
  checkNames(document, problems, link ?? (problems.list.length > 0 ? 'refused' : null));
  if (problems.list.length > 0) throw new ModelError(source, problems.list);

  const federated = link ? federationDefinitions(link, document) : [];
  const typeDefs: DocumentNode = { kind: Kind.DOCUMENT, definitions: [...suppliedDefinitions().definitions, ...federated, ...document.definitions] };
  let schema: GraphQLSchema;
  try {
    schema = buildASTSchema(typeDefs, validated ? { assumeValidSDL: true, assumeValid: true } : undefined);
  } catch (error) {
    // graphql's SDL rules report every mistake in one message, one paragraph each.
    const messages = String((error as Error).message)
      .split('\n\n')
      .filter(Boolean);
    throw new ModelError(
      source,
      messages.map((message) => ({ where: 'schema', message, line: null })),
    );
  }

  // Every directive use, typed, once (annotations.ts): the phases read these records.
  const notes = readAnnotations(schema, problems);
  const layout = readLayout(notes, problems);
  const keyless = readKeylessTypes(schema, notes, problems);
  const items = readItemTypes(schema, notes, problems, keyless, layout.casing);
  checkReferences(items, problems);
  readIndexed(notes, items, layout, problems);
  const relations = readRelations(schema, notes, items, problems, keyless, layout);
  checkStoredNames(schema, items, relations, problems, layout);
  checkCountedReferences(schema, items, new Set([layout.pk, ...(layout.sk === null ? [] : [layout.sk])]), problems);
  checkItemSizes(items, layout, problems);
  checkKeyFields(items, problems);
  checkPartitions(items, relations, problems, layout);
  checkReadPartitions(items, relations, layout, problems);
  const reading = { schema, notes, layout, items, relations, keyless, problems };
  const collections = readCollections(reading);
  const { queries, mutations, rootAccess } = readOperations(reading);
  checkServedLayout({ layout, items, relations, queries, problems });
  checkCasing({ layout, items, relations, queries, problems });
  checkEnumTexts(schema, notes, items, problems);
  checkInputDefaults(schema, items, mutations, problems);
  keyAttributeTypes(layout, items, problems);
  const federation = link ? readFederation(schema, document, { ...link, extended }, { items, keyless }, problems) : null;
  if (problems.list.length > 0) throw new ModelError(source, problems.list);
  dropLocations(document);
  dropLocations(typeDefs);
  return { source, document, typeDefs, schema, layout, items, keyless, relations, queries, collections, mutations, rootAccess, federation };
}

/**
 * A model that passed every check needs no line numbers any more (only
 * problems name lines). Each node's location holds the parser's tokens,
 * one object per token of the file, and the file's text: a large part of
 * what a model keeps for as long as the process serves it, which every
 * major garbage collection marks again.
 * The schema's AST nodes are the same objects, so they let go too.
 */
function dropLocations(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) dropLocations(child);
    return;
  }
  if (!node || typeof node !== 'object' || !('kind' in node)) return;
  const n = node as { loc?: unknown };
  if (n.loc !== undefined) n.loc = undefined;
  for (const value of Object.values(node)) if (value && typeof value === 'object') dropLocations(value);
}

/**
 * The edge mutations' names before `@addEdge`/`@removeEdge`, refused on
 * fields with their replacement for one release (docs/model.md, "Changes"):
 * `@link` is also Apollo Federation's schema directive, whose own error
 * would not name the replacement.
 */
const RETIRED_ON_FIELDS: Readonly<Record<string, string>> = {
  link: '@addEdge(edges:, from:, to:, phrase:)',
  unlink: '@removeEdge(edges:, from:, to:, phrase:)',
};

/**
 * Unknown types (with their line), model definitions that would replace the
 * supplied vocabulary, the edge mutations' old names, and Federation's directives in a
 * model that links no Federation.
 */
function checkNames(document: DocumentNode, problems: Problems, link: FederationLink | 'refused' | null): void {
  const defined = new Set<string>([...BUILT_IN_TYPES, ...SUPPLIED_TYPE_NAMES, ...(link && link !== 'refused' ? Object.values(link.types) : [])]);
  for (const def of document.definitions) {
    if ('name' in def && def.name && isTypeDefinition(def)) defined.add(def.name.value);
  }
  for (const def of document.definitions) {
    if (def.kind === Kind.DIRECTIVE_DEFINITION && (DIRECTIVE_NAMES as readonly string[]).includes(def.name.value)) {
      problems.add(`@${def.name.value}`, 'is supplied by the gateway; remove its definition from the model', def);
    }
    if (isTypeDefinition(def) && (SUPPLIED_TYPE_NAMES as readonly string[]).includes(def.name.value)) {
      problems.add(def.name.value, 'is supplied by the gateway (directive arguments); remove it from the model', def);
    }
  }
  const ownDirectives = new Set(document.definitions.flatMap((d) => (d.kind === Kind.DIRECTIVE_DEFINITION ? [d.name.value] : [])));
  const seen = new Set<string>();
  const visit = (node: unknown, where: string): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as { kind?: string; name?: { value: string }; loc?: unknown };
    const used = directiveUseName(node);
    if (used !== null && !ownDirectives.has(used)) {
      const name = used;
      if (Object.hasOwn(RETIRED_ON_FIELDS, name) && where.includes('.')) {
        problems.add(where, `@${name} is gone: use ${RETIRED_ON_FIELDS[name]}`, node as never);
        return;
      }
      if (!link && (name === 'link' || FEDERATION_DIRECTIVES.includes(name))) {
        const imported = name === 'link' ? '' : `, import: ["@${name}"]`;
        problems.add(
          where,
          `@${name} is Apollo Federation's: link Federation 2 with extend schema @link(url: "https://specs.apollo.dev/federation/v2.7"${imported})`,
          node as never,
        );
        return;
      }
    }
    if (n.kind === Kind.NAMED_TYPE && n.name && !defined.has(n.name.value)) {
      const key = `${where}:${n.name.value}`;
      if (!seen.has(key)) {
        seen.add(key);
        problems.add(where, `unknown type ${n.name.value}`, node as never);
      }
      return;
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((v) => visit(v, whereOf(v, where)));
      else if (value && typeof value === 'object' && value !== n.loc) visit(value, whereOf(value, where));
    }
  };
  for (const def of document.definitions) visit(def, 'name' in def && def.name ? def.name.value : 'schema');
}

function whereOf(node: unknown, parent: string): string {
  const n = node as { kind?: string; name?: { value: string } };
  if (n?.kind === Kind.FIELD_DEFINITION || n?.kind === Kind.INPUT_VALUE_DEFINITION) {
    return parent.includes('.') ? parent : `${parent}.${n.name?.value}`;
  }
  return parent;
}

function isTypeDefinition(def: DefinitionNode): def is DefinitionNode & { name: { value: string } } {
  return (
    def.kind === Kind.OBJECT_TYPE_DEFINITION ||
    def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ||
    def.kind === Kind.ENUM_TYPE_DEFINITION ||
    def.kind === Kind.SCALAR_TYPE_DEFINITION ||
    def.kind === Kind.INTERFACE_TYPE_DEFINITION ||
    def.kind === Kind.UNION_TYPE_DEFINITION
  );
}
