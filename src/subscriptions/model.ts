/**
 * The model as subscriptions see it: a narrow port, so that nothing here
 * depends on how the model is declared. `modelFromEntities` builds it from
 * the declared entities (src/model/entities.ts); a model engine gives its
 * own.
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
import { idFrom } from '../dynamo/keys.js';
import { startKeyOf } from '../dynamo/collection.js';
import { encodeCursor } from '../connections/connection.js';
import { encodeMergedCursor, positionOf } from '../connections/mergedPage.js';
import type { CursorCodec } from '../connections/cursorSigning.js';
import { entities as declaredEntities, type Entity } from '../model/entities.js';

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

export function modelFromEntities(entities: readonly Entity[] = declaredEntities): ChangeModel {
  const byType = new Map(entities.map((e) => [e.typeName as string, e]));
  const byConnection = new Map(entities.map((e) => [`${e.typeName}.${e.connection.field}`, e]));

  const itemOf = (keys: Item): ItemRef | null => {
    for (const e of entities) {
      const id = idFrom(e.kind, keys.PK);
      if (id !== null && keys.SK === e.key(id).SK) return { type: e.typeName, id };
    }
    return null;
  };

  const membershipsOf = (keys: Item): Membership[] => {
    const out: Membership[] = [];
    for (const e of entities) {
      const connection = `${e.typeName}.${e.connection.field}`;
      if (e.edgeOther) {
        // A many-to-many edge: the other side's key in `keyAttr`, this side's in the other key attribute.
        const other = e.edgeOther.entity();
        const own = e.edgeOther.keyAttr === 'PK' ? 'SK' : 'PK';
        const parentId = idFrom(e.kind, keys[own]);
        const childId = idFrom(other.kind, keys[e.edgeOther.keyAttr]);
        if (parentId !== null && childId !== null) out.push({ connection, parentId, childId });
        continue;
      }
      // A child in the parent's item collection.
      const parentId = idFrom(e.kind, keys.PK);
      if (parentId === null) continue;
      const { prefix, pkAttr } = e.connection.collection(parentId);
      const sk = keys.SK;
      if (pkAttr !== 'PK' || typeof sk !== 'string' || !prefix || !sk.startsWith(prefix)) continue;
      const childId = sk.slice(prefix.length);
      if (childId.length > 0 && !childId.includes('#')) out.push({ connection, parentId, childId });
    }
    return out;
  };

  return {
    itemOf,
    membershipsOf,
    record(type, item) {
      const e = byType.get(type);
      if (!e) throw new Error(`Invariant violation: no entity for type ${type}`);
      return e.map(item);
    },
    edge(connection, parentId, item, cursors) {
      const e = byConnection.get(connection);
      if (!e) throw new Error(`Invariant violation: no connection ${connection}`);
      const edge = e.connection.edge(item) as { node: unknown };
      const merged = e.connection.unsharded?.(parentId);
      const collection = e.connection.collection(parentId);
      const cursor = merged
        ? encodeMergedCursor(cursors, merged, positionOf(merged, item))
        : encodeCursor(cursors, collection, startKeyOf(collection, item));
      return { ...edge, cursor };
    },
    rootField: (type) => byType.get(type)?.rootField ?? null,
    hasConnection: (connection) => byConnection.has(connection),
  };
}
