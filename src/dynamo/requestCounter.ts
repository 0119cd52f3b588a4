/**
 * Counts DynamoDB requests by operation (BatchGetItem, Query, …) on a client,
 * through SDK middleware: every request the gateway sends is seen, retries
 * included (each attempt is a request DynamoDB serves).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface RequestCounts {
  total: number;
  byOperation: Record<string, number>;
}

export interface RequestCounter {
  snapshot(): RequestCounts;
  reset(): void;
}

export function countRequests(client: DynamoDBClient): RequestCounter {
  let counts: RequestCounts = { total: 0, byOperation: {} };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const op = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      counts.total += 1;
      counts.byOperation[op] = (counts.byOperation[op] ?? 0) + 1;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'gatewayRequestCounter', override: true },
  );
  return {
    snapshot: () => ({ total: counts.total, byOperation: { ...counts.byOperation } }),
    reset: () => {
      counts = { total: 0, byOperation: {} };
    },
  };
}
