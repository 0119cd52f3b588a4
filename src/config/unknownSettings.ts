/**
 * Set variables that no setting reads but that look meant for this gateway
 * (a project prefix, or a near miss of a setting's name): likely
 * misspellings, which start-up warns about with the closest known name.
 */
import type { Env, UnknownSetting } from './configTypes.js';
import { isUnset, OWNER_CLAIM_SETTING, TABLE } from './settings.js';

/**
 * Prefixes only this project uses: a variable with one of them that no
 * setting reads is most likely a misspelling, which would otherwise be
 * silently ignored (and, for DYNAMODB_ENDPOINT, start the embedded DynamoDB
 * Local instead). AWS_, NODE_ and HTTP_ are shared with other tools.
 */
const PROJECT_PREFIXES =
  /^(DYNAMODB_|AUTH_|WS_|CURSOR_|REDIS_|GATEWAY_|GRAPHQL_|STREAM_|MIGRATE_|RESHARD_|HEALTH_|IDEMPOTENCY_|TELEMETRY_|MAX_QUERY_|MAX_DYNAMODB_|MAX_RESPONSE_|OTEL_)/;

/** OpenTelemetry's own variables, which the SDK reads itself (the specification's names). */
const STANDARD_OTEL =
  /^OTEL_(EXPORTER_OTLP(_(TRACES|METRICS|LOGS))?_(ENDPOINT|HEADERS|TIMEOUT|COMPRESSION|PROTOCOL|CERTIFICATE|CLIENT_KEY|CLIENT_CERTIFICATE|INSECURE)|EXPORTER_OTLP_METRICS_(TEMPORALITY_PREFERENCE|DEFAULT_HISTOGRAM_AGGREGATION)|EXPORTER_(PROMETHEUS|ZIPKIN|JAEGER)_\w+|TRACES_SAMPLER(_ARG)?|LOGS_EXPORTER|LOG_LEVEL|(BSP|BLRP|ATTRIBUTE|SPAN|LINK|EVENT|NODE|EXPERIMENTAL)_\w+|METRICS_EXEMPLAR_FILTER|SEMCONV_STABILITY_OPT_IN|CONFIG_FILE)$/;

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The set variables that neither a setting nor a family of settings reads
 * and that look meant for this gateway (a project prefix, or a near miss of
 * any setting's name), each with the closest known name.
 */
export function unknownSettings(env: Env): UnknownSetting[] {
  const names = Object.keys(TABLE).filter((name) => TABLE[name]!.kind !== 'pattern');
  const known = (name: string) => name in TABLE || STANDARD_OTEL.test(name) || OWNER_CLAIM_SETTING.test(name);
  const closest = (name: string) => names.reduce((best, candidate) => (distance(name, candidate) < distance(name, best) ? candidate : best));
  // Without a project prefix only a near miss of a setting's whole name (TABEL_NAME, SCHEMA_FLE) is one:
  // the environment holds many other programs' variables (PATH, HOME, HOSTNAME).
  const nearMiss = (name: string) => distance(name, closest(name)) <= (name.length < 8 ? 1 : 2);
  return Object.keys(env)
    .filter((name) => !known(name) && !isUnset(env[name]))
    .filter((name) => PROJECT_PREFIXES.test(name) || nearMiss(name))
    .sort()
    .map((name) => ({ name, closest: closest(name) }));
}
