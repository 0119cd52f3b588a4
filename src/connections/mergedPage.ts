/**
 * Exact Relay pages over several key-ordered partitions of one index, read
 * concurrently and merged: a write-sharded collection (Course.students over
 * `COURSE#<cid>#0…N-1` on GSI1) reads like an unsharded one.
 *
 * Terminology
 * - shard: one Collection (collection.ts): a partition value + sort-key
 *   prefix on an index. All shards of a merged collection share the index,
 *   the key attributes and the prefix; they differ in the partition value.
 * - group: what a merged collection is, independent of how many shards it
 *   has today (`COURSE#<cid>`). Cursors are bound to the connection name, the
 *   group and the index, never to a shard count.
 * - position: where an item sits in the merged order: its index sort key,
 *   then its table key (`{ GSI1SK, PK, SK }`). The merged order is that
 *   order; every shard is a Query in the same order, so the merged order
 *   restricted to one shard is the shard's own order.
 *
 * How a page is read (one wave of at most N Queries)
 * - Every shard is read in the page's direction from the same position,
 *   `size + 1` items at most. The merged page is the first `size + 1` of the
 *   union: a shard can contribute at most `size + 1` of them, so reading
 *   more from any shard could not change the page. The `size + 1`-th item
 *   alone decides hasNextPage (forward) / hasPreviousPage (backward), as on
 *   one partition.
 * - The other side (hasPreviousPage after `after`, hasNextPage before
 *   `before`) is "does any shard hold an item at or beyond the cursor": one
 *   Limit-1 Query per shard, in one wave, issued only when that field is
 *   selected.
 *
 * Why a cursor holds one merged position rather than every shard's
 * LastEvaluatedKey: the items after position P in the merged order are, in
 * each shard, exactly that shard's items after P, so each shard's
 * ExclusiveStartKey is derived from P (P's keys with the shard's partition
 * value; DynamoDB accepts a start key no item has). That keeps cursors one
 * key long whatever N is (64 start keys would not fit a cursor), makes every
 * edge's cursor a valid position by itself (Relay needs that, and an edge
 * does not know where the other shards stood), and lets a cursor outlive a
 * change in the number of shards (resharding) since positions do not name
 * shards.
 *
 * Invariant assumed of the data: index sort-key values are unique within a
 * group (Course.students: one edge per student per course; an index that
 * puts the id in its sort key). Ties would still merge deterministically by
 * table key, but the "at or beyond" checks compare sort keys only.
 * The same item seen in two shards (an edge moved between shards while the
 * wave was in flight) is kept once.
 *
 * API (any index; Course.students is resolvers/courseStudents.ts)
 * - `MergedCollection { name, group, shards: Collection[] }`: what to read.
 * - `readMergedConnection(ctx.cursors, reader, merged, args, toEdge, countAll)`:
 *   plan, read, shape, in one call; `reader` is `{ range, exists }`, the
 *   request's loaders (`ctx.loaders.range.load`, `ctx.loaders.exists.load`)
 *   or anything with collection.ts's `readRange`/`existsBeyond` semantics.
 * - or in steps: `planMergedPage` (validates; BAD_USER_INPUT before any
 *   request; `reads` are deterministic, so look-ahead can start them),
 *   `readMergedPage`, `mergedConnection`.
 * - `encodeMergedCursor` / `decodeMergedCursor`, `positionOf`,
 *   `comparePositions`, `compareKeyStrings` (DynamoDB's byte order).
 */
import type { Item } from '../dynamo/batchGet.js';
import { keyAttributes, type Collection, type RangeRead, type StartKey } from '../dynamo/collection.js';
import type { ConnectionRecord } from '../plan/records.js';
import type { MergedCollection } from '../plan/sources.js';
import { badUserInput, invariant } from '../errors.js';
import type { CursorCodec } from './cursorSigning.js';
import { readCursorPayload, type CursorReader } from './connection.js';
import { validateConnectionArgs, type ConnectionArgs } from './args.js';
import { lazyCursorEdges, lazyPageInfo } from './lazyCursors.js';

export type { MergedCollection } from '../plan/sources.js';

/** N partitions of one index read as one connection. */
/** An item's place in the merged order: index sort key, then table key. */
export type Position = Record<string, string>;

/** The Query-shaped reads a merged page needs; the gateway passes its loaders, tests pass fakes. */
export interface ShardReader {
  /** `readRange` (collection.ts): up to `limit` items in read direction. */
  range(read: RangeRead): Promise<Item[]>;
  /** `existsBeyond` (collection.ts): any item at `key`'s sort key or beyond. */
  exists(query: { collection: Collection; key: StartKey; atOrAfter: boolean }): Promise<boolean>;
}

