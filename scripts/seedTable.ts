/**
 * Writes items to a table with BatchWriteItem (25 a call, unprocessed items
 * sent again: src/dynamo/batchWrite.ts), several calls in flight, reporting
 * progress as it goes.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../src/dynamo/batchGet.js';
import { BATCH_WRITE_MAX_ITEMS, batchPut } from '../src/dynamo/batchWrite.js';
import { withoutEmbedded, type Config } from '../src/config.js';
import { clientOptions, type ClientOptions } from '../src/dynamo/client.js';

/**
 * The seed's client: the configuration's endpoint, retries and timeouts;
 * unset (which only `npm start` serves itself, embedded) and `aws` both mean AWS itself.
 */
export const seedClientOptions = (config: Config): ClientOptions =>
  clientOptions({ ...config, endpoint: withoutEmbedded(config.endpoint) });

export interface SeedOptions {
  /** BatchWriteItem calls in flight at once. */
  concurrency?: number;
  onProgress?: (written: number, total: number) => void;
}

export async function writeItems(
  doc: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Item[],
  { concurrency = 8, onProgress }: SeedOptions = {},
): Promise<void> {
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < items.length) {
      const chunk = items.slice(next, next + BATCH_WRITE_MAX_ITEMS);
      next += chunk.length;
      await batchPut(doc, tableName, chunk);
      written += chunk.length;
      onProgress?.(written, items.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise. */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = Date.now();
  let lastDecile = -1;
  return (done: number, total: number) => {
    const fraction = total === 0 ? 1 : done / total;
    const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
    const width = 30;
    const filled = Math.round(fraction * width);
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${(fraction * 100).toFixed(0)}% ${rate} items/s`;
    if (stream.isTTY) {
      stream.write(`\r${line}${done === total ? '\n' : ''}`);
    } else {
      const decile = Math.floor(fraction * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        stream.write(`${line}\n`);
      }
    }
  };
}
