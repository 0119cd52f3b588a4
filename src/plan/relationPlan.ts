/**
 * A connection field's plan: the collection it reads for a parent id, how
 * a stored child or edge item becomes a Relay edge, its counter, and the
 * narrowed (@query beside @children) and write-sharded (@edges(shards)) forms it may take.
 *
 * - @children: the parent's partition, `begins_with(<sort key>, <child sort-key prefix>)`.
 * - @edges, base side: the owner's partition, `begins_with(<sort key>, <node pk prefix>)`;
 *   the node's id is read from the edge's sort key.
 * - @edges, inverse side: GSI1, `GSI1 pk = <owner pk>`, `begins_with(GSI1 sk,
 *   <node pk prefix>)`; the node's id is read from the edge's partition key.
 * - @edges with a key of their own (@edges(pk, sk)): the partition pk names for
 *   the owner, `begins_with(<sort key>, <sk's prefix>)`, the node's id read
 *   from sk; an inverse side reads those items through GSI1 or an index over
 *   the table's keys swapped (partition: sk for the owner's id), a mirror its
 *   own items like a base side. Only items whose keys fit the templates are read;
 *   edge fields and an edge id the sort key holds are read back from it.
 * The table's key attributes are the model's (@table: PK/SK by default).
 * Copies on an edge fill the node's record (partial: `complete: false`).
 */
import type { Item } from '../dynamo/batchGet.js';
import { GSI1, type TableKeys } from '../dynamo/keys.js';
import type { Collection } from '../dynamo/collection.js';
import type { ChildrenRelation, EdgeKey, EdgesRelation, ItemType, Layout, Model, Relation } from '../declaration/model.js';
import { keylessItemType } from '../declaration/relations.js';
import { keyIn, numberSort } from '../declaration/indexed.js';
import type { MergedCollection } from './sources.js';
import type { RangeSource } from './sources.js';
import { invariant } from '../errors.js';
import type { ItemPlan } from './itemPlan.js';
import { kindTest, propertyLiteral, type ItemRecord } from './records.js';
import { compileRangePlan, type RangePlan } from './rangePlan.js';
import { boundedSource, sortedCollection } from './bounds.js';
import { compileBeside, type Beside, type ConnectionRange } from './beside.js';
import { prefixInterval, type IndexPartitions } from '../declaration/residents.js';
import { compilePartitionValues } from './partitionValues.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

export interface RelationPlan {
  relation: Relation;
  /** Field on the owner type, e.g. `players`; `Owner.field` is the connection's name. */
  field: string;
  path: string;
  /** The GraphQL connection type, e.g. `TeamPlayerConnection`. */
  typeName: string;
  /** The owner type's plan (for a keyless owner, an entity with no item, the plan of its id alone). */
  owner: ItemPlan;
  node: ItemPlan;
  collection(parentId: string): Collection;
  /** The table's key attributes (the model's): an edge's ends are read from them. */
  keys: TableKeys;
  counter: string | null;
  /** A stored child or edge item → the edge without its cursor (the connection engine adds it). */
  edge(item: Item): { node: ItemRecord; [attribute: string]: unknown };
  /** The owner's and the node's ids of an item of this connection (read from its keys), or null when it is none. */
  member(keys: Item): { parentId: string; childId: string } | null;
  /** @query(from, until), beside @children or alone: the narrowed read for `args`, or null when no narrowing argument is given. Throws BAD_USER_INPUT. */
  narrow: ((parentId: string, args: Record<string, unknown>) => RangeSource | null) | null;
  /** Over an index sort key of several attributes: the collection its arguments fix the leading sort attributes of (and from/until narrow). Throws BAD_USER_INPUT. */
  sorted: ((parentId: string, args: Record<string, unknown>) => Collection) | null;
  range: RangePlan | null;
  /** How an owner entity and the first page are read in one Query (look-ahead), or null where they cannot be. */
  beside: Beside | null;
  /**
   * @edges(shards): non-null exactly for a write-sharded relation, whose pages are
   * merged over the parent's shards; `onePartition` is its read before the
   * parent's shard layout is known (look-ahead starts it with the parent).
   */
  sharded: { onePartition(parentId: string): MergedCollection } | null;
}

/** What an extension adds to a partial node record from the edge item (a copy of the node's shard layout). */
export type EdgeNodeExtension = (node: ItemRecord, edge: Item) => void;

