/**
 * BatchWriteItem puts: 25 items a call, `UnprocessedItems` sent again with
 * backoff until none is left. Used for loading data sets (demo data, seeding),
 * never for the gateway's own mutations, which need transactions.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batchGet.js';
import { backoff } from './backoff.js';

export const BATCH_WRITE_MAX_ITEMS = 25;

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
      if (attempt > 1) await backoff(baseDelayMs, attempt - 1);
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }
}
