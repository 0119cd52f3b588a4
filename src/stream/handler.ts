/**
 * The stream processor's one handler, shared by both runners (the Lambda in
 * AWS, the in-process reader locally): a batch of stream records in, the
 * follow-up work done, and, on failure, the position of the first record
 * that failed (everything before it is done; it and everything after it
 * must be delivered again).
 *
 * What a record asks for (anything else, including the reader's own
 * bookkeeping items and the writes this handler makes, asks for nothing):
 * - a student/course whose new image carries `deletingAt`: finish the
 *   cascade (every edge with the other side's counter, then the entity);
 * - a student/course whose copied value's version changed, or that carries
 *   `propagatingSince`: propagate its current value to every edge;
 * - a new enrollment edge: bring its copies up to date if an entity was
 *   renamed between enroll's read and now.
 * All of it is idempotent and works from the table's current state, so
 * at-least-once delivery, replays and out-of-order shards are harmless.
 * Within a batch, only the last record of an entity is acted on (the work
 * reads the entity's current state, so earlier ones would repeat it).
 */
import type { Item } from '../dynamo/batchGet.js';
import { idFrom, PROFILE_SK } from '../dynamo/keys.js';
import type { Logger } from '../logger.js';
import { COURSE_TITLE, PROPAGATING_ATTR, STUDENT_NAME, type CopiedField } from '../model/copiedFields.js';
import { course, student } from '../model/entities.js';
import { finishCascade, sideOf } from '../writes/cascade.js';
import { DELETING_ATTR } from '../writes/conditions.js';
import type { Store } from '../writes/store.js';
import { propagate, refreshEdges } from './propagate.js';
import { imagesOf, isTtlDeletion, type StreamRecordLike } from './records.js';

export type Task =
  | { kind: 'cascade'; field: CopiedField; id: string }
  | { kind: 'propagate'; field: CopiedField; id: string }
  | { kind: 'edge'; edge: Item }
  | { kind: 'none' };

function entityOf(keys: Item): { field: CopiedField; id: string } | null {
  if (keys.SK !== PROFILE_SK) return null;
  const studentId = idFrom('STUDENT', keys.PK);
  if (studentId !== null) return { field: STUDENT_NAME, id: studentId };
  const courseId = idFrom('COURSE', keys.PK);
  if (courseId !== null) return { field: COURSE_TITLE, id: courseId };
  return null;
}

/** What one record asks for. */
export function taskOf(record: StreamRecordLike): Task {
  // Items expired by time to live (idempotency records) ask for nothing; nor does any other deletion.
  if (isTtlDeletion(record) || record.eventName === 'REMOVE') return { kind: 'none' };
  const { keys, newImage, oldImage } = imagesOf(record);
  const entity = entityOf(keys);
  if (entity) {
    if (record.eventName === 'REMOVE' || newImage === null) return { kind: 'none' };
    if (newImage[DELETING_ATTR] !== undefined) return { kind: 'cascade', ...entity };
    const version = entity.field.versionAttr;
    if (newImage[PROPAGATING_ATTR] !== undefined || newImage[version] !== oldImage?.[version]) {
      return { kind: 'propagate', ...entity };
    }
    return { kind: 'none' };
  }
  if (record.eventName === 'INSERT' && newImage && idFrom('STUDENT', keys.PK) !== null && idFrom('COURSE', keys.SK) !== null) {
    return { kind: 'edge', edge: newImage };
  }
  return { kind: 'none' };
}

export interface BatchOutcome {
  /** Records handled (the whole batch, or those before `failedAt`). */
  done: number;
  /** Index of the first record that failed; null when all succeeded. */
  failedAt: number | null;
  error?: unknown;
  /** DynamoDB-visible work: copies written, edges removed. */
  copies: number;
  edgesRemoved: number;
}

const entityKey = (t: Task) => (t.kind === 'cascade' || t.kind === 'propagate' ? `${t.field.side}:${t.id}` : null);

/**
 * Handles `records` in order and stops at the first failure. Edge records
 * are handled together, before the first entity record that follows them
 * (one BatchGet for their entities).
 */
export async function handleRecords(store: Store, records: StreamRecordLike[], logger?: Logger): Promise<BatchOutcome> {
  const tasks = records.map(taskOf);
  const lastOfEntity = new Map<string, number>();
  tasks.forEach((t, i) => {
    const k = entityKey(t);
    if (k !== null) lastOfEntity.set(k, i);
  });
  const outcome: BatchOutcome = { done: 0, failedAt: null, copies: 0, edgesRemoved: 0 };
  let i = 0;
  while (i < tasks.length) {
    const task = tasks[i];
    try {
      if (task.kind === 'edge') {
        // A run of edge records: one BatchGet, one pass.
        let end = i;
        while (end < tasks.length && tasks[end].kind === 'edge') end++;
        outcome.copies += await refreshEdges(store, tasks.slice(i, end).map((t) => (t as { edge: Item }).edge));
        i = end;
        outcome.done = i;
        continue;
      }
      if (task.kind !== 'none' && lastOfEntity.get(entityKey(task)!) === i) {
        if (task.kind === 'propagate') {
          const result = await propagate(store, task.field, task.id);
          outcome.copies += result.written;
          logger?.debug({ entity: `${task.field.side} ${task.id}`, written: result.written, skipped: result.skipped }, 'copies propagated');
        } else {
          const side = sideOf(task.field.side === 'student' ? student : course, task.id);
          const removed = await finishCascade(store, side, true, { onlyMarked: true });
          outcome.edgesRemoved += removed;
          logger?.debug({ entity: `${task.field.side} ${task.id}`, removed }, 'cascade finished');
        }
      }
      i++;
      outcome.done = i;
    } catch (error) {
      return { ...outcome, failedAt: i, error };
    }
  }
  return outcome;
}

