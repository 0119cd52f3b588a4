/**
 * BatchGetItem with the DataLoader batch-function promise: the result has
 * the same length and order as the keys; a missing item is `null`.
 *
 * DynamoDB's own contract is looser, so this file closes the gap:
 * - at most 100 keys a call: larger inputs are split into chunks sent
 *   concurrently;
 * - items come back unordered: they are matched to keys by PK/SK;
 * - `UnprocessedKeys` may hold part of a chunk: it is sent again with
 *   exponential backoff and jitter, never dropped; if it is still
 *   unprocessed after the last attempt the call fails (a partial answer
 *   would silently turn existing items into nulls).
 * - duplicate keys are sent once (DynamoDB rejects duplicates in one call).
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { itemKeyString, type ItemKey } from './keys.js';
import { backoff } from './backoff.js';

export const BATCH_GET_MAX_KEYS = 100;

export type Item = Record<string, unknown>;

export interface BatchGetOptions {
  /** Attempts for keys DynamoDB left unprocessed (first attempt included). */
  maxAttempts?: number;
  /** Base delay of the backoff, in ms. */
  baseDelayMs?: number;
  /** Strongly consistent reads (writes read what they condition on). */
  consistentRead?: boolean;
}

export class UnprocessedKeysError extends Error {
  override name = 'UnprocessedKeysError';
  constructor(readonly count: number) {
    super(`BatchGetItem left ${count} keys unprocessed after retries`);
  }
}


export async function batchGet(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
  options: BatchGetOptions = {},
): Promise<(Item | null)[]> {
  const unique = new Map<string, ItemKey>();
  for (const key of keys) unique.set(itemKeyString(key), { PK: key.PK, SK: key.SK });
  const all = [...unique.values()];
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < all.length; i += BATCH_GET_MAX_KEYS) chunks.push(all.slice(i, i + BATCH_GET_MAX_KEYS));

  const found = new Map<string, Item>();
  await Promise.all(chunks.map((chunk) => getChunk(doc, tableName, chunk, found, options)));
  return keys.map((key) => found.get(itemKeyString(key)) ?? null);
}

async function getChunk(
  doc: DynamoDBDocumentClient,
  tableName: string,
  chunk: ItemKey[],
  found: Map<string, Item>,
  { maxAttempts = 8, baseDelayMs = 25, consistentRead }: BatchGetOptions,
): Promise<void> {
  let pending: Record<string, unknown>[] = chunk.map((k) => ({ PK: k.PK, SK: k.SK }));
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > maxAttempts) throw new UnprocessedKeysError(pending.length);
    if (attempt > 1) await backoff(baseDelayMs, attempt - 1);
    const out = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistentRead } } }));
    for (const item of out.Responses?.[tableName] ?? []) {
      found.set(itemKeyString(item as unknown as ItemKey), item);
    }
    pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
}
