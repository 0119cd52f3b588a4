/**
 * THE TABLE: every setting, once: its name, default (one, or one per
 * environment), the values it accepts, what it means and its group
 * (settingKinds.ts says what an entry is). The loader, the unknown-setting
 * warning, the start-up line and docs/configuration.md all read this table
 * and nothing else; `reader` is how they read a value from an environment.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DynamoEndpoint, type Env, LOG_LEVELS } from './configTypes.js';
import { bool, choice, type Context, int, type Setting, text } from './settingKinds.js';
import { SERVICE_SETTINGS } from './serviceSettings.js';
import {
  commaList,
  corsOrigins,
  cursorSecret,
  endpoint,
  hostName,
  MIN_CURSOR_SECRET_DISTINCT,
  MIN_CURSOR_SECRET_LENGTH,
  region,
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

export { OWNER_CLAIM_SETTING } from './serviceSettings.js';

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

  ...SERVICE_SETTINGS,
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
