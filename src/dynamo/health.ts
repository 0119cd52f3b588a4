/**
 * The `/health` probe shared by the HTTP server and Lambda.
 *
 * tableHealthy(): true when the table answers DescribeTable as ACTIVE within
 * 2 s; any error (unreachable, missing table, denied) is "not healthy",
 * never thrown.
 * (layoutHealth.ts adds details for the HTTP server's /health.)
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Dynamo } from './client.js';

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

