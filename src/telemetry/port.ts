/**
 * The telemetry port's types: what the gateway tells its traces and metrics
 * (telemetry.ts has the overview). Both sides import them from here: the
 * gateway through telemetry.ts, the OpenTelemetry implementation (otel.ts)
 * directly, so otel.ts and telemetry.ts do not import each other.
 */
import type { Server } from 'node:net';
import type { CallObserver, MetricsSummary } from '../dynamo/metrics.js';

/** A carrier of W3C trace context: request headers by lower-case name. */
export interface Carrier {
  get(name: string): string | undefined | null;
}

export type Outcome = 'ok' | 'user_error' | 'server_error';

export interface OperationFinish {
  /** As logged (operationLog.ts): only a name the document defines, truncated. */
  name: string | null;
  type: string | null;
  cost: number | undefined;
  codes: string[];
  outcome: Outcome;
  dynamodb: MetricsSummary;
  requestId: string;
}

/**
 * Every `at` below is when the event happened (performance.now()), for
 * events told afterwards (deferred.ts replays what happened while the SDK
 * loaded); absent, it is now.
 */
export interface OperationTrace {
  /** Hand to the operation's OperationMetrics: one child span per DynamoDB call. */
  calls: CallObserver;
  finish(result: OperationFinish, at?: number): void;
}

export interface BatchStart {
  /** `reader` (in-process stream reader) or `lambda` (the stream Lambda's event). */
  source: 'reader' | 'lambda';
  records: number;
  /** Age of the batch's oldest record when the batch was taken up, in ms. */
  lagMs: number | null;
  shardId?: string;
}

export interface BatchFinish {
  processed: number;
  failed: boolean;
  copies: number;
  edgesRemoved: number;
  error?: unknown;
}

export interface BatchTrace {
  calls: CallObserver;
  finish(result: BatchFinish, at?: number): void;
}

export interface DeliveryTrace {
  /** Hand to the execution's OperationMetrics when this delivery runs one: its DynamoDB calls are spans and counted. */
  calls: CallObserver;
  finish(result: { outcome: Outcome; error?: unknown }, at?: number): void;
}

export interface Telemetry {
  startOperation(carrier: Carrier | undefined, at?: number): OperationTrace;
  startBatch(start: BatchStart, at?: number): BatchTrace;
  /**
   * For subscriptions: one span per event delivered to one subscriber,
   * child of the trace context the event carries (if any), and the count of
   * deliveries by outcome. `subscription` is the root field's name.
   */
  startDelivery(subscription: string, carrier?: Carrier, at?: number): DeliveryTrace;
  /** For subscriptions: the number of open subscriptions changed by `delta`. */
  subscriptionsChanged(delta: number): void;
  /** Counts a server's open connections (`gateway.http.open_connections`). */
  watchConnections(server: Server): void;
  /** Reports a stream reader's current lag (`gateway.stream.lag.current`). */
  watchStreamLag(lagMs: () => number | null): void;
  /** Exports everything recorded so far (Lambda: before an invocation returns; the first one's after its answer). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Test and tool seams: processors and readers instead of the exporters the settings name. */
export interface TelemetryOverrides {
  /** Span processors (e.g. a SimpleSpanProcessor over an InMemorySpanExporter) instead of the configured exporters. */
  spanProcessors?: unknown[];
  /** Metric readers instead of the configured exporters. */
  metricReaders?: unknown[];
}
