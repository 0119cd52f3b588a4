/**
 * The Telemetry port (telemetry.ts) on the OpenTelemetry SDK. Every
 * OpenTelemetry import of the gateway is in this file, loaded only when
 * telemetry is configured (a dynamic import).
 *
 * The standard SDK packages' providers, processors, readers and exporters,
 * put together as NodeSDK does but without NodeSDK, which imports every
 * exporter it could build and is far slower to import (the measurement:
 * docs/observability.md). The providers read their standard variables
 * themselves; settings.ts decides the rest. No context manager and no
 * instrumentation: each span's parent is passed explicitly, so no
 * AsyncLocalStorage is entered on the request path and nothing is patched.
 */
import { isThrottlingError } from '@smithy/core/retry';
import {
  diag,
  DiagLogLevel,
  metrics as metricsApi,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Meter,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { Server } from 'node:net';
import { capacityUnits, type CallObserver, type CallOutput, type CallTrace } from '../dynamo/metrics.js';
import type { Logger } from '../logger.js';
import type { TelemetrySettings } from './settings.js';
import type { BatchStart, BatchTrace, Carrier, DeliveryTrace, OperationTrace, Outcome, Telemetry, TelemetryOverrides } from './port.js';

/** The tracer's and meter's name, and the default `service.name` (OTEL_SERVICE_NAME overrides). */
export const SERVICE = 'dynamo-graph-gateway';

const getter: TextMapGetter<Carrier> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: () => [],
};

/** Seconds; operations of a GraphQL gateway mostly take 1–100 ms. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; stream lag is normally below a second and grows without bound when the processor falls behind. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

// Each exporter is loaded only when named: the Prometheus exporter alone (CommonJS only) brings
// all of the semantic conventions, and a process exports one way, not four.
async function spanProcessors(settings: TelemetrySettings): Promise<SpanProcessor[]> {
  return Promise.all(
    settings.traces.exporters.map(async (name) => {
      if (name === 'console') return new SimpleSpanProcessor(new ConsoleSpanExporter());
      const { OTLPTraceExporter } =
        settings.traces.protocol === 'http/json'
          ? await import('@opentelemetry/exporter-trace-otlp-http')
          : await import('@opentelemetry/exporter-trace-otlp-proto');
      const exporter: SpanExporter = new OTLPTraceExporter();
      return new BatchSpanProcessor(exporter);
    }),
  );
}

async function metricReaders(settings: TelemetrySettings, logger: Logger): Promise<MetricReader[]> {
  const { exporters, protocol, intervalMs, timeoutMs } = settings.metrics;
  const periodic = (exporter: PushMetricExporter) =>
    new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: intervalMs, exportTimeoutMillis: Math.min(timeoutMs, intervalMs) });
  return Promise.all(
    exporters.map(async (name) => {
      if (name === 'console') return periodic(new ConsoleMetricExporter());
      if (name === 'otlp') {
        const { OTLPMetricExporter } =
          protocol === 'http/json' ? await import('@opentelemetry/exporter-metrics-otlp-http') : await import('@opentelemetry/exporter-metrics-otlp-proto');
        return periodic(new OTLPMetricExporter());
      }
      // OTEL_EXPORTER_PROMETHEUS_HOST / _PORT (default all interfaces, 9464): its own port, path /metrics.
      const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus');
      return new PrometheusExporter({}, (error) => {
        if (error) logger.error({ err: error }, 'the Prometheus metrics endpoint could not start');
      });
    }),
  );
}

function propagator(settings: TelemetrySettings): TextMapPropagator {
  return new CompositePropagator({
    propagators: settings.propagators.map((name) => (name === 'baggage' ? new W3CBaggagePropagator() : new W3CTraceContextPropagator())),
  });
}

/** The tables a request names: TableName, or the keys of RequestItems, or the tables of TransactItems. */
function tableNames(input: Readonly<Record<string, unknown>>): string[] {
  if (typeof input.TableName === 'string') return [input.TableName];
  if (input.RequestItems && typeof input.RequestItems === 'object') return Object.keys(input.RequestItems);
  if (Array.isArray(input.TransactItems)) {
    const names = new Set<string>();
    for (const item of input.TransactItems as Record<string, { TableName?: string }>[]) {
      for (const action of Object.values(item)) if (action?.TableName) names.add(action.TableName);
    }
    return [...names];
  }
  return [];
}

