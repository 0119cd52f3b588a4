/**
 * The only reader of process.env. Every setting is stated once, in
 * SETTINGS below: its name, default (one, or one per environment), the
 * values it accepts, what it means and its group. Three readers use that
 * table and nothing else:
 *
 * - `loadConfig()` parses and checks each value by its entry (a bad value
 *   stops start-up with a ConfigError naming the variable), then runs the
 *   few checks that span settings (prod mode's requirements, OIDC) and
 *   shapes the typed Config the rest of src/ reads;
 * - `settingsTable()` renders the table as Markdown: docs/configuration.md
 *   holds exactly that (a test compares them; `npm run docs:settings`
 *   rewrites it), and the README's short table is rendered from it too;
 * - `changedSettings()` lists the settings whose values differ from their
 *   defaults, secrets redacted, for the start-up log line.
 *
 * Terminology: an entry's `default` applies when the variable is unset or
 * empty; `prodDefault` replaces it in prod mode (NODE_ENV set to PROD_NODE_ENV); a
 * `defaultText` says in words what a default worked out at start-up is.
 * A pattern entry (`AUTH_<NAME>_CLAIM`, `OTEL_*`) stands for a family of
 * variables read by prefix.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where DynamoDB is: `embedded` (DYNAMODB_ENDPOINT unset: `npm start` runs
 * DynamoDB Local itself, with demo data), `url` (DynamoDB Local, docker, or
 * any endpoint), `aws` (the SDK's endpoint for the region, real credentials).
 */
export type DynamoEndpoint = { kind: 'embedded' } | { kind: 'url'; url: string } | { kind: 'aws' };

/** For programs that never start DynamoDB Local (Lambda, seed): unset means AWS itself. */
export const withoutEmbedded = (endpoint: DynamoEndpoint): DynamoEndpoint =>
  endpoint.kind === 'embedded' ? { kind: 'aws' } : endpoint;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const MIN_CURSOR_SECRET_LENGTH = 32;
/** Distinct characters a secret needs (`openssl rand -hex 16` has about 15 of 16). */
export const MIN_CURSOR_SECRET_DISTINCT = 10;

/** The names an `@item(claimSetting:)` may give: the environment variables `claims` holds. */
export const OWNER_CLAIM_SETTING = /^AUTH_[A-Z0-9_]+_CLAIM$/;

/** The audience the development issuer's tokens carry. */
export const DEV_AUDIENCE = 'dynamo-graph-gateway';

// ---------------------------------------------------------------------------
// Entries and their kinds

/** The NODE_ENV value of prod mode (hardened defaults and required settings). */
export const PROD_NODE_ENV = 'production';

/** The groups of docs/configuration.md, in its order. */
export const SETTING_GROUPS = {
  serving: 'Serving',
  dynamodb: 'DynamoDB',
  security: 'Cursors and query limits',
  limits: 'What one operation may cost',
  http: 'HTTP clients',
  auth: 'Identity and authorization',
  health: 'Health and idempotency',
  stream: 'The stream processor',
  subscriptions: 'Subscriptions',
  commands: 'Lists, migrate and reshard',
  telemetry: 'Telemetry (OpenTelemetry)',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

interface Context {
  prod: boolean;
}

export interface Setting<T = unknown> {
  readonly group: SettingGroup;
  readonly kind: 'int' | 'bool' | 'choice' | 'list' | 'url' | 'path' | 'text' | 'secret' | 'pattern';
  /** What it does, in the docs' words (Markdown). */
  readonly meaning: string;
  /** The value when unset or empty. */
  readonly default: T;
  /** The value when unset or empty in prod mode. */
  readonly prodDefault?: T;
  /** The default in words, when it is worked out at start-up. */
  readonly defaultText?: string;
  /** The values accepted, in words (Markdown). */
  readonly range: string;
  /** Never shown: the start-up line says `(set)`. A secret's blanks are its own (32 spaces are a weak secret, not an unset one). */
  readonly secret?: boolean;
  /** A family of variables (`pattern` entries): which names belong to it. */
  readonly matches?: RegExp;
  /** Turns a non-empty value into the setting's value, or throws a ConfigError naming `name`. */
  readonly parse: (raw: string, name: string, context: Context) => T;
}

interface Common {
  group: SettingGroup;
  meaning: string;
  defaultText?: string;
  secret?: boolean;
}

const thousands = (n: number) => n.toLocaleString('en-US');

function int(o: Common & { default: number; min: number; max: number; prodDefault?: number; note?: string }): Setting<number> {
  return {
    ...o,
    kind: 'int',
    range: `${thousands(o.min)}–${thousands(o.max)}${o.note ? ` (${o.note})` : ''}`,
    parse: (raw, name) => {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < o.min || value > o.max) {
        throw new ConfigError(`${name} must be an integer from ${o.min} to ${o.max}; got "${raw}"`);
      }
      return value;
    },
  };
}

function bool<T extends boolean | undefined>(o: Common & { default: T; prodDefault?: NoInfer<T> }): Setting<boolean | T> {
  return {
    ...o,
    kind: 'bool',
    range: '`1`, `0`, `true`, `false`',
    parse: (raw, name) => {
      const value = raw.trim().toLowerCase();
      if (value === '1' || value === 'true') return true;
      if (value === '0' || value === 'false') return false;
      throw new ConfigError(`${name} must be 1, 0, true or false; got "${raw}"`);
    },
  };
}

function choice<const V extends string>(o: Common & { values: readonly V[]; default: V; prodDefault?: V }): Setting<V> {
  return {
    ...o,
    kind: 'choice',
    range: o.values.map((v) => `\`${v}\``).join(', '),
    parse: (raw, name) => {
      const value = raw.trim().toLowerCase();
      if (!(o.values as readonly string[]).includes(value)) throw new ConfigError(`${name} must be one of ${o.values.join(', ')}; got "${raw.trim()}"`);
      return value as V;
    },
  };
}

/** A choice whose default is worked out at start-up (unset here). */
function optionalChoice<const V extends string>(o: Common & { values: readonly V[]; defaultText: string }): Setting<V | undefined> {
  const { default: _, ...rest } = choice({ ...o, default: o.values[0]! });
  return { ...rest, default: undefined };
}

/** A value checked (and shaped) by its own function. */
function text<T>(
  o: Common & { kind?: Setting['kind']; default: T; prodDefault?: T; range: string; parse: (raw: string, name: string, context: Context) => T },
): Setting<T> {
  return { kind: 'text', ...o };
}

/** A family of variables read by prefix (the loader reads them; the docs and the start-up line list them). */
function pattern(o: Common & { matches: RegExp; range: string }): Setting<undefined> & { matches: RegExp } {
  return { ...o, kind: 'pattern', default: undefined, parse: () => undefined };
}

// ---------------------------------------------------------------------------
// Checks of single values

function hostName(raw: string, name: string): string {
  const value = raw.trim();
  // A host name or an IPv4/IPv6 address, never a URL: `http://…` or a path here is a common slip.
  if (!/^[A-Za-z0-9.:-]+$/.test(value)) {
    throw new ConfigError(`${name} must be a host name or IP address such as 0.0.0.0 or 127.0.0.1; got "${value}"`);
  }
  return value;
}

function tableName(raw: string, name: string): string {
  if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(raw)) throw new ConfigError(`${name} must be 3-255 characters of a-z, A-Z, 0-9, _ . -; got "${raw}"`);
  return raw;
}

function endpoint(raw: string, name: string): DynamoEndpoint {
  if (raw === 'aws') return { kind: 'aws' };
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${name} must be "aws" or an http(s) URL such as http://localhost:8000; got "${raw}"`);
  }
  return { kind: 'url', url: raw };
}

function region(raw: string, name: string): string {
  const value = raw.trim();
  if (!/^[a-z0-9-]+$/.test(value)) throw new ConfigError(`${name} must be an AWS region name such as eu-west-1; got "${value}"`);
  return value;
}

function corsOrigins(raw: string, name: string): string[] {
  const origins = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (origin === '*') continue;
    let valid = false;
    try {
      // An origin is scheme://host[:port] with nothing after it; browsers send exactly that.
      valid = new URL(origin).origin === origin;
    } catch {
      valid = false;
    }
    if (!valid) {
      throw new ConfigError(`${name} must be * or comma-separated origins such as https://app.example.com (no path or trailing slash); got "${origin}"`);
    }
  }
  return origins;
}

