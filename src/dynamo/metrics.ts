/**
 * DynamoDB requests per GraphQL operation: how many, of which kind, what
 * capacity they consumed, and how many of them had to wait for another.
 *
 * The DynamoDB client is shared by all concurrent operations, so a request
 * is attributed to its operation through AsyncLocalStorage: the transport
 * runs each operation inside `runWithMetrics(metrics, …)`, and SDK
 * middleware (installed once by `instrumentClient`) records every request
 * into the metrics of the operation it runs under. DataLoader batches run
 * from `process.nextTick` callbacks scheduled inside the operation, so they
 * are attributed correctly too.
 *
 * Terminology
 * - request: one HTTP request to DynamoDB. Counted in the deserialize step,
 *   below the SDK's retry middleware: each attempt is counted, since each is
 *   a request DynamoDB serves.
 * - call: one `client.send()`, retries included. Tracked in the initialize
 *   step, above the retries.
 * - waves: the sequential round trips of the operation, i.e. the longest
 *   chain of calls each started after the one before it had finished. A
 *   call's depth is one more than the deepest call already finished when it
 *   starts (it may depend on any of them); `waves` is the greatest depth.
 *   A resolver tree that issues 10 Queries together and then one
 *   BatchGetItem makes 2 waves. When independent chains overlap in time
 *   (no batching) the figure over-counts: it is an upper bound of the
 *   critical path, exact when the phases of an operation do not overlap. `maxConcurrency`: most calls in flight
 *   together.
 * - consumed capacity: `ReturnConsumedCapacity: TOTAL` is set on every read
 *   and write (unless the caller asked for more detail), and the units of
 *   every response (one object, or an array for BatchGet/BatchWrite/
 *   Transact*) are summed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** What clients see in `extensions.dynamodb` and what the operation log line carries. */
export interface MetricsSummary {
  requests: number;
  byOperation: Record<string, number>;
  consumedCapacity: number;
  waves: number;
  maxConcurrency: number;
}

export class OperationMetrics {
  requests = 0;
  readonly byOperation: Record<string, number> = {};
  /** Capacity units consumed (reads and writes, tables and indexes). */
  consumedCapacity = 0;
  waves = 0;
  maxConcurrency = 0;
  private inFlight = 0;

  record(operation: string): void {
    this.requests += 1;
    this.byOperation[operation] = (this.byOperation[operation] ?? 0) + 1;
  }

  recordCapacity(units: number): void {
    this.consumedCapacity += units;
  }

  private finishedDepth = 0;

  /** Returns the call's depth, to be handed back to `callFinished`. */
  callStarted(): number {
    const depth = this.finishedDepth + 1;
    this.waves = Math.max(this.waves, depth);
    this.inFlight += 1;
    this.maxConcurrency = Math.max(this.maxConcurrency, this.inFlight);
    return depth;
  }

  callFinished(depth: number): void {
    this.inFlight -= 1;
    this.finishedDepth = Math.max(this.finishedDepth, depth);
  }

  summary(): MetricsSummary {
    return {
      requests: this.requests,
      byOperation: { ...this.byOperation },
      // Units come in halves and small decimals; keep the sum readable.
      consumedCapacity: Math.round(this.consumedCapacity * 1000) / 1000,
      waves: this.waves,
      maxConcurrency: this.maxConcurrency,
    };
  }

  toJSON(): MetricsSummary {
    return this.summary();
  }
}

const storage = new AsyncLocalStorage<OperationMetrics>();

export const runWithMetrics = <T>(metrics: OperationMetrics, fn: () => T): T => storage.run(metrics, fn);

export const currentMetrics = (): OperationMetrics | undefined => storage.getStore();

/** Operations that accept ReturnConsumedCapacity. */
const CAPACITY_OPERATIONS = new Set([
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

interface Consumed {
  CapacityUnits?: number;
}

/** Sum of the capacity units of a response's ConsumedCapacity (one object or an array). */
export function capacityUnits(consumed: Consumed | Consumed[] | undefined): number {
  if (!consumed) return 0;
  const list = Array.isArray(consumed) ? consumed : [consumed];
  return list.reduce((sum, c) => sum + (typeof c?.CapacityUnits === 'number' ? c.CapacityUnits : 0), 0);
}

const instrumented = new WeakSet<DynamoDBClient>();

const operationOf = (context: { commandName?: string }) =>
  String(context.commandName ?? 'Unknown').replace(/Command$/, '');

/** Installs the counting middleware once per client. */
export function instrumentClient(client: DynamoDBClient): void {
  if (instrumented.has(client)) return;
  instrumented.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = operationOf(context);
      const input = args.input as { ReturnConsumedCapacity?: string };
      if (CAPACITY_OPERATIONS.has(operation) && input && input.ReturnConsumedCapacity === undefined) {
        args = { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } };
      }
      const metrics = currentMetrics();
      const depth = metrics?.callStarted() ?? 0;
      try {
        const result = await next(args);
        // The final output (the deserialize step below sees only the raw response).
        const output = result.output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined;
        const units = capacityUnits(output?.ConsumedCapacity);
        metrics?.recordCapacity(units);
        return result;
      } finally {
        metrics?.callFinished(depth);
      }
    },
    { step: 'initialize', name: 'gatewayOperationCalls', priority: 'high' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = operationOf(context);
      const metrics = currentMetrics();
      metrics?.record(operation);
      return next(args);
    },
    { step: 'deserialize', name: 'gatewayOperationMetrics', priority: 'low' },
  );
}
