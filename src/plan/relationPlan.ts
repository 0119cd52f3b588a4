/**
 * A connection field's plan: the collection it reads for a parent id, how
 * a stored child or edge item becomes a Relay edge, its counter, and the
 * narrowed (@range) and write-sharded (@sharded) forms it may take.
 *
 * - @children: the parent's partition, `begins_with(SK, <child SK prefix>)`.
 * - @edges, base side: the owner's partition, `begins_with(SK, <node PK prefix>)`;
 *   the node's id is read from the edge's SK.
 * - @edges, inverse side: GSI1, `GSI1PK = <owner PK>`, `begins_with(GSI1SK,
 *   <node PK prefix>)`; the node's id is read from the edge's PK.
 * Copies on an edge fill the node's record (partial: `complete: false`).
 */
import type { Item } from '../dynamo/batchGet.js';
import { GSI1 } from '../dynamo/keys.js';
import type { Collection } from '../dynamo/collection.js';
import type { Attribute, ItemType, Relation } from '../declaration/model.js';
import type { MergedCollection } from './sources.js';
import type { RangeSource } from './sources.js';
import { invariant } from '../errors.js';
import type { ItemPlan } from './itemPlan.js';
import type { ItemRecord } from './records.js';
import { compileRangePlan, type RangePlan } from './rangePlan.js';

export interface RelationPlan {
  relation: Relation;
  /** Field on the owner type, e.g. `courses`; `Owner.field` is the connection's name. */
  field: string;
  path: string;
  /** The GraphQL connection type, e.g. `StudentCourseConnection`. */
  typeName: string;
  owner: ItemPlan;
  node: ItemPlan;
  collection(parentId: string): Collection;
  counter: string | null;
  /** A stored child or edge item → the edge without its cursor (the connection engine adds it). */
  edge(item: Item): { node: ItemRecord; [attribute: string]: unknown };
  /** @range: the narrowed read for `args`, or null when no narrowing argument is given. Throws BAD_USER_INPUT. */
  narrow: ((parentId: string, args: Record<string, unknown>) => RangeSource | null) | null;
  range: RangePlan | null;
  /** @sharded: the connection read as a merged page; this is its unsharded form (look-ahead starts it before the layout is known). */
  unsharded: ((parentId: string) => MergedCollection) | null;
}

/** What an extension adds to a partial node record from the edge item (a copy of the node's shard layout). */
export type EdgeNodeExtension = (node: ItemRecord, edge: Item) => void;

function attributeReader(a: Attribute): (item: Item) => unknown {
  // A required edge text missing on a foreign edge reads as '' (as the first-round layout did).
  if (a.kind === 'Int' || a.kind === 'Float') return (item) => (typeof item[a.name] === 'number' ? item[a.name] : a.required ? 0 : null);
  if (a.kind === 'Boolean') return (item) => (typeof item[a.name] === 'boolean' ? item[a.name] : a.required ? false : null);
  if (a.values !== undefined) {
    // A text that is none of the enum's values reads as absent (a required one has no stand-in: null, and the field's error).
    const values = new Set(a.values);
    return (item) => (typeof item[a.name] === 'string' && values.has(item[a.name] as string) ? item[a.name] : null);
  }
  return (item) => (typeof item[a.name] === 'string' ? item[a.name] : a.required ? '' : null);
}

export function compileRelationPlan(
  relation: Relation,
  owner: ItemPlan,
  node: ItemPlan,
  nodeType: ItemType,
  nodeExtensions: readonly EdgeNodeExtension[] = [],
): RelationPlan {
  const ownerPk = owner.type.pk;
  const name = relation.path;
  let collection: (parentId: string) => Collection;
  let edge: RelationPlan['edge'];
  if (relation.kind === 'children') {
    const prefix = nodeType.sk.prefix;
    collection = (parentId) => ({ name, pkAttr: 'PK', skAttr: 'SK', pk: ownerPk.fill({ id: parentId }), prefix });
    edge = (item) => ({ node: node.map(item) });
  } else {
    const prefix = nodeType.pk.prefix;
    const inverted = relation.direction === 'inverted';
    collection = inverted
      ? (parentId) => ({ name, index: GSI1, pkAttr: 'GSI1PK', skAttr: 'GSI1SK', pk: ownerPk.fill({ id: parentId }), prefix })
      : (parentId) => ({ name, pkAttr: 'PK', skAttr: 'SK', pk: ownerPk.fill({ id: parentId }), prefix });
    // The node's PK is the edge's SK (base side) or its PK (inverse side: GSI1SK = PK).
    const nodeKeyAttr = inverted ? 'PK' : 'SK';
    const attributes = relation.edgeAttributes.map((a) => ({ name: a.name, read: attributeReader(a) }));
    const copies = relation.copies;
    edge = (item) => {
      const ids = nodeType.pk.match(item[nodeKeyAttr]);
      invariant(ids?.id !== undefined, `expected a ${nodeType.name} key in ${nodeKeyAttr}, got ${JSON.stringify(item[nodeKeyAttr])}`);
      const record: ItemRecord = { id: ids.id, complete: false };
      for (const copy of copies) record[copy.field] = typeof item[copy.attribute] === 'string' ? item[copy.attribute] : undefined;
      for (const extend of nodeExtensions) extend(record, item);
      const out: { node: ItemRecord; [attribute: string]: unknown } = { node: record };
      for (const a of attributes) out[a.name] = a.read(item);
      return out;
    };
  }
  const range = relation.kind === 'children' ? compileRangePlan(relation, nodeType) : null;
  const sharded = relation.kind === 'edges' && relation.sharded !== null;
  return {
    relation,
    field: relation.field,
    path: name,
    typeName: relation.connectionType,
    owner,
    node,
    collection,
    counter: relation.counter,
    edge,
    range,
    narrow: range
      ? (parentId, args) => {
          const filter = range.filter(args);
          return filter === null ? null : range.source(parentId, ownerPk.fill({ id: parentId }), filter);
        }
      : null,
    unsharded: sharded ? (parentId) => ({ name, group: ownerPk.fill({ id: parentId }), shards: [collection(parentId)] }) : null,
  };
}