function cursorSecret(secret: string, name: string): string {
  if (secret.length < MIN_CURSOR_SECRET_LENGTH) {
    throw new ConfigError(`${name} must be at least ${MIN_CURSOR_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
  }
  // 32 spaces, or "aaaa…", pass a length check and are guessed at once.
  if (secret.trim().length < MIN_CURSOR_SECRET_LENGTH || new Set(secret).size < MIN_CURSOR_SECRET_DISTINCT) {
    throw new ConfigError(
      `${name} is too weak: use at least ${MIN_CURSOR_SECRET_LENGTH} random characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different (e.g. openssl rand -base64 48)`,
    );
  }
  return secret;
}

const commaList = (raw: string) => raw.split(',').map((s) => s.trim()).filter(Boolean);

function claimName(raw: string, name: string): string {
  const value = raw.trim();
  if (value.length > 200 || /\s/.test(value)) throw new ConfigError(`${name} must be a claim name without spaces; got "${value}"`);
  return value;
}

function issuerUrl(raw: string, name: string, { prod }: Context): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an https URL such as https://issuer.example.com/; got "${value}"`);
  }
  const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !prod))) {
    throw new ConfigError(`${name} must be an https URL (plain http only for 127.0.0.1/localhost); got "${value}"`);
  }
  return value;
}

function redisUrl(raw: string, name: string): string {
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(`${name} must be a redis:// or rediss:// URL such as redis://localhost:6379; got "${raw}"`);
  return raw;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type TraceExporterName = 'otlp' | 'console';
export type MetricExporterName = 'otlp' | 'prometheus' | 'console';

/** The standard OpenTelemetry list variables: comma-separated names, `none` for none. */
function otelList<const T extends string>(o: Common & { allowed: readonly T[]; default: T[] }): Setting<T[]> {
  return {
    ...o,
    kind: 'list',
    range: `comma-separated ${o.allowed.map((a) => `\`${a}\``).join(', ')}, or \`none\``,
    parse: (raw, name) => {
      const values = [...new Set(raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean))];
      if (values.includes('none')) return [];
      for (const value of values) {
        if (!(o.allowed as readonly string[]).includes(value)) throw new ConfigError(`${name} may list ${o.allowed.join(', ')} or none; got "${value}"`);
      }
      return values as T[];
    },
  };
}

function otlpProtocol<D extends OtlpProtocol | undefined>(o: Common & { default: D }): Setting<OtlpProtocol | D> {
  return {
    ...o,
    kind: 'choice',
    range: '`http/protobuf`, `http/json`',
    parse: (raw, name) => {
      const value = raw.trim();
      if (value === 'http/protobuf' || value === 'http/json') return value;
      // gRPC would bring @grpc/grpc-js into every cold start; the OpenTelemetry Collector accepts OTLP over HTTP on 4318.
      throw new ConfigError(`${name} must be http/protobuf or http/json (gRPC is not built in: point it at a collector's OTLP/HTTP port, 4318); got "${value}"`);
    },
  };
}

