/**
 * The telemetry port: what the gateway tells its traces and metrics, and
 * `loadTelemetry()`, the one place the OpenTelemetry SDK is loaded.
 *
 * Off costs nothing: with no `OTEL_*` variable set (settings.ts) there is no
 * Telemetry object. createServer then installs no plugin, operations'
 * metrics carry no CallObserver, stream batches are handed to the handler
 * as before, and neither `@opentelemetry/api` nor the SDK is ever imported:
 * otel.ts, which holds every OpenTelemetry import, is loaded with a dynamic
 * `import()` (a chunk of its own in the bundles, scripts/bundle.ts), so a
 * process without telemetry does not even parse it at cold start.
 *
 * What is reported (docs/observability.md has the attributes and metrics):
 * - one span per GraphQL operation, child of the caller's W3C traceparent
 *   (graphql/plugins/telemetry.ts), and one child span per DynamoDB call
 *   (through the operation's CallObserver, dynamo/metrics.ts); no span per
 *   resolver;
 * - one span per stream batch (streamBatch.ts), its DynamoDB calls as
 *   children;
 * - event delivery spans for subscriptions (`startDelivery`, for the
 *   transport that delivers events to subscribers);
 * - the metrics of each of those, plus open HTTP connections and stream lag.
 */
import type { Server } from 'node:net';
import type { CallObserver, MetricsSummary } from '../dynamo/metrics.js';
import type { TelemetrySettings } from './settings.js';
import type { Logger } from '../logger.js';

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
  /** Exports everything recorded so far (Lambda: before the invocation returns). */
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

/**
 * The process's telemetry, or undefined when no `OTEL_*` variable is set.
 * Loads otel.ts (and with it the SDK) only when there is something to send.
 */
export async function loadTelemetry(
  settings: TelemetrySettings | undefined,
  logger: Logger,
  overrides: TelemetryOverrides = {},
): Promise<Telemetry | undefined> {
  if (!settings) return undefined;
  const { startOpenTelemetry } = await import('./otel.js');
  return startOpenTelemetry(settings, logger, overrides);
}