export interface MergedPagePlan {
  merged: MergedCollection;
  /** One read per shard, `size + 1` items, from the derived start/bound. */
  reads: RangeRead[];
  after: Position | null;
  before: Position | null;
  forward: boolean;
  size: number;
}

export interface MergedPage {
  /** The page in ascending merged order. */
  items: Item[];
  hasNextPage: boolean | (() => Promise<boolean>);
  hasPreviousPage: boolean | (() => Promise<boolean>);
}

const CURSOR_VERSION = 2;

function describe(merged: MergedCollection) {
  const [first] = merged.shards;
  invariant(first !== undefined, `${merged.name} has no shards`);
  for (const shard of merged.shards) {
    invariant(
      shard.index === first.index && shard.skAttr === first.skAttr && shard.prefix === first.prefix,
      `${merged.name}: shards must share index, sort key and prefix`,
    );
  }
  return { index: first.index ?? 'table', skAttr: first.skAttr, prefix: first.prefix };
}

/** The attributes of a position, in comparison order. */
const positionAttributes = (merged: MergedCollection): string[] => {
  const { skAttr } = describe(merged);
  return skAttr === 'SK' ? ['SK', 'PK'] : [skAttr, 'PK', 'SK'];
};

export function positionOf(merged: MergedCollection, item: Item): Position {
  const position: Position = {};
  for (const attr of positionAttributes(merged)) position[attr] = String(item[attr]);
  return position;
}

/**
 * DynamoDB's string order: UTF-8 bytes, which is code point order. JavaScript's
 * `<` compares UTF-16 code units, which differs once characters above U+FFFF
 * meet characters in U+E000–U+FFFF.
 */
export function compareKeyStrings(x: string, y: string): number {
  if (x === y) return 0;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const a = x.charCodeAt(i);
    const b = y.charCodeAt(i);
    if (a === b) continue;
    // Only surrogates (U+D800–U+DFFF) are out of code point order among code units.
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(a) || surrogate(b)) return (x.codePointAt(i) ?? 0) < (y.codePointAt(i) ?? 0) ? -1 : 1;
    return a < b ? -1 : 1;
  }
  return x.length - y.length;
}

