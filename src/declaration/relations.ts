/**
 * Phase 5: the connection fields of item types. Every connection field is
 * bound by @children or @edges; the node type, counters, copies, the
 * inverse direction, edge attributes, narrowed reads (@query beside
 * @children) and write sharding are
 * checked here.
 */
import { isAbstractType, isNonNullType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { storedName, type Attribute, type ChildrenRelation, type PartitionFill, type CopyField, type EdgesRelation, type ItemType, type KeylessType, type Layout, type Relation } from './model.js';
import { parseTemplate, type KeyTemplate } from './template.js';
import { checkEdgePair, readEdgeKey } from './edgeLayout.js';
import type { Problems } from './problems.js';
import { connectionShape, directiveArgs, directivesOn, isEnum, isScalarLike, unwrap, type Field } from './schemaShape.js';
import { readAttributeDirective, scalarKind } from './itemTypes.js';
import { enumValues } from './storedText.js';
import { readAccess } from './access.js';
import { keyIn, readSortArguments } from './indexed.js';
import { GSI1_PK, GSI1_SK } from './layout.js';

const PAGE_ARGUMENTS = ['first', 'after', 'last', 'before'];

export function readRelations(
  schema: GraphQLSchema,
  items: Map<string, ItemType>,
  problems: Problems,
  keyless: ReadonlyMap<string, KeylessType> = new Map(),
  layout: Pick<Layout, 'pk' | 'sk' | 'indexes'> = { pk: 'PK', sk: 'SK', indexes: [] },
): Map<string, Relation> {
  const relations = new Map<string, Relation>();
  const reading: RelationReading = { schema, items, problems, keyless, layout };
  for (const item of items.values()) {
    const type = schema.getType(item.name) as GraphQLObjectType;
    for (const field of Object.values(type.getFields())) {
      const relation = readRelation(reading, item, field);
      if (relation) {
        item.relations.push(relation);
        relations.set(relation.path, relation);
      }
    }
  }
  // A keyless type's connections: the items whose keys name it (@children, @query); it has no item for edges or counters.
  for (const { name } of keyless.values()) {
    const type = schema.getType(name) as GraphQLObjectType;
    const owner = keylessItemType(name);
    for (const field of Object.values(type.getFields())) {
      if (!connectionShape(unwrap(field.type).named)) continue;
      const at = `${name}.${field.name}`;
      const relation = readRelation(reading, owner, field);
      if (relation !== null && relation.counter !== null) {
        problems.add(`${at} @${relation.kind}(counter)`, `${name} is keyless: it has no item to hold a counter`, field.astNode);
      }
      if (relation) relations.set(relation.path, relation);
    }
  }
  // Inverse sides: each names a base @edges field on its node type that leads back here.
  for (const relation of relations.values()) {
    if (relation.kind !== 'edges' || relation.direction !== 'inverted') continue;
    const where = `${relation.path} @edges(inverseOf)`;
    const other = relations.get(`${relation.node}.${relation.inverse}`);
    if (!other || other.kind !== 'edges') {
      problems.add(where, `names no @edges field of ${relation.node}: ${relation.inverse}`, fieldNode(schema, relation));
    } else if (other.direction !== 'base') {
      problems.add(where, `${other.path} is itself an inverse side; inverseOf names the side without inverseOf`, fieldNode(schema, relation));
    } else if (other.node !== relation.owner) {
      problems.add(where, `${other.path} leads to ${other.node}, not back to ${relation.owner}`, fieldNode(schema, relation));
    } else if (edgeAttributeNames(other).join() !== edgeAttributeNames(relation).join()) {
      problems.add(where, `the edge types ${relation.edgeType} and ${other.edgeType} must have the same edge fields, with the same @attribute (they read the same edge items)`, fieldNode(schema, relation));
    } else {
      checkEdgePair(other, relation, layout, problems, fieldNode(schema, relation));
    }
  }
  return relations;
}

// Constraints included: a @addEdge sets the edge items both edge types read, so both must declare what it accepts alike.
/** A keyless type as the owner of its connections: no keys of its own (its id is the whole key), no parent, no attributes. */
export function keylessItemType(name: string): ItemType {
  const id = parseTemplate('{id}');
  return { name, pk: id, sk: id, inverted: false, indexed: [], parent: null, keyFields: [], derivedId: null, idStoredAs: null, parentStoredAs: null, constants: [], attributes: [], flags: [], relations: [], byInstant: null, owner: null, access: null, fieldAccess: {}, globalId: null };
}

const edgeAttributeNames = (r: EdgesRelation) =>
  r.edgeAttributes.map((a) => `${a.name}:${a.kind}:${a.storedAs}:${JSON.stringify(a.constraints)}`).sort();

/** Is the node's partition key in `index` (null: the table) its id alone? Read from the @indexed placements already read. */
function keyedByIdIn(node: ItemType, index: string | null): boolean {
  const placement = index === null ? null : node.indexed.find((p) => p.index === index);
  const templates = index === null ? [node.pk] : placement ? placement.pk.map((p) => p.template) : [];
  const placeholders = templates.flatMap((t) => t.placeholders);
  return placeholders.length === 1 && placeholders[0] === 'id';
}

function fieldNode(schema: GraphQLSchema, relation: Relation) {
  return (schema.getType(relation.owner) as GraphQLObjectType).getFields()[relation.field]?.astNode;
}

/** What reading one connection field needs beside the field: the schema, the types read so far, the layout. */
interface RelationReading {
  schema: GraphQLSchema;
  items: Map<string, ItemType>;
  problems: Problems;
  keyless: ReadonlyMap<string, KeylessType>;
  layout: Pick<Layout, 'pk' | 'sk' | 'indexes'>;
}

/** What @children and @edges relations share. */
type RelationBase = Omit<ChildrenRelation, 'kind' | 'index' | 'owned' | 'via' | 'partitionFills' | 'bounds' | 'sortArguments' | 'descending' | 'counter' | 'range'>;

function readRelation(reading: RelationReading, item: ItemType, field: Field): Relation | null {
  const { schema, items, problems, keyless } = reading;
  const at = `${item.name}.${field.name}`;
  const used = directivesOn(field);
  const shape = connectionShape(unwrap(field.type).named);
  // Beside @children, @query is the children's narrowed read (readRange), not a binding of its own.
  const bound = (['children', 'edges', 'query'] as const).filter((d) => used.includes(d) && !(d === 'query' && used.includes('children')));
  if (!shape) {
    for (const d of bound) {
      problems.add(`${at} @${d}`, `belongs on a connection field; ${unwrap(field.type).named.name} is no connection type (edges { cursor node }, pageInfo)`, field.astNode);
    }
    return null;
  }
  if (bound.length === 0) {
    problems.add(at, `no directive binds this connection field: add @children, @edges or @query`, field.astNode);
    return null;
  }
  if (bound.length > 1) {
    problems.add(at, `has more than one of ${bound.map((d) => `@${d}`).join(', ')}`, field.astNode);
    return null;
  }
  // A connection over a union or interface is a collection (collections.ts).
  if (isAbstractType(shape.node)) return null;
  // An edge may lead to a keyless type (an id alone) when its key is its own: nothing of the node is read.
  const node = items.get(shape.node.name) ?? (bound[0] === 'edges' && keyless.has(shape.node.name) ? keylessItemType(shape.node.name) : undefined);
  if (!node) {
    problems.add(`${at} @${bound[0]}`, `the edges' node type ${shape.node.name} is not an @item type`, field.astNode);
    return null;
  }
  const argNames = field.args.map((a) => a.name);
  for (const name of PAGE_ARGUMENTS) {
    if (!argNames.includes(name)) problems.add(at, `a connection field takes first, after, last and before (missing ${name})`, field.astNode);
  }
  const base: RelationBase = {
    owner: item.name,
    field: field.name,
    path: at,
    connectionType: unwrap(field.type).named.name,
    edgeType: shape.edge.name,
    node: node.name,
    extraArguments: argNames.filter((a) => !PAGE_ARGUMENTS.includes(a)),
    access: readAccess(schema, field, at, problems),
  };
  const relation =
    bound[0] === 'edges'
      ? readEdgesRelation(reading, { item, node, field, edge: shape.edge }, base)
      : readChildrenRelation(reading, { item, node, field, directive: bound[0] }, base);
  checkExtraArguments(relation, field, problems);
  return relation;
}

/** @children (owned: created and deleted under the owner) or @query (a read of items the owner does not own). */
function readChildrenRelation(
  { schema, problems, layout }: RelationReading,
  { item, node, field, directive }: { item: ItemType; node: ItemType; field: Field; directive: 'children' | 'query' },
  base: RelationBase,
): ChildrenRelation {
  const at = base.path;
  const owned = directive === 'children';
  const args = directiveArgs(schema, directive, field) ?? {};
  const where = `${at} @${directive}`;
  const index = strOrNull(args.index);
  const bounds = owned ? null : readBounds(args, field, where, problems);
  // The node's key where it is read (null: reported in indexed.ts) and the placeholders naming the partition.
  const key = keyIn(node, index, layout);
  const partition = key ? [key.pk, ...key.pkMore.map((p) => p.template)] : [];
  const placeholders = partition.flatMap((t) => t.placeholders);
  // The node's field holding the owner's id: its @parent, or (for a @query, which owns nothing) a reference to
  // the owner's type, the one the partition names where there are several.
  const all = node.attributes.filter((a) => a.reference?.type === item.name).map((a) => a.name);
  const naming = all.filter((a) => placeholders.includes(a));
  const references = naming.length === 1 ? naming : all;
  // Or, for a @query whose node is keyed there by its id alone, the id itself: an item whose id is the owner's
  // (a watcher whose id is the watching agent's, read through an inverted index).
  const byOwnId = !owned && references.length === 0 && node.parent?.type !== item.name && keyedByIdIn(node, index);
  const via = node.parent?.type === item.name ? node.parent.field : !owned && references.length === 1 ? references[0]! : byOwnId ? 'id' : null;
  const taken = new Set([...PAGE_ARGUMENTS, ...(bounds?.from ? [bounds.from] : []), ...(bounds?.until ? [bounds.until] : [])]);
  const partitionFills = readPartitionFills({ item, field, owned, where, taken, problems }, partition, via);
  if (via === null && Object.keys(partitionFills).length === 0) {
    const what = owned ? `no @parent field of type ${item.name}` : references.length > 1 ? `several references to ${item.name} (${references.join(', ')}) and no @parent of that type` : `no @parent field or reference of type ${item.name}`;
    problems.add(where, `${node.name} has ${what}: nothing names ${item.name}'s partition of ${node.name} items`, field.astNode);
  }
  if (owned && item.parent && !item.inverted && !item.derivedId) {
    // Its children are created and deleted under it, found by its id alone.
    problems.add(where, `${item.name} is a child type found only with its parent's id: make it inverted: true to give it children`, field.astNode);
  }
  // Over an index sort key of several attributes, arguments may fix its leading attributes.
  for (const fill of Object.values(partitionFills)) if ('argument' in fill) taken.add(fill.argument);
  const fieldArgs = field.args.map((a) => ({ name: a.name, required: isNonNullType(a.type) }));
  const sorting = index === null || (via === null && Object.keys(partitionFills).length === 0) ? null : key;
  const sortArguments = sorting ? readSortArguments(node, sorting, { args: fieldArgs, taken, bounded: bounds !== null, where: `${where}(index: "${index}")`, astNode: field.astNode }, problems) : {};
  if (!owned && args.counter !== undefined) problems.add(where, 'a @query field reads; counters belong on @children', field.astNode);
  if (!owned && Array.isArray(args.filter)) problems.add(`${where}(filter)`, 'filters a narrowed read of @children: use it on a field with @children beside @query', field.astNode);
  return {
    ...base,
    kind: 'children',
    index,
    owned,
    via: via ?? '',
    partitionFills,
    bounds,
    sortArguments,
    descending: args.order === 'DESCENDING',
    counter: owned ? strOrNull(args.counter) : null,
    range: owned ? readRange(schema, field, at, node, problems) : null,
  };
}

/**
 * The placeholders of the node's partition key besides `via` (the owner's
 * id): each filled by the owner's key value at the same position of the
 * owner's pk template (when the node's template repeats it with its own
 * names: `REPO#{repoOwner}#{repoName}` under `REPO#{owner}#{name}`), else,
 * on a @query, by a required argument named like it (`{channel}` from
 * `channel` or `channelId`). What is left unfilled is reported in indexed.ts.
 */
function readPartitionFills(
  { item, field, owned, where, taken, problems }: { item: ItemType; field: Field; owned: boolean; where: string; taken: ReadonlySet<string>; problems: Problems },
  partition: readonly KeyTemplate[],
  via: string | null,
): Record<string, PartitionFill> {
  const fills: Record<string, PartitionFill> = {};
  // A created child's key is filled from its parent's id alone (writes/): owned children take no other fill.
  if (owned) return fills;
  // The owner's pk with its placeholders renamed: only an owner with a literal prefix (a keyless one's `{id}` would match any one-placeholder key).
  const renamed = partition.length === 1 && item.pk.prefix !== '' ? renamedPlaceholders(partition[0]!, item.pk) : null;
  for (const placeholder of partition.flatMap((t) => t.placeholders)) {
    if (placeholder === via) continue;
    const ownerKey = renamed?.get(placeholder);
    if (ownerKey !== undefined && (ownerKey === 'id' || item.derivedId?.includes(ownerKey))) {
      fills[placeholder] = { ownerKey };
      continue;
    }
    const argument = field.args.find((a) => (a.name === placeholder || a.name === `${placeholder}Id`) && !taken.has(a.name));
    if (!argument) continue;
    if (!isNonNullType(argument.type)) {
      problems.add(`${where}(${argument.name})`, `fills {${placeholder}} of the partition read: make it required (${String(argument.type)}!)`, field.astNode);
    }
    fills[placeholder] = { argument: argument.name };
  }
  return fills;
}

/** `node`'s placeholders → `owner`'s, where the two templates have the same literal text and placeholders at the same places; null otherwise. */
function renamedPlaceholders(node: KeyTemplate, owner: KeyTemplate): Map<string, string> | null {
  if (node.parts.length !== owner.parts.length) return null;
  const map = new Map<string, string>();
  for (let i = 0; i < node.parts.length; i++) {
    const a = node.parts[i]!;
    const b = owner.parts[i]!;
    if ('literal' in a && 'literal' in b && a.literal === b.literal) continue;
    if ('placeholder' in a && 'placeholder' in b) map.set(a.placeholder, b.placeholder);
    else return null;
  }
  return map;
}

type EdgeEnds = { item: ItemType; node: ItemType; field: Field; edge: GraphQLObjectType };

function readEdgesRelation(reading: RelationReading, ends: EdgeEnds, base: RelationBase): EdgesRelation {
  const { schema, problems } = reading;
  const { item, node, field, edge } = ends;
  const at = base.path;
  const args = directiveArgs(schema, 'edges', field) ?? {};
  const inverse = strOrNull(args.inverseOf);
  const index = strOrNull(args.index);
  if (index !== null && inverse === null) problems.add(`${at} @edges(index)`, 'belongs on the inverse side (with inverseOf): the other direction, read back through the index', field.astNode);
  const ownsKey = args.pk !== undefined || args.sk !== undefined;
  if (index !== null && ownsKey) {
    problems.add(`${at} @edges(index)`, 'a side with its own pk/sk is written beside the base item (a mirror), not read through an index: give it one or the other', field.astNode);
  }
  checkEdgeEnds(reading, ends, at, ownsKey || inverse !== null);
  const copies = readCopies(args, at, ends, problems);
  const edgeAttributes = readEdgeAttributes(schema, edge, problems);
  const key = readEdgeKey(args, at, field, { owner: item, node, edge, attributes: edgeAttributes }, problems);
  const bounds = readEdgeBounds(args, at, field, key, ownsKey, problems);
  // Write sharding: @edges(shards, maxShards, shardsCopy).
  const sharded = typeof args.shards === 'string' ? { count: args.shards, max: Number(args.maxShards), copy: strOrNull(args.shardsCopy) } : null;
  if (!sharded && (args.shardsCopy != null || args.maxShards !== 64)) problems.add(`${at} @edges`, 'maxShards and shardsCopy belong with shards (the attribute holding the shard count)', field.astNode);
  if (sharded) {
    const problem = (where: string, message: string) => problems.add(`${at} @edges${where}`, message, field.astNode);
    if (inverse === null) problem('(shards)', 'belongs on the inverse side (the @edges field with inverseOf, read through GSI1)');
    if (args.order === 'DESCENDING') problem('(order)', 'a write-sharded side is merged over its shards in ascending order only');
    if (ownsKey || index !== null) problem('(shards)', 'spreads an inverse side over GSI1 partitions; this side has its own key or reads another index');
    // At most 64 shards (the table layout's range, dynamo/keys.ts MAX_SHARDS): a create puts every counter
    // item in its one transaction, and a merged page reads every shard.
    if (!Number.isInteger(sharded.max) || sharded.max < 1 || sharded.max > 64) problem('(maxShards)', `must be a whole number 1–64 (got ${String(args.maxShards)})`);
  }
  return {
    ...base,
    kind: 'edges',
    counter: strOrNull(args.counter),
    direction: inverse === null ? 'base' : 'inverted',
    inverse,
    key,
    index,
    descending: args.order === 'DESCENDING',
    bounds,
    copies,
    edgeAttributes,
    sharded,
  };
}

/** @edges(from, until): a range over the first placeholder of the side's sort key, which must open it (`{since}#u#{follower}`) so the range is over that field's text. */
function readEdgeBounds(args: Record<string, unknown>, at: string, field: Field, key: EdgesRelation['key'], ownsKey: boolean, problems: Problems): EdgesRelation['bounds'] {
  const bounds = readBounds(args, field, `${at} @edges`, problems);
  if (bounds !== null && (key === null || !('placeholder' in key.sk.parts[0]!))) {
    const why = key === null ? (ownsKey ? 'the key is refused' : 'this side has no sk of its own') : `"${key.sk.source}" opens with "${key.sk.prefix}"`;
    problems.add(`${at} @edges(${bounds.from !== null ? 'from' : 'until'})`, `ranges over the first placeholder of the edges' sort key, which must open it (sk: "{since}#u#{follower}"); ${why}`, field.astNode);
  }
  return bounds;
}

/** The owner and node of an edge: found by id alone; without a key of its own, each holds {id} in its pk and has an item. */
function checkEdgeEnds({ keyless, problems }: RelationReading, { item, node, field }: EdgeEnds, at: string, ownKeyOrInverse: boolean): void {
  if (ownKeyOrInverse) {
    // An edge names its ends by id alone: a child end must be found by its id (inverted), as a link and a cascade find it.
    for (const [t, role] of [[item, 'owner'], [node, 'node']] as const) {
      if (t.parent && !t.inverted) problems.add(`${at} @edges`, `the ${role} type ${t.name} is a child type found only with its parent's id: make it inverted: true (an edge names its ends by id alone)`, field.astNode);
    }
    return;
  }
  if (keyless.has(node.name)) problems.add(`${at} @edges`, `${node.name} is keyless: an edge's sort key is its node's PK, which ${node.name} does not have (declare the edge's own key with pk and sk)`, field.astNode);
  else if (!node.pk.placeholders.includes('id') || node.parent) {
    problems.add(`${at} @edges`, `an edge's sort key is its node's PK, so ${node.name}'s pk must hold {id} and ${node.name} cannot be a child type`, field.astNode);
  }
  if (keyless.has(item.name)) problems.add(`${at} @edges`, `${item.name} is keyless: an edge is written beside its owner's item, which ${item.name} does not have (declare the edge's own key with pk and sk)`, field.astNode);
  else if (!item.pk.placeholders.includes('id') || item.parent) {
    problems.add(`${at} @edges`, `edges live in ${item.name}'s partition, so its pk must hold {id} and ${item.name} cannot be a child type`, field.astNode);
  }
}

/** @edges(copy): each of a required text field of the node. */
function readCopies(args: Record<string, unknown>, at: string, { node, field }: EdgeEnds, problems: Problems): CopyField[] {
  const copies: CopyField[] = [];
  for (const copy of (args.copy as { field: string; attribute: string }[] | undefined) ?? []) {
    const copied = node.attributes.find((a) => a.name === copy.field);
    if (!copied) {
      problems.add(`${at} @edges(copy)`, `copies ${copy.field}, which is no stored field of ${node.name}`, field.astNode);
    } else if (!copied.required || !['String', 'ID', 'enum'].includes(copied.kind)) {
      // Renames carry a new text to the copies; a cleared value or another kind would leave the old copy behind.
      problems.add(`${at} @edges(copy)`, `copies ${node.name}.${copy.field}, which is ${copied.required ? copied.kind : 'optional'}: a copy is of a required text field (String!, ID! or an enum)`, field.astNode);
    }
    copies.push({ field: copy.field, attribute: copy.attribute });
  }
  return copies;
}

/** The edge type's fields beside cursor and node: attributes of the edge item. */
function readEdgeAttributes(schema: GraphQLSchema, edge: GraphQLObjectType, problems: Problems): Attribute[] {
  const edgeAttributes: Attribute[] = [];
  for (const f of Object.values(edge.getFields())) {
    if (f.name === 'cursor' || f.name === 'node') continue;
    const { named, list } = unwrap(f.type);
    const kind = isScalarLike(named) ? scalarKind(named.name, isEnum(named)) : null;
    if (kind === null || list) {
      problems.add(`${edge.name}.${f.name}`, 'an edge field is an attribute of the edge item: a built-in scalar, DateTime or enum', f.astNode);
      continue;
    }
    const createdAt = directivesOn(f).includes('createdAt');
    if (createdAt && kind !== 'DateTime' && kind !== 'String') problems.add(`${edge.name}.${f.name} @createdAt`, 'belongs on a DateTime or String field', f.astNode);
    const { storedAs, constraints } = readAttributeDirective(schema, f, `${edge.name}.${f.name}`, kind, problems);
    edgeAttributes.push({ name: f.name, storedAs, kind, required: unwrap(f.type).nonNull, createdAt, ...enumValues(named), constraints });
  }
  return edgeAttributes;
}

/** @query(from, until): each names an argument of the field. */
function readBounds(args: Record<string, unknown>, field: Field, where: string, problems: Problems): ChildrenRelation['bounds'] {
  const from = strOrNull(args.from);
  const until = strOrNull(args.until);
  if (from === null && until === null) return null;
  const argNames = new Set(field.args.map((a) => a.name));
  for (const [name, value] of [['from', from], ['until', until]] as const) {
    if (value !== null && !argNames.has(value)) problems.add(`${where}(${name})`, `names no argument of the field: ${value}`, field.astNode);
  }
  return { from, until };
}

/** @query beside @children: the arguments that narrow the children to a range of their instant in GSI2, and filters. */
function readRange(schema: GraphQLSchema, field: Field, at: string, node: ItemType, problems: Problems): ChildrenRelation['range'] {
  const query = directiveArgs(schema, 'query', field);
  if (!query) return null;
  const where = `${at} @query`;
  const index = strOrNull(query.index);
  if (index !== 'GSI2') {
    problems.add(`${where}(index)`, `beside @children reads the children by instant in GSI2 (index: "GSI2"); got ${index === null ? 'none' : `"${index}"`}`, field.astNode);
  } else if (!node.byInstant) {
    problems.add(where, `${node.name} has no key by instant in GSI2: declare @indexed(index: "GSI2", pk: ["<prefix>{${node.parent?.field ?? '<parent>'}}"], sk: ["{<DateTime field>}#{id}"]) on ${node.name}`, field.astNode);
  }
  const argNames = new Set(field.args.map((a) => a.name));
  const from = strOrNull(query.from);
  const until = strOrNull(query.until);
  if (from === null || until === null) problems.add(where, 'beside @children names both from and until', field.astNode);
  for (const [name, value] of [['from', from], ['until', until]] as const) {
    if (value !== null && !argNames.has(value)) problems.add(`${where}(${name})`, `names no argument of the field: ${value}`, field.astNode);
  }
  const filters: { argument: string; field: string }[] = [];
  for (const f of Array.isArray(query.filter) ? (query.filter as string[]) : []) {
    if (!argNames.has(f)) problems.add(`${where}(filter)`, `names no argument of the field: ${f}`, field.astNode);
    if (!node.attributes.some((a) => a.name === f)) problems.add(`${where}(filter)`, `names no stored field of ${node.name}: ${f}`, field.astNode);
    filters.push({ argument: f, field: f });
  }
  return { after: from ?? '', before: until ?? '', where: filters };
}

/** Arguments besides paging must be used by a directive (@query's from, until and filter). */
function checkExtraArguments(relation: Relation, field: Field, problems: Problems): void {
  const used = new Set<string>();
  if (relation.kind === 'children' && relation.range) {
    used.add(relation.range.after).add(relation.range.before);
    for (const w of relation.range.where) used.add(w.argument);
  }
  if (relation.kind === 'children') for (const a of Object.values(relation.sortArguments)) used.add(a);
  if (relation.kind === 'children') for (const f of Object.values(relation.partitionFills)) if ('argument' in f) used.add(f.argument);
  if (relation.bounds) {
    if (relation.bounds.from !== null) used.add(relation.bounds.from);
    if (relation.bounds.until !== null) used.add(relation.bounds.until);
  }
  for (const name of relation.extraArguments) {
    if (!used.has(name)) problems.add(`${relation.path}(${name})`, 'no directive reads this argument', field.astNode);
  }
}

/** Where a stored field is named in a problem: `.field`, with its @attribute(name:) when it has one. */
const storedAt = (a: Attribute): string => (a.storedAs === a.name ? `.${a.name}` : `.${a.name} @attribute(name: ${JSON.stringify(a.storedAs)})`);

const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Key attributes of the default table and its indexes (and, beside them, a declared @table's): no field, counter or copy may be stored under them. */
export const KEY_ATTRIBUTES = ['PK', 'SK', GSI1_PK, GSI1_SK, 'GSI2PK', 'GSI2SK'] as const;

/**
 * Attributes the gateway's own bookkeeping writes on items (the writes'
 * and the plan's constants: a cascade's and a rename's marks, migrate's
 * counting mark, a reshard's state) and the table's time-to-live
 * attribute, which would have DynamoDB delete the item. A field, counter
 * or copy stored under one of them would be overwritten by the gateway or
 * overwrite its state.
 */
export const BOOKKEEPING_ATTRIBUTES = [
  'deletingAt',
  'propagatingSince',
  'countingSince',
  'countingBy',
  'reshardFrom',
  'reshardMoves',
  'reshardTo',
  'reshardCopies',
  'expiresAt',
] as const;

const RESERVED = new Set<string>([...KEY_ATTRIBUTES, ...BOOKKEEPING_ATTRIBUTES]);

/**
 * Every attribute of one stored item must have one meaning: the fields of
 * an item type, the counters of its relations, the versions of its copied
 * fields and a sharded count; on an edge item its fields, the copies both
 * sides declare with their versions, and the shard-count copy. Two
 * meanings under one name (a counter named like a field, two copies in one
 * attribute, a field named like a key) would have one write overwrite the
 * other, so such a model is refused, naming the second use.
 */
export function checkStoredNames(
  schema: GraphQLSchema,
  items: ReadonlyMap<string, ItemType>,
  relations: ReadonlyMap<string, Relation>,
  problems: Problems,
  layout: Pick<Layout, 'pk' | 'sk' | 'indexes'>,
): void {
  // The table's own key attributes, whatever @table names them, are written from the templates.
  const tableKeys = new Set([layout.pk, ...(layout.sk === null ? [] : [layout.sk])]);
  const indexKeys = new Set([...tableKeys, ...layout.indexes.flatMap((i) => [...i.pk, ...i.sk])]);
  const isKey = (name: string) => KEY_ATTRIBUTES.includes(name as never) || tableKeys.has(name);
  /** Records `use` under `name`; false (and a problem) when the name is reserved or holds something else. */
  const claim = (names: Map<string, string>, name: string, use: string, where: string, node: unknown): boolean => {
    const known = names.get(name);
    if (RESERVED.has(name) || tableKeys.has(name)) {
      problems.add(where, `${use} is stored under ${name}, an attribute the gateway keeps${isKey(name) ? ' (a key)' : ''}: name it otherwise`, node as never);
      return false;
    }
    if (known !== undefined && known !== use) {
      problems.add(where, `${use} is stored under ${name}, which already holds ${known}: name it otherwise`, node as never);
      return false;
    }
    names.set(name, use);
    return true;
  };
  for (const item of items.values()) {
    const type = schema.getType(item.name) as GraphQLObjectType;
    const names = new Map<string, string>();
    for (const a of item.attributes) claim(names, a.storedAs, `the field ${item.name}.${a.name}`, `${item.name}${storedAt(a)}`, type.getFields()[a.name]?.astNode);
    // What a create writes besides the fields: the id and the parent's id beside cased keys, constant attributes.
    const beside = (name: string, use: string, where: string, node: unknown) => {
      if (indexKeys.has(name)) problems.add(where, `${use} is stored under ${name}, a key attribute of the table or an index: name it otherwise`, node as never);
      else claim(names, name, use, where, node);
    };
    if (item.idStoredAs !== null) beside(item.idStoredAs, `the id of ${item.name}`, `${item.name}.id${item.idStoredAs === 'id' ? '' : ` @attribute(name: ${JSON.stringify(item.idStoredAs)})`}`, type.getFields().id?.astNode);
    if (item.parent && item.parentStoredAs !== null) beside(item.parentStoredAs, `the parent's id of ${item.name} (its cased keys cannot give it back)`, `${item.name}.${item.parent.field} @parent`, type.getFields()[item.parent.field]?.astNode);
    for (const c of item.constants) beside(c.attribute, `the constant ${c.attribute} of ${item.name}`, `${item.name} @item(constants)`, type.astNode);
    // A key attribute the type writes from a template in a declared index holds that key, not a field.
    for (const placement of item.indexed) {
      for (const part of [...placement.pk, ...placement.sk]) {
        if (!part.written) continue;
        const field = item.attributes.find((a) => a.storedAs === part.attribute);
        if (field) problems.add(`${item.name}${storedAt(field)}`, `the field ${item.name}.${field.name} is stored under ${part.attribute}, which ${item.name}'s key in the index ${placement.index} fills from a template: name it otherwise`, type.getFields()[field.name]?.astNode);
      }
    }
    for (const r of item.relations) {
      if (r.counter !== null) claim(names, r.counter, `the counter of ${r.path}`, `${r.path} @${r.kind}(counter)`, fieldNode(schema, r));
      if (r.kind === 'edges' && r.sharded) claim(names, r.sharded.count, `the shard count of ${r.path}`, `${r.path} @edges(shards)`, fieldNode(schema, r));
    }
    for (const r of relations.values()) {
      if (r.kind !== 'edges' || r.node !== item.name) continue;
      // One version per copied field, however many relations copy it.
      for (const c of r.copies) claim(names, `${storedName(item, c.field)}Version`, `the version of ${item.name}.${c.field}`, `${r.path} @edges(copy)`, fieldNode(schema, r));
    }
  }
  for (const base of relations.values()) {
    if (base.kind !== 'edges' || base.direction !== 'base') continue;
    const sides = [base, ...[...relations.values()].filter((r): r is EdgesRelation => r.kind === 'edges' && r.direction === 'inverted' && r.node === base.owner && r.inverse === base.field)];
    const names = new Map<string, string>();
    const edgeType = schema.getType(base.edgeType) as GraphQLObjectType;
    for (const a of base.edgeAttributes) claim(names, a.storedAs, `the edge field ${base.edgeType}.${a.name}`, `${base.edgeType}${storedAt(a)}`, edgeType.getFields()[a.name]?.astNode);
    for (const side of sides) {
      for (const c of side.copies) {
        if (!claim(names, c.attribute, `the copy of ${side.node}.${c.field} (${side.path})`, `${side.path} @edges(copy)`, fieldNode(schema, side))) continue;
        claim(names, `${c.attribute}Version`, `the version of the copy ${c.attribute} (${side.path})`, `${side.path} @edges(copy)`, fieldNode(schema, side));
      }
      if (side.sharded?.copy) claim(names, side.sharded.copy, `the shard-count copy of ${side.path}`, `${side.path} @edges(shardsCopy)`, fieldNode(schema, side));
    }
  }
}
