/**
 * A gateway per test file, against the run's DynamoDB Local: a fresh table,
 * the Apollo server driven through executeOperation (no HTTP), raw item
 * writes for "table filled by another program" cases, and a DynamoDB
 * request counter.
 */
import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { GraphQLFormattedError } from 'graphql';
import { createContext } from '../../src/context.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { OperationMetrics, runWithMetrics } from '../../src/dynamo/metrics.js';
import type { Logger } from '../../src/logger.js';
import { createServer } from '../../src/server.js';

export function localEndpoint(): string {
  const endpoint = inject('dynamoEndpoint');
  // Connected tests refuse any endpoint but a local one: they create and drop tables.
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint)) {
    throw new Error(`refusing to run integration tests against non-local endpoint ${endpoint}`);
  }
  return endpoint;
}

export interface GqlResult<T = any> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
}

export async function testGateway({
  production = false,
  logger,
  naive = false,
}: { production?: boolean; logger?: Logger; naive?: boolean } = {}) {
  const endpoint = localEndpoint();
  const tableName = `t_${randomUUID().slice(0, 8)}`;
  const dynamo = createDynamo({ endpoint });
  await ensureTable(dynamo.raw, tableName);
  const server = createServer({ production, logger });
  await server.start();
  const deps = { doc: dynamo.doc, tableName, naive };

  /** Runs an operation and reports the DynamoDB requests it made. */
  async function counted<T = any>(query: string, variables?: Record<string, unknown>) {
    const metrics = new OperationMetrics();
    const response = await runWithMetrics(metrics, () =>
      server.executeOperation({ query, variables }, { contextValue: createContext(deps, metrics) }),
    );
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return { result: response.body.singleResult as GqlResult<T>, requests: metrics };
  }

  const run = async <T = any>(query: string, variables?: Record<string, unknown>): Promise<GqlResult<T>> =>
    (await counted<T>(query, variables)).result;

  return {
    tableName,
    dynamo,
    server,
    run,
    counted,
    put: (items: Item[]) => batchPut(dynamo.doc, tableName, items),
    get: async (PK: string, SK: string) => (await dynamo.doc.send(new GetCommand({ TableName: tableName, Key: { PK, SK } }))).Item,
    scan: async () => {
      const items: Item[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const out = await dynamo.doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
        items.push(...(out.Items ?? []));
        ExclusiveStartKey = out.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    },
    stop: async () => {
      await server.stop();
      await dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
      dynamo.raw.destroy();
    },
  };
}

export type TestGateway = Awaited<ReturnType<typeof testGateway>>;

/** The codes of a result's errors, in order. */
export const codes = (result: GqlResult) => (result.errors ?? []).map((e) => e.extensions?.code);
