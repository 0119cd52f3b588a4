/**
 * The settings table, continued: identity and authorization, health and
 * idempotency, the stream processor, subscriptions, the commands and
 * telemetry. settings.ts spreads it into THE TABLE in this order, so the
 * table, its checks and its documentation stay one (settings.ts says how).
 */
import { type OtlpProtocol } from './configTypes.js';
import { bool, choice, int, millis, optionalChoice, otelList, otlpProtocol, pattern, type Setting, text } from './settingKinds.js';
import {
  claimName,
  commaList,
  cursorSecret,
  issuerUrl,
  MIN_CURSOR_SECRET_DISTINCT,
  MIN_CURSOR_SECRET_LENGTH,
  redisUrl,
  resourceAttributes,
  trimmed,
} from './valueChecks.js';

/** The names an `@item(claimSetting:)` may give: the environment variables `claims` holds. */
export const OWNER_CLAIM_SETTING = /^AUTH_[A-Z0-9_]+_CLAIM$/;

export const SERVICE_SETTINGS = {
  // Identity and authorization
  AUTH_MODE: optionalChoice({
    group: 'auth',
    values: ['oidc', 'off'],
    defaultText: '`off` in development; **required** in prod mode',
    meaning:
      "`oidc`: verify bearer tokens and apply the model's authorization rules; `off`: everyone may do everything (prod mode logs a warning). See [auth.md](auth.md).",
  }),
  AUTH_ISSUER: text({
    group: 'auth',
    kind: 'url',
    default: undefined as string | undefined,
    defaultText: '— (required with `oidc`)',
    range: 'an https URL (http only for 127.0.0.1/localhost, or outside prod mode)',
    parse: issuerUrl,
    meaning: "The token issuer's URL, exactly as the tokens' `iss`.",
  }),
  AUTH_AUDIENCE: text({
    group: 'auth',
    kind: 'list',
    default: [] as string[],
    defaultText: '— (required with `oidc`)',
    range: 'comma-separated audiences',
    parse: (raw) => commaList(raw),
    meaning: 'Accepted audiences (`aud`, or `client_id` for tokens without `aud`, as Cognito access tokens).',
  }),
  AUTH_JWKS_URL: text({
    group: 'auth',
    kind: 'url',
    default: undefined as string | undefined,
    defaultText: "the issuer's discovery `jwks_uri`",
    range: 'as `AUTH_ISSUER`',
    parse: issuerUrl,
    meaning: 'Where the signing keys are.',
  }),
  AUTH_ROLES_CLAIM: text({
    group: 'auth',
    default: 'groups',
    range: 'a claim name without spaces',
    parse: claimName,
    meaning: 'Claim listing roles; role `admin` may do everything (`cognito:groups`, `realm_access.roles`, …).',
  }),
  'AUTH_<NAME>_CLAIM': pattern({
    group: 'auth',
    matches: OWNER_CLAIM_SETTING,
    defaultText: "the model's `@item(claim:)`",
    range: 'a claim name without spaces',
    meaning:
      "Renames the claim of the model's owner type whose `@item(claimSetting:)` names the variable; an owner whose variable is unset keeps the claim its model names ([auth.md](auth.md)).",
  }),
  AUTH_CLOCK_TOLERANCE_SECONDS: int({ group: 'auth', default: 5, min: 0, max: 300, meaning: 'Leeway for `exp`/`nbf`/`iat`.' }),
  AUTH_MAX_TOKEN_LIFETIME_SECONDS: int({
    group: 'auth',
    default: 86_400,
    min: 60,
    max: 2_592_000,
    meaning: 'Longest token lifetime accepted: tokens whose `exp` is further than this past `iat` (or now) are refused.',
  }),
  AUTH_JWKS_COOLDOWN_SECONDS: int({ group: 'auth', default: 30, min: 0, max: 3600, meaning: 'Least time between key-set fetches caused by unknown key ids.' }),
  AUTH_DEV_ISSUER: bool({
    group: 'auth',
    default: false,
    meaning:
      'Development only (refused in prod mode, needs `AUTH_MODE=oidc`): `npm start` serves a local token issuer on 127.0.0.1 whose tokens `npm run dev-token` mints.',
  }),
  AUTH_DEV_ISSUER_PORT: int({ group: 'auth', default: 4001, min: 1, max: 65535, meaning: 'Port of that issuer.' }),

  // Health and idempotency
  HEALTH_DETAILS: choice({
    group: 'health',
    values: ['public', 'admins'],
    default: 'public',
    prodDefault: 'admins',
    meaning:
      "Who sees `/health`'s table layout and stream figures: `public`, or `admins` (a bearer token with role `admin`, `AUTH_MODE=oidc`); everyone else gets the status alone.",
  }),
  HEALTH_CACHE_MS: int({ group: 'health', default: 1000, min: 0, max: 60_000, meaning: 'How long `/health` reuses its last table check.' }),
  IDEMPOTENCY_TTL_SECONDS: int({
    group: 'health',
    default: 86_400,
    min: 60,
    max: 2_592_000,
    meaning: "How long a mutation's first response is kept for `Idempotency-Key` retries.",
  }),

  // The stream processor
  STREAM_WORKER: bool({
    group: 'stream',
    default: undefined,
    defaultText: 'on; off with `DYNAMODB_ENDPOINT=aws` or an `amazonaws.com` URL (the Lambda consumer does the work)',
    meaning: "Whether this process reads the table's stream itself ([stream.md](stream.md#settings)).",
  }),
  STREAM_POLL_MS: int({ group: 'stream', default: 250, min: 10, max: 60_000, meaning: 'Pause after a poll that found nothing.' }),
  STREAM_BATCH_SIZE: int({ group: 'stream', default: 100, min: 1, max: 1000, meaning: 'Records per GetRecords.' }),
  STREAM_MAX_ATTEMPTS: int({ group: 'stream', default: 5, min: 1, max: 100, meaning: 'Attempts per record before it is kept as a dead letter and skipped.' }),
  STREAM_RETRY_DELAY_MS: int({ group: 'stream', default: 200, min: 0, max: 60_000, meaning: 'Base of the backoff between those attempts.' }),
  STREAM_CONCURRENCY: int({ group: 'stream', default: 8, min: 1, max: 64, meaning: 'Edge writes in flight while propagating or cascading.' }),

  // Subscriptions
  REDIS_URL: text({
    group: 'subscriptions',
    kind: 'url',
    default: undefined as string | undefined,
    defaultText: 'unset: in-process',
    range: 'a `redis://` or `rediss://` URL',
    parse: redisUrl,
    meaning:
      'Redis or Valkey carrying live-update events from the one stream processor to every gateway instance ([subscriptions.md](subscriptions.md#more-than-one-instance)).',
  }),
  REDIS_EVENT_SECRET: text({
    group: 'subscriptions',
    kind: 'secret',
    secret: true,
    default: undefined as string | undefined,
    defaultText: 'unset: events unsigned (development); **required** in prod mode with `REDIS_URL`',
    range: `at least ${MIN_CURSOR_SECRET_LENGTH} characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different`,
    parse: cursorSecret,
    meaning:
      'Shared by the stream processor and every gateway: each event on Redis carries an HMAC-SHA256 with it, and a gateway drops (and counts) a message that does not verify ([subscriptions.md](subscriptions.md#more-than-one-instance)).',
  }),
  WS_MAX_CONNECTIONS: int({
    group: 'subscriptions',
    default: 1000,
    min: 1,
    max: 1_000_000,
    meaning: 'Open WebSockets per instance, apart from `HTTP_MAX_CONNECTIONS`; more are closed with 1013 ([subscriptions.md](subscriptions.md#settings)).',
  }),
  WS_MAX_CONNECTIONS_PER_ADDRESS: int({
    group: 'subscriptions',
    default: 100,
    min: 0,
    max: 1_000_000,
    note: '0: off',
    meaning:
      'Open WebSockets from one client address; more are closed with 1013. Behind a load balancer every socket comes from its addresses: 0, or more than `WS_MAX_CONNECTIONS`.',
  }),
  WS_MAX_SUBSCRIPTIONS: int({ group: 'subscriptions', default: 50, min: 1, max: 10_000, meaning: 'Subscriptions per connection.' }),
  WS_INIT_TIMEOUT_MS: int({
    group: 'subscriptions',
    default: 5000,
    min: 100,
    max: 600_000,
    meaning: 'Time for `connection_init` before the socket is closed with 4408.',
  }),
  WS_MAX_BUFFERED_BYTES: int({
    group: 'subscriptions',
    default: 1_048_576,
    min: 1024,
    max: 1_073_741_824,
    meaning: 'Bytes waiting to be sent on one socket before it is closed as a slow consumer.',
  }),
  WS_MAX_QUEUED_EVENTS: int({
    group: 'subscriptions',
    default: 1000,
    min: 1,
    max: 1_000_000,
    meaning: 'Events waiting per subscription before it is closed as a slow consumer.',
  }),
  WS_MAX_QUEUED_BYTES: int({
    group: 'subscriptions',
    default: 8_388_608,
    min: 1024,
    max: 1_073_741_824,
    meaning: 'Bytes of events (their items, estimated) waiting for all subscriptions of one socket before it is closed as a slow consumer.',
  }),
  WS_DYNAMODB_REQUESTS_PER_SECOND: int({
    group: 'subscriptions',
    default: 100,
    min: 1,
    max: 1_000_000,
    meaning:
      "DynamoDB requests the event executions of one socket's subscriptions may send per second, on average ([subscriptions.md](subscriptions.md#limits-on-each-event)).",
  }),
  WS_DYNAMODB_REQUESTS_BURST: int({
    group: 'subscriptions',
    default: 500,
    min: 1,
    max: 1_000_000,
    meaning:
      'DynamoDB requests one socket may save up for a burst of events; an execution may send no more than the socket holds (nor than `MAX_DYNAMODB_REQUESTS`).',
  }),
  WS_MAX_DOCUMENT_BYTES: int({
    group: 'subscriptions',
    default: 4_194_304,
    min: 1024,
    max: 1_073_741_824,
    meaning:
      "Bytes the parsed documents of one socket's live subscriptions may hold (estimated as for the document store: source and every token, comments included); a subscribe past it is refused.",
  }),
  WS_MAX_DOCUMENT_BYTES_PER_ADDRESS: int({
    group: 'subscriptions',
    default: 33_554_432,
    min: 0,
    max: 1_073_741_824,
    note: '0: off',
    meaning:
      'Bytes the parsed documents of the live subscriptions of all sockets from one client address may hold, each distinct document once (estimated as for `WS_MAX_DOCUMENT_BYTES`); a subscribe past it is refused. Behind a load balancer every socket comes from its addresses: 0, or `WS_MAX_DOCUMENT_BYTES_TOTAL`.',
  }),
  WS_MAX_DOCUMENT_BYTES_TOTAL: int({
    group: 'subscriptions',
    default: 268_435_456,
    min: 1024,
    max: 17_179_869_184,
    meaning:
      'Bytes the parsed documents of every live subscription of the instance may hold, each distinct document once (estimated as for `WS_MAX_DOCUMENT_BYTES`); a subscribe past it is refused until others end ([subscriptions.md](subscriptions.md#transport-limits-and-close-codes)).',
  }),

  // Lists, migrate and reshard
  MIGRATE_WRITE_UNITS_PER_SECOND: int({
    group: 'commands',
    default: 100,
    min: 1,
    max: 1_000_000,
    meaning: 'Write units per second `npm run migrate` may consume (`--write-units`).',
  }),
  MIGRATE_SEGMENTS: int({ group: 'commands', default: 4, min: 1, max: 1000, meaning: 'Parallel Scan segments of `npm run migrate` (`--segments`).' }),
  RESHARD_GRACE_MS: int({
    group: 'commands',
    default: 10_000,
    min: 0,
    max: 600_000,
    meaning: '`npm run reshard`: wait after switching layouts, longer than any request takes ([sharding.md](sharding.md)).',
  }),
  RESHARD_SETTLE_MS: int({ group: 'commands', default: 1000, min: 0, max: 60_000, meaning: 'Wait after a batch of moves for the index to show them.' }),
  RESHARD_BATCH_SIZE: int({ group: 'commands', default: 25, min: 1, max: 100, meaning: 'Edges moved per batch.' }),
  RESHARD_PAUSE_MS: int({ group: 'commands', default: 100, min: 0, max: 60_000, meaning: 'Pause between batches, so readers find quiet windows.' }),

  // Telemetry
  OTEL_SDK_DISABLED: text({
    group: 'telemetry',
    kind: 'bool',
    default: false,
    range: '`true`, or anything else for false',
    parse: (raw) => raw.trim().toLowerCase() === 'true',
    meaning: '`true`: no telemetry whatever else is set.',
  }),
  OTEL_SERVICE_NAME: text({
    group: 'telemetry',
    default: undefined as string | undefined,
    defaultText: '`dynamo-graph-gateway`',
    range: 'text',
    parse: trimmed,
    meaning: "The resource's `service.name`.",
  }),
  OTEL_RESOURCE_ATTRIBUTES: text({
    group: 'telemetry',
    default: {} as Record<string, string>,
    defaultText: 'unset',
    range: '`key=value` pairs, comma-separated, values percent-encoded',
    parse: resourceAttributes,
    meaning: 'More resource attributes.',
  }),
  OTEL_TRACES_EXPORTER: otelList({ group: 'telemetry', allowed: ['otlp', 'console'], default: ['otlp'], meaning: 'Where spans go.' }),
  OTEL_METRICS_EXPORTER: otelList({
    group: 'telemetry',
    allowed: ['otlp', 'prometheus', 'console'],
    default: ['otlp'],
    meaning: 'Where metrics go (`prometheus`: `/metrics` on port 9464).',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol({
    group: 'telemetry',
    default: 'http/protobuf' as OtlpProtocol,
    meaning: 'OTLP over HTTP for both signals (gRPC is not built in).',
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol({
    group: 'telemetry',
    default: undefined as OtlpProtocol | undefined,
    defaultText: '`OTEL_EXPORTER_OTLP_PROTOCOL`',
    meaning: 'The protocol for spans alone.',
  }),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: otlpProtocol({
    group: 'telemetry',
    default: undefined as OtlpProtocol | undefined,
    defaultText: '`OTEL_EXPORTER_OTLP_PROTOCOL`',
    meaning: 'The protocol for metrics alone.',
  }),
  OTEL_METRIC_EXPORT_INTERVAL: millis({ group: 'telemetry', default: 60_000, meaning: 'Time between metric exports.' }),
  OTEL_METRIC_EXPORT_TIMEOUT: millis({ group: 'telemetry', default: 30_000, meaning: 'Time one metric export may take.' }),
  OTEL_PROPAGATORS: otelList({
    group: 'telemetry',
    allowed: ['tracecontext', 'baggage'],
    default: ['tracecontext', 'baggage'],
    meaning: 'Trace context carried in and out of requests.',
  }),
  TELEMETRY_LAMBDA_FIRST_EXPORT: choice({
    group: 'telemetry',
    values: ['after-answer', 'before-answer'],
    default: 'after-answer',
    meaning:
      "Lambda: when an instance exports its first invocation's telemetry. `after-answer`: the answer goes first, the next invocation or the shutdown waits for the export; `before-answer`: before it returns, as every later invocation ([operations.md](operations.md#telemetry-on-lambda)).",
  }),
  'OTEL_*': pattern({
    group: 'telemetry',
    matches: /^OTEL_/,
    secret: true,
    defaultText: 'unset: no telemetry',
    range: "the OpenTelemetry specification's",
    meaning:
      'Telemetry is on when any `OTEL_*` variable has a value. The SDK reads the other standard ones itself: `OTEL_EXPORTER_OTLP_ENDPOINT`, headers, timeouts and compression, `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_BSP_*`, span limits, `OTEL_EXPORTER_PROMETHEUS_HOST`/`_PORT` ([observability.md](observability.md)).',
  }),
} satisfies Record<string, Setting<any>>;
