/**
 * Which telemetry this process sends, read from the standard OpenTelemetry
 * environment variables (config.ts hands its environment in; nothing here
 * reads process.env). docs/observability.md lists every variable.
 *
 * Telemetry is on when any variable whose name starts with `OTEL_` is set
 * (and `OTEL_SDK_DISABLED` is not true); with none, `telemetrySettings`
 * returns undefined and the process never loads the SDK (telemetry.ts).
 *
 * Decided here, as the specification's SDKs decide them: which exporters
 * (`OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`: otlp by default), the
 * OTLP protocol per signal (`OTEL_EXPORTER_OTLP[_TRACES|_METRICS]_PROTOCOL`,
 * http/protobuf by default), the propagators (`OTEL_PROPAGATORS`) and the
 * metric export interval, and the resource (`OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`). The SDK packages read the rest of the
 * standard variables themselves: endpoints, headers, timeouts and
 * compression of the OTLP exporters, the sampler
 * (`OTEL_TRACES_SAMPLER[_ARG]`), the batch span processor (`OTEL_BSP_*`),
 * span limits and the Prometheus exporter's
 * `OTEL_EXPORTER_PROMETHEUS_HOST`/`_PORT`.
 */

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type TraceExporterName = 'otlp' | 'console';
export type MetricExporterName = 'otlp' | 'prometheus' | 'console';

export interface TelemetrySettings {
  traces: { exporters: TraceExporterName[]; protocol: OtlpProtocol };
  metrics: { exporters: MetricExporterName[]; protocol: OtlpProtocol; intervalMs: number; timeoutMs: number };
  /** `OTEL_PROPAGATORS` (default tracecontext,baggage); empty for `none`. */
  propagators: ('tracecontext' | 'baggage')[];
  /** `OTEL_RESOURCE_ATTRIBUTES`, then `OTEL_SERVICE_NAME` as `service.name` (default dynamo-graph-gateway). */
  resource: Record<string, string>;
}

type Env = Record<string, string | undefined>;
/** Raises config.ts's ConfigError (passed in, so this module imports nothing of config.ts). */
type Fail = (message: string) => never;

function list<T extends string>(env: Env, fail: Fail, name: string, allowed: readonly T[], fallback: T[]): T[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const values = [...new Set(raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean))];
  if (values.includes('none')) return [];
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value)) {
      fail(`${name} may list ${allowed.join(', ')} or none; got "${value}"`);
    }
  }
  return values as T[];
}

function protocol(env: Env, fail: Fail, signal: 'TRACES' | 'METRICS'): OtlpProtocol {
  const name = env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL` : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[name]?.trim() || 'http/protobuf';
  if (raw === 'http/protobuf' || raw === 'http/json') return raw;
  // gRPC would bring @grpc/grpc-js into every cold start; the OpenTelemetry Collector accepts OTLP over HTTP on 4318.
  return fail(`${name} must be http/protobuf or http/json (gRPC is not built in: point it at a collector's OTLP/HTTP port, 4318); got "${raw}"`);
}

function millis(env: Env, fail: Fail, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive integer of milliseconds; got "${raw}"`);
  return value;
}

/** `key=value,key2=value2`, values percent-encoded (the specification's format). */
function resourceAttributes(env: Env, fail: Fail): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    if (at <= 0) fail(`OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas; got "${pair}"`);
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      fail(`OTEL_RESOURCE_ATTRIBUTES: the value of ${pair.slice(0, at).trim()} is not valid percent-encoding`);
    }
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  if (serviceName) attributes['service.name'] = serviceName;
  return attributes;
}

export function telemetrySettings(env: Env, fail: Fail): TelemetrySettings | undefined {
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  if (disabled || !Object.keys(env).some((name) => name.startsWith('OTEL_') && env[name])) return undefined;
  return {
    traces: { exporters: list(env, fail, 'OTEL_TRACES_EXPORTER', ['otlp', 'console'] as const, ['otlp']), protocol: protocol(env, fail, 'TRACES') },
    metrics: {
      exporters: list(env, fail, 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus', 'console'] as const, ['otlp']),
      protocol: protocol(env, fail, 'METRICS'),
      intervalMs: millis(env, fail, 'OTEL_METRIC_EXPORT_INTERVAL', 60_000),
      timeoutMs: millis(env, fail, 'OTEL_METRIC_EXPORT_TIMEOUT', 30_000),
    },
    propagators: list(env, fail, 'OTEL_PROPAGATORS', ['tracecontext', 'baggage'] as const, ['tracecontext', 'baggage']),
    resource: resourceAttributes(env, fail),
  };
}
