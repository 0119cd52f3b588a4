/**
 * BatchGetItem with the DataLoader batch-function promise: the result has
 * the same length and order as the keys; a missing item is `null`.
 *
 * DynamoDB's own contract is looser, so this file closes the gap:
 * - at most 100 keys a call: larger inputs are split into chunks sent
 *   concurrently;
 * - items come back unordered: they are matched to keys by the table's key attributes;
 * - `UnprocessedKeys` may hold part of a chunk: it is sent again with
 *   exponential backoff and jitter, never dropped; if it is still
 *   unprocessed after the last attempt the call fails (a partial answer
 *   would silently turn existing items into nulls).
 * - duplicate keys are sent once (DynamoDB rejects duplicates in one call).
 */
import type { ReadPort } from './readPort.js';
import type { ItemKey, TableKeys } from './keys.js';
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
  reads: ReadPort,
  tableName: string,
  table: TableKeys,
  keys: readonly ItemKey[],
  options: BatchGetOptions = {},
): Promise<(Item | null)[]> {
  const unique = new KeyMap<true>();
  const all: Record<string, unknown>[] = [];
  for (const key of keys) {
    if (unique.get(key.PK, key.SK)) continue;
    unique.set(key.PK, key.SK, true);
    all.push(table.key(key));
  }
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < all.length; i += BATCH_GET_MAX_KEYS) chunks.push(all.slice(i, i + BATCH_GET_MAX_KEYS));

  const found = new KeyMap<Item>();
  await Promise.all(chunks.map((chunk) => getChunk(reads, tableName, table, chunk, found, options)));
  return keys.map((key) => found.get(key.PK, key.SK) ?? null);
}

/**
 * Values by item key, held by sort key, then partition key: the key strings'
 * own (cached) hashes are used, and no joined string is built per key and
 * lookup (a batch has a few distinct sort keys, and hundreds of keys).
 */
class KeyMap<V> {
  private readonly bySk = new Map<string, Map<string, V>>();

  get(pk: unknown, sk: unknown): V | undefined {
    return this.bySk.get(sk as string)?.get(pk as string);
  }

  set(pk: unknown, sk: unknown, value: V): void {
    let byPk = this.bySk.get(sk as string);
    if (!byPk) this.bySk.set(sk as string, (byPk = new Map()));
    byPk.set(pk as string, value);
  }
}

async function getChunk(
  reads: ReadPort,
  tableName: string,
  { pk, sk }: TableKeys,
  chunk: Record<string, unknown>[],
  found: KeyMap<Item>,
  { maxAttempts = 8, baseDelayMs = 25, consistentRead }: BatchGetOptions,
): Promise<void> {
  // The chunk's keys are batchGet's own copies, holding the table's key attributes only.
  let pending: Record<string, unknown>[] = chunk;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > maxAttempts) throw new UnprocessedKeysError(pending.length);
    if (attempt > 1) await backoff(baseDelayMs, attempt - 1);
    const out = await reads.batchGet({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistentRead } } });
    for (const item of out.Responses?.[tableName] ?? []) {
      found.set(item[pk], item[sk], item);
    }
    pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
}
