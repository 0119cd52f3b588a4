/**
 * The local reader's memory, kept in the table itself under its key
 * attributes (keys in dynamo/keys.ts: one `STREAM#<label>` partition per stream):
 * - per shard, the sequence number of the last record handled, and whether
 *   the shard is finished (closed and read to its end). A restart resumes
 *   AFTER that sequence number: nothing is skipped, and what was handled
 *   after the last checkpoint is handled again (harmless: the handler is
 *   idempotent).
 * - dead letters: records given up on after their retries, with the error.
 * Finished shards and dead letters expire through time to live
 * (`expiresAt`) after a week; DynamoDB trims stream records after 24 hours,
 * so nothing can ask for them later.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deadLetterKey, shardCheckpointKey, shardIdFrom, streamPartition } from '../dynamo/keys.js';
import { readsOf, type Store } from '../writes/store.js';
import type { StreamRecordLike } from '../dynamo/streamRecords.js';

const WEEK_S = 7 * 24 * 3600;

export interface Checkpoint {
  sequenceNumber: string | null;
  finished: boolean;
}

/** Every shard checkpoint of a stream (one Query, paged). */
export async function loadCheckpoints(store: Store, streamLabel: string): Promise<Map<string, Checkpoint>> {
  const found = new Map<string, Checkpoint>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await readsOf(store).query({
      TableName: store.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :shard)',
      ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#sk': store.plan.keys.sk },
      ExpressionAttributeValues: { ':pk': streamPartition(streamLabel), ':shard': 'SHARD#' },
      ConsistentRead: true,
      ExclusiveStartKey,
    });
    for (const item of out.Items ?? []) {
      const shardId = shardIdFrom(item[store.plan.keys.sk]);
      if (shardId === null) continue;
      found.set(shardId, {
        sequenceNumber: typeof item.sequenceNumber === 'string' ? item.sequenceNumber : null,
        finished: item.finished === true,
      });
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

export async function saveCheckpoint(
  store: Store,
  streamLabel: string,
  shardId: string,
  checkpoint: Checkpoint,
): Promise<void> {
  const now = Date.now();
  await putAt(store, shardCheckpointKey(streamLabel, shardId), {
    sequenceNumber: checkpoint.sequenceNumber ?? undefined,
    finished: checkpoint.finished,
    updatedAt: new Date(now).toISOString(),
    ...(checkpoint.finished ? { expiresAt: Math.floor(now / 1000) + WEEK_S } : {}),
  });
}

/** Writes the processor's own item at `key` (in the table's key attribute names). */
async function putAt(store: Store, key: Parameters<Store['plan']['keys']['key']>[0], attributes: Record<string, unknown>): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...store.plan.keys.key(key), ...attributes } }));
}

/** Keeps a record the handler gave up on, with why; `listDeadLetters` reads them back. */
export async function saveDeadLetter(
  store: Store,
  streamLabel: string,
  shardId: string,
  record: StreamRecordLike,
  error: unknown,
  attempts: number,
): Promise<void> {
  const now = Date.now();
  await putAt(store, deadLetterKey(streamLabel, record.dynamodb?.SequenceNumber ?? String(now)), {
    shardId,
    eventID: record.eventID,
    eventName: record.eventName,
    // The record as delivered (AttributeValue maps), so it can be inspected or replayed as is.
    record: JSON.stringify(record),
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    attempts,
    failedAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + WEEK_S,
  });
}

export async function listDeadLetters(store: Store, streamLabel: string): Promise<Record<string, unknown>[]> {
  const out = await readsOf(store).query({
    TableName: store.tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :failed)',
    ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#sk': store.plan.keys.sk },
    ExpressionAttributeValues: { ':pk': streamPartition(streamLabel), ':failed': 'FAILED#' },
    ConsistentRead: true,
  });
  return out.Items ?? [];
}

/**
 * How many dead letters wait, counted up to `cap` (one eventually consistent
 * `Select: COUNT` Query of at most `cap + 1` items, so its cost is bounded
 * however many there are); `capped`: there are more than `cap`.
 */
export async function countDeadLetters(store: Store, streamLabel: string, cap: number): Promise<{ count: number; capped: boolean }> {
  const out = await readsOf(store).query({
    TableName: store.tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :failed)',
    ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#sk': store.plan.keys.sk },
    ExpressionAttributeValues: { ':pk': streamPartition(streamLabel), ':failed': 'FAILED#' },
    Select: 'COUNT',
    Limit: cap + 1,
  });
  const count = out.Count ?? 0;
  return { count: Math.min(count, cap), capped: count > cap };
}

/** A redriven dead letter that was handled: it goes. */
export async function deleteDeadLetter(store: Store, letter: Record<string, unknown>): Promise<void> {
  const { pk, sk } = store.plan.keys;
  await store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: { [pk]: letter[pk], [sk]: letter[sk] } }));
}

/** A redriven dead letter that failed again: one more attempt and the latest error, kept for another pass. */
export async function retryDeadLetter(store: Store, letter: Record<string, unknown>, error: unknown): Promise<void> {
  const { pk, sk } = store.plan.keys;
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { [pk]: letter[pk], [sk]: letter[sk] },
      UpdateExpression: 'SET attempts = attempts + :one, #error = :error, retriedAt = :now',
      ExpressionAttributeNames: { '#error': 'error' },
      ExpressionAttributeValues: { ':one': 1, ':error': error instanceof Error ? `${error.name}: ${error.message}` : String(error), ':now': new Date().toISOString() },
    }),
  );
}
