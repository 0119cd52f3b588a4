/**
 * DynamoDB requests per GraphQL operation: how many, of which kind, what
 * capacity they consumed, and how many had to wait for another.
 *
 * The client is shared by all operations, so each gets its own view,
 * `metricsClient(doc, metrics)`: its `send` tags the command's input, and
 * middleware (installed once by `instrumentClient`) records the call and
 * its attempts into the tagged metrics; the read port counts the same way.
 * Not AsyncLocalStorage: on Node 20 its promise hooks slow every `await`.
 *
 * - request: one HTTP request to DynamoDB, each retry attempt included.
 * - call: one `client.send()`, retries included.
 * - waves: the longest chain of calls each started after the one before
 *   finished (10 Queries together, then a BatchGetItem: 2 waves); an upper
 *   bound of the critical path when independent chains overlap.
 * - maxConcurrency: most calls in flight together.
 * - consumed capacity: `ReturnConsumedCapacity: TOTAL` on every request, summed.
 * A `CallObserver` (telemetry on) hears of every call, attempt and end.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What clients see in `extensions.dynamodb` and what the operation log line carries. */
export interface MetricsSummary {
  requests: number;
  byOperation: Record<string, number>;
  consumedCapacity: number;
  waves: number;
  maxConcurrency: number;
}

/** Hard caps on the DynamoDB work of one operation (config `MAX_DYNAMODB_REQUESTS`, `MAX_DYNAMODB_IN_FLIGHT`). */
export interface RequestLimits {
  /** Requests (attempts included) one operation may send; the next one fails with DynamoRequestLimitError. */
  maxRequests: number;
  /** Calls of one operation in flight at once; further calls wait for a free slot. */
  maxInFlight: number;
}

/**
 * An operation asked for more DynamoDB requests than it may send. Thrown by
 * the client middleware instead of sending the request; the SDK does not
 * retry it (a client error), so every later call of the operation fails at
 * once too. formatError turns it into BAD_USER_INPUT with
 * `extensions.reason: DYNAMODB_REQUEST_LIMIT`.
 */
export class DynamoRequestLimitError extends Error {
  override name = 'DynamoRequestLimitError';
  constructor(
    readonly limit: number,
    why = '',
  ) {
    super(`This operation needs more than ${limit} DynamoDB requests${why}; ask for fewer or smaller connections.`);
  }
}

/** Told of every call of one operation (telemetry: a span per DynamoDB request). */
/** `at`: when it happened (performance.now()), for a call told afterwards (telemetry/deferred.ts); now when absent. */
export interface CallObserver {
  callStarted(operation: string, input: Readonly<Record<string, unknown>>, at?: number): CallTrace;
}

export interface CallTrace {
  /** An attempt failed (it may still be retried). */
  attemptFailed(error: unknown): void;
  /** The call's final output (with `$metadata.attempts`), or the error it ended with. */
  finished(output: CallOutput | undefined, error?: unknown, at?: number): void;
}

export interface CallOutput {
  ConsumedCapacity?: unknown;
  $metadata?: { attempts?: number; requestId?: string };
}

/**
 * Requests reserved for one operation before they are sent, from budgets
 * shared with other operations (graphql/reservation.ts): the operation's
 * calls claim them one by one and ask for more once all are claimed.
 */
export interface RequestLease {
  /** Requests reserved so far: the first attempts the operation may send. */
  readonly granted: number;
  /** Reserves more so that at least `wanted` are granted, if the budgets hold them (nothing to wait for when they answer at once). */
  extend(wanted: number): void | Promise<void>;
  /** Why no more could be reserved, for the error of the call that found none. */
  readonly why: string;
}

