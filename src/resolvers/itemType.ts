/**
 * The resolvers of an item type, derived from its plan: its id, its stored
 * fields, its flags, its @parent field and its connections, with a
 * totalCount from the owner's counter (counted from the collection when a
 * table written by another program lacks it).
 *
 * A record built from an edge's copy knows only its id and the copied
 * fields (`complete: false`); the other fields load the item (complete.ts).
 * Plain values are returned when the record holds them: a promise per field
 * is measurable work on large pages.
 */
import { Kind, responsePathAsArray, type GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import type { ConnectionArgs } from '../connections/args.js';
import { readConnection } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import { filledRange, type FilledReads } from '../connections/filledRange.js';
import { complete, required } from './complete.js';
import { readFilled } from '../dynamo/filledRange.js';
import { selects, shardedConnection } from './shardedConnection.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import type { RelationPlan } from '../plan/relationPlan.js';
import type { ItemRecord } from '../plan/records.js';
import { globalIdOf } from '../plan/globalId.js';
import type { CollectionPlan } from '../plan/collectionPlan.js';
import { collectionResolver } from './collection.js';
import { countRange } from './countRange.js';

/** The filled reads of a narrowed connection: the request's client, its read budget, and its short pages reported at the field's path. */
export const filledReads = (ctx: Context, info: GraphQLResolveInfo | undefined): FilledReads => ({
  filled: (read) => readFilled(ctx.reads, ctx.tableName, read),
  budget: ctx.pageReadBudget,
  short: (consumedReadUnits, evaluatedItems) =>
    ctx.shortPages.push({ path: info ? responsePathAsArray(info.path) : [], reason: 'READ_BUDGET', consumedReadUnits, evaluatedItems }),
});

type Field = (record: ItemRecord, args: never, ctx: Context, info: GraphQLResolveInfo) => unknown;

/** Loads an item of a type by its id alone (a reference's target). */
export type LoadById = (type: string, id: string, ctx: Context) => Promise<ItemRecord | null>;

/** Does the field select nothing but id (and __typename)? Fragments count as more. */
function selectsIdOnly(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every((node) =>
    (node.selectionSet?.selections ?? []).every((s) => s.kind === Kind.FIELD && (s.name.value === 'id' || s.name.value === '__typename')),
  );
}

export function itemTypeResolvers(
  item: ItemPlan,
  relations: readonly RelationPlan[],
  {
    alwaysComplete = false,
    loadReferred = null,
    collections = [],
  }: { alwaysComplete?: boolean; loadReferred?: LoadById | null; collections?: readonly CollectionPlan[] } = {},
): Record<string, Field> {
  const full = (record: ItemRecord, ctx: Context) =>
    complete(record, item.name, (id) => {
      const parentId = record[item.parentIdProperty ?? ''] as string | undefined;
      // An inverted child known by its id alone (a reference to it) is found by its sort key.
      return item.type.inverted && item.type.parent && parentId === undefined
        ? ctx.loaders.bySortKey.load({ spec: item, id })
        : ctx.loaders.entity(item, id, parentId);
    });
  const fields: Record<string, Field> = {};
  if (item.type.globalId !== null) fields[item.type.globalId] = (r) => globalIdOf(item, r);
  // A type whose records are always its items' own (no edge copies, no parent built from a child's key):
  // its id and stored fields are plain property reads, as GraphQL's default resolver makes them, with no
  // call per field. A required attribute missing from a stored item is then GraphQL's own non-null error.
  if (!alwaysComplete) {
    fields.id = (r) => r.id;
    for (const name of item.requiredFields) {
      fields[name] = (r, _, ctx) => r[name] ?? full(r, ctx).then((f) => required(f[name], name));
    }
    for (const name of item.optionalFields) {
      fields[name] = (r, _, ctx) => (r.complete ? (r[name] ?? null) : full(r, ctx).then((f) => f[name] ?? null));
    }
  }
  // References: the stored id, answered as the referred item (loaded on demand by its own type's fields) or, keyless, as just its id.
  for (const a of item.type.attributes) {
    if (!a.reference) continue;
    const name = a.name;
    const type = a.reference.type;
    const load = a.reference.keyless ? null : loadReferred;
    // Beyond its id the referred item is loaded here, so a dangling id reads as null.
    const as = (id: unknown, ctx: Context, info: GraphQLResolveInfo) =>
      typeof id !== 'string' ? null : load === null || selectsIdOnly(info) ? { id, complete: false } : load(type, id, ctx);
    fields[name] = (r, _, ctx, info) => (r.complete || r[name] !== undefined ? as(r[name], ctx, info) : full(r, ctx).then((f) => as(f[name], ctx, info)));
  }
  // Lists of references: the stored ids, each answered as a reference is; an id whose item is missing is left out.
  for (const a of item.type.attributes) {
    if (!a.references) continue;
    const name = a.name;
    const type = a.references.type;
    const load = a.references.keyless ? null : loadReferred;
    const as = (ids: unknown, ctx: Context, info: GraphQLResolveInfo) => {
      if (!Array.isArray(ids)) return a.required ? [] : null;
      const valid = ids.filter((id): id is string => typeof id === 'string');
      if (load === null || selectsIdOnly(info)) return valid.map((id) => ({ id, complete: false }));
      return Promise.all(valid.map((id) => load(type, id, ctx))).then((found) => found.filter((r) => r !== null));
    };
    fields[name] = (r, _, ctx, info) => (r.complete || r[name] !== undefined ? as(r[name], ctx, info) : full(r, ctx).then((f) => as(f[name], ctx, info)));
  }
  for (const name of item.flags) {
    fields[name] = (r, _, ctx) => (r.complete ? (r[name] ?? false) : full(r, ctx).then((f) => f[name] ?? false));
  }
  const parent = item.type.parent;
  if (parent && item.parentIdProperty) {
    // The parent is known from the child's own key; its other fields load on demand.
    const property = item.parentIdProperty;
    fields[parent.field] = (r) => ({ id: r[property], complete: false });
  }
  for (const connection of relations) fields[connection.field] = connectionResolver(connection, full);
  for (const collection of collections) fields[collection.field.field] = collectionResolver(collection, full) as Field;
  return fields;
}

function connectionResolver(connection: RelationPlan, full: (r: ItemRecord, ctx: Context) => Promise<ItemRecord>): Field {
  if (connection.sharded) {
    // Write-sharded connections: partitions from the parent's layout (shardedConnection.ts).
    const owner = connection.owner;
    return (r, args: ConnectionArgs, ctx, info) =>
      shardedConnection(ctx, connection, r, args, (id) => ctx.loaders.entity(owner, id) as Promise<ItemRecord | null>, selects(info, 'totalCount'));
  }
  const counter = connection.counter;
  return (r, args: ConnectionArgs, ctx, info) => {
    // Narrowed (@query beside @children): another index, filled pages, totalCount counted within the budget.
    const narrowed = connection.narrow?.(r.id, args as Record<string, unknown>);
    if (narrowed) {
      return readConnection(filledRange, narrowed, ctx.cursors, filledReads(ctx, info), args, connection.edge, () => countRange(ctx, narrowed));
    }
    const collection = connection.sorted?.(r.id, args as Record<string, unknown>) ?? connection.collection(r.id);
    // A counter counts the whole partition: not a collection whose arguments fix sort attributes or narrow it.
    const whole = collection.sortKey === undefined || (collection.sortKey.fixed.length === 0 && collection.range === undefined);
    return readConnection(singleCollection, collection, ctx.cursors, ctx.loaders, args, connection.edge, async () => {
      const counted = counter === null || !whole ? undefined : (await full(r, ctx))[counter];
      return typeof counted === 'number' ? counted : ctx.loaders.count.load(collection);
    });
  };
}
