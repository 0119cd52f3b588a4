/**
 * The telemetry port: what the gateway tells its traces and metrics (its
 * types: port.ts), and `loadTelemetry()`, the one place the OpenTelemetry
 * SDK is loaded.
 *
 * Off costs nothing: with no `OTEL_*` variable set (settings.ts) there is no
 * Telemetry object, no plugin, no CallObserver, no wrapper around stream
 * batches, and neither `@opentelemetry/api` nor the SDK is imported: otel.ts,
 * which holds every OpenTelemetry import, is a dynamic `import()` (its own
 * bundle chunk), so a process without telemetry never parses it.
 * Reported: a span per operation (child of the caller's traceparent), per
 * DynamoDB call, per stream batch and per subscription delivery, with their
 * metrics (docs/observability.md has the attributes and metrics).
 */
import type { TelemetrySettings } from './settings.js';
import type { Logger } from '../logger.js';
import type { Telemetry, TelemetryOverrides } from './port.js';

export type * from './port.js';

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