const attemptsOf = (value: unknown): number => {
  const attempts = (value as CallOutput | undefined)?.$metadata?.attempts;
  return typeof attempts === 'number' && attempts > 0 ? attempts : 1;
};

const errorName = (error: unknown) => (error as { name?: string })?.name || 'Error';

/** The SDK's own problems (an unreachable collector, a refused export) as warnings in the process log. */
function logSdkProblems(logger: Logger): void {
  diag.setLogger(
    {
      error: (message, ...args) => logger.warn({ args }, `opentelemetry: ${message}`),
      warn: (message, ...args) => logger.warn({ args }, `opentelemetry: ${message}`),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
}

/** `gateway.stream.lag.current`: the largest lag of the sources added to the returned set (each a reader's). */
function streamLagGauge(meter: Meter): Set<() => number | null> {
  const lagSources = new Set<() => number | null>();
  meter
    .createObservableGauge('gateway.stream.lag.current', {
      description: 'Age of the oldest stream record not processed yet (0 when caught up)',
      unit: 's',
    })
    .addCallback((result) => {
      const lags = [...lagSources].map((f) => f()).filter((lag): lag is number => lag !== null);
      if (lags.length > 0) result.observe(Math.max(...lags) / 1000);
    });
  return lagSources;
}

export async function startOpenTelemetry(settings: TelemetrySettings, logger: Logger, overrides: TelemetryOverrides = {}): Promise<Telemetry> {
  logSdkProblems(logger);
  // service.name defaults to the gateway's; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (settings.ts) win.
  const resource = defaultResource().merge(resourceFromAttributes({ 'service.name': SERVICE, ...settings.resource }));
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: (overrides.spanProcessors as SpanProcessor[] | undefined) ?? (await spanProcessors(settings)),
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: (overrides.metricReaders as MetricReader[] | undefined) ?? (await metricReaders(settings, logger)),
  });
  const textMap = propagator(settings);
  // Registered globally as NodeSDK does, so other code of the process may add its own spans.
  trace.setGlobalTracerProvider(tracerProvider);
  metricsApi.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(textMap);

  const tracer = tracerProvider.getTracer(SERVICE);
  const meter = meterProvider.getMeter(SERVICE);
  const m = instruments(meter);
  const lagSources = streamLagGauge(meter);

  const sdk: Sdk = { tracer, m, textMap };

  return {
    startOperation: (carrier, at) => startOperation(sdk, carrier, at),
    startBatch: (batch, at) => startBatch(sdk, batch, at),
    startDelivery: (subscription, carrier, at) => startDelivery(sdk, subscription, carrier, at),

    subscriptionsChanged(delta) {
      m.subscriptions.add(delta);
    },

    watchConnections(server: Server) {
      server.on('connection', (socket) => {
        m.connections.add(1);
        socket.once('close', () => m.connections.add(-1));
      });
    },

    watchStreamLag(lagMs) {
      lagSources.add(lagMs);
    },

    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },

    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metricsApi.disable();
      propagation.disable();
      diag.disable();
    },
  };
}

type Instruments = ReturnType<typeof instruments>;

