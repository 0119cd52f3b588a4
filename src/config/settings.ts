/**
 * THE TABLE: every setting, once: its name, default (one, or one per
 * environment), the values it accepts, what it means and its group
 * (settingKinds.ts says what an entry is). The loader, the unknown-setting
 * warning, the start-up line and docs/configuration.md all read this table
 * and nothing else; `reader` is how they read a value from an environment.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DynamoEndpoint, type Env, LOG_LEVELS, type OtlpProtocol } from './configTypes.js';
import { bool, choice, type Context, int, millis, optionalChoice, otelList, otlpProtocol, pattern, type Setting, text } from './settingKinds.js';
import {
  claimName,
  commaList,
  corsOrigins,
  cursorSecret,
  endpoint,
  hostName,
  issuerUrl,
  MIN_CURSOR_SECRET_DISTINCT,
  MIN_CURSOR_SECRET_LENGTH,
  redisUrl,
  region,
  resourceAttributes,
  tableName,
  trimmed,
} from './valueChecks.js';

/**
 * The project's default model: schema.graphql at the project's root, the
 * folder holding src/ (in the source tree and in the bundles' layout, whose
 * modules live in src/transport/).
 */
export const DEFAULT_SCHEMA_FILE = (() => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const at = Math.max(here.lastIndexOf('/src/'), here.lastIndexOf('\\src\\'));
  return resolve(at >= 0 ? here.slice(0, at) : resolve(here, '..'), 'schema.graphql');
})();

/** The names an `@item(claimSetting:)` may give: the environment variables `claims` holds. */
export const OWNER_CLAIM_SETTING = /^AUTH_[A-Z0-9_]+_CLAIM$/;

/** The NODE_ENV value of prod mode (hardened defaults and required settings). */
export const PROD_NODE_ENV = 'production';

