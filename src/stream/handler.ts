/**
 * The stream processor's one handler, shared by both runners (the Lambda in
 * AWS, the in-process reader locally): a batch of stream records in, the
 * follow-up work done, and, on failure, the position of the first record
 * that failed (everything before it is done; it and everything after it
 * must be delivered again).
 *
 * What a record asks for, by the model's plan (anything else, including the
 * reader's own bookkeeping items and the writes this handler makes, asks
 * for nothing):
 * - an item with edges or children whose new image carries `deletingAt`:
 *   finish the cascade (every edge with the other side's counter, then the
 *   item); a child type's delete is finished by its own request (with its
 *   parent's counter: writes/cascade.ts), so its mark asks for nothing;
 * - an item with copied fields whose version changed, or that carries
 *   `propagatingSince`: propagate its current values to every edge. Any
 *   item type: top-level, a child (its key holds its parent's id), keyed
 *   by several values; the item is read by the record's own key;
 * - a new edge of an @edges relation: bring its copies up to date if an
 *   item was renamed between link's read and now;
 * - a gateway's model marker (modelWork.ts): nothing, unless the model
 *   asks for work this processor's plan lacks; then the batch stops there
 *   with `ModelBehind`, for a processor that knows the model.
 * All of it is idempotent and works from the table's current state, so
 * at-least-once delivery, replays and out-of-order shards are harmless.
 * Within a batch, only the last record of an item is acted on (the work
 * reads the item's current state, so earlier ones would repeat it).
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Logger } from '../logger.js';
import type { Plan } from '../plan/plan.js';
import { finishCascade, sideOf } from '../writes/cascade.js';
import { DELETING_ATTR, PROPAGATING_ATTR } from '../writes/conditions.js';
import { planOf, type Store } from '../writes/store.js';
import { writePlanOf } from '../writes/writePlan.js';
import { propagate, refreshEdges } from './propagate.js';
import { MODEL_PARTITION, ModelBehind, workOf } from './modelWork.js';
import { imagesOf, isTtlDeletion, type StreamRecordLike } from '../dynamo/streamRecords.js';
import type { ItemKey } from '../dynamo/keys.js';

export type Task =
  | { kind: 'cascade'; type: string; id: string }
  | { kind: 'propagate'; type: string; id: string; key: ItemKey }
  | { kind: 'edge'; edge: Item }
  | { kind: 'model'; version: string; work: string[] }
  | { kind: 'none' };

/** What one record asks for under `plan`, the model served. */
export function taskOf(record: StreamRecordLike, plan: Plan): Task {
  // Items expired by time to live (idempotency records) ask for nothing; nor does any other deletion.
  if (isTtlDeletion(record) || record.eventName === 'REMOVE') return { kind: 'none' };
  const { keys, newImage, oldImage } = imagesOf(record);
  if (keys[plan.keys.pk] === MODEL_PARTITION && newImage && Array.isArray(newImage.work)) {
    return { kind: 'model', version: String(newImage.version), work: newImage.work.map(String) };
  }
  const writes = writePlanOf(plan);
  for (const t of writes.followed) {
    const ids = t.item.ids(keys);
    if (ids === null) continue;
    if (newImage === null) return { kind: 'none' };
    const entity = { type: t.item.name, id: ids.id };
    if (newImage[DELETING_ATTR] !== undefined) {
      // A child's delete finishes in its request, with its parent's counter; a marked item is renamed no more.
      return ids.parentId === null && t.sides.length > 0 ? { kind: 'cascade', ...entity } : { kind: 'none' };
    }
    if (t.copies.length === 0) return { kind: 'none' };
    const renamed = t.copies.some((c) => newImage[c.versionAttr] !== oldImage?.[c.versionAttr]);
    if (newImage[PROPAGATING_ATTR] !== undefined || renamed) return { kind: 'propagate', ...entity, key: plan.keys.keyOf(keys) };
    return { kind: 'none' };
  }
  if (record.eventName === 'INSERT' && newImage && writes.pairs.some((p) => p.ends(keys) !== null)) {
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

const entityKey = (t: Task) => (t.kind === 'cascade' || t.kind === 'propagate' ? `${t.type}:${t.id}` : null);

/**
 * Handles `records` in order and stops at the first failure. Edge records
 * are handled together, before the first item record that follows them
 * (one BatchGet for their items).
 */
export async function handleRecords(store: Store, records: StreamRecordLike[], logger?: Logger): Promise<BatchOutcome> {
  const plan = planOf(store);
  const tasks = records.map((r) => taskOf(r, plan));
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
        outcome.copies += await refreshEdges(
          store,
          tasks.slice(i, end).map((t) => (t as { edge: Item }).edge),
        );
        i = end;
        outcome.done = i;
        continue;
      }
      if (task.kind === 'model') {
        const mine = new Set(workOf(plan));
        const missing = task.work.filter((w) => !mine.has(w));
        if (missing.length > 0) return { ...outcome, failedAt: i, error: new ModelBehind(task.version, missing) };
      } else if (task.kind !== 'none' && lastOfEntity.get(entityKey(task)!) === i) {
        if (task.kind === 'propagate') {
          const result = await propagate(store, task.type, task.id, task.key);
          outcome.copies += result.written;
          logger?.debug({ entity: `${task.type} ${task.id}`, written: result.written, skipped: result.skipped }, 'copies propagated');
        } else {
          const removed = await finishCascade(store, sideOf(store, task.type, task.id), true, { onlyMarked: true });
          outcome.edgesRemoved += removed;
          logger?.debug({ entity: `${task.type} ${task.id}`, removed }, 'cascade finished');
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