/**
 * An edge item → `{ node, ...edge attributes }`, compiled once per relation
 * as object literals of fixed properties (see itemPlan.ts's compileMap): the
 * node's record (id, `complete: false`, the copied fields, then what the
 * extensions add) and the edge's attributes. How values read: a copy that is
 * not a text is undefined (unknown: the field loads the node); a required
 * edge text missing on a foreign edge reads as '', a required number 0, a required Boolean false, others null; a text
 * that is none of an enum's values reads as null (a required one has no
 * stand-in: null, and the field's error).
 */
function compileEdge(
  relation: EdgesRelation,
  nodeType: ItemType,
  nodeKeyAttr: string,
  nodeKey: { template: EdgeKey['pk']; placeholder: string },
  nodeExtensions: readonly EdgeNodeExtension[],
  held: ReadonlySet<string> = new Set(),
): RelationPlan['edge'] {
  const key = (name: string) => propertyLiteral(name, relation.path);
  const nodeProperties = ['"id": id', '"complete": false'];
  for (const copy of relation.copies) {
    const at = `item[${key(copy.attribute)}]`;
    nodeProperties.push(`${key(copy.field)}: typeof ${at} === "string" ? ${at} : undefined`);
  }
  const enums: ReadonlySet<string>[] = [];
  const edgeProperties = ['"node": record'];
  for (const a of relation.edgeAttributes) {
    if (held.has(a.name)) {
      // Held by the sort key: read back from it (link fixed it there; it is not stored twice).
      edgeProperties.push(`${key(a.name)}: held === null ? null : held[${key(a.name)}]`);
      continue;
    }
    const at = `item[${key(a.storedAs)}]`;
    // Stand-ins for a required value missing on a foreign edge; none for an enum (null, and the field's error).
    const standIn = !a.required || a.values !== undefined ? 'null' : a.kind === 'Int' || a.kind === 'Float' ? '0' : a.kind === 'Boolean' ? 'false' : '""';
    edgeProperties.push(`${key(a.name)}: ${kindTest(a, at, enums)} ? ${at} : ${standIn}`);
  }
  const body = [
    'return function edge(item) {',
    `  const id = nodeKey.valueOf(item[${key(nodeKeyAttr)}], ${JSON.stringify(nodeKey.placeholder)});`,
    `  if (typeof id !== "string") notANode(item);`,
    ...(held.size > 0 ? [`  const held = nodeKey.match(item[${key(nodeKeyAttr)}]);`] : []),
    `  const record = { ${nodeProperties.join(', ')} };`,
    '  for (let i = 0; i < extensions.length; i++) extensions[i](record, item);',
    `  return { ${edgeProperties.join(', ')} };`,
    '};',
  ].join('\n');
  const notANode = (item: Item) =>
    invariant(false, `expected a ${nodeType.name} key in ${nodeKeyAttr}, got ${JSON.stringify(item[nodeKeyAttr])}`);
  const make = new Function('nodeKey', 'notANode', 'enums', 'extensions', body) as (...args: unknown[]) => RelationPlan['edge'];
  return make(nodeKey.template, notANode, enums, nodeExtensions);
}

/** Where a side's edge items are and how it reads them (edgeReadOf). */
export interface EdgeRead {
  /** The edge items' key templates: the base side's (declared, or the owner's and node's PKs), or a mirror's own. */
  key: EdgeKey;
  /** Read from the node's end: the items' sort key names the partition (an inverse side over an index). */
  swapped: boolean;
  /** The index read (null: the table) and its key attributes. */
  index: string | null;
  pkAttr: string;
  skAttr: string;
  /** Declared keys may share a prefix with other items: only those fitting the templates are edges. */
  strict: boolean;
}

/** How the @edges side `relation` reads its edge items. */
export function edgeReadOf(relation: EdgesRelation, model: Pick<Model, 'items' | 'relations'>, keys: TableKeys): EdgeRead {
  const typeOf = (name: string) => model.items.get(name) ?? keylessItemType(name);
  const keyOf = (r: EdgesRelation): EdgeKey => r.key ?? { pk: typeOf(r.owner).pk, sk: typeOf(r.node).pk, node: 'id', fields: [], ownId: false };
  if (relation.direction === 'base' || relation.key !== null) {
    return { key: keyOf(relation), swapped: false, index: null, pkAttr: keys.pk, skAttr: keys.sk, strict: relation.key !== null };
  }
  const base = model.relations.get(`${relation.node}.${relation.inverse}`);
  invariant(base?.kind === 'edges', `${relation.path} has no base side`);
  return relation.index === null
    ? { key: keyOf(base), swapped: true, index: GSI1, pkAttr: GSI1_PK, skAttr: GSI1_SK, strict: base.key !== null }
    : { key: keyOf(base), swapped: true, index: relation.index, pkAttr: keys.sk, skAttr: keys.pk, strict: true };
}