export const SETTINGS = {
  // Serving
  PORT: int({ group: 'serving', default: 4000, min: 0, max: 65535, note: '0 picks a free one', meaning: 'HTTP port of `npm start`.' }),
  HOST: text({
    group: 'serving',
    default: '0.0.0.0',
    range: 'a host name or IP address',
    parse: hostName,
    meaning: 'Interface to bind (`127.0.0.1` keeps it local; the default lets containers be reached).',
  }),
  NODE_ENV: text({
    group: 'serving',
    default: undefined as string | undefined,
    range: `\`${PROD_NODE_ENV}\`, or anything else for development`,
    parse: trimmed,
    meaning: `\`${PROD_NODE_ENV}\` (prod mode) turns off Apollo Sandbox and the GraphiQL explorer, introspection, field suggestions and stack traces, masks internal error messages, and requires \`CURSOR_SECRET\` and \`AUTH_MODE\`.`,
  }),
  SCHEMA_FILE: text({
    group: 'serving',
    kind: 'path',
    default: DEFAULT_SCHEMA_FILE,
    defaultText: "the project's `schema.graphql`",
    range: 'a path, relative to the working directory',
    parse: (raw) => resolve(raw),
    meaning:
      'The model file served; read and checked before anything else at start-up ([model.md](model.md)). Its demo data is the `.demo.json` file beside it.',
  }),
  LOG_LEVEL: choice({
    group: 'serving',
    values: LOG_LEVELS,
    default: 'info',
    meaning: 'pino level; `silent` for no logs. `debug` (or `trace`) also gives development errors their whole stack trace instead of one location.',
  }),
  CORS_ORIGINS: text({
    group: 'serving',
    kind: 'list',
    default: undefined as string[] | undefined,
    prodDefault: [],
    defaultText: 'any `http://localhost:*` / `127.0.0.1:*` origin; none in prod mode',
    range: 'comma-separated origins (`https://app.example.com`, no path or trailing slash), or `*`',
    parse: corsOrigins,
    meaning: 'Browser origins allowed to call the gateway (with credentials).',
  }),
  GATEWAY_NAIVE: bool({
    group: 'serving',
    default: false,
    meaning: 'DataLoader batching/caching and look-ahead off: a benchmark baseline, never for serving.',
  }),
  TRUSTED_DOCUMENTS: text({
    group: 'serving',
    kind: 'path',
    default: undefined as string | undefined,
    range: 'a file path',
    parse: (raw) => raw,
    meaning:
      "A manifest of trusted documents (the client codegen's `persisted-documents.json`, or Apollo's persisted query manifest); when set, only its operations run and every other document is refused before parsing ([clients.md](clients.md#trusted-documents)). A file that cannot be read or used stops start-up.",
  }),

  // DynamoDB
  TABLE_NAME: text({
    group: 'dynamodb',
    default: 'AppTable',
    range: '3–255 characters of `a-z A-Z 0-9 _ . -`',
    parse: tableName,
    meaning: 'The DynamoDB table.',
  }),
  DYNAMODB_ENDPOINT: text({
    group: 'dynamodb',
    kind: 'url',
    default: { kind: 'embedded' } as DynamoEndpoint,
    defaultText: 'unset: the embedded DynamoDB Local (`npm start`), AWS itself (Lambda, scripts)',
    range: '`aws`, or an `http(s)` URL such as `http://localhost:8000`',
    parse: endpoint,
    meaning:
      'Where the table is: a URL (DynamoDB Local, any DynamoDB-compatible endpoint; the table is created if missing, no demo data), or `aws` for real DynamoDB through the SDK chain, as with an `amazonaws.com` URL. Unset: `npm start` runs an embedded DynamoDB Local with demo data, while Lambda uses real DynamoDB. Checked at start-up: an endpoint that does not answer stops the process with one line ([operations.md](operations.md#start-up-failures)).',
  }),
  DYNAMODB_LOCAL_PORT: int({
    group: 'dynamodb',
    default: 8000,
    min: 0,
    max: 65535,
    note: '0 picks a free one',
    meaning: 'Port of the embedded DynamoDB Local (only when `DYNAMODB_ENDPOINT` is unset), on 127.0.0.1.',
  }),
  AWS_REGION: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    defaultText: 'the SDK chain (`us-east-1` with a local `DYNAMODB_ENDPOINT`)',
    range: 'a region name such as `eu-west-1`',
    parse: region,
    meaning: 'AWS region. `DYNAMODB_ENDPOINT=aws` needs one (here, in `AWS_DEFAULT_REGION` or in the AWS profile): start-up stops without.',
  }),
  AWS_DEFAULT_REGION: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'a region name',
    parse: region,
    meaning: 'Used when `AWS_REGION` is unset.',
  }),
  AWS_ACCESS_KEY_ID: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'read by the AWS SDK',
    parse: trimmed,
    meaning:
      'Credentials for the SDK chain; this or any of the four below set: every endpoint, a DynamoDB Local or DynamoDB-compatible URL included, signs with the SDK chain. None set: such endpoints get dummy credentials (`local`/`local`).',
  }),
  AWS_PROFILE: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'read by the AWS SDK',
    parse: trimmed,
    meaning: 'A profile of the AWS config files (credentials, region).',
  }),
  AWS_WEB_IDENTITY_TOKEN_FILE: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'read by the AWS SDK',
    parse: trimmed,
    meaning: 'Web identity credentials (EKS).',
  }),
  AWS_CONTAINER_CREDENTIALS_FULL_URI: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'read by the AWS SDK',
    parse: trimmed,
    meaning: 'Container credentials.',
  }),
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    range: 'read by the AWS SDK',
    parse: trimmed,
    meaning: 'Container credentials (ECS).',
  }),
  DYNAMODB_MAX_ATTEMPTS: int({ group: 'dynamodb', default: 3, min: 1, max: 10, meaning: 'Attempts per DynamoDB request, first included.' }),
  DYNAMODB_RETRY_MODE: choice({
    group: 'dynamodb',
    values: ['standard', 'adaptive'],
    default: 'standard',
    meaning: '`adaptive` adds client-side rate limiting after throttling.',
  }),
  DYNAMODB_CONNECT_TIMEOUT_MS: int({ group: 'dynamodb', default: 1000, min: 50, max: 60_000, meaning: 'TCP connect timeout.' }),
  DYNAMODB_REQUEST_TIMEOUT_MS: int({
    group: 'dynamodb',
    default: 2000,
    min: 50,
    max: 120_000,
    meaning: 'Per attempt; the request is abandoned (and retried) when it passes (about 6 s worst case with 3 attempts).',
  }),
  DYNAMODB_THROTTLE_ATTEMPTS: int({
    group: 'dynamodb',
    default: 10,
    min: 1,
    max: 30,
    meaning: 'Attempts of a throttled DynamoDB request, first included; separate from `DYNAMODB_MAX_ATTEMPTS`. See [limits.md](limits.md).',
  }),
  DYNAMODB_THROTTLE_BUDGET_MS: int({
    group: 'dynamodb',
    default: 5000,
    min: 0,
    max: 120_000,
    meaning: 'Most backoff one request spends waiting out throttling.',
  }),
  DYNAMODB_READ_PATH: choice({
    group: 'dynamodb',
    values: ['lean', 'sdk'],
    default: 'lean',
    meaning:
      "How operations send GetItem, Query and BatchGetItem: `lean` without the SDK's middleware stack (same requests, signing, retries and timeouts, less CPU; see [performance.md](performance.md#the-read-path)), or `sdk` through the SDK's document client like every other request.",
  }),
  DYNAMODB_METRICS_EXTENSION: bool({
    group: 'dynamodb',
    default: true,
    prodDefault: false,
    meaning:
      'A request with the header `x-dynamodb-metrics: 1` gets `extensions.dynamodb` (requests, by operation, consumed capacity, waves). See [performance.md](performance.md).',
  }),

  // Cursors and query limits
  CURSOR_SECRET: text({
    group: 'security',
    kind: 'secret',
    secret: true,
    default: undefined as string | undefined,
    defaultText: 'random per start in development; **required** in prod mode',
    range: `at least ${MIN_CURSOR_SECRET_LENGTH} characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different`,
    parse: cursorSecret,
    meaning: 'Signs cursors (HMAC-SHA256); 32 spaces are refused. See [security.md](security.md).',
  }),
  CURSOR_SECRETS_PREVIOUS: text({
    group: 'security',
    kind: 'secret',
    secret: true,
    default: [] as string[],
    defaultText: 'unset',
    range: 'comma-separated secrets, each as `CURSOR_SECRET`',
    parse: (raw, name) => commaList(raw).map((secret) => cursorSecret(secret, name)),
    meaning: 'Older secrets whose cursors still verify (rotation).',
  }),
  MAX_QUERY_DEPTH: int({
    group: 'security',
    default: 15,
    min: 1,
    max: 100,
    meaning: "Field nesting limit (15: four nested connections; their size is the cost limit's business).",
  }),
  MAX_QUERY_ALIASES: int({ group: 'security', default: 30, min: 0, max: 1000, meaning: 'Aliases per operation.' }),
  MAX_QUERY_TOKENS: int({ group: 'security', default: 2000, min: 10, max: 100_000, meaning: 'Tokens per document.' }),
  MAX_QUERY_COST: int({
    group: 'security',
    default: 20_000,
    min: 1,
    max: 100_000_000,
    meaning: 'Connection cost limit: page sizes multiplied down nested connections, roughly the items an operation may read.',
  }),
  MAX_BODY_BYTES: int({
    group: 'security',
    default: 100_000,
    min: 1000,
    max: 10_000_000,
    meaning: 'Largest request body (HTTP, Lambda and WebSocket messages); more is HTTP 413.',
  }),
  ALLOW_BATCHED_REQUESTS: bool({ group: 'security', default: false, meaning: 'Accept an array of operations in one POST.' }),

  // What one operation may cost
  MAX_DYNAMODB_REQUESTS: int({
    group: 'limits',
    default: 2000,
    min: 1,
    max: 1_000_000,
    meaning: 'DynamoDB requests (attempts included) one operation may send; past it `BAD_USER_INPUT` (`reason: DYNAMODB_REQUEST_LIMIT`).',
  }),
  MAX_DYNAMODB_IN_FLIGHT: int({
    group: 'limits',
    default: 32,
    min: 1,
    max: 1000,
    meaning: 'DynamoDB requests of one operation in flight at once; more wait their turn.',
  }),
  MAX_RESPONSE_FIELDS: int({
    group: 'limits',
    default: 50_000,
    min: 1,
    max: 10_000_000,
    meaning: 'Leaf fields an operation may return (counted before execution, pages assumed full).',
  }),
  MAX_RESPONSE_BYTES: int({
    group: 'limits',
    default: 1_000_000,
    min: 1000,
    max: 100_000_000,
    meaning: 'UTF-8 bytes a response may hold: estimated before execution (full pages), measured after.',
  }),
  QUERY_BYTES_PER_DYNAMODB_REQUEST: int({
    group: 'limits',
    default: 0,
    min: 0,
    max: 100_000,
    note: '0: off',
    meaning:
      'Off unless set: a query may send one DynamoDB request per this many bytes of its text, or what the widest single page it names needs if that is more. A comment defeats it; the per-caller budget (`CALLER_DYNAMODB_REQUESTS_PER_SECOND`) replaces it ([limits.md](limits.md)).',
  }),
  CALLER_DYNAMODB_REQUESTS_PER_SECOND: int({
    group: 'limits',
    default: 1000,
    min: 0,
    max: 10_000_000,
    note: '0: off',
    meaning:
      "DynamoDB requests one caller (the verified token's subject, else the client address) may send per second, on average: on every instance together with `REDIS_URL`, else on each instance; over it `RATE_LIMITED`, HTTP 429 with `Retry-After` ([limits.md](limits.md#during-execution-caps-on-dynamodb-work)).",
  }),
  CALLER_DYNAMODB_REQUESTS_BURST: int({
    group: 'limits',
    default: 10_000,
    min: 1,
    max: 100_000_000,
    meaning: 'DynamoDB requests one caller may save up for a burst; an operation may send no more than the caller holds.',
  }),
  PAGE_READ_BUDGET: int({
    group: 'limits',
    default: 100,
    min: 1,
    max: 100_000,
    meaning:
      'Read units one filtered page (or a counted `totalCount`) may consume while it fills itself; past it the page comes back short and says so ([catalog.md](catalog.md#filled-pages-and-the-read-budget)).',
  }),

  // HTTP clients
  HTTP_HEADERS_TIMEOUT_MS: int({ group: 'http', default: 10_000, min: 100, max: 600_000, meaning: "Time to receive a request's headers." }),
  HTTP_REQUEST_TIMEOUT_MS: int({
    group: 'http',
    default: 30_000,
    min: 100,
    max: 3_600_000,
    meaning: 'Time to receive a whole request, body included; then 408 and the connection closed.',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int({ group: 'http', default: 5000, min: 100, max: 600_000, meaning: 'Idle kept-alive connections are closed after this.' }),
  HTTP_MAX_CONNECTIONS: int({
    group: 'http',
    default: 1000,
    min: 1,
    max: 1_000_000,
    meaning: 'Open HTTP connections at once; more are closed at once. WebSockets have their own budget (`WS_MAX_CONNECTIONS`).',
  }),
  HTTP_MAX_WAITING_PER_ADDRESS: int({
    group: 'http',
    default: 100,
    min: 0,
    max: 1_000_000,
    note: '0: off',
    meaning: 'Connections one client address may hold without a complete request being served ([security.md](security.md)).',
  }),

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

export type SettingName = keyof typeof SETTINGS;
export type ValueOf<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> ? T : never;
type Table = Record<string, Setting<unknown>>;
export const TABLE: Table = SETTINGS;

export const isUnset = (raw: string | undefined, setting?: Setting<unknown>): raw is undefined =>
  raw === undefined || (setting?.secret ? raw === '' : raw.trim() === '');

export function defaultOf(setting: Setting<unknown>, prod: boolean): unknown {
  const value = prod && setting.prodDefault !== undefined ? setting.prodDefault : setting.default;
  // A copy: a Config's lists and objects are its own, never the table's.
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** A setting's value from `env`: its parsed value, or its default when unset or empty. */
export function reader(env: Env, context: Context) {
  return <N extends SettingName>(name: N): ValueOf<N> => {
    const setting = TABLE[name]!;
    const raw = env[name];
    return (isUnset(raw, setting) ? defaultOf(setting, context.prod) : setting.parse(raw, name, context)) as ValueOf<N>;
  };
}

export type Get = ReturnType<typeof reader>;

/** Prod mode: NODE_ENV set to PROD_NODE_ENV decides the other entries' defaults and checks. */
export const isProd = (env: Env) => reader(env, { prod: false })('NODE_ENV') === PROD_NODE_ENV;
