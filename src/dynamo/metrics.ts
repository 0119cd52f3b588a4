/**
 * DynamoDB requests per GraphQL operation.
 *
 * The DynamoDB client is shared by all concurrent operations, so a request
 * is attributed to its operation through AsyncLocalStorage: the transport
 * runs each operation inside `runWithMetrics(metrics, …)`, and SDK
 * middleware (installed once by `instrumentClient`) records every request
 * into the metrics of the operation it runs under. DataLoader batches run
 * from `process.nextTick` callbacks scheduled inside the operation, so they
 * are attributed correctly too.
 *
 * The middleware sits in the deserialize step, below the SDK's retry
 * middleware: each attempt is counted, since each is a request DynamoDB
 * serves.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export class OperationMetrics {
  requests = 0;
  readonly byOperation: Record<string, number> = {};

  record(operation: string): void {
    this.requests += 1;
    this.byOperation[operation] = (this.byOperation[operation] ?? 0) + 1;
  }
}

const storage = new AsyncLocalStorage<OperationMetrics>();

export const runWithMetrics = <T>(metrics: OperationMetrics, fn: () => T): T => storage.run(metrics, fn);

export const currentMetrics = (): OperationMetrics | undefined => storage.getStore();

const instrumented = new WeakSet<DynamoDBClient>();

/** Installs the counting middleware once per client. `all` (optional) also sees every request. */
export function instrumentClient(client: DynamoDBClient, all?: OperationMetrics): void {
  if (instrumented.has(client)) return;
  instrumented.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
      currentMetrics()?.record(operation);
      all?.record(operation);
      return next(args);
    },
    { step: 'deserialize', name: 'gatewayOperationMetrics', priority: 'low' },
  );
}
