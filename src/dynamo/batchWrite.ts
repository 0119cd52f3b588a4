/**
 * BatchWriteItem puts: 25 items a call, `UnprocessedItems` sent again with
 * backoff until none is left. Used for loading data sets (demo data, seeding),
 * never for the gateway's own mutations, which need transactions.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batchGet.js';

export const BATCH_WRITE_MAX_ITEMS = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function batchPut(
  doc: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Item[],
  { maxAttempts = 10, baseDelayMs = 50 } = {},
): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX_ITEMS) {
    let pending = items.slice(i, i + BATCH_WRITE_MAX_ITEMS).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > maxAttempts) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed`);
      if (attempt > 1) await sleep(Math.random() * baseDelayMs * 2 ** (attempt - 2));
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }
}
