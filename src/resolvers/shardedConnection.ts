/**
 * A write-sharded connection and its totalCount on any layout: the parent's
 * GSI1 partitions (one unsharded, N sharded, both layouts' while a reshard
 * moves edges) merged into one Relay page (connections/mergedShards.ts).
 * docs/sharding.md, "Reads", has the requests each case sends.
 *
 * - Arguments and cursors are checked before any request (cursors bind the
 *   parent, not its shard count).
 * - The layout comes from the parent item, or from the copy on the edge the
 *   parent was reached through (true for the length of a request); without
 *   either the item is loaded while the unsharded page is read beside it,
 *   so an unsharded parent costs no extra wave.
 * - While edges move, a page is served only when the parent's
 *   `reshardMoves` was the same even number before and after it.
 */
import { TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Item } from '../dynamo/batchGet.js';
import { existsBeyond, readRange, type Collection } from '../dynamo/collection.js';
import type { ItemKey } from '../dynamo/keys.js';
import { unavailable } from '../errors.js';
import type { Context } from '../context.js';
import type { ConnectionArgs } from '../connections/args.js';
import { connectionOf, planPage, type Page } from '../connections/engine.js';
import { mergedShards } from '../connections/mergedShards.js';
import type { CollectionReads } from '../connections/singleCollection.js';
import { isMoving, UNSHARDED, type ShardLayout, type Sharding } from '../plan/sharding.js';
import type { RelationPlan } from '../plan/relationPlan.js';
import type { ConnectionRecord, EdgeRecord, ItemRecord } from '../plan/records.js';
import { backoff } from '../dynamo/backoff.js';

/** Attempts at a page while edges move, before UNAVAILABLE. */
const MOVING_ATTEMPTS = 6;

/** Uncached reads: a retried page must read again (otherwise the loaders' cached, deduplicated reads serve). */
const directReads = (ctx: Context): CollectionReads => ({
  range: { load: (read) => readRange(ctx.reads, ctx.tableName, read) },
  exists: { load: (q) => existsBeyond(ctx.reads, ctx.tableName, q.collection, q.key, q.atOrAfter) },
});

async function parentItemConsistent(ctx: Context, s: Sharding, parentId: string): Promise<Item | null> {
  const out = await ctx.reads.get({ TableName: ctx.tableName, Key: ctx.plan.keys.key(s.parentKey(parentId)), ConsistentRead: true });
  return out.Item ?? null;
}

const settle = async (f: boolean | (() => Promise<boolean>)) => (typeof f === 'function' ? f() : f);

/** A page while a reshard runs, read in a window without moves; its flags resolved inside the window. */
async function readWhileMoving(ctx: Context, s: Sharding, parentId: string, args: ConnectionArgs) {
  for (let attempt = 1; attempt <= MOVING_ATTEMPTS; attempt++) {
    if (attempt > 1) await backoff(50, attempt - 1);
    const before = s.layoutOf(await parentItemConsistent(ctx, s, parentId));
    const plan = planPage(mergedShards, s.merged(parentId, before), ctx.cursors, args);
    if (!isMoving(before)) return { plan, page: await mergedShards.read(plan, ctx.loaders), layout: before };
    if (before.moves % 2 === 1) continue;
    const read = await mergedShards.read(plan, directReads(ctx));
    const page: Page = { ...read, hasNextPage: await settle(read.hasNextPage), hasPreviousPage: await settle(read.hasPreviousPage) };
    const after = s.layoutOf(await parentItemConsistent(ctx, s, parentId));
    if (after.moves === before.moves && after.reshardFrom === before.reshardFrom && after.shards === before.shards) {
      return { plan, page, layout: before };
    }
  }
  throw unavailable(`${s.relation.owner.name} ${parentId} is being resharded; try again shortly`);
}

/** The collection behind one counter item (for counting its edges when the counter is absent). */
function partitionOfCounter(s: Sharding, parentId: string, key: ItemKey): Collection {
  const k = s.shardIndex(parentId, key.PK);
  return s.partitionCollection(parentId, k === null ? s.parentPk(parentId) : key.PK);
}