export class OperationMetrics {
  /** Set only while telemetry traces this operation (not even initialised otherwise). */
  declare calls?: CallObserver;
  requests = 0;
  /** First attempts: the calls sent (a call's retries are more requests, not more calls). */
  private firstAttempts = 0;
  readonly byOperation: Record<string, number> = {};
  /** The retries among `byOperation`'s requests, by operation (a throttled or failed attempt sent again). */
  readonly retriesByOperation: Record<string, number> = {};
  /** Capacity units consumed (reads and writes, tables and indexes). */
  consumedCapacity = 0;
  waves = 0;
  maxConcurrency = 0;
  private inFlight = 0;
  /** Calls holding an in-flight slot, and the calls waiting for one (FIFO). */
  private slotsTaken = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * A lower cap for this operation alone (a query's, from the length of its text: plugins/requestBudget.ts),
   * on its calls: what the query asks for, not the retries DynamoDB's throttling adds.
   */
  private budget: { limit: number; why: string } | undefined;
  /** Where the requests are reserved before they are sent, and the calls that claimed one so far. */
  private lease: RequestLease | undefined;
  private claimed = 0;
  constructor(readonly limits?: RequestLimits) {}

  /** The most first attempts this operation may send (its configured cap, or a lower one). */
  get requestCap(): number {
    return Math.min(this.limits?.maxRequests ?? Infinity, this.budget?.limit ?? Infinity);
  }

  /** Every call from now on claims a request of `lease` before it starts. */
  reserveThrough(lease: RequestLease): void {
    this.lease = lease;
  }

  /** Caps this operation's requests at `limit` (or its configured cap, or an earlier cap, if lower). */
  capRequests(limit: number, why: string): void {
    if (this.limits && this.limits.maxRequests <= limit) return;
    // Several caps may apply (the text's, the caller's): the lowest holds.
    if (this.budget && this.budget.limit <= limit) return;
    this.budget = { limit, why };
  }

  /**
   * Claims one of the operation's reserved requests (reserving more once
   * all are claimed), then waits until the operation has fewer than
   * `maxInFlight` calls in flight. Pair with `releaseSlot()`. Without a
   * lease or limits it returns at once.
   */
  acquireSlot(): Promise<void> | undefined {
    const lease = this.lease;
    // Every reserved request claimed: reserve more first (a call that finds none fails as it is counted).
    if (lease && this.claimed >= lease.granted) {
      const extended = lease.extend(this.claimed + 1);
      if (extended) return extended.then(() => this.takeSlot());
    }
    return this.takeSlot();
  }

  private takeSlot(): Promise<void> | undefined {
    this.claimed += 1;
    if (!this.limits) return undefined;
    if (this.slotsTaken < this.limits.maxInFlight) {
      this.slotsTaken += 1;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  releaseSlot(): void {
    if (!this.limits) return;
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter: slotsTaken stays the same.
    if (next) next();
    else this.slotsTaken -= 1;
  }

  /** Counts one request (attempt); throws DynamoRequestLimitError instead once the operation's cap is reached. */
  record(operation: string, retry = false): void {
    if (!retry) {
      if (this.budget && this.firstAttempts >= this.budget.limit) throw new DynamoRequestLimitError(this.budget.limit, this.budget.why);
      const lease = this.lease;
      if (lease && this.firstAttempts >= lease.granted && lease.granted < this.requestCap) throw new DynamoRequestLimitError(lease.granted, lease.why);
      this.firstAttempts += 1;
    }
    if (this.limits && this.requests >= this.limits.maxRequests) throw new DynamoRequestLimitError(this.limits.maxRequests);
    this.requests += 1;
    this.byOperation[operation] = (this.byOperation[operation] ?? 0) + 1;
    if (retry) this.retriesByOperation[operation] = (this.retriesByOperation[operation] ?? 0) + 1;
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

/**
 * Where the tag travels: on the command's input from `metricsClient` to the
 * first middleware (the document client marshals the input into a new object
 * before serialization, dropping it), then on the handler arguments, which
 * every SDK middleware passes on (`next({ ...args, request })`) down to the
 * deserialize step, once per attempt.
 */
const TAG = Symbol('operationMetrics');
const SHARED = Symbol('sharedClient');
/** The call's trace, beside the tag, down to the deserialize step (each attempt). */
const TRACE = Symbol('callTrace');
type Tagged = { [TAG]?: OperationMetrics };
type Traced = { [TRACE]?: CallTrace };
type View = DynamoDBDocumentClient & { [SHARED]?: DynamoDBDocumentClient; [TAG]?: OperationMetrics };

/** The view's `send`: tags the command's input with the view's metrics, then sends it on the shared client. */
function countedSend(this: View, command: { input: object }, ...rest: unknown[]) {
  (command.input as Tagged)[TAG] = this[TAG];
  return (this[SHARED]!.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
}

/**
 * A per-operation view of the shared document client: every command sent
 * through it is counted into `metrics`, nothing else changes (it is sent on
 * the shared client, through the SDK). Cheap to make: one object per
 * operation, its `send` shared by all views. The operation's reads usually
 * do not come here at all: they take the read port the context was given
 * (readPort.ts), which counts into the same metrics.
 */
export function metricsClient(doc: DynamoDBDocumentClient, metrics: OperationMetrics): DynamoDBDocumentClient {
  // A view of a view counts into its own metrics, on the shared client.
  const shared = (doc as View)[SHARED] ?? doc;
  const view = Object.create(shared) as View;
  view[SHARED] = shared;
  view[TAG] = metrics;
  view.send = countedSend as DynamoDBDocumentClient['send'];
  return view;
}

/** The operation a command was sent for, if it went through a `metricsClient`. */
const taggedMetrics = (input: unknown): OperationMetrics | undefined =>
  input && typeof input === 'object' ? (input as Tagged)[TAG] : undefined;

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

/**
 * One DynamoDB call accounted into `metrics`, the one way both paths share
 * (the SDK's middleware below, the lean read path): it waits for the
 * operation's in-flight slot, then counts as started; its final output's
 * consumed capacity is recorded and its trace told how it ended; its slot
 * is freed. Each attempt is counted apart (`metrics.record`).
 */
export async function accountedCall<R>(
  metrics: OperationMetrics | undefined,
  trace: CallTrace | undefined,
  call: () => Promise<R>,
  outputOf: (result: R) => CallOutput | undefined,
): Promise<R> {
  const waited = metrics?.acquireSlot();
  if (waited) await waited;
  const depth = metrics?.callStarted() ?? 0;
  try {
    const result = await call();
    const output = outputOf(result);
    metrics?.recordCapacity(capacityUnits(output?.ConsumedCapacity as Consumed | Consumed[] | undefined));
    trace?.finished(output);
    return result;
  } catch (error) {
    trace?.finished(undefined, error);
    throw error;
  } finally {
    metrics?.callFinished(depth);
    metrics?.releaseSlot();
  }
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
      const metrics = taggedMetrics(input);
      if (CAPACITY_OPERATIONS.has(operation) && input && input.ReturnConsumedCapacity === undefined) {
        args = { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } };
      }
      const trace = metrics?.calls?.callStarted(operation, input as Record<string, unknown>);
      if (metrics) args = { ...args, [TAG]: metrics, [TRACE]: trace } as typeof args;
      // The final output is read here: the deserialize step below sees only the raw response.
      return accountedCall(metrics, trace, () => next(args), (result) => result.output as CallOutput | undefined);
    },
    { step: 'initialize', name: 'gatewayOperationCalls', priority: 'high' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = operationOf(context);
      const metrics = (args as Tagged)[TAG];
      // The retry middleware (before this step) numbers each attempt in this header.
      const attempt = (args.request as { headers?: Record<string, string> } | undefined)?.headers?.['amz-sdk-request'];
      metrics?.record(operation, attempt !== undefined && !attempt.startsWith('attempt=1;')); // throws past the operation's request cap: nothing is sent
      const trace = (args as Traced)[TRACE];
      if (!trace) return next(args);
      return next(args).catch((error: unknown) => {
        trace.attemptFailed(error);
        throw error;
      });
    },
    { step: 'deserialize', name: 'gatewayOperationMetrics', priority: 'low' },
  );
}
