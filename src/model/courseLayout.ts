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
 * - `reshardTo` (Number): present while a reshard prepares (before the
 *   switch): the layout is still `shards`, but enrollments stop copying it
 *   onto their edges.
 * - `reshardCopies` (Number): present after the edges moved, while the
 *   reshard writes the layout copies back onto them (no other reshard may
 *   start before that is done).
 *
 * The edge's copy (`courseShards` on the enrollment edge)
 * An edge may carry the course's shard count, so that a course reached
 * through the edge (`student { courses { node { students } } }`) is paged
 * without reading its item. The copy is written only while the course is
 * in one layout and no reshard is being prepared; a reshard removes every
 * copy (and waits for the requests that may have read one) before it moves
 * anything, and writes the new layout back onto the edges once every edge
 * is in it (src/writes/reshard.ts); enrollments copy it again from then on. So an edge that carries a copy
 * consistent with its own GSI1PK says where every edge of the course is
 * for as long as one request lasts; an edge without one (moving, or written
 * by another program) leaves the layout to the course item.
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
  enrollmentPartition,
  idFrom,
  itemKeyString,
  MAX_SHARDS,
  shardCountOf,
  type ItemKey,
} from '../dynamo/keys.js';

export const SHARDS_ATTR = 'shards';
export const RESHARD_FROM_ATTR = 'reshardFrom';
export const RESHARD_MOVES_ATTR = 'reshardMoves';
export const RESHARD_TO_ATTR = 'reshardTo';
/** Present while a finished reshard writes its layout copies back onto the edges (no other reshard may start). */
export const RESTORING_ATTR = 'reshardCopies';
/** On an enrollment edge: the copy of its course's shard count. */
export const COURSE_SHARDS_ATTR = 'courseShards';

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

/**
 * The shard count an enrollment may copy from the course item it was read
 * with, or null when it must not carry one (a reshard is preparing or
 * moving edges).
 */
export function layoutToCopy(course: Item | null | undefined): number | null {
  if (!course || course[RESHARD_TO_ATTR] !== undefined || course[RESHARD_FROM_ATTR] !== undefined) return null;
  return shardCountOf(course);
}

/**
 * The course's layout as an enrollment edge's copy gives it, or undefined
 * when the edge carries none, or one that does not match where the edge
 * itself is indexed (another program moved it without the copy): the
 * course item must tell then.
 */
export function edgeLayout(edge: Item): CourseLayout | undefined {
  const copy = edge[COURSE_SHARDS_ATTR];
  if (typeof copy !== 'number' || !Number.isInteger(copy) || copy < 1 || copy > MAX_SHARDS) return undefined;
  const studentId = idFrom('STUDENT', edge.PK);
  const courseId = idFrom('COURSE', edge.SK);
  if (studentId === null || courseId === null) return undefined;
  if (edge.GSI1PK !== enrollmentPartition(studentId, courseId, copy)) return undefined;
  return { shards: copy, reshardFrom: null, moves: 0 };
}
