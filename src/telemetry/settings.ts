/**
 * Which telemetry this process sends. The OTEL_* settings are entries of
 * config.ts's settings table (docs/configuration.md lists them, and
 * docs/observability.md explains them); this module is their reader for
 * code that has an environment but no Config (tools, benchmarks, tests).
 *
 * Telemetry is on when any variable whose name starts with `OTEL_` is set
 * (and `OTEL_SDK_DISABLED` is not true); with none, `telemetrySettings`
 * returns undefined and the process never loads the SDK (telemetry.ts).
 * The SDK packages read the rest of the standard variables themselves:
 * endpoints, headers, timeouts and compression of the OTLP exporters, the
 * sampler, the batch span processor, span limits and the Prometheus
 * exporter's host and port.
 */
import { ConfigError, loadTelemetrySettings, type TelemetrySettings } from '../config.js';

export type { MetricExporterName, OtlpProtocol, TelemetrySettings, TraceExporterName } from '../config.js';

type Env = Record<string, string | undefined>;
/** What to do with a bad value's message (loadConfig raises ConfigError itself). */
type Fail = (message: string) => never;

export function telemetrySettings(env: Env, fail: Fail): TelemetrySettings | undefined {
  try {
    return loadTelemetrySettings(env);
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
}
