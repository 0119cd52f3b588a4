/**
 * The model as subscriptions see it: a narrow port, so that nothing here
 * depends on how the model is declared. `modelFromPlan` builds it from the
 * compiled model (src/plan/).
 *
 * In: stored keys and items (as the table's stream carries them).
 * Out: which object an item is, which connections it is a member of, and
 * the records resolvers expect for it.
 *
 * Invariant: `itemOf` and `membershipsOf` read the keys alone, so a removal
 * (whose stream record has no new image) finds the same topics as the
 * write that created the item.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { TableKeys } from '../dynamo/keys.js';
import { cursorOf } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import { mergedShards } from '../connections/mergedShards.js';
import type { CursorCodec } from '../connections/cursorSigning.js';
import type { Plan } from '../plan/plan.js';

/** An object: its GraphQL type and its id. */
export interface ItemRef {
  type: string;
  id: string;
}

/** A stored item's place in a parent's connection (`Type.field`). */
export interface Membership {
  connection: string;
  parentId: string;
  childId: string;
}

export interface ChangeModel {
  /** The table's key attributes: a record's keys are read from them. */
  keys: TableKeys;
  /** The object whose own item this is, or null (an edge, a child, bookkeeping). */
  itemOf(keys: Item): ItemRef | null;
  /** The connections the item is a member of: a child in its parent's, an edge in both sides'. */
  membershipsOf(keys: Item): Membership[];
  /** The record resolvers expect for the object `type`, from its stored item. */
  record(type: string, item: Item): object;
  /** The edge record of a member item, with a cursor that pages on from it. */
  edge(connection: string, parentId: string, item: Item, cursors: CursorCodec): { node: unknown };
  /** The root Query field that reads one object of `type` (its rule is the subscription's). */
  rootField(type: string): string | null;
  /** Whether `Type.field` is a connection the model keeps. */
  hasConnection(connection: string): boolean;
}

/**
 * The change model of a compiled model (src/plan/): an item is an object's
 * own item when a top-level item type's key templates read its keys; a child is a
 * member of its parent's @children connection; an edge is a member of both
 * directions' @edges connections (the inverse side's parent is the node of
 * the base side: its id is in the edge's sort key, the child's in its partition key).
 */
export function modelFromPlan(plan: Plan): ChangeModel {
  // An object's own item: top-level types (a child is a member of its parent's connection instead).
  const items = [...plan.items.values()].filter((item) => item.type.parent === null);
  const relations = [...plan.relations.values()];
  const itemOf = (keys: Item): ItemRef | null => {
    for (const item of items) {
      const ids = item.ids(keys);
      if (ids) return { type: item.name, id: ids.id };
    }
    return null;
  };
  const membershipsOf = (keys: Item): Membership[] => {
    const out: Membership[] = [];
    for (const r of relations) {
      const ids = r.member(keys);
      if (ids) out.push({ connection: r.path, ...ids });
    }
    return out;
  };
  return {
    keys: plan.keys,
    itemOf,
    membershipsOf,
    record: (type, item) => plan.item(type).map(item),
    edge(connection, parentId, item, cursors) {
      const r = plan.relation(connection);
      const edge = r.edge(item);
      const merged = r.sharded?.onePartition(parentId);
      const collection = r.collection(parentId);
      const cursor = merged ? cursorOf(mergedShards, merged, cursors, item) : cursorOf(singleCollection, collection, cursors, item);
      return { ...edge, cursor };
    },
    rootField: (type) => plan.gets.find((g) => g.type === type && !g.keyless)?.field ?? null,
    hasConnection: (connection) => plan.relations.has(connection),
  };
}