/** What a relation's plan is compiled from beside the relation: its ends' plans, the node's type, the table's layout. */
export interface RelationPlanInput {
  owner: ItemPlan;
  node: ItemPlan;
  nodeType: ItemType;
  layout: Layout;
  keys: TableKeys;
  nodeExtensions?: readonly EdgeNodeExtension[];
  /** Where an @edges side's items are (edgeReadOf); null for @children. */
  edgeRead?: EdgeRead | null;
  /** What each partition holds (declaration/residents.ts): with it, where an owner entity sorts beside the page; absent for a keyless owner. */
  partitions?: ReadonlyMap<string | null, IndexPartitions>;
}

/** How a connection reads its partition for one owner, what each item there is to it, and where its owner's entity sorts. */
interface ConnectionReads {
  collection: (parentId: string) => Collection;
  edge: RelationPlan['edge'];
  member: RelationPlan['member'];
  sorted: RelationPlan['sorted'];
  /** A bounded read whose partition the arguments name (else the plan's own). */
  filledNarrow: RelationPlan['narrow'];
  reads: ConnectionRange | null;
  /** How from/until are written into the node's sort key (cased keys: in their case). */
  skCased: (text: string) => string;
}

function childrenReads(relation: ChildrenRelation, { owner, node, nodeType, layout, keys }: RelationPlanInput): ConnectionReads {
  const name = relation.path;
  let collection: (parentId: string) => Collection;
  let sorted: RelationPlan['sorted'] = null;
  let filledNarrow: RelationPlan['narrow'] = null;
  let reads: ConnectionRange | null = null;
  // The partition the child's key names for the parent, in the table or the declared index.
  const key = keyIn(nodeType, relation.index, layout);
  invariant(key, `${name} reads no partition of ${nodeType.name}`);
  const { values, byArguments } = compilePartitionValues(relation, owner, nodeType);
  const { index, pkAttr, skAttr } = key;
  const prefix = key.sk.prefix;
  const table = keys.names;
  // Another program's item under the prefix whose keys are not the node type's is read past, not mapped.
  const accepts = (item: Item) => node.ids(item) !== null;
  // A sort attribute holding numbers itself is read in number order (collection.ts `Collection.numbers`).
  const order = { ...(relation.descending ? { descending: true } : {}), ...(numberSort(nodeType, key) ? { numbers: [skAttr] } : {}) };
  const where = index === null ? {} : { index };
  const partition = (parentId: string, args?: Record<string, unknown>): Collection => {
    const v = values(parentId, args);
    const pkMore = key.pkMore.length === 0 ? {} : { pkMore: key.pkMore.map((p) => ({ attr: p.attribute, value: p.template.fill(v) })) };
    return { name, ...where, pkAttr, skAttr, pk: key.pk.fill(v), ...pkMore, prefix, table, accepts, ...order };
  };
  const { sortArguments, bounds } = relation;
  // On an index whose sort key may repeat (no {id}), a bounded position is a whole start key: read as a collection.
  const repeats = bounds !== null && index !== null && key.skMore.length === 0 && !key.sk.placeholders.includes('id');
  if (key.skMore.length > 0 || repeats) {
    sorted = (parentId, args) => sortedCollection(partition(parentId, args), key, sortArguments, bounds, args);
    collection = (parentId) => sortedCollection(partition(parentId), key, {}, null, {});
  } else collection = partition;
  if (byArguments) {
    // Arguments name the partition: every read goes through them.
    sorted ??= (parentId, args) => partition(parentId, args);
    if (bounds && !repeats) filledNarrow = (parentId, args) => boundedSource(partition(parentId, args), bounds, args, key.sk.cased);
  }
  // Beside the owner's entity only where the owner's own values name the partition (never arguments).
  if (!byArguments && key.pkMore.length === 0 && key.skMore.length === 0 && !numberSort(nodeType, key)) reads = { index, pk: key.pk, range: prefixInterval(prefix) };
  const edge: RelationPlan['edge'] = (item) => ({ node: node.map(item) });
  // A member of its parent's connection only: the node's parent is the owner (not a @query over a reference or key values).
  const ofParent = nodeType.parent !== null && relation.via === nodeType.parent.field && relation.owner === nodeType.parent.type;
  const member: RelationPlan['member'] = (item) => {
    const ids = ofParent ? node.ids(item) : null;
    return ids?.parentId ? { parentId: ids.parentId, childId: ids.id } : null;
  };
  return { collection, edge, member, sorted, filledNarrow, reads, skCased: key.sk.cased };
}