/** Orders two items (or positions) of one merged collection: negative when `a` comes first. */
export function comparePositions(merged: MergedCollection, a: Record<string, unknown>, b: Record<string, unknown>): number {
  for (const attr of positionAttributes(merged)) {
    const order = compareKeyStrings(String(a[attr]), String(b[attr]));
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * A shard's start key (or bound) for a position: the position's keys in that
 * shard's partition, attributes in `startKeyOf` order (collection.ts), so a
 * one-shard read equals the unsharded connection's read (loaders cache by it).
 */
export function shardKey(shard: Collection, position: Position): StartKey {
  const key: StartKey = {};
  for (const attr of keyAttributes(shard)) key[attr] = attr === shard.pkAttr ? shard.pk : position[attr];
  return key;
}

/** Signs an item's position for this merged collection. */
export function encodeMergedCursor(codec: CursorCodec, merged: MergedCollection, position: Position): string {
  const { index } = describe(merged);
  return codec.seal(JSON.stringify({ v: CURSOR_VERSION, c: merged.name, p: merged.group, i: index, k: position }));
}

/**
 * The position inside a cursor, checked against the merged collection:
 * signature, format, connection name, group, index, and the position's
 * attributes (sort key inside the prefix). A start key issued for the
 * unsharded partition (it also holds the index partition value) is accepted
 * when that value belongs to the group, so cursors survive resharding.
 * BAD_USER_INPUT otherwise; no DynamoDB request is made.
 */
export function decodeMergedCursor(reader: CursorReader, merged: MergedCollection, cursor: string, argumentName: string): Position {
  const refuse = (why: string) => badUserInput(`"${argumentName}" is not a valid cursor for ${merged.name}: ${why}`, argumentName);
  const payload = readCursorPayload(reader, merged.name, cursor, argumentName);
  const { index, skAttr, prefix } = describe(merged);
  if (payload.p !== merged.group || payload.i !== index) throw refuse('it was issued by another connection');
  const key = payload.k as Record<string, unknown> | null;
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw refuse('malformed key');
  const attrs = positionAttributes(merged);
  const pkAttr = merged.shards[0].pkAttr;
  const extra = Object.keys(key).filter((attr) => !attrs.includes(attr));
  if (extra.length > 1 || (extra.length === 1 && extra[0] !== pkAttr)) throw refuse('malformed key');
  if (extra.length === 1) {
    const pk = key[pkAttr];
    if (typeof pk !== 'string' || (pk !== merged.group && !pk.startsWith(`${merged.group}#`))) {
      throw refuse('it was issued by another connection');
    }
  }
  const position: Position = {};
  for (const attr of attrs) {
    const value = key[attr];
    if (typeof value !== 'string' || value.length === 0 || value.length > 1024) throw refuse('malformed key');
    position[attr] = value;
  }
  if (!position[skAttr].startsWith(prefix)) throw refuse('it was issued by another connection');
  return position;
}

/**
 * The reads of one page. Validates arguments and cursors first: a bad one is
 * BAD_USER_INPUT before any request. Deterministic in its input, so a
 * look-ahead that plans the same page finds the same (cached) reads.
 */
export function planMergedPage(reader: CursorReader, merged: MergedCollection, args: ConnectionArgs): MergedPagePlan {
  describe(merged);
  const page = validateConnectionArgs(args);
  const after = page.after === null ? null : decodeMergedCursor(reader, merged, page.after, 'after');
  const before = page.before === null ? null : decodeMergedCursor(reader, merged, page.before, 'before');
  const { forward, size } = page;
  const [start, stop] = forward ? [after, before] : [before, after];
  const reads = merged.shards.map(
    (shard): RangeRead => ({
      collection: shard,
      forward,
      limit: size + 1,
      exclusiveStart: start ? shardKey(shard, start) : null,
      bound: stop ? shardKey(shard, stop) : null,
    }),
  );
  return { merged, reads, after, before, forward, size };
}

/**
 * Merges per-shard results (each in read direction) into the first `limit`
 * items of the union in read direction, each table item once.
 */
export function mergeShards(merged: MergedCollection, forward: boolean, perShard: readonly Item[][], limit: number): Item[] {
  const sign = forward ? 1 : -1;
  const all = perShard.flat().sort((a, b) => sign * comparePositions(merged, a, b));
  const out: Item[] = [];
  for (const item of all) {
    if (out.length === limit) break;
    const previous = out[out.length - 1];
    if (previous && previous.PK === item.PK && previous.SK === item.SK) continue;
    out.push(item);
  }
  return out;
}

const memo = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
};

/** Does any shard hold an item at `position`'s sort key or beyond it (one Limit-1 Query per shard, one wave)? */
function anyBeyond(reader: ShardReader, merged: MergedCollection, position: Position, atOrAfter: boolean) {
  return memo(async () => {
    const found = await Promise.all(
      merged.shards.map((collection) => reader.exists({ collection, key: shardKey(collection, position), atOrAfter })),
    );
    return found.some(Boolean);
  });
}

/** Reads a planned page: N range reads in one wave, merged; the far side's flag is lazy. */
export async function readMergedPage(plan: MergedPagePlan, reader: ShardReader): Promise<MergedPage> {
  const { merged, reads, after, before, forward, size } = plan;
  const perShard = await Promise.all(reads.map((read) => reader.range(read)));
  const items = mergeShards(merged, forward, perShard, size + 1);
  const more = items.length > size;
  const page = items.slice(0, size);
  if (!forward) page.reverse();
  const beyondBefore = before ? anyBeyond(reader, merged, before, true) : false;
  const beyondAfter = after ? anyBeyond(reader, merged, after, false) : false;
  return {
    items: page,
    hasNextPage: forward ? more || beyondBefore : beyondBefore,
    hasPreviousPage: forward ? beyondAfter : more || beyondAfter,
  };
}

/**
 * A Relay connection from a read page: edges in ascending order, cursors
 * encoded only when selected, totalCount from `countAll` only when selected.
 */
export function mergedConnection<Edge extends object>(
  codec: CursorCodec,
  plan: MergedPagePlan,
  page: MergedPage,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): ConnectionRecord<Edge & { cursor: string }> {
  const { items } = page;
  const cursors: (string | undefined)[] = [];
  const cursorAt = (i: number) => (cursors[i] ??= encodeMergedCursor(codec, plan.merged, positionOf(plan.merged, items[i])));
  const last = items.length - 1;
  return {
    edges: lazyCursorEdges(items, toEdge, cursorAt),
    pageInfo: lazyPageInfo(page.hasNextPage, page.hasPreviousPage, (end) => (last < 0 ? null : cursorAt(end === 'start' ? 0 : last))),
    totalCount: memo(countAll),
  };
}

/** Plan, read and shape in one call (what a connection resolver uses). */
export async function readMergedConnection<Edge extends object>(
  cursors: CursorReader,
  reader: ShardReader,
  merged: MergedCollection,
  args: ConnectionArgs,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): Promise<ConnectionRecord<Edge & { cursor: string }>> {
  const plan = planMergedPage(cursors, merged, args);
  const page = await readMergedPage(plan, reader);
  return mergedConnection(cursors, plan, page, toEdge, countAll);
}
