/**
 * The `/health` probe shared by the HTTP server and Lambda.
 *
 * tableHealthy(): true when the table answers DescribeTable as ACTIVE within
 * 2 s; any error (unreachable, missing table, denied) is "not healthy",
 * never thrown.
 *
 * tableHealth(): the same verdict plus details for the response body: what
 * the table lacks of the current layout (table.ts `describeLayout`: index,
 * stream, time to live, and whether its items need `npm run migrate`). The
 * details never turn a reachable table unhealthy: a table that needs
 * migrating still serves.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Dynamo } from './client.js';
import { describeLayout } from './table.js';

export async function tableHealthy(dynamo: Dynamo, tableName: string): Promise<boolean> {
  try {
    const out = await dynamo.raw.send(new DescribeTableCommand({ TableName: tableName }), {
      abortSignal: AbortSignal.timeout(2000),
    });
    return out.Table?.TableStatus === 'ACTIVE';
  } catch {
    return false;
  }
}

export interface HealthReport {
  ok: boolean;
  /** Present when the layout could be read. */
  table?: { needsMigration: boolean; itemsLayoutVersion: number; lacks: string[] };
}

export async function tableHealth(dynamo: Dynamo, tableName: string): Promise<HealthReport> {
  const ok = await tableHealthy(dynamo, tableName);
  if (!ok) return { ok };
  try {
    const layout = await Promise.race([
      describeLayout(dynamo.raw, tableName),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
    ]);
    return { ok, table: { needsMigration: layout.needsMigration, itemsLayoutVersion: layout.itemsVersion, lacks: layout.lacks } };
  } catch {
    return { ok };
  }
}