function edgesReads(relation: EdgesRelation, { nodeType, keys, nodeExtensions = [], edgeRead = null }: RelationPlanInput): ConnectionReads {
  const name = relation.path;
  invariant(edgeRead, `${name} is compiled without its edge read`);
  const { key, swapped, index, pkAttr, skAttr } = edgeRead;
  // The owner's id names the partition (pk's {id}, or, read from the node's end, sk's node placeholder); the node's id is in the other key.
  const [ownerT, ownerPh, ownerAttr] = swapped ? [key.sk, key.node, keys.sk] : [key.pk, 'id', keys.pk];
  const [nodeT, nodePh, nodeAttr] = swapped ? [key.pk, 'id', keys.pk] : [key.sk, key.node, keys.sk];
  const prefix = nodeT.prefix;
  const table = keys.names;
  const fits = (item: Item) => typeof nodeT.valueOf(item[nodeAttr], nodePh) === 'string' && typeof ownerT.valueOf(item[ownerAttr], ownerPh) === 'string';
  const where = { ...(index === null ? {} : { index }), ...(relation.descending ? { descending: true } : {}) };
  const collection: (parentId: string) => Collection = edgeRead.strict
    ? (parentId) => ({ name, ...where, pkAttr, skAttr, pk: ownerT.fill({ [ownerPh]: parentId }), prefix, table, accepts: fits })
    : (parentId) => ({ name, ...where, pkAttr, skAttr, pk: ownerT.fill({ [ownerPh]: parentId }), prefix, table });
  const reads: ConnectionRange | null = relation.sharded ? null : { index, pk: ownerT, range: prefixInterval(prefix) };
  const held = new Set(swapped ? [] : [...key.fields, ...(key.ownId ? ['id'] : [])]);
  const edge = compileEdge(relation, nodeType, nodeAttr, { template: nodeT, placeholder: nodePh }, nodeExtensions, held);
  const member: RelationPlan['member'] = (item) => {
    const parentId = ownerT.valueOf(item[ownerAttr], ownerPh);
    const childId = nodeT.valueOf(item[nodeAttr], nodePh);
    return typeof parentId === 'string' && typeof childId === 'string' ? { parentId, childId } : null;
  };
  return { collection, edge, member, sorted: null, filledNarrow: null, reads, skCased: (text) => text };
}

export function compileRelationPlan(relation: Relation, input: RelationPlanInput): RelationPlan {
  const { owner, node, nodeType, layout, keys, partitions } = input;
  const ownerPk = owner.type.pk;
  const name = relation.path;
  const { collection, edge, member, sorted, filledNarrow, reads, skCased } = relation.kind === 'children' ? childrenReads(relation, input) : edgesReads(relation, input);
  const range = relation.kind === 'children' ? compileRangePlan(relation, nodeType) : null;
  const bounds = relation.bounds;
  const sharded = relation.kind === 'edges' && relation.sharded !== null;
  return {
    relation,
    field: relation.field,
    path: name,
    typeName: relation.connectionType,
    owner,
    node,
    keys,
    collection,
    counter: relation.counter,
    edge,
    member,
    range,
    narrow: range
      ? (parentId, args) => {
          const filter = range.filter(args);
          return filter === null ? null : range.source(parentId, ownerPk.fill({ id: parentId }), filter);
        }
      : (filledNarrow ??
        (bounds && !sorted
          ? (parentId, args) => boundedSource(collection(parentId), bounds, args, skCased)
          : null)),
    sorted,
    beside: reads && partitions ? compileBeside(owner.type, reads, partitions, layout) : null,
    sharded: sharded ? { onePartition: (parentId) => ({ name, group: ownerPk.fill({ id: parentId }), shards: [collection(parentId)] }) } : null,
  };
}