/** Sum of the parent's counters; a counter that is absent (not maintained) is replaced by a count of its partition. */
async function countEdges(
  ctx: Context,
  s: Sharding,
  parent: ItemRecord,
  layout: ShardLayout,
  loadParent: (id: string) => Promise<ItemRecord | null>,
): Promise<number> {
  const counter = s.counter;
  const unshardedCollection = s.relation.collection(parent.id);
  const keys = s.counters(parent.id, layout);
  let items: (Item | null)[];
  if (layout.shards === 1 && !isMoving(layout) && !parent.complete) {
    // The layout came from an edge's copy: the count is on the parent item.
    const loaded = await loadParent(parent.id);
    const value = counter === null ? undefined : loaded?.[counter];
    if (typeof value === 'number') return value;
    return ctx.loaders.count.load(unshardedCollection);
  }
  if (isMoving(layout)) {
    const out = await ctx.doc.send(
      new TransactGetCommand({ TransactItems: keys.map((k) => ({ Get: { TableName: ctx.tableName, Key: ctx.plan.keys.key(k) } })) }),
    );
    items = (out.Responses ?? []).map((r) => r.Item ?? null);
  } else if (layout.shards === 1) {
    const value = counter === null ? undefined : parent[counter];
    if (typeof value === 'number') return value;
    return ctx.loaders.count.load(unshardedCollection);
  } else {
    items = await Promise.all(keys.map((k) => ctx.loaders.item.load(k)));
  }
  const counts = await Promise.all(
    keys.map((key, i) => {
      const value = counter === null ? undefined : items[i]?.[counter];
      return typeof value === 'number' ? value : ctx.loaders.count.load(partitionOfCounter(s, parent.id, key));
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The connection `relation` (a write-sharded side) of the parent `record`. */
export async function shardedConnection(
  ctx: Context,
  relation: RelationPlan,
  record: ItemRecord,
  args: ConnectionArgs,
  loadParent: (id: string) => Promise<ItemRecord | null>,
  wantsCount = false,
): Promise<ConnectionRecord> {
  const s = ctx.plan.sharding(relation);
  // Checks arguments and cursors before any request (throws BAD_USER_INPUT).
  const unshardedPlan = planPage(mergedShards, s.merged(record.id, UNSHARDED), ctx.cursors, args);
  let parent = record;
  if (!record.layout) {
    // Speculative: the unsharded page, next to the item read that tells the layout.
    // Both awaited together: connections of one tick then continue together, and their nodes batch into one read.
    // (Not in naive mode: without the loader's cache the speculative read would be sent twice.)
    const speculative = ctx.loaders.naive ? null : ctx.loaders.range.load(unshardedPlan.reads[0]).catch(() => null);
    const [loaded] = await Promise.all([loadParent(record.id), speculative]);
    if (!loaded) throw new Error(`${relation.owner.name} ${record.id} is referenced by an edge but its item does not exist`);
    parent = loaded;
  }
  const layout = (parent.layout as ShardLayout | undefined) ?? UNSHARDED;
  // A sharded count is items of its own: read them next to the page when the count is selected.
  let counting: Promise<number> | undefined;
  const count = () => (counting ??= countEdges(ctx, s, parent, layout, loadParent));
  if (wantsCount && layout.shards > 1 && !isMoving(layout)) count().catch(() => {});
  const { plan, page, layout: read } = isMoving(layout)
    ? await readWhileMoving(ctx, s, parent.id, args)
    : await (async () => {
        const p = layout.shards === 1 ? unshardedPlan : planPage(mergedShards, s.merged(parent.id, layout), ctx.cursors, args);
        return { plan: p, page: await mergedShards.read(p, ctx.loaders), layout };
      })();
  const total = read === layout ? count : () => countEdges(ctx, s, parent, read, loadParent);
  return connectionOf(mergedShards, plan, ctx.cursors, page, relation.edge as (item: Item) => Omit<EdgeRecord, 'cursor'>, total) as ConnectionRecord;
}

/** Does the field's selection (fragments included) ask for `name` directly under it? */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return inSet(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return inSet(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}
