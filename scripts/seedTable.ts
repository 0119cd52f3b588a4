/**
 * Writes items to a table with BatchWriteItem (25 a call, unprocessed items
 * sent again: src/dynamo/batchWrite.ts), several calls in flight, reporting
 * progress as it goes.
 */
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../src/dynamo/batchGet.js';
import { BATCH_WRITE_MAX_ITEMS, batchPut } from '../src/dynamo/batchWrite.js';
import { ConfigError, withoutEmbedded, type Config } from '../src/config.js';
import { clientOptions, type ClientOptions } from '../src/dynamo/client.js';
import { CATALOG_COUNT_ATTR, catalogShardCounterKey } from '../src/dynamo/keys.js';
import { countCatalogShard } from '../src/writes/catalog.js';
import type { Plan } from '../src/plan/plan.js';

/**
 * The client of the commands that write a table (seed, migrate, reshard):
 * the configuration's endpoint, retries and timeouts. DYNAMODB_ENDPOINT
 * must be set: a URL, or `aws` for real DynamoDB. Unset is refused, so
 * a forgotten variable never writes to whatever AWS account the machine's
 * credentials open.
 */
export function seedClientOptions(config: Config): ClientOptions {
  if (config.endpoint.kind === 'embedded') {
    throw new ConfigError(
      'DYNAMODB_ENDPOINT is unset: set it to the DynamoDB to write, a URL (http://localhost:8000 for DynamoDB Local) or aws (real DynamoDB in AWS_REGION, credentials from the SDK chain)',
    );
  }
  return clientOptions({ ...config, endpoint: withoutEmbedded(config.endpoint) });
}

/**
 * Sets every catalog counter (courses and students per GSI2 shard) to the
 * number of entries its shard holds, counted (`Select: COUNT`): a data set
 * written over a table that already held entries (the demo data, an
 * earlier seed) must not leave the counters at the data set's own figures.
 */
export async function recountCatalogs(doc: DynamoDBDocumentClient, tableName: string, plan: Plan): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  for (const field of plan.catalogs) {
    const { spec } = plan.catalogOf(field.type)!;
    totals[field.field] = 0;
    for (let shard = 0; shard < spec.shards; shard++) {
      const count = await countCatalogShard((input) => doc.send(new QueryCommand(input)), tableName, spec, shard);
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...plan.keys.key(catalogShardCounterKey(spec, shard)), [CATALOG_COUNT_ATTR]: count } }));
      totals[field.field] += count;
    }
  }
  return totals;
}

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
    const filled = Math.round(Math.min(fraction, 1) * width);
    const eta = rate > 0 && total > done ? ` ETA ${formatSeconds((total - done) / rate)}` : '';
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${(fraction * 100).toFixed(0)}% ${rate} items/s${eta}`;
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

/** 75 → "1m15s", 8 → "8s". */
export function formatSeconds(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
