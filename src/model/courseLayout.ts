/**
 * Where a course's enrollments and count live, as its course item says
 * (docs/sharding.md). Readers and writers ask here instead of reading the
 * attributes themselves.
 *
 * In:  a stored course item (or null).
 * Out: the shard count writes use, and, while a reshard is moving edges, the
 *      previous one too: then every GSI1 partition and counter of both
 *      layouts holds part of the course.
 *
 * Attributes of the course item
 * - `shards` (Number 1–64, absent = 1): the layout new edges are written in.
 * - `reshardFrom` (Number): present while edges are moved from that layout.
 * - `reshardMoves` (Number): bumped by the mover before and after each batch
 *   of moves (odd while a batch is in flight); a reader that saw the same
 *   even value before and after its Queries read no edge mid-move.
 *
 * Counter invariant: the counter of a GSI1 partition (the course item's
 * `studentCount` for `COURSE#<cid>`, the counter item `COURSE#<cid>#<k>` for
 * shard k) equals the number of edges indexed under that partition. Enroll,
 * unenroll and the mover change an edge and its partition's counter in one
 * transaction, so the sum over all partitions of both layouts is the course's
 * student count at every moment.
 */
import type { Item } from '../dynamo/batchGet.js';
import {
  courseCounterKeys,
  courseShardPartitions,
  itemKeyString,
  shardCountOf,
  type ItemKey,
} from '../dynamo/keys.js';

export const SHARDS_ATTR = 'shards';
export const RESHARD_FROM_ATTR = 'reshardFrom';
export const RESHARD_MOVES_ATTR = 'reshardMoves';

export interface CourseLayout {
  /** Shard count of new writes (1 = unsharded). */
  shards: number;
  /** Shard count edges are being moved from, while a reshard runs. */
  reshardFrom: number | null;
  /** The mover's batch counter (odd: a batch is in flight). */
  moves: number;
}

export function layoutOf(course: Item | { shards?: unknown; reshardFrom?: unknown; reshardMoves?: unknown } | null | undefined): CourseLayout {
  const from = course?.[RESHARD_FROM_ATTR];
  const moves = course?.[RESHARD_MOVES_ATTR];
  return {
    shards: shardCountOf(course),
    reshardFrom: from === undefined || from === null ? null : shardCountOf({ shards: from }),
    moves: typeof moves === 'number' ? moves : 0,
  };
}

export const isMoving = (layout: CourseLayout): boolean => layout.reshardFrom !== null;

/** The shard counts whose partitions hold edges now (one, or two while moving). */
const layouts = (layout: CourseLayout): number[] =>
  layout.reshardFrom === null || layout.reshardFrom === layout.shards ? [layout.shards] : [layout.reshardFrom, layout.shards];

/** Every GSI1 partition that may hold an edge of the course, each once. */
export function coursePartitions(courseId: string, layout: CourseLayout): string[] {
  return [...new Set(layouts(layout).flatMap((n) => courseShardPartitions(courseId, n)))];
}

/** Every item holding part of the course's count, each once. */
export function courseCounters(courseId: string, layout: CourseLayout): ItemKey[] {
  const seen = new Map<string, ItemKey>();
  for (const n of layouts(layout)) for (const key of courseCounterKeys(courseId, n)) seen.set(itemKeyString(key), key);
  return [...seen.values()];
}