function instruments(meter: Meter) {
  return {
    operations: meter.createCounter('gateway.graphql.operations', { description: 'GraphQL operations, by type and outcome' }),
    duration: meter.createHistogram('gateway.graphql.operation.duration', {
      description: 'Time from receiving a GraphQL operation to its response',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    errors: meter.createCounter('gateway.graphql.errors', { description: 'Errors in GraphQL responses, by extensions.code' }),
    requests: meter.createCounter('gateway.dynamodb.requests', { description: 'DynamoDB requests (attempts included), by operation' }),
    capacity: meter.createCounter('gateway.dynamodb.consumed_capacity', {
      description: 'DynamoDB capacity units consumed, by operation',
      unit: '{capacity_unit}',
    }),
    retries: meter.createCounter('gateway.dynamodb.retries', { description: 'DynamoDB requests that were retries of a failed attempt' }),
    throttles: meter.createCounter('gateway.dynamodb.throttles', { description: 'DynamoDB attempts refused for throughput (throttled)' }),
    batches: meter.createCounter('gateway.stream.batches', { description: 'Stream batches handled, by outcome' }),
    records: meter.createCounter('gateway.stream.records', { description: 'Stream records, by outcome (processed, failed)' }),
    lag: meter.createHistogram('gateway.stream.lag', {
      description: "Age of a stream batch's oldest record when the batch was taken up",
      unit: 's',
      advice: { explicitBucketBoundaries: LAG_BUCKETS },
    }),
    connections: meter.createUpDownCounter('gateway.http.open_connections', { description: 'Open HTTP connections' }),
    subscriptions: meter.createUpDownCounter('gateway.subscriptions.active', { description: 'Open GraphQL subscriptions' }),
    deliveries: meter.createCounter('gateway.subscriptions.events', { description: 'Subscription events delivered, by subscription and outcome' }),
  };
}

/**
 * DynamoDB figures of one operation or batch, by DynamoDB operation, added
 * to the counters once when it finishes: each counter `add` hashes its
 * attributes, so one per DynamoDB operation name rather than one per call.
 */
type Tally = Map<string, { requests: number; capacity: number; retries: number; throttles: number }>;
function recordTally(m: Instruments, tally: Tally) {
  for (const [operation, t] of tally) {
    const method = { 'rpc.method': operation };
    m.requests.add(t.requests, method);
    if (t.capacity > 0) m.capacity.add(t.capacity, method);
    if (t.retries > 0) m.retries.add(t.retries, method);
    if (t.throttles > 0) m.throttles.add(t.throttles, method);
  }
}

/** One child span per DynamoDB call of the span in `parent`; its figures go into `tally`. */
function callObserver(tracer: Tracer, parent: Context, tally: Tally): CallObserver {
  return {
    callStarted(operation, input, at): CallTrace {
      const attributes: Attributes = {
        'rpc.system': 'aws-api',
        'rpc.service': 'DynamoDB',
        'rpc.method': operation,
        'db.system.name': 'aws.dynamodb',
        'db.operation.name': operation,
        'aws.dynamodb.table_names': tableNames(input),
      };
      if (typeof input.IndexName === 'string') attributes['aws.dynamodb.index_name'] = input.IndexName;
      if (typeof input.Limit === 'number') attributes['aws.dynamodb.limit'] = input.Limit;
      const span = tracer.startSpan(`DynamoDB.${operation}`, { kind: SpanKind.CLIENT, attributes, startTime: at }, parent);
      let throttles = 0;
      return {
        attemptFailed(error) {
          if (isThrottlingError(error as never)) throttles += 1;
        },
        finished(output, error, endedAt) {
          const attempts = attemptsOf(error ?? output);
          const consumed = output?.ConsumedCapacity as Parameters<typeof capacityUnits>[0];
          const units = capacityUnits(consumed);
          let t = tally.get(operation);
          if (!t) tally.set(operation, (t = { requests: 0, capacity: 0, retries: 0, throttles: 0 }));
          t.requests += attempts;
          t.capacity += units;
          t.retries += attempts - 1;
          t.throttles += throttles;
          if (span.isRecording()) {
            span.setAttributes({
              'gateway.dynamodb.capacity_units': units,
              'gateway.dynamodb.attempts': attempts,
              'gateway.dynamodb.retries': attempts - 1,
              'gateway.dynamodb.throttles': throttles,
            });
            const counted = output as { Count?: unknown; ScannedCount?: unknown } | undefined;
            if (typeof counted?.Count === 'number') span.setAttribute('aws.dynamodb.count', counted.Count);
            if (typeof counted?.ScannedCount === 'number') span.setAttribute('aws.dynamodb.scanned_count', counted.ScannedCount);
            const requestId = (error as CallOutput | undefined)?.$metadata?.requestId ?? output?.$metadata?.requestId;
            if (requestId) span.setAttribute('aws.request_id', requestId);
            if (error !== undefined) {
              span.setAttribute('error.type', errorName(error));
              span.setStatus({ code: SpanStatusCode.ERROR, message: errorName(error) });
            }
          }
          span.end(endedAt);
        },
      };
    },
  };
}

function outcomeStatus(span: Span, outcome: Outcome, errorType: string | undefined) {
  if (outcome !== 'server_error') return;
  span.setAttribute('error.type', errorType ?? 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}

interface Sdk {
  tracer: Tracer;
  m: Instruments;
  textMap: TextMapPropagator;
}

function startOperation(sdk: Sdk, carrier: Carrier | undefined, at: number | undefined): OperationTrace {
  const started = at ?? performance.now();
  const parent = carrier ? sdk.textMap.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
  const span = sdk.tracer.startSpan('graphql.operation', { kind: SpanKind.SERVER, startTime: at }, parent);
  const tally: Tally = new Map();
  return {
    calls: callObserver(sdk.tracer, trace.setSpan(ROOT_CONTEXT, span), tally),
    finish({ name, type, cost, codes, outcome, dynamodb, requestId }, endedAt) {
      recordTally(sdk.m, tally);
      const kind = { 'graphql.operation.type': type ?? 'unknown', outcome };
      sdk.m.operations.add(1, kind);
      sdk.m.duration.record(((endedAt ?? performance.now()) - started) / 1000, kind);
      for (const code of codes) sdk.m.errors.add(1, { 'error.code': code });
      if (span.isRecording()) {
        span.updateName(name ? `${type ?? 'graphql'} ${name}` : (type ?? 'graphql.operation'));
        const attributes: Attributes = {
          'graphql.operation.type': type ?? 'unknown',
          'gateway.request_id': requestId,
          'gateway.outcome': outcome,
          'gateway.error_codes': codes,
          'gateway.dynamodb.requests': dynamodb.requests,
          'gateway.dynamodb.waves': dynamodb.waves,
          'gateway.dynamodb.consumed_capacity': dynamodb.consumedCapacity,
          'gateway.dynamodb.max_concurrency': dynamodb.maxConcurrency,
        };
        if (name) attributes['graphql.operation.name'] = name;
        if (cost !== undefined) attributes['gateway.cost'] = cost;
        span.setAttributes(attributes);
        outcomeStatus(
          span,
          outcome,
          codes.find((c) => c === 'INTERNAL_SERVER_ERROR' || c === 'UNAVAILABLE'),
        );
      }
      span.end(endedAt);
    },
  };
}

function startBatch(sdk: Sdk, { source, records, lagMs, shardId }: BatchStart, at?: number): BatchTrace {
  const attributes: Attributes = { 'gateway.stream.source': source, 'gateway.stream.records': records };
  if (shardId) attributes['gateway.stream.shard_id'] = shardId;
  if (lagMs !== null) attributes['gateway.stream.lag_ms'] = lagMs;
  const span = sdk.tracer.startSpan('stream batch', { kind: SpanKind.CONSUMER, attributes, startTime: at }, ROOT_CONTEXT);
  if (lagMs !== null) sdk.m.lag.record(lagMs / 1000);
  const tally: Tally = new Map();
  return {
    calls: callObserver(sdk.tracer, trace.setSpan(ROOT_CONTEXT, span), tally),
    finish({ processed, failed, copies, edgesRemoved, error }, endedAt) {
      recordTally(sdk.m, tally);
      sdk.m.batches.add(1, { outcome: failed ? 'failed' : 'ok' });
      if (processed > 0) sdk.m.records.add(processed, { outcome: 'processed' });
      if (failed) sdk.m.records.add(1, { outcome: 'failed' });
      span.setAttributes({
        'gateway.stream.processed': processed,
        'gateway.stream.failed': failed,
        'gateway.stream.copies': copies,
        'gateway.stream.edges_removed': edgesRemoved,
      });
      if (failed) outcomeStatus(span, 'server_error', error === undefined ? undefined : errorName(error));
      span.end(endedAt);
    },
  };
}

function startDelivery(sdk: Sdk, subscription: string, carrier: Carrier | undefined, at: number | undefined): DeliveryTrace {
  const parent = carrier ? sdk.textMap.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
  const span = sdk.tracer.startSpan(
    `subscription ${subscription}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'graphql.operation.type': 'subscription', 'gateway.subscription': subscription },
      startTime: at,
    },
    parent,
  );
  const tally: Tally = new Map();
  return {
    calls: callObserver(sdk.tracer, trace.setSpan(ROOT_CONTEXT, span), tally),
    finish({ outcome, error }, endedAt) {
      recordTally(sdk.m, tally);
      sdk.m.deliveries.add(1, { 'gateway.subscription': subscription, outcome });
      span.setAttribute('gateway.outcome', outcome);
      outcomeStatus(span, outcome, error === undefined ? undefined : errorName(error));
      span.end(endedAt);
    },
  };
}