function millis(o: Common & { default: number }): Setting<number> {
  return {
    ...o,
    kind: 'int',
    range: 'a positive integer (ms)',
    parse: (raw, name) => {
      const value = Number(raw.trim());
      if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer of milliseconds; got "${raw.trim()}"`);
      return value;
    },
  };
}

/** `key=value,key2=value2`, values percent-encoded (the specification's format). */
function resourceAttributes(raw: string, name: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name} must be key=value pairs separated by commas; got "${pair}"`);
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${pair.slice(0, at).trim()} is not valid percent-encoding`);
    }
  }
  return attributes;
}

const trimmed = (raw: string) => raw.trim();

// ---------------------------------------------------------------------------
// THE TABLE: every setting, once

export const SETTINGS = {
  // Serving
  PORT: int({ group: 'serving', default: 4000, min: 0, max: 65535, note: '0 picks a free one', meaning: 'HTTP port of `npm start`.' }),
  HOST: text({ group: 'serving', default: '0.0.0.0', range: 'a host name or IP address', parse: hostName, meaning: 'Interface to bind (`127.0.0.1` keeps it local; the default lets containers be reached).' }),
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
    defaultText: 'the project\'s `schema.graphql`',
    range: 'a path, relative to the working directory',
    parse: (raw) => resolve(raw),
    meaning: 'The model file served; read and checked before anything else at start-up ([model.md](model.md)). Its demo data is the `.demo.json` file beside it.',
  }),
  LOG_LEVEL: choice({ group: 'serving', values: LOG_LEVELS, default: 'info', meaning: 'pino level; `silent` for no logs. `debug` (or `trace`) also gives development errors their whole stack trace instead of one location.' }),
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
  GATEWAY_NAIVE: bool({ group: 'serving', default: false, meaning: 'DataLoader batching/caching and look-ahead off: a benchmark baseline, never for serving.' }),
  TRUSTED_DOCUMENTS: text({
    group: 'serving',
    kind: 'path',
    default: undefined as string | undefined,
    range: 'a file path',
    parse: (raw) => raw,
    meaning: 'A manifest of trusted documents (the client codegen\'s `persisted-documents.json`, or Apollo\'s persisted query manifest); when set, only its operations run and every other document is refused before parsing ([clients.md](clients.md#trusted-documents)). A file that cannot be read or used stops start-up.',
  }),

  // DynamoDB
  TABLE_NAME: text({ group: 'dynamodb', default: 'AppTable', range: '3–255 characters of `a-z A-Z 0-9 _ . -`', parse: tableName, meaning: 'The DynamoDB table.' }),
  DYNAMODB_ENDPOINT: text({
    group: 'dynamodb',
    kind: 'url',
    default: { kind: 'embedded' } as DynamoEndpoint,
    defaultText: 'unset: the embedded DynamoDB Local (`npm start`), AWS itself (Lambda, scripts)',
    range: '`aws`, or an `http(s)` URL such as `http://localhost:8000`',
    parse: endpoint,
    meaning: 'Where the table is: a URL (DynamoDB Local, any DynamoDB-compatible endpoint; the table is created if missing, no demo data), or `aws` for real DynamoDB through the SDK chain, as with an `amazonaws.com` URL. Unset: `npm start` runs an embedded DynamoDB Local with demo data, while Lambda uses real DynamoDB. Checked at start-up: an endpoint that does not answer stops the process with one line ([operations.md](operations.md#start-up-failures)).',
  }),
  DYNAMODB_LOCAL_PORT: int({ group: 'dynamodb', default: 8000, min: 0, max: 65535, note: '0 picks a free one', meaning: 'Port of the embedded DynamoDB Local (only when `DYNAMODB_ENDPOINT` is unset), on 127.0.0.1.' }),
  AWS_REGION: text({
    group: 'dynamodb',
    default: undefined as string | undefined,
    defaultText: 'the SDK chain (`us-east-1` with a local `DYNAMODB_ENDPOINT`)',
    range: 'a region name such as `eu-west-1`',
    parse: region,
    meaning: 'AWS region. `DYNAMODB_ENDPOINT=aws` needs one (here, in `AWS_DEFAULT_REGION` or in the AWS profile): start-up stops without.',
  }),
  AWS_DEFAULT_REGION: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'a region name', parse: region, meaning: 'Used when `AWS_REGION` is unset.' }),
  AWS_ACCESS_KEY_ID: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'read by the AWS SDK', parse: trimmed, meaning: 'Credentials for the SDK chain; this or any of the four below set: every endpoint, a DynamoDB Local or DynamoDB-compatible URL included, signs with the SDK chain. None set: such endpoints get dummy credentials (`local`/`local`).' }),
  AWS_PROFILE: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'read by the AWS SDK', parse: trimmed, meaning: 'A profile of the AWS config files (credentials, region).' }),
  AWS_WEB_IDENTITY_TOKEN_FILE: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'read by the AWS SDK', parse: trimmed, meaning: 'Web identity credentials (EKS).' }),
  AWS_CONTAINER_CREDENTIALS_FULL_URI: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'read by the AWS SDK', parse: trimmed, meaning: 'Container credentials.' }),
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: text({ group: 'dynamodb', default: undefined as string | undefined, range: 'read by the AWS SDK', parse: trimmed, meaning: 'Container credentials (ECS).' }),
  DYNAMODB_MAX_ATTEMPTS: int({ group: 'dynamodb', default: 3, min: 1, max: 10, meaning: 'Attempts per DynamoDB request, first included.' }),
  DYNAMODB_RETRY_MODE: choice({ group: 'dynamodb', values: ['standard', 'adaptive'], default: 'standard', meaning: '`adaptive` adds client-side rate limiting after throttling.' }),
  DYNAMODB_CONNECT_TIMEOUT_MS: int({ group: 'dynamodb', default: 1000, min: 50, max: 60_000, meaning: 'TCP connect timeout.' }),
  DYNAMODB_REQUEST_TIMEOUT_MS: int({ group: 'dynamodb', default: 2000, min: 50, max: 120_000, meaning: 'Per attempt; the request is abandoned (and retried) when it passes (about 6 s worst case with 3 attempts).' }),
  DYNAMODB_THROTTLE_ATTEMPTS: int({ group: 'dynamodb', default: 10, min: 1, max: 30, meaning: 'Attempts of a throttled DynamoDB request, first included; separate from `DYNAMODB_MAX_ATTEMPTS`. See [limits.md](limits.md).' }),
  DYNAMODB_THROTTLE_BUDGET_MS: int({ group: 'dynamodb', default: 5000, min: 0, max: 120_000, meaning: 'Most backoff one request spends waiting out throttling.' }),
  DYNAMODB_READ_PATH: choice({
    group: 'dynamodb',
    values: ['lean', 'sdk'],
    default: 'lean',
    meaning: 'How operations send GetItem, Query and BatchGetItem: `lean` without the SDK\'s middleware stack (same requests, signing, retries and timeouts, less CPU; see [performance.md](performance.md#the-read-path)), or `sdk` through the SDK\'s document client like every other request.',
  }),
  DYNAMODB_METRICS_EXTENSION: bool({
    group: 'dynamodb',
    default: true,
    prodDefault: false,
    meaning: 'A request with the header `x-dynamodb-metrics: 1` gets `extensions.dynamodb` (requests, by operation, consumed capacity, waves). See [performance.md](performance.md).',
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
  MAX_QUERY_DEPTH: int({ group: 'security', default: 15, min: 1, max: 100, meaning: 'Field nesting limit (15: four nested connections; their size is the cost limit\'s business).' }),
  MAX_QUERY_ALIASES: int({ group: 'security', default: 30, min: 0, max: 1000, meaning: 'Aliases per operation.' }),
  MAX_QUERY_TOKENS: int({ group: 'security', default: 2000, min: 10, max: 100_000, meaning: 'Tokens per document.' }),
  MAX_QUERY_COST: int({ group: 'security', default: 20_000, min: 1, max: 100_000_000, meaning: 'Connection cost limit: page sizes multiplied down nested connections, roughly the items an operation may read.' }),
  MAX_BODY_BYTES: int({ group: 'security', default: 100_000, min: 1000, max: 10_000_000, meaning: 'Largest request body (HTTP, Lambda and WebSocket messages); more is HTTP 413.' }),
  ALLOW_BATCHED_REQUESTS: bool({ group: 'security', default: false, meaning: 'Accept an array of operations in one POST.' }),

  // What one operation may cost
  MAX_DYNAMODB_REQUESTS: int({ group: 'limits', default: 2000, min: 1, max: 1_000_000, meaning: 'DynamoDB requests (attempts included) one operation may send; past it `BAD_USER_INPUT` (`reason: DYNAMODB_REQUEST_LIMIT`).' }),
  MAX_DYNAMODB_IN_FLIGHT: int({ group: 'limits', default: 32, min: 1, max: 1000, meaning: 'DynamoDB requests of one operation in flight at once; more wait their turn.' }),
  MAX_RESPONSE_FIELDS: int({ group: 'limits', default: 50_000, min: 1, max: 10_000_000, meaning: 'Leaf fields an operation may return (counted before execution, pages assumed full).' }),
  MAX_RESPONSE_BYTES: int({ group: 'limits', default: 1_000_000, min: 1000, max: 100_000_000, meaning: 'UTF-8 bytes a response may hold: estimated before execution (full pages), measured after.' }),
  QUERY_BYTES_PER_DYNAMODB_REQUEST: int({
    group: 'limits',
    default: 0,
    min: 0,
    max: 100_000,
    note: '0: off',
    meaning: 'Off unless set: a query may send one DynamoDB request per this many bytes of its text, or what the widest single page it names needs if that is more. A comment defeats it; the per-caller budget (`CALLER_DYNAMODB_REQUESTS_PER_SECOND`) replaces it ([limits.md](limits.md)).',
  }),
  CALLER_DYNAMODB_REQUESTS_PER_SECOND: int({
    group: 'limits',
    default: 1000,
    min: 0,
    max: 10_000_000,
    note: '0: off',
    meaning: 'DynamoDB requests one caller (the verified token\'s subject, else the client address) may send per second, on average: on every instance together with `REDIS_URL`, else on each instance; over it `RATE_LIMITED`, HTTP 429 with `Retry-After` ([limits.md](limits.md#during-execution-caps-on-dynamodb-work)).',
  }),
  CALLER_DYNAMODB_REQUESTS_BURST: int({ group: 'limits', default: 10_000, min: 1, max: 100_000_000, meaning: 'DynamoDB requests one caller may save up for a burst; an operation may send no more than the caller holds.' }),
  PAGE_READ_BUDGET: int({
    group: 'limits',
    default: 100,
    min: 1,
    max: 100_000,
    meaning: 'Read units one filtered page (or a counted `totalCount`) may consume while it fills itself; past it the page comes back short and says so ([catalog.md](catalog.md#filled-pages-and-the-read-budget)).',
  }),

  // HTTP clients
  HTTP_HEADERS_TIMEOUT_MS: int({ group: 'http', default: 10_000, min: 100, max: 600_000, meaning: 'Time to receive a request\'s headers.' }),
  HTTP_REQUEST_TIMEOUT_MS: int({ group: 'http', default: 30_000, min: 100, max: 3_600_000, meaning: 'Time to receive a whole request, body included; then 408 and the connection closed.' }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int({ group: 'http', default: 5000, min: 100, max: 600_000, meaning: 'Idle kept-alive connections are closed after this.' }),
  HTTP_MAX_CONNECTIONS: int({ group: 'http', default: 1000, min: 1, max: 1_000_000, meaning: 'Open HTTP connections at once; more are closed at once. WebSockets have their own budget (`WS_MAX_CONNECTIONS`).' }),
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
    meaning: '`oidc`: verify bearer tokens and apply the model\'s authorization rules; `off`: everyone may do everything (prod mode logs a warning). See [auth.md](auth.md).',
  }),
  AUTH_ISSUER: text({
    group: 'auth',
    kind: 'url',
    default: undefined as string | undefined,
    defaultText: '— (required with `oidc`)',
    range: 'an https URL (http only for 127.0.0.1/localhost, or outside prod mode)',
    parse: issuerUrl,
    meaning: 'The token issuer\'s URL, exactly as the tokens\' `iss`.',
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
    defaultText: 'the issuer\'s discovery `jwks_uri`',
    range: 'as `AUTH_ISSUER`',
    parse: issuerUrl,
    meaning: 'Where the signing keys are.',
  }),
  AUTH_ROLES_CLAIM: text({ group: 'auth', default: 'groups', range: 'a claim name without spaces', parse: claimName, meaning: 'Claim listing roles; role `admin` may do everything (`cognito:groups`, `realm_access.roles`, …).' }),
  'AUTH_<NAME>_CLAIM': pattern({
    group: 'auth',
    matches: OWNER_CLAIM_SETTING,
    defaultText: 'the model\'s `@item(claim:)`',
    range: 'a claim name without spaces',
    meaning: 'Renames the claim of the model\'s owner type whose `@item(claimSetting:)` names the variable; an owner whose variable is unset keeps the claim its model names ([auth.md](auth.md)).',
  }),
  AUTH_CLOCK_TOLERANCE_SECONDS: int({ group: 'auth', default: 5, min: 0, max: 300, meaning: 'Leeway for `exp`/`nbf`/`iat`.' }),
  AUTH_MAX_TOKEN_LIFETIME_SECONDS: int({ group: 'auth', default: 86_400, min: 60, max: 2_592_000, meaning: 'Longest token lifetime accepted: tokens whose `exp` is further than this past `iat` (or now) are refused.' }),
  AUTH_JWKS_COOLDOWN_SECONDS: int({ group: 'auth', default: 30, min: 0, max: 3600, meaning: 'Least time between key-set fetches caused by unknown key ids.' }),
  AUTH_DEV_ISSUER: bool({ group: 'auth', default: false, meaning: 'Development only (refused in prod mode, needs `AUTH_MODE=oidc`): `npm start` serves a local token issuer on 127.0.0.1 whose tokens `npm run dev-token` mints.' }),
  AUTH_DEV_ISSUER_PORT: int({ group: 'auth', default: 4001, min: 1, max: 65535, meaning: 'Port of that issuer.' }),

  // Health and idempotency
  HEALTH_DETAILS: choice({
    group: 'health',
    values: ['public', 'admins'],
    default: 'public',
    prodDefault: 'admins',
    meaning: 'Who sees `/health`\'s table layout and stream figures: `public`, or `admins` (a bearer token with role `admin`, `AUTH_MODE=oidc`); everyone else gets the status alone.',
  }),
  HEALTH_CACHE_MS: int({ group: 'health', default: 1000, min: 0, max: 60_000, meaning: 'How long `/health` reuses its last table check.' }),
  IDEMPOTENCY_TTL_SECONDS: int({ group: 'health', default: 86_400, min: 60, max: 2_592_000, meaning: 'How long a mutation\'s first response is kept for `Idempotency-Key` retries.' }),

  // The stream processor
  STREAM_WORKER: bool({
    group: 'stream',
    default: undefined,
    defaultText: 'on; off with `DYNAMODB_ENDPOINT=aws` or an `amazonaws.com` URL (the Lambda consumer does the work)',
    meaning: 'Whether this process reads the table\'s stream itself ([stream.md](stream.md#settings)).',
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
    meaning: 'Redis or Valkey carrying live-update events from the one stream processor to every gateway instance ([subscriptions.md](subscriptions.md#more-than-one-instance)).',
  }),
  REDIS_EVENT_SECRET: text({
    group: 'subscriptions',
    kind: 'secret',
    secret: true,
    default: undefined as string | undefined,
    defaultText: 'unset: events unsigned (development); **required** in prod mode with `REDIS_URL`',
    range: `at least ${MIN_CURSOR_SECRET_LENGTH} characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different`,
    parse: cursorSecret,
    meaning: 'Shared by the stream processor and every gateway: each event on Redis carries an HMAC-SHA256 with it, and a gateway drops (and counts) a message that does not verify ([subscriptions.md](subscriptions.md#more-than-one-instance)).',
  }),
  WS_MAX_CONNECTIONS: int({ group: 'subscriptions', default: 1000, min: 1, max: 1_000_000, meaning: 'Open WebSockets per instance, apart from `HTTP_MAX_CONNECTIONS`; more are closed with 1013 ([subscriptions.md](subscriptions.md#settings)).' }),
  WS_MAX_CONNECTIONS_PER_ADDRESS: int({
    group: 'subscriptions',
    default: 100,
    min: 0,
    max: 1_000_000,
    note: '0: off',
    meaning: 'Open WebSockets from one client address; more are closed with 1013. Behind a load balancer every socket comes from its addresses: 0, or more than `WS_MAX_CONNECTIONS`.',
  }),
  WS_MAX_SUBSCRIPTIONS: int({ group: 'subscriptions', default: 50, min: 1, max: 10_000, meaning: 'Subscriptions per connection.' }),
  WS_INIT_TIMEOUT_MS: int({ group: 'subscriptions', default: 5000, min: 100, max: 600_000, meaning: 'Time for `connection_init` before the socket is closed with 4408.' }),
  WS_MAX_BUFFERED_BYTES: int({ group: 'subscriptions', default: 1_048_576, min: 1024, max: 1_073_741_824, meaning: 'Bytes waiting to be sent on one socket before it is closed as a slow consumer.' }),
  WS_MAX_QUEUED_EVENTS: int({ group: 'subscriptions', default: 1000, min: 1, max: 1_000_000, meaning: 'Events waiting per subscription before it is closed as a slow consumer.' }),
  WS_MAX_QUEUED_BYTES: int({ group: 'subscriptions', default: 8_388_608, min: 1024, max: 1_073_741_824, meaning: 'Bytes of events (their items, estimated) waiting for all subscriptions of one socket before it is closed as a slow consumer.' }),
  WS_DYNAMODB_REQUESTS_PER_SECOND: int({ group: 'subscriptions', default: 100, min: 1, max: 1_000_000, meaning: 'DynamoDB requests the event executions of one socket\'s subscriptions may send per second, on average ([subscriptions.md](subscriptions.md#limits-on-each-event)).' }),
  WS_DYNAMODB_REQUESTS_BURST: int({ group: 'subscriptions', default: 500, min: 1, max: 1_000_000, meaning: 'DynamoDB requests one socket may save up for a burst of events; an execution may send no more than the socket holds (nor than `MAX_DYNAMODB_REQUESTS`).' }),
  WS_MAX_DOCUMENT_BYTES: int({ group: 'subscriptions', default: 4_194_304, min: 1024, max: 1_073_741_824, meaning: 'Bytes the parsed documents of one socket\'s live subscriptions may hold (estimated as for the document store: source and every token, comments included); a subscribe past it is refused.' }),
  WS_MAX_DOCUMENT_BYTES_PER_ADDRESS: int({
    group: 'subscriptions',
    default: 33_554_432,
    min: 0,
    max: 1_073_741_824,
    note: '0: off',
    meaning: 'Bytes the parsed documents of the live subscriptions of all sockets from one client address may hold, each distinct document once (estimated as for `WS_MAX_DOCUMENT_BYTES`); a subscribe past it is refused. Behind a load balancer every socket comes from its addresses: 0, or `WS_MAX_DOCUMENT_BYTES_TOTAL`.',
  }),
  WS_MAX_DOCUMENT_BYTES_TOTAL: int({ group: 'subscriptions', default: 268_435_456, min: 1024, max: 17_179_869_184, meaning: 'Bytes the parsed documents of every live subscription of the instance may hold, each distinct document once (estimated as for `WS_MAX_DOCUMENT_BYTES`); a subscribe past it is refused until others end ([subscriptions.md](subscriptions.md#transport-limits-and-close-codes)).' }),

  // Lists, migrate and reshard
  MIGRATE_WRITE_UNITS_PER_SECOND: int({ group: 'commands', default: 100, min: 1, max: 1_000_000, meaning: 'Write units per second `npm run migrate` may consume (`--write-units`).' }),
  MIGRATE_SEGMENTS: int({ group: 'commands', default: 4, min: 1, max: 1000, meaning: 'Parallel Scan segments of `npm run migrate` (`--segments`).' }),
  RESHARD_GRACE_MS: int({ group: 'commands', default: 10_000, min: 0, max: 600_000, meaning: '`npm run reshard`: wait after switching layouts, longer than any request takes ([sharding.md](sharding.md)).' }),
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
  OTEL_SERVICE_NAME: text({ group: 'telemetry', default: undefined as string | undefined, defaultText: '`dynamo-graph-gateway`', range: 'text', parse: trimmed, meaning: 'The resource\'s `service.name`.' }),
  OTEL_RESOURCE_ATTRIBUTES: text({ group: 'telemetry', default: {} as Record<string, string>, defaultText: 'unset', range: '`key=value` pairs, comma-separated, values percent-encoded', parse: resourceAttributes, meaning: 'More resource attributes.' }),
  OTEL_TRACES_EXPORTER: otelList({ group: 'telemetry', allowed: ['otlp', 'console'], default: ['otlp'], meaning: 'Where spans go.' }),
  OTEL_METRICS_EXPORTER: otelList({ group: 'telemetry', allowed: ['otlp', 'prometheus', 'console'], default: ['otlp'], meaning: 'Where metrics go (`prometheus`: `/metrics` on port 9464).' }),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol({ group: 'telemetry', default: 'http/protobuf' as OtlpProtocol, meaning: 'OTLP over HTTP for both signals (gRPC is not built in).' }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol({ group: 'telemetry', default: undefined as OtlpProtocol | undefined, defaultText: '`OTEL_EXPORTER_OTLP_PROTOCOL`', meaning: 'The protocol for spans alone.' }),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: otlpProtocol({ group: 'telemetry', default: undefined as OtlpProtocol | undefined, defaultText: '`OTEL_EXPORTER_OTLP_PROTOCOL`', meaning: 'The protocol for metrics alone.' }),
  OTEL_METRIC_EXPORT_INTERVAL: millis({ group: 'telemetry', default: 60_000, meaning: 'Time between metric exports.' }),
  OTEL_METRIC_EXPORT_TIMEOUT: millis({ group: 'telemetry', default: 30_000, meaning: 'Time one metric export may take.' }),
  OTEL_PROPAGATORS: otelList({ group: 'telemetry', allowed: ['tracecontext', 'baggage'], default: ['tracecontext', 'baggage'], meaning: 'Trace context carried in and out of requests.' }),
  TELEMETRY_LAMBDA_FIRST_EXPORT: choice({
    group: 'telemetry',
    values: ['after-answer', 'before-answer'],
    default: 'after-answer',
    meaning: 'Lambda: when an instance exports its first invocation\'s telemetry. `after-answer`: the answer goes first, the next invocation or the shutdown waits for the export; `before-answer`: before it returns, as every later invocation ([operations.md](operations.md#telemetry-on-lambda)).',
  }),
  'OTEL_*': pattern({
    group: 'telemetry',
    matches: /^OTEL_/,
    secret: true,
    defaultText: 'unset: no telemetry',
    range: 'the OpenTelemetry specification\'s',
    meaning: 'Telemetry is on when any `OTEL_*` variable has a value. The SDK reads the other standard ones itself: `OTEL_EXPORTER_OTLP_ENDPOINT`, headers, timeouts and compression, `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_BSP_*`, span limits, `OTEL_EXPORTER_PROMETHEUS_HOST`/`_PORT` ([observability.md](observability.md)).',
  }),
} satisfies Record<string, Setting<any>>;

export type SettingName = keyof typeof SETTINGS;
type ValueOf<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> ? T : never;
type Table = Record<string, Setting<unknown>>;
const TABLE: Table = SETTINGS;

const isUnset = (raw: string | undefined, setting?: Setting<unknown>): raw is undefined =>
  raw === undefined || (setting?.secret ? raw === '' : raw.trim() === '');

function defaultOf(setting: Setting<unknown>, prod: boolean): unknown {
  const value = prod && setting.prodDefault !== undefined ? setting.prodDefault : setting.default;
  // A copy: a Config's lists and objects are its own, never the table's.
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** A setting's value from `env`: its parsed value, or its default when unset or empty. */
function reader(env: Env, context: Context) {
  return <N extends SettingName>(name: N): ValueOf<N> => {
    const setting = TABLE[name]!;
    const raw = env[name];
    return (isUnset(raw, setting) ? defaultOf(setting, context.prod) : setting.parse(raw, name, context)) as ValueOf<N>;
  };
}

/** The development default of a setting (modules that need a default take it from here). */
const fallback = <N extends SettingName>(name: N) => SETTINGS[name].default as ValueOf<N>;

/** Defaults other modules use when they are built without a Config (tests, tools): read from the table. */
export const DEFAULTS = {
  port: fallback('PORT'),
  host: fallback('HOST'),
  tableName: fallback('TABLE_NAME'),
  localDynamoPort: fallback('DYNAMODB_LOCAL_PORT'),
  logLevel: fallback('LOG_LEVEL') as LogLevel,
  /** Region for local endpoints (DynamoDB Local ignores it; the SDK insists on one). Not a setting. */
  localRegion: 'us-east-1',
  security: {
    maxDepth: fallback('MAX_QUERY_DEPTH'),
    maxAliases: fallback('MAX_QUERY_ALIASES'),
    maxTokens: fallback('MAX_QUERY_TOKENS'),
    maxCost: fallback('MAX_QUERY_COST'),
    maxBodyBytes: fallback('MAX_BODY_BYTES'),
    allowBatchedRequests: fallback('ALLOW_BATCHED_REQUESTS'),
  },
  dynamoClient: {
    maxAttempts: fallback('DYNAMODB_MAX_ATTEMPTS'),
    retryMode: fallback('DYNAMODB_RETRY_MODE') as 'standard' | 'adaptive',
    connectionTimeoutMs: fallback('DYNAMODB_CONNECT_TIMEOUT_MS'),
    requestTimeoutMs: fallback('DYNAMODB_REQUEST_TIMEOUT_MS'),
    throttleAttempts: fallback('DYNAMODB_THROTTLE_ATTEMPTS'),
    throttleBudgetMs: fallback('DYNAMODB_THROTTLE_BUDGET_MS'),
    readPath: fallback('DYNAMODB_READ_PATH') as 'lean' | 'sdk',
  },
  stream: {
    pollMs: fallback('STREAM_POLL_MS'),
    batchSize: fallback('STREAM_BATCH_SIZE'),
    maxAttempts: fallback('STREAM_MAX_ATTEMPTS'),
    retryDelayMs: fallback('STREAM_RETRY_DELAY_MS'),
    concurrency: fallback('STREAM_CONCURRENCY'),
  },
  reshard: {
    graceMs: fallback('RESHARD_GRACE_MS'),
    settleMs: fallback('RESHARD_SETTLE_MS'),
    batchSize: fallback('RESHARD_BATCH_SIZE'),
    pauseMs: fallback('RESHARD_PAUSE_MS'),
  },
  operationLimits: {
    maxRequests: fallback('MAX_DYNAMODB_REQUESTS'),
    maxInFlight: fallback('MAX_DYNAMODB_IN_FLIGHT'),
    maxResponseFields: fallback('MAX_RESPONSE_FIELDS'),
    maxResponseBytes: fallback('MAX_RESPONSE_BYTES'),
    queryBytesPerRequest: fallback('QUERY_BYTES_PER_DYNAMODB_REQUEST'),
    callerRequestsPerSecond: fallback('CALLER_DYNAMODB_REQUESTS_PER_SECOND'),
    callerRequestsBurst: fallback('CALLER_DYNAMODB_REQUESTS_BURST'),
  },
  http: {
    headersTimeoutMs: fallback('HTTP_HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: fallback('HTTP_REQUEST_TIMEOUT_MS'),
    keepAliveTimeoutMs: fallback('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    maxConnections: fallback('HTTP_MAX_CONNECTIONS'),
    maxWaitingPerAddress: fallback('HTTP_MAX_WAITING_PER_ADDRESS'),
  },
  idempotencyTtlSeconds: fallback('IDEMPOTENCY_TTL_SECONDS'),
  healthCacheMs: fallback('HEALTH_CACHE_MS'),
  subscriptions: {
    maxConnections: fallback('WS_MAX_CONNECTIONS'),
    maxPerAddress: fallback('WS_MAX_CONNECTIONS_PER_ADDRESS'),
    perConnection: fallback('WS_MAX_SUBSCRIPTIONS'),
    initTimeoutMs: fallback('WS_INIT_TIMEOUT_MS'),
    maxBufferedBytes: fallback('WS_MAX_BUFFERED_BYTES'),
    maxQueued: fallback('WS_MAX_QUEUED_EVENTS'),
    maxQueuedBytes: fallback('WS_MAX_QUEUED_BYTES'),
    maxDocumentBytes: fallback('WS_MAX_DOCUMENT_BYTES'),
    maxDocumentBytesPerAddress: fallback('WS_MAX_DOCUMENT_BYTES_PER_ADDRESS'),
    maxDocumentBytesTotal: fallback('WS_MAX_DOCUMENT_BYTES_TOTAL'),
    eventRequestsPerSecond: fallback('WS_DYNAMODB_REQUESTS_PER_SECOND'),
    eventRequestsBurst: fallback('WS_DYNAMODB_REQUESTS_BURST'),
  },
} as const;

// ---------------------------------------------------------------------------
// The Config the rest of src/ reads. Each field names its variable; what it
// means, its default and its range are the table's.

export interface Config {
  /** `PORT`. */
  port: number;
  /** `HOST`. */
  host: string;
  /** `TABLE_NAME`. */
  tableName: string;
  /** `SCHEMA_FILE`, an absolute path. */
  schemaFile: string;
  /** `DYNAMODB_ENDPOINT`. */
  endpoint: DynamoEndpoint;
  /** `AWS_REGION`, else `AWS_DEFAULT_REGION`. */
  region: string | undefined;
  /** `NODE_ENV === PROD_NODE_ENV`: prod mode. */
  prod: boolean;
  /** `CORS_ORIGINS`; undefined: the development default (localhost origins). */
  corsOrigins: string[] | undefined;
  /** `DYNAMODB_LOCAL_PORT`. */
  localDynamoPort: number;
  /** `LOG_LEVEL`. */
  logLevel: LogLevel;
  /** `DYNAMODB_METRICS_EXTENSION`. */
  dynamodbMetricsExtension: boolean;
  /** `GATEWAY_NAIVE`. */
  naive: boolean;
  security: SecurityConfig;
  catalog: CatalogConfig;
  dynamoClient: DynamoClientConfig;
  reshard: ReshardConfig;
  operationLimits: OperationLimitsConfig;
  http: HttpConfig;
  /** `IDEMPOTENCY_TTL_SECONDS`. */
  idempotencyTtlSeconds: number;
  /** `HEALTH_CACHE_MS`. */
  healthCacheMs: number;
  /** `TRUSTED_DOCUMENTS`. */
  trustedDocuments: string | undefined;
  /** `HEALTH_DETAILS`. */
  healthDetails: 'public' | 'admins';
  auth: AuthConfig;
  stream: StreamConfig;
  /** The `OTEL_*` settings; undefined (no SDK loaded) when none is set. */
  telemetry: TelemetrySettings | undefined;
  subscriptions: SubscriptionConfig;
  /** The settings whose values differ from their defaults, by name, secrets redacted (the start-up line). */
  changedSettings: Readonly<Record<string, string>>;
  /** Variables that look meant for the gateway (a project prefix, a near miss of a setting's name) and that no setting reads: likely misspellings, warned about at start-up. */
  unknownSettings: readonly UnknownSetting[];
}

/** WebSocket messages are capped at MAX_BODY_BYTES like HTTP bodies. */
export interface SubscriptionConfig {
  /** `REDIS_URL`. */
  redisUrl: string | undefined;
  /** `REDIS_EVENT_SECRET`: signs and verifies the events on Redis. */
  redisEventSecret: string | undefined;
  /** `WS_MAX_CONNECTIONS`. */
  maxConnections: number;
  /** `WS_MAX_CONNECTIONS_PER_ADDRESS` (0: off). */
  maxPerAddress: number;
  /** `WS_MAX_SUBSCRIPTIONS`. */
  perConnection: number;
  /** `WS_INIT_TIMEOUT_MS`. */
  initTimeoutMs: number;
  /** `WS_MAX_BUFFERED_BYTES`. */
  maxBufferedBytes: number;
  /** `WS_MAX_QUEUED_EVENTS`. */
  maxQueued: number;
  /** `WS_MAX_QUEUED_BYTES`. */
  maxQueuedBytes: number;
  /** `WS_MAX_DOCUMENT_BYTES`. */
  maxDocumentBytes: number;
  /** `WS_MAX_DOCUMENT_BYTES_PER_ADDRESS` (0: off). */
  maxDocumentBytesPerAddress: number;
  /** `WS_MAX_DOCUMENT_BYTES_TOTAL`. */
  maxDocumentBytesTotal: number;
  /** `WS_DYNAMODB_REQUESTS_PER_SECOND`. */
  eventRequestsPerSecond: number;
  /** `WS_DYNAMODB_REQUESTS_BURST`. */
  eventRequestsBurst: number;
}

export interface StreamConfig {
  /** `STREAM_WORKER`. */
  worker: boolean;
  /** `STREAM_POLL_MS`. */
  pollMs: number;
  /** `STREAM_BATCH_SIZE`. */
  batchSize: number;
  /** `STREAM_MAX_ATTEMPTS`. */
  maxAttempts: number;
  /** `STREAM_RETRY_DELAY_MS`. */
  retryDelayMs: number;
  /** `STREAM_CONCURRENCY`. */
  concurrency: number;
}

export interface ReshardConfig {
  /** `RESHARD_GRACE_MS`. */
  graceMs: number;
  /** `RESHARD_SETTLE_MS`. */
  settleMs: number;
  /** `RESHARD_BATCH_SIZE`. */
  batchSize: number;
  /** `RESHARD_PAUSE_MS`. */
  pauseMs: number;
}

export interface OperationLimitsConfig {
  /** `MAX_DYNAMODB_REQUESTS`. */
  maxRequests: number;
  /** `MAX_DYNAMODB_IN_FLIGHT`. */
  maxInFlight: number;
  /** `MAX_RESPONSE_FIELDS`. */
  maxResponseFields: number;
  /** `MAX_RESPONSE_BYTES`. */
  maxResponseBytes: number;
  /** `QUERY_BYTES_PER_DYNAMODB_REQUEST`. */
  queryBytesPerRequest: number;
  /** `CALLER_DYNAMODB_REQUESTS_PER_SECOND` (0: off). */
  callerRequestsPerSecond: number;
  /** `CALLER_DYNAMODB_REQUESTS_BURST`. */
  callerRequestsBurst: number;
}

export interface HttpConfig {
  /** `HTTP_HEADERS_TIMEOUT_MS`. */
  headersTimeoutMs: number;
  /** `HTTP_REQUEST_TIMEOUT_MS`. */
  requestTimeoutMs: number;
  /** `HTTP_KEEP_ALIVE_TIMEOUT_MS`. */
  keepAliveTimeoutMs: number;
  /** `HTTP_MAX_CONNECTIONS`. */
  maxConnections: number;
  /** `HTTP_MAX_WAITING_PER_ADDRESS`. */
  maxWaitingPerAddress: number;
}

/** docs/auth.md describes how these are used. */
export type AuthConfig =
  | {
      /** `AUTH_MODE=off`: no identity, every caller may do everything. */
      mode: 'off';
      /** True when AUTH_MODE=off was set explicitly (prod requires that; start-up warns). */
      explicit: boolean;
    }
  | OidcAuthConfig;

export interface OidcAuthConfig {
  /** `AUTH_MODE=oidc`: bearer tokens verified against an OIDC issuer; the model's rules apply. */
  mode: 'oidc';
  explicit: true;
  /** `AUTH_ISSUER`, compared exactly with the token's `iss`. */
  issuer: string;
  /** `AUTH_AUDIENCE`. */
  audience: string[];
  /** `AUTH_JWKS_URL`; undefined: the issuer's discovery document says. */
  jwksUrl: string | undefined;
  /** `AUTH_ROLES_CLAIM`. */
  rolesClaim: string;
  /**
   * `AUTH_<NAME>_CLAIM` (every one set but AUTH_ROLES_CLAIM), by variable name: the claims a model's
   * `@item(claim, claimSetting)` lets its setting rename; an owner whose setting is unset keeps its claim.
   */
  claims: Readonly<Record<string, string>>;
  /** `AUTH_CLOCK_TOLERANCE_SECONDS`. */
  clockToleranceSeconds: number;
  /** `AUTH_MAX_TOKEN_LIFETIME_SECONDS`. */
  maxTokenLifetimeSeconds: number;
  /** `AUTH_JWKS_COOLDOWN_SECONDS`. */
  jwksCooldownSeconds: number;
  /** `AUTH_DEV_ISSUER=true` (development only), on `AUTH_DEV_ISSUER_PORT`. */
  devIssuer: { port: number } | undefined;
}

export interface SecurityConfig {
  /** `CURSOR_SECRET`, or a random one in development. */
  cursorSecret: string;
  /** `CURSOR_SECRETS_PREVIOUS`. */
  cursorSecretsPrevious: string[];
  /** True when no CURSOR_SECRET was set and a random one was generated (development only). */
  cursorSecretGenerated: boolean;
  /** `MAX_QUERY_DEPTH`. */
  maxDepth: number;
  /** `MAX_QUERY_ALIASES`. */
  maxAliases: number;
  /** `MAX_QUERY_TOKENS`. */
  maxTokens: number;
  /** `MAX_QUERY_COST`. */
  maxCost: number;
  /** `MAX_BODY_BYTES`. */
  maxBodyBytes: number;
  /** `ALLOW_BATCHED_REQUESTS`. */
  allowBatchedRequests: boolean;
}

export interface CatalogConfig {
  /** `PAGE_READ_BUDGET`. */
  pageReadBudget: number;
  /** `MIGRATE_WRITE_UNITS_PER_SECOND`. */
  migrateWriteUnitsPerSecond: number;
  /** `MIGRATE_SEGMENTS`. */
  migrateSegments: number;
}

export interface DynamoClientConfig {
  /** `DYNAMODB_MAX_ATTEMPTS`. */
  maxAttempts: number;
  /** `DYNAMODB_RETRY_MODE`. */
  retryMode: 'standard' | 'adaptive';
  /** `DYNAMODB_CONNECT_TIMEOUT_MS`. */
  connectionTimeoutMs: number;
  /** `DYNAMODB_REQUEST_TIMEOUT_MS`. */
  requestTimeoutMs: number;
  /** `DYNAMODB_THROTTLE_ATTEMPTS`. */
  throttleAttempts?: number;
  /** `DYNAMODB_THROTTLE_BUDGET_MS`. */
  throttleBudgetMs?: number;
  /** `DYNAMODB_READ_PATH`. */
  readPath?: 'lean' | 'sdk';
  /** Any of the AWS credential variables is set: endpoints other than AWS sign with the SDK's chain too. */
  credentialsConfigured?: boolean;
}

/** Which telemetry this process sends (docs/observability.md); the SDK reads the other OTEL_* variables itself. */
export interface TelemetrySettings {
  traces: { exporters: TraceExporterName[]; protocol: OtlpProtocol };
  metrics: { exporters: MetricExporterName[]; protocol: OtlpProtocol; intervalMs: number; timeoutMs: number };
  /** `OTEL_PROPAGATORS`; empty for `none`. */
  propagators: ('tracecontext' | 'baggage')[];
  /** `OTEL_RESOURCE_ATTRIBUTES`, then `OTEL_SERVICE_NAME` as `service.name`. */
  resource: Record<string, string>;
  /** `TELEMETRY_LAMBDA_FIRST_EXPORT`: the Lambda entry point's first export, after or before its answer. */
  lambdaFirstExport: LambdaFirstExport;
}

export type LambdaFirstExport = 'after-answer' | 'before-answer';

// ---------------------------------------------------------------------------
// The loader: the table's values, then the checks that span settings

export interface LoadOptions {
  /**
   * Whether this process serves GraphQL (default true). The stream processor
   * (`npm run stream-worker`, the stream Lambda) does not, so prod
   * requires neither CURSOR_SECRET nor AUTH_MODE of it.
   */
  servesGraphql?: boolean;
}

type Get = ReturnType<typeof reader>;

/** Prod mode: NODE_ENV set to PROD_NODE_ENV decides the other entries' defaults and checks. */
const isProd = (env: Env) => reader(env, { prod: false })('NODE_ENV') === PROD_NODE_ENV;

export function loadConfig(env: Env = process.env, { servesGraphql = true }: LoadOptions = {}): Config {
  const prod = isProd(env);
  const get = reader(env, { prod });
  const endpoint = get('DYNAMODB_ENDPOINT');
  return {
    port: get('PORT'),
    host: get('HOST'),
    tableName: get('TABLE_NAME'),
    schemaFile: get('SCHEMA_FILE'),
    endpoint,
    region: get('AWS_REGION') ?? get('AWS_DEFAULT_REGION'),
    prod,
    corsOrigins: get('CORS_ORIGINS'),
    localDynamoPort: get('DYNAMODB_LOCAL_PORT'),
    logLevel: get('LOG_LEVEL'),
    dynamodbMetricsExtension: get('DYNAMODB_METRICS_EXTENSION'),
    naive: get('GATEWAY_NAIVE'),
    security: {
      ...cursorSecrets(get, prod && servesGraphql),
      maxDepth: get('MAX_QUERY_DEPTH'),
      maxAliases: get('MAX_QUERY_ALIASES'),
      maxTokens: get('MAX_QUERY_TOKENS'),
      maxCost: get('MAX_QUERY_COST'),
      maxBodyBytes: get('MAX_BODY_BYTES'),
      allowBatchedRequests: get('ALLOW_BATCHED_REQUESTS'),
    },
    catalog: {
      pageReadBudget: get('PAGE_READ_BUDGET'),
      migrateWriteUnitsPerSecond: get('MIGRATE_WRITE_UNITS_PER_SECOND'),
      migrateSegments: get('MIGRATE_SEGMENTS'),
    },
    dynamoClient: {
      maxAttempts: get('DYNAMODB_MAX_ATTEMPTS'),
      retryMode: get('DYNAMODB_RETRY_MODE'),
      connectionTimeoutMs: get('DYNAMODB_CONNECT_TIMEOUT_MS'),
      requestTimeoutMs: get('DYNAMODB_REQUEST_TIMEOUT_MS'),
      throttleAttempts: get('DYNAMODB_THROTTLE_ATTEMPTS'),
      throttleBudgetMs: get('DYNAMODB_THROTTLE_BUDGET_MS'),
      readPath: get('DYNAMODB_READ_PATH'),
      credentialsConfigured: (
        ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'] as const
      ).some((name) => get(name) !== undefined),
    },
    stream: {
      worker: get('STREAM_WORKER') ?? !isAws(endpoint),
      pollMs: get('STREAM_POLL_MS'),
      batchSize: get('STREAM_BATCH_SIZE'),
      maxAttempts: get('STREAM_MAX_ATTEMPTS'),
      retryDelayMs: get('STREAM_RETRY_DELAY_MS'),
      concurrency: get('STREAM_CONCURRENCY'),
    },
    reshard: {
      graceMs: get('RESHARD_GRACE_MS'),
      settleMs: get('RESHARD_SETTLE_MS'),
      batchSize: get('RESHARD_BATCH_SIZE'),
      pauseMs: get('RESHARD_PAUSE_MS'),
    },
    operationLimits: {
      maxRequests: get('MAX_DYNAMODB_REQUESTS'),
      maxInFlight: get('MAX_DYNAMODB_IN_FLIGHT'),
      maxResponseFields: get('MAX_RESPONSE_FIELDS'),
      maxResponseBytes: get('MAX_RESPONSE_BYTES'),
      queryBytesPerRequest: get('QUERY_BYTES_PER_DYNAMODB_REQUEST'),
      callerRequestsPerSecond: get('CALLER_DYNAMODB_REQUESTS_PER_SECOND'),
      callerRequestsBurst: get('CALLER_DYNAMODB_REQUESTS_BURST'),
    },
    http: {
      headersTimeoutMs: get('HTTP_HEADERS_TIMEOUT_MS'),
      requestTimeoutMs: get('HTTP_REQUEST_TIMEOUT_MS'),
      keepAliveTimeoutMs: get('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
      maxConnections: get('HTTP_MAX_CONNECTIONS'),
      maxWaitingPerAddress: get('HTTP_MAX_WAITING_PER_ADDRESS'),
    },
    idempotencyTtlSeconds: get('IDEMPOTENCY_TTL_SECONDS'),
    healthCacheMs: get('HEALTH_CACHE_MS'),
    trustedDocuments: get('TRUSTED_DOCUMENTS'),
    healthDetails: get('HEALTH_DETAILS'),
    auth: authSettings(get, env, prod && servesGraphql),
    telemetry: telemetryFrom(env, get),
    subscriptions: {
      redisUrl: get('REDIS_URL'),
      redisEventSecret: redisEventSecret(get, prod),
      maxConnections: get('WS_MAX_CONNECTIONS'),
      maxPerAddress: get('WS_MAX_CONNECTIONS_PER_ADDRESS'),
      perConnection: get('WS_MAX_SUBSCRIPTIONS'),
      initTimeoutMs: get('WS_INIT_TIMEOUT_MS'),
      maxBufferedBytes: get('WS_MAX_BUFFERED_BYTES'),
      maxQueued: get('WS_MAX_QUEUED_EVENTS'),
      maxQueuedBytes: get('WS_MAX_QUEUED_BYTES'),
      maxDocumentBytes: get('WS_MAX_DOCUMENT_BYTES'),
      maxDocumentBytesPerAddress: get('WS_MAX_DOCUMENT_BYTES_PER_ADDRESS'),
      maxDocumentBytesTotal: get('WS_MAX_DOCUMENT_BYTES_TOTAL'),
      eventRequestsPerSecond: get('WS_DYNAMODB_REQUESTS_PER_SECOND'),
      eventRequestsBurst: get('WS_DYNAMODB_REQUESTS_BURST'),
    },
    changedSettings: changedSettings(env),
    unknownSettings: unknownSettings(env),
  };
}

/** Real DynamoDB: `aws`, or an amazonaws.com URL. */
function isAws(endpoint: DynamoEndpoint): boolean {
  if (endpoint.kind === 'aws') return true;
  try {
    return endpoint.kind === 'url' && /\.amazonaws\.com(\.cn)?$/.test(new URL(endpoint.url).hostname);
  } catch {
    return false;
  }
}

/** CURSOR_SECRET is required in prod mode; development generates one per start. */
function cursorSecrets(get: Get, required: boolean) {
  const secret = get('CURSOR_SECRET');
  const previous = get('CURSOR_SECRETS_PREVIOUS');
  if (secret !== undefined) return { cursorSecret: secret, cursorSecretsPrevious: previous, cursorSecretGenerated: false };
  if (required) {
    throw new ConfigError(
      `CURSOR_SECRET is required when NODE_ENV=${PROD_NODE_ENV}: set it to at least ${MIN_CURSOR_SECRET_LENGTH} random characters (e.g. openssl rand -base64 48)`,
    );
  }
  return { cursorSecret: randomBytes(32).toString('base64url'), cursorSecretsPrevious: previous, cursorSecretGenerated: true };
}

/** With REDIS_URL in prod mode the events on Redis must be signed: anyone who can PUBLISH could feed subscribers otherwise. */
function redisEventSecret(get: Get, prod: boolean): string | undefined {
  const secret = get('REDIS_EVENT_SECRET');
  if (secret === undefined && prod && get('REDIS_URL') !== undefined) {
    throw new ConfigError(
      `REDIS_EVENT_SECRET is required with REDIS_URL when NODE_ENV=${PROD_NODE_ENV}: set the same ${MIN_CURSOR_SECRET_LENGTH} or more random characters on the stream processor and every gateway (e.g. openssl rand -base64 48)`,
    );
  }
  return secret;
}

/** AUTH_MODE is required in prod mode; oidc needs an issuer and an audience; the development issuer is development's. */
function authSettings(get: Get, env: Env, prod: boolean): AuthConfig {
  const mode = get('AUTH_MODE');
  const devIssuer = get('AUTH_DEV_ISSUER');
  if (devIssuer && prod) throw new ConfigError(`AUTH_DEV_ISSUER is for development only; it is refused when NODE_ENV=${PROD_NODE_ENV}`);
  if (mode === undefined && prod) {
    throw new ConfigError(
      `AUTH_MODE is required when NODE_ENV=${PROD_NODE_ENV}: set AUTH_MODE=oidc with AUTH_ISSUER and AUTH_AUDIENCE, or AUTH_MODE=off to serve without authentication on purpose`,
    );
  }
  if (mode !== 'oidc') {
    if (devIssuer) throw new ConfigError('AUTH_DEV_ISSUER=true needs AUTH_MODE=oidc');
    return { mode: 'off', explicit: mode === 'off' };
  }
  const devPort = get('AUTH_DEV_ISSUER_PORT');
  const issuer = get('AUTH_ISSUER') ?? (devIssuer ? `http://127.0.0.1:${devPort}` : undefined);
  const audience = get('AUTH_AUDIENCE');
  if (audience.length === 0 && devIssuer) audience.push(DEV_AUDIENCE);
  if (!issuer) throw new ConfigError('AUTH_MODE=oidc needs AUTH_ISSUER (the issuer URL, exactly as in the tokens\' iss claim)');
  if (audience.length === 0) throw new ConfigError('AUTH_MODE=oidc needs AUTH_AUDIENCE (the API identifier or client id the tokens are issued for)');
  const owners = SETTINGS['AUTH_<NAME>_CLAIM'];
  return {
    mode,
    explicit: true,
    issuer,
    audience,
    jwksUrl: get('AUTH_JWKS_URL'),
    rolesClaim: get('AUTH_ROLES_CLAIM'),
    claims: Object.fromEntries(
      Object.keys(env)
        .filter((name) => owners.matches.test(name) && name !== 'AUTH_ROLES_CLAIM' && !isUnset(env[name]))
        .sort()
        .map((name) => [name, claimName(env[name]!, name)]),
    ),
    clockToleranceSeconds: get('AUTH_CLOCK_TOLERANCE_SECONDS'),
    maxTokenLifetimeSeconds: get('AUTH_MAX_TOKEN_LIFETIME_SECONDS'),
    jwksCooldownSeconds: get('AUTH_JWKS_COOLDOWN_SECONDS'),
    devIssuer: devIssuer ? { port: devPort } : undefined,
  };
}

/** Telemetry is on when any OTEL_* variable has a value and OTEL_SDK_DISABLED is not true. */
function telemetryFrom(env: Env, get: Get): TelemetrySettings | undefined {
  const family = SETTINGS['OTEL_*'].matches;
  if (get('OTEL_SDK_DISABLED') || !Object.keys(env).some((name) => family.test(name) && env[name])) return undefined;
  const protocol = get('OTEL_EXPORTER_OTLP_PROTOCOL');
  const serviceName = get('OTEL_SERVICE_NAME');
  return {
    traces: { exporters: get('OTEL_TRACES_EXPORTER'), protocol: get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? protocol },
    metrics: {
      exporters: get('OTEL_METRICS_EXPORTER'),
      protocol: get('OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') ?? protocol,
      intervalMs: get('OTEL_METRIC_EXPORT_INTERVAL'),
      timeoutMs: get('OTEL_METRIC_EXPORT_TIMEOUT'),
    },
    propagators: get('OTEL_PROPAGATORS'),
    resource: { ...get('OTEL_RESOURCE_ATTRIBUTES'), ...(serviceName ? { 'service.name': serviceName } : {}) },
    lambdaFirstExport: get('TELEMETRY_LAMBDA_FIRST_EXPORT'),
  };
}

/** The OTEL_* settings alone (telemetry/settings.ts, tools): undefined when telemetry is off. Throws ConfigError. */
export function loadTelemetrySettings(env: Env): TelemetrySettings | undefined {
  return telemetryFrom(env, reader(env, { prod: isProd(env) }));
}

// ---------------------------------------------------------------------------
// Unknown settings

/**
 * Prefixes only this project uses: a variable with one of them that no
 * setting reads is most likely a misspelling, which would otherwise be
 * silently ignored (and, for DYNAMODB_ENDPOINT, start the embedded DynamoDB
 * Local instead). AWS_, NODE_ and HTTP_ are shared with other tools.
 */
const PROJECT_PREFIXES = /^(DYNAMODB_|AUTH_|WS_|CURSOR_|REDIS_|GATEWAY_|GRAPHQL_|STREAM_|MIGRATE_|RESHARD_|HEALTH_|IDEMPOTENCY_|TELEMETRY_|MAX_QUERY_|MAX_DYNAMODB_|MAX_RESPONSE_|OTEL_)/;

/** OpenTelemetry's own variables, which the SDK reads itself (the specification's names). */
const STANDARD_OTEL =
  /^OTEL_(EXPORTER_OTLP(_(TRACES|METRICS|LOGS))?_(ENDPOINT|HEADERS|TIMEOUT|COMPRESSION|PROTOCOL|CERTIFICATE|CLIENT_KEY|CLIENT_CERTIFICATE|INSECURE)|EXPORTER_OTLP_METRICS_(TEMPORALITY_PREFERENCE|DEFAULT_HISTOGRAM_AGGREGATION)|EXPORTER_(PROMETHEUS|ZIPKIN|JAEGER)_\w+|TRACES_SAMPLER(_ARG)?|LOGS_EXPORTER|LOG_LEVEL|(BSP|BLRP|ATTRIBUTE|SPAN|LINK|EVENT|NODE|EXPERIMENTAL)_\w+|METRICS_EXEMPLAR_FILTER|SEMCONV_STABILITY_OPT_IN|CONFIG_FILE)$/;

export interface UnknownSetting {
  name: string;
  /** The known setting nearest in spelling (none for a retired setting). */
  closest?: string;
  /** A setting earlier versions read: what became of it. */
  retired?: string;
}

/**
 * Settings earlier versions read and this one ignores, with what an
 * upgrading user should know. Warned about at start-up, never refused: a
 * deployment that still sets one keeps starting.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  GRAPHQL_EXECUTOR: 'operations always run on graphql-js (graphql-jit saved too little CPU to keep; see docs/performance.md)',
};

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
 * any setting's name), each with the closest known name, or with what
 * became of it when it is a retired setting.
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
    .filter((name) => PROJECT_PREFIXES.test(name) || name in RETIRED_SETTINGS || nearMiss(name))
    .sort()
    .map((name) => (name in RETIRED_SETTINGS ? { name, retired: RETIRED_SETTINGS[name]! } : { name, closest: closest(name) }));
}

// ---------------------------------------------------------------------------
// The start-up line and the docs

const shown = (raw: string) => {
  const value = raw.trim();
  return value.length > 120 ? `${value.slice(0, 117)}…` : value;
};

/**
 * The settings set to something other than their default, by name (in the
 * table's order), as given; secrets show `(set)`. A pattern entry lists
 * each variable of its family that is set.
 */
export function changedSettings(env: Env): Record<string, string> {
  const prod = isProd(env);
  const changed: Record<string, string> = {};
  const claimed = new Set(Object.keys(SETTINGS));
  for (const [name, setting] of Object.entries(TABLE)) {
    if (setting.kind === 'pattern') {
      for (const member of Object.keys(env).sort()) {
        if (!claimed.has(member) && setting.matches!.test(member) && !isUnset(env[member])) changed[member] = setting.secret ? '(set)' : shown(env[member]!);
      }
      continue;
    }
    const raw = env[name];
    if (isUnset(raw, setting)) continue;
    let same = false;
    try {
      same = JSON.stringify(setting.parse(raw, name, { prod })) === JSON.stringify(defaultOf(setting, prod));
    } catch {
      // A value loadConfig did not need (it reads AWS_DEFAULT_REGION only without AWS_REGION): shown as given.
    }
    if (!same) changed[name] = setting.secret ? '(set)' : shown(raw);
  }
  return changed;
}

function defaultCell(setting: Setting<unknown>): string {
  if (setting.defaultText) return setting.defaultText;
  const text = (value: unknown): string =>
    value === undefined ? 'unset' : Array.isArray(value) ? `\`${value.join(',')}\`` : `\`${typeof value === 'number' ? String(value) : String(value)}\``;
  return setting.prodDefault === undefined ? text(setting.default) : `${text(setting.default)}; ${text(setting.prodDefault)} in prod mode`;
}

/** A row's name as the docs show it. */
const nameCell = (name: string) => `\`${name}\``;

/**
 * The full table as Markdown, one section per group (docs/configuration.md
 * holds exactly this between its markers).
 */
export function settingsTable(): string {
  const sections: string[] = [];
  for (const [group, title] of Object.entries(SETTING_GROUPS)) {
    const rows = Object.entries(TABLE).filter(([, s]) => s.group === group);
    sections.push(
      [
        `### ${title}`,
        '',
        '| name | default | accepts | meaning |',
        '|---|---|---|---|',
        ...rows.map(([name, s]) => `| ${nameCell(name)} | ${defaultCell(s)} | ${s.range} | ${s.meaning} |`),
      ].join('\n'),
    );
  }
  return sections.join('\n\n');
}

/** A short table of some settings, their default and the first sentence of their meaning (the README's). */
export function settingsSummary(names: readonly SettingName[]): string {
  // The README is not in docs/: its short meanings keep no links.
  const firstSentence = (text: string) => (/^(.*?\.)(\s|$)/.exec(text)?.[1] ?? text).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return [
    '| name | default | meaning |',
    '|---|---|---|',
    ...names.map((name) => `| ${nameCell(name)} | ${defaultCell(TABLE[name]!)} | ${firstSentence(TABLE[name]!.meaning)} |`),
  ].join('\n');
}

/** The README's "most used" settings. */
export const MOST_USED_SETTINGS: readonly SettingName[] = ['PORT', 'HOST', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_PORT', 'SCHEMA_FILE', 'NODE_ENV', 'AUTH_MODE', 'CURSOR_SECRET', 'LOG_LEVEL'];
