/**
 * The `/health` probe shared by the HTTP server and Lambda.
 *
 * tableState(): `ok` when the table answers DescribeTable as ACTIVE within
 * 2 s, `missing` when DynamoDB says it does not exist, `unavailable` for
 * any other error (unreachable, denied) or status; never thrown.
 * tableHealthy(): the same as a boolean.
 * readsAnswer(): whether a GetItem through the operations' read path
 * answers within 2 s: the read path may fail while DescribeTable answers
 * (its own sockets, an IAM policy without GetItem), and `/health` must not
 * say 200 while every read answers UNAVAILABLE.
 * (layoutHealth.ts adds details for the HTTP server's /health.)
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Dynamo } from './client.js';
import { sdkReads } from './readPort.js';

export type TableState = 'ok' | 'missing' | 'unavailable';

export async function tableState(dynamo: Dynamo, tableName: string): Promise<TableState> {
  try {
    const out = await dynamo.raw.send(new DescribeTableCommand({ TableName: tableName }), {
      abortSignal: AbortSignal.timeout(2000),
    });
    return out.Table?.TableStatus === 'ACTIVE' ? 'ok' : 'unavailable';
  } catch (err) {
    return (err as { name?: string })?.name === 'ResourceNotFoundException' ? 'missing' : 'unavailable';
  }
}

export async function tableHealthy(dynamo: Dynamo, tableName: string): Promise<boolean> {
  return (await tableState(dynamo, tableName)) === 'ok';
}

/** Whether the operations' read path answers a GetItem of `key` (any answer, an item or none) within 2 s. */
export async function readsAnswer(dynamo: Dynamo, tableName: string, key: Record<string, unknown>): Promise<boolean> {
  const input = { TableName: tableName, Key: key };
  const read = () => (dynamo.reads ? dynamo.reads.send('GetItem', input) : sdkReads(dynamo.doc).get(input)).then(() => true);
  return (await within(2000, read)) === true;
}

/**
 * Does the table have a stream with new and old images? (One DescribeTable;
 * the same rule as describeLayout in table.ts, without its other checks, so
 * the Lambda bundle needs no more than DescribeTable.) Throws when the
 * table cannot be described.
 */
export async function hasNewAndOldImageStream(dynamo: Dynamo, tableName: string): Promise<boolean> {
  const out = await dynamo.raw.send(new DescribeTableCommand({ TableName: tableName }));
  const stream = out.Table?.StreamSpecification;
  return Boolean(stream?.StreamEnabled && stream.StreamViewType === 'NEW_AND_OLD_IMAGES' && out.Table?.LatestStreamArn);
}

/**
 * A probe that reuses its last answer for `ttlMs`, so a flood of health
 * checks costs at most one DescribeTable per interval. Concurrent callers
 * share the probe in flight.
 */
export function cachedProbe<T = boolean>(probe: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ttlMs) last = { at: now, value: probe() };
    return last.value;
  };
}

/** `read`'s answer, or null once it fails or `ms` pass: /health answers without a detail DynamoDB does not give in time. */
export function within<T>(ms: number, read: () => Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms).unref()));
  return Promise.race([read().catch(() => null), timeout]).finally(() => clearTimeout(timer));
}
