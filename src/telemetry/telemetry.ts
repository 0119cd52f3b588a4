/**
 * The telemetry port: what the gateway tells its traces and metrics (its
 * types: port.ts), and `loadTelemetry()`, the one place the OpenTelemetry
 * SDK is loaded.
 *
 * Off costs nothing: with no `OTEL_*` variable set (settings.ts) there is no
 * Telemetry object. createServer then installs no plugin, operations'
 * metrics carry no CallObserver, stream batches go to the handler
 * unwrapped, and neither `@opentelemetry/api` nor the SDK is ever imported:
 * otel.ts, which holds every OpenTelemetry import, is loaded with a dynamic
 * `import()` (a chunk of its own in the bundles, scripts/bundle.ts), so a
 * process without telemetry does not even parse it at cold start.
 *
 * What is reported (docs/observability.md has the attributes and metrics):
 * - one span per GraphQL operation, child of the caller's W3C traceparent
 *   (graphql/plugins/telemetry.ts), and one child span per DynamoDB call
 *   (through the operation's CallObserver, dynamo/metrics.ts); no span per
 *   resolver;
 * - one span per stream batch (stream/tracedBatch.ts), its DynamoDB calls as
 *   children;
 * - event delivery spans for subscriptions (`startDelivery`, for the
 *   transport that delivers events to subscribers);
 * - the metrics of each of those, plus open HTTP connections and stream lag.
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
