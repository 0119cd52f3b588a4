/**
 * The engine's source for several key-ordered partitions of one index, read
 * concurrently and merged: a write-sharded collection or a catalog over its
 * shards reads like one collection (docs/sharding.md, "Reads").
 *
 * - shard: one Collection (a partition value and a sort-key prefix); the
 *   shards of a group differ only in the partition value.
 * - group: what is merged, whatever its shard count (the owner's PK).
 * - position: index sort key, then table key; every shard is a Query in
 *   that order. A cursor is one merged position, never a shard's
 *   LastEvaluatedKey: each shard's start key is derived from it, so cursors
 *   stay one key long, every edge's cursor stands alone, and a cursor
 *   outlives a reshard.
 *
 * A page reads `size + 1` items from every shard in one wave (no shard can
 * contribute more); the other side's flag is a Limit-1 Query per shard,
 * only when selected. Assumed of the data: index sort keys are unique in a
 * group; an item seen in two shards (moved mid-wave) is kept once.
 */
import type { Item } from '../dynamo/batchGet.js';
import { keyAttributes, type Collection, type RangeRead, type StartKey } from '../dynamo/collection.js';
import type { TableKeyNames } from '../dynamo/keys.js';
import type { MergedCollection } from '../plan/sources.js';
import { invariant } from '../errors.js';
import type { Position } from './cursor.js';
import { memo, type Page, type PagePlan, type Source } from './engine.js';
import type { CollectionReads } from './singleCollection.js';

export interface MergedPlan extends PagePlan<MergedCollection> {
  /** One read per shard, `size + 1` items, from the derived start/bound. */
  reads: RangeRead[];
}

function describe(merged: MergedCollection) {
  const [first] = merged.shards;
  invariant(first !== undefined, `${merged.name} has no shards`);
  for (const shard of merged.shards) {
    invariant(
      shard.index === first.index && shard.skAttr === first.skAttr && shard.prefix === first.prefix,
      `${merged.name}: shards must share index, sort key and prefix`,
    );
  }
  return { index: first.index ?? 'table', skAttr: first.skAttr, prefix: first.prefix, pkAttr: first.pkAttr, table: first.table };
}

/** The attributes of a position, in comparison order: the read's sort key, then the table's keys. */
const attributesOf = (skAttr: string, { pk, sk }: TableKeyNames): string[] => (skAttr === sk ? [sk, pk] : [skAttr, pk, sk]);

export const positionAttributes = (merged: MergedCollection): string[] => {
  const { skAttr, table } = describe(merged);
  return attributesOf(skAttr, table);
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

function compareBy(attrs: readonly string[], a: Record<string, unknown>, b: Record<string, unknown>): number {
  for (const attr of attrs) {
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

/**
 * Merges per-shard results (each in read direction) into the first `limit`
 * items of the union in read direction, each table item once.
 */
export function mergeShards(merged: MergedCollection, forward: boolean, perShard: readonly Item[][], limit: number): Item[] {
  const sign = forward ? 1 : -1;
  const attrs = positionAttributes(merged);
  const { pk, sk } = describe(merged).table;
  const all = perShard.flat().sort((a, b) => sign * compareBy(attrs, a, b));
  const out: Item[] = [];
  for (const item of all) {
    if (out.length === limit) break;
    const previous = out[out.length - 1];
    if (previous && previous[pk] === item[pk] && previous[sk] === item[sk]) continue;
    out.push(item);
  }
  return out;
}

/** Does any shard hold an item at `position`'s sort key or beyond it (one Limit-1 Query per shard, one wave)? */
function anyBeyond(reads: CollectionReads, merged: MergedCollection, position: Position, atOrAfter: boolean) {
  return memo(async () => {
    const found = await Promise.all(merged.shards.map((collection) => reads.exists.load({ collection, key: shardKey(collection, position), atOrAfter })));
    return found.some(Boolean);
  });
}

export const mergedShards: Source<MergedCollection, MergedPlan, CollectionReads> = {
  binding: (merged) => ({ name: merged.name, partition: merged.group, index: describe(merged).index }),
  shape(merged) {
    const { skAttr, prefix, pkAttr, table } = describe(merged);
    return { attrs: attributesOf(skAttr, table), skAttr, prefix, group: { attr: pkAttr, value: merged.group } };
  },
  plan(merged, window) {
    describe(merged);
    const { forward, size, after, before } = window;
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
    return { target: merged, window, reads };
  },
  async read({ target: merged, window, reads: shardReads }, reads): Promise<Page> {
    const { after, before, forward, size } = window;
    const perShard = await Promise.all(shardReads.map((read) => reads.range.load(read)));
    const items = mergeShards(merged, forward, perShard, size + 1);
    const more = items.length > size;
    const page = items.slice(0, size);
    if (!forward) page.reverse();
    const beyondBefore = before ? anyBeyond(reads, merged, before, true) : false;
    const beyondAfter = after ? anyBeyond(reads, merged, after, false) : false;
    return {
      items: page,
      hasNextPage: forward ? more || beyondBefore : beyondBefore,
      hasPreviousPage: forward ? beyondAfter : more || beyondAfter,
    };
  },
  position: positionOf,
};
