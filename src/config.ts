/**
 * The only reader of process.env. Every setting, its default and its
 * validation live here; a bad value stops start-up with a message naming
 * the variable.
 */
import { resolve } from 'node:path';
import { DEFAULT_SCHEMA_FILE } from './declaration/loadModel.js';
import { randomBytes } from 'node:crypto';
import { telemetrySettings, type TelemetrySettings } from './telemetry/settings.js';

/**
 * Where DynamoDB is: `embedded` (DYNAMODB_ENDPOINT unset: `npm start` runs
 * DynamoDB Local itself, with demo data), `url` (DynamoDB Local, docker, or
 * any endpoint), `aws` (the SDK's endpoint for the region, real credentials).
 */
export type DynamoEndpoint = { kind: 'embedded' } | { kind: 'url'; url: string } | { kind: 'aws' };

/** For programs that never start DynamoDB Local (Lambda, seed): unset means AWS itself. */
export const withoutEmbedded = (endpoint: DynamoEndpoint): DynamoEndpoint =>
  endpoint.kind === 'embedded' ? { kind: 'aws' } : endpoint;

/** Every default, stated once; modules that need one take it from here. */
export const DEFAULTS = {
  port: 4000,
  host: '0.0.0.0',
  tableName: 'AppTable',
  localDynamoPort: 8000,
  logLevel: 'info',
  /** Region for local endpoints (DynamoDB Local ignores it; the SDK insists on one). */
  localRegion: 'us-east-1',
  security: {
    maxDepth: 15,
    maxAliases: 30,
    maxTokens: 2000,
    maxCost: 20_000,
    maxBodyBytes: 100_000,
    allowBatchedRequests: false,
  },
  dynamoClient: {
    maxAttempts: 3,
    retryMode: 'standard',
    connectionTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    throttleAttempts: 10,
    throttleBudgetMs: 5000,
    readPath: 'lean',
  },
  /** The stream processor (docs/stream.md). */
  stream: {
    pollMs: 250,
    batchSize: 100,
    maxAttempts: 5,
    retryDelayMs: 200,
    concurrency: 8,
  },
  reshard: {
    graceMs: 10_000,
    settleMs: 1000,
    batchSize: 25,
    pauseMs: 100,
  },
  operationLimits: { maxRequests: 2000, maxInFlight: 32, maxResponseFields: 50_000, maxResponseBytes: 1_000_000, queryBytesPerRequest: 10 },
  http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5000, maxConnections: 1000, maxWaitingPerAddress: 100 },
  idempotencyTtlSeconds: 86_400,
  healthCacheMs: 1000,
  subscriptions: { maxConnections: 1000, perConnection: 50, initTimeoutMs: 5000, maxBufferedBytes: 1_048_576, maxQueued: 1000 },
} as const;

export interface Config {
  /** HTTP port (`PORT`, default 4000). */
  port: number;
  /** Interface to bind (`HOST`, default 0.0.0.0 so containers are reachable). */
  host: string;
  /** `TABLE_NAME`, default `AppTable`. */
  tableName: string;
  /** `SCHEMA_FILE`: the model file served (absolute path; default the project's schema.graphql). */
  schemaFile: string;
  /**
   * `DYNAMODB_ENDPOINT`: unset → embedded DynamoDB Local with demo data; a URL → that endpoint;
   * `aws` → real DynamoDB through the SDK's region and credential chain.
   */
  endpoint: DynamoEndpoint;
  /** `AWS_REGION` (default us-east-1 for local endpoints; the SDK chain otherwise). */
  region: string | undefined;
  /** `NODE_ENV === 'production'`. */
  production: boolean;
  /** `CORS_ORIGINS`: comma-separated origins, or `*` (default: any http://localhost:* / 127.0.0.1:* origin; none in production). */
  corsOrigins: string[] | undefined;
  /** `DYNAMODB_LOCAL_PORT`: port for the embedded DynamoDB Local (default 8000; 0 picks a free one). */
  localDynamoPort: number;
  /** `LOG_LEVEL`: pino level, default `info` (`silent` turns logging off). */
  logLevel: LogLevel;
  /**
   * `DYNAMODB_METRICS_EXTENSION`: whether a request carrying the header
   * `x-dynamodb-metrics: 1` gets its DynamoDB request figures in the
   * response's `extensions.dynamodb` (default: on unless production).
   */
  dynamodbMetricsExtension: boolean;
  /** `GATEWAY_NAIVE`: DataLoader batching/caching and look-ahead off; a benchmark baseline, never for serving (default off). */
  naive: boolean;
  /**
   * `GRAPHQL_EXECUTOR`: `jit` (default) runs operations compiled by graphql-jit;
   * `graphql-js` runs them with Apollo's own execution (same answers and errors, more CPU).
   */
  executor: 'jit' | 'graphql-js';
  /** Hardening settings (README "Security"). */
  security: SecurityConfig;
  /** Lists, filters and the migration tool (docs/catalog.md). */
  catalog: CatalogConfig;
  /** DynamoDB client retries and timeouts (README "Security"). */
  dynamoClient: DynamoClientConfig;
  /** `npm run reshard` pacing (docs/sharding.md). */
  reshard: ReshardConfig;
  /** What one operation may cost the table and the process (docs/limits.md). */
  operationLimits: OperationLimitsConfig;
  /** Slow and many clients: node:http timeouts and connection cap (docs/limits.md). */
  http: HttpConfig;
  /** `IDEMPOTENCY_TTL_SECONDS` (default 86400): how long a mutation's first response is kept for retries. */
  idempotencyTtlSeconds: number;
  /** `HEALTH_CACHE_MS` (default 1000): how long `/health` reuses its last table check. */
  healthCacheMs: number;
  /** `TRUSTED_DOCUMENTS`: a manifest file; when set, only its operations run (docs/clients.md#trusted-documents). */
  trustedDocuments: string | undefined;
  /** `HEALTH_DETAILS` (`public` by default, `admins` in production): who sees `/health`'s layout and stream details; others get the status. */
  healthDetails: 'public' | 'admins';
  /** Identity and authorization (docs/auth.md). */
  auth: AuthConfig;
  /** The stream processor that keeps edge copies and finishes cascades (docs/stream.md). */
  stream: StreamConfig;
  /** Traces and metrics from the standard `OTEL_*` variables; undefined (no SDK loaded) when none is set (docs/observability.md). */
  telemetry: TelemetrySettings | undefined;
  /** Live updates over WebSocket (docs/subscriptions.md). */
  subscriptions: SubscriptionConfig;
}

/** docs/subscriptions.md#settings; WebSocket messages are capped at MAX_BODY_BYTES like HTTP bodies. */
export interface SubscriptionConfig {
  /** `REDIS_URL` (redis:// or rediss://): carries change events from the one stream processor to every instance; unset: in-process. */
  redisUrl: string | undefined;
  /** `WS_MAX_CONNECTIONS`: open WebSockets per instance; more are closed with 1013. */
  maxConnections: number;
  /** `WS_MAX_SUBSCRIPTIONS`: subscriptions per connection. */
  perConnection: number;
  /** `WS_INIT_TIMEOUT_MS`: time for `connection_init` before the socket is closed with 4408. */
  initTimeoutMs: number;
  /** `WS_MAX_BUFFERED_BYTES`: bytes waiting to be sent on one socket before it is closed as a slow consumer. */
  maxBufferedBytes: number;
  /** `WS_MAX_QUEUED_EVENTS`: events waiting per subscription before it is closed as a slow consumer. */
  maxQueued: number;
}

export interface StreamConfig {
  /**
   * `STREAM_WORKER`: whether this process reads the table's stream itself
   * (default: on, except with `DYNAMODB_ENDPOINT=aws` or an amazonaws.com
   * URL, where the Lambda consumer does the work).
   */
  worker: boolean;
  /** `STREAM_POLL_MS` (default 250): pause after a poll that found nothing. */
  pollMs: number;
  /** `STREAM_BATCH_SIZE` (default 100): records per GetRecords (1–1000). */
  batchSize: number;
  /** `STREAM_MAX_ATTEMPTS` (default 5): attempts per record before it is kept as a dead letter and skipped. */
  maxAttempts: number;
  /** `STREAM_RETRY_DELAY_MS` (default 200): base of the backoff between those attempts. */
  retryDelayMs: number;
  /** `STREAM_CONCURRENCY` (default 8): edge writes in flight while propagating or cascading. */
  concurrency: number;
}

export interface ReshardConfig {
  /** `RESHARD_GRACE_MS` (default 10000): wait after switching layouts, longer than any request takes. */
  graceMs: number;
  /** `RESHARD_SETTLE_MS` (default 1000): wait after a batch of moves for the index to show them. */
  settleMs: number;
  /** `RESHARD_BATCH_SIZE` (default 25): edges moved per batch. */
  batchSize: number;
  /** `RESHARD_PAUSE_MS` (default 100): pause between batches, so readers find quiet windows. */
  pauseMs: number;
}

export interface OperationLimitsConfig {
  /** `MAX_DYNAMODB_REQUESTS` (default 2000): DynamoDB requests (attempts included) one operation may send. */
  maxRequests: number;
  /** `MAX_DYNAMODB_IN_FLIGHT` (default 32): DynamoDB requests of one operation in flight at once; more wait their turn. */
  maxInFlight: number;
  /** `MAX_RESPONSE_FIELDS` (default 50000): leaf fields an operation may return at most (counted before execution). */
  maxResponseFields: number;
  /** `MAX_RESPONSE_BYTES` (default 1000000): UTF-8 bytes a response may hold (estimated before execution, measured after). */
  maxResponseBytes: number;
  /** `QUERY_BYTES_PER_DYNAMODB_REQUEST` (default 10; 0: off): a query may send one DynamoDB request per this many bytes of its text (at least 50). */
  queryBytesPerRequest: number;
}

export interface HttpConfig {
  /** `HTTP_HEADERS_TIMEOUT_MS` (default 10000): time to receive a request's headers. */
  headersTimeoutMs: number;
  /** `HTTP_REQUEST_TIMEOUT_MS` (default 30000): time to receive a whole request, body included. */
  requestTimeoutMs: number;
  /** `HTTP_KEEP_ALIVE_TIMEOUT_MS` (default 5000): an idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** `HTTP_MAX_CONNECTIONS` (default 1000): open connections at once; more are refused. */
  maxConnections: number;
  /** `HTTP_MAX_WAITING_PER_ADDRESS` (default 100; 0: off): one client address's connections without a complete request being served. */
  maxWaitingPerAddress: number;
}

/** docs/auth.md describes every setting here. */
export type AuthConfig =
  | {
      /** `AUTH_MODE=off`: no identity, every caller may do everything. Default outside production. */
      mode: 'off';
      /** True when AUTH_MODE=off was set explicitly (production requires that; start-up warns). */
      explicit: boolean;
    }
  | OidcAuthConfig;

export interface OidcAuthConfig {
  /** `AUTH_MODE=oidc`: bearer tokens verified against an OIDC issuer; rules in src/auth/rules.ts apply. */
  mode: 'oidc';
  explicit: true;
  /** `AUTH_ISSUER`: the issuer URL, compared exactly with the token's `iss`. */
  issuer: string;
  /** `AUTH_AUDIENCE`: comma-separated accepted audiences (`aud`, or Cognito access tokens' `client_id`). */
  audience: string[];
  /** `AUTH_JWKS_URL`: the key set's URL; default: `jwks_uri` of the issuer's discovery document. */
  jwksUrl: string | undefined;
  /** `AUTH_ROLES_CLAIM` (default `groups`): the claim listing roles; role `admin` may do everything. */
  rolesClaim: string;
  /**
   * `AUTH_<NAME>_CLAIM` (every one set but AUTH_ROLES_CLAIM), by variable name: the claims a model's
   * `@owner(claim, setting)` lets its setting rename; an owner whose setting is unset keeps its claim.
   */
  claims: Readonly<Record<string, string>>;
  /** `AUTH_CLOCK_TOLERANCE_SECONDS` (default 5): leeway for `exp`/`nbf`/`iat`. */
  clockToleranceSeconds: number;
  /** `AUTH_MAX_TOKEN_LIFETIME_SECONDS` (default 86400): tokens whose `exp` is further than this past `iat` (or now) are refused. */
  maxTokenLifetimeSeconds: number;
  /** `AUTH_JWKS_COOLDOWN_SECONDS` (default 30): after a key-set fetch, an unknown `kid` waits this long before another. */
  jwksCooldownSeconds: number;
  /**
   * `AUTH_DEV_ISSUER=true` (development only): `npm start` serves a local issuer on 127.0.0.1
   * (`AUTH_DEV_ISSUER_PORT`, default 4001) whose tokens `npm run dev-token` mints.
   */
  devIssuer: { port: number } | undefined;
}

/** The audience the development issuer's tokens carry. */
export const DEV_AUDIENCE = 'dynamo-graph-gateway';

export interface SecurityConfig {
  /**
   * `CURSOR_SECRET` (≥ 32 characters) signs cursors; `CURSOR_SECRETS_PREVIOUS`
   * (comma-separated) still verifies cursors signed before a rotation.
   * Required in production; generated at random in development.
   */
  cursorSecret: string;
  cursorSecretsPrevious: string[];
  /** True when no CURSOR_SECRET was set and a random one was generated (development only). */
  cursorSecretGenerated: boolean;
  /** `MAX_QUERY_DEPTH` (default 15: four nested connections; their size is the cost limit's business). */
  maxDepth: number;
  /** `MAX_QUERY_ALIASES` (default 30). */
  maxAliases: number;
  /** `MAX_QUERY_TOKENS` (default 2000). */
  maxTokens: number;
  /** `MAX_QUERY_COST` (default 20000): roughly the items an operation may read. */
  maxCost: number;
  /** `MAX_BODY_BYTES` (default 100000). */
  maxBodyBytes: number;
  /** `ALLOW_BATCHED_REQUESTS=true` turns on batched HTTP requests (default off). */
  allowBatchedRequests: boolean;
}

export interface CatalogConfig {
  /**
   * `PAGE_READ_BUDGET` (default 100): read capacity units one filtered page
   * (a @range connection with a @where filter) may consume while it fills itself; when
   * spent, the page comes back short and says so (docs/catalog.md).
   */
  pageReadBudget: number;
  /** `MIGRATE_WRITE_UNITS_PER_SECOND` (default 100): write units per second `npm run migrate` may consume. */
  migrateWriteUnitsPerSecond: number;
  /** `MIGRATE_SEGMENTS` (default 4): parallel Scan segments of `npm run migrate`. */
  migrateSegments: number;
}

export interface DynamoClientConfig {
  /** `DYNAMODB_MAX_ATTEMPTS` (default 3, first attempt included). */
  maxAttempts: number;
  /** `DYNAMODB_RETRY_MODE`: `standard` (default) or `adaptive`. */
  retryMode: 'standard' | 'adaptive';
  /** `DYNAMODB_CONNECT_TIMEOUT_MS` (default 1000). */
  connectionTimeoutMs: number;
  /** `DYNAMODB_REQUEST_TIMEOUT_MS` (default 2000: ~6 s worst case with 3 attempts). */
  requestTimeoutMs: number;
  /** `DYNAMODB_THROTTLE_ATTEMPTS` (default 10): attempts of a throttled request, first included; separate from maxAttempts. */
  throttleAttempts?: number;
  /** `DYNAMODB_THROTTLE_BUDGET_MS` (default 5000): most time one request spends waiting out throttling. */
  throttleBudgetMs?: number;
  /**
   * `DYNAMODB_READ_PATH`: `lean` (default) sends GetItem, Query and BatchGetItem
   * without the SDK's middleware stack (dynamo/readPath.ts); `sdk` sends every
   * request through the SDK's document client.
   */
  readPath?: 'lean' | 'sdk';
  /**
   * AWS credentials are configured (`AWS_ACCESS_KEY_ID`, `AWS_PROFILE`, web
   * identity or container credentials): endpoints other than AWS sign with
   * the SDK's chain too; without any, they get dummy credentials.
   */
  credentialsConfigured?: boolean;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function intSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  }
  return value;
}

function boolSetting(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`${name} must be 1, 0, true or false; got "${env[name]}"`);
}

function endpointSetting(env: Env, name: string): DynamoEndpoint {
  const raw = env[name];
  if (raw === undefined || raw === '') return { kind: 'embedded' };
  if (raw === 'aws') return { kind: 'aws' };
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${name} must be "aws" or an http(s) URL such as http://localhost:8000; got "${raw}"`);
  }
  return { kind: 'url', url: raw };
}

function choiceSetting<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (!(choices as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${choices.join(', ')}; got "${raw}"`);
  }
  return value as T;
}

function hostSetting(env: Env): string {
  const raw = env.HOST?.trim();
  if (raw === undefined || raw === '') return DEFAULTS.host;
  // A host name or an IPv4/IPv6 address, never a URL: `http://…` or a path here is a common slip.
  if (!/^[A-Za-z0-9.:-]+$/.test(raw)) {
    throw new ConfigError(`HOST must be a host name or IP address such as 0.0.0.0 or 127.0.0.1; got "${raw}"`);
  }
  return raw;
}

function corsSetting(env: Env, production: boolean): string[] | undefined {
  const raw = env.CORS_ORIGINS?.trim();
  // Production allows only the origins it is told about: a page on any localhost port is not one of them.
  if (!raw) return production ? [] : undefined;
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
      throw new ConfigError(
        `CORS_ORIGINS must be * or comma-separated origins such as https://app.example.com (no path or trailing slash); got "${origin}"`,
      );
    }
  }
  return origins;
}

function regionSetting(env: Env): string | undefined {
  const name = env.AWS_REGION ? 'AWS_REGION' : 'AWS_DEFAULT_REGION';
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^[a-z0-9-]+$/.test(raw)) {
    throw new ConfigError(`${name} must be an AWS region name such as eu-west-1; got "${raw}"`);
  }
  return raw;
}

export const MIN_CURSOR_SECRET_LENGTH = 32;
/** Distinct characters a secret needs (`openssl rand -hex 16` has about 15 of 16). */
export const MIN_CURSOR_SECRET_DISTINCT = 10;

function cursorSecrets(env: Env, production: boolean) {
  const raw = env.CURSOR_SECRET ?? '';
  const previous = (env.CURSOR_SECRETS_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const [name, secret] of [['CURSOR_SECRET', raw], ...previous.map((p) => ['CURSOR_SECRETS_PREVIOUS', p])]) {
    if (secret !== '' && secret.length < MIN_CURSOR_SECRET_LENGTH) {
      throw new ConfigError(`${name} must be at least ${MIN_CURSOR_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
    }
    // 32 spaces, or "aaaa…", pass a length check and are guessed at once.
    if (secret !== '' && (secret.trim().length < MIN_CURSOR_SECRET_LENGTH || new Set(secret).size < MIN_CURSOR_SECRET_DISTINCT)) {
      throw new ConfigError(
        `${name} is too weak: use at least ${MIN_CURSOR_SECRET_LENGTH} random characters, ${MIN_CURSOR_SECRET_DISTINCT} or more of them different (e.g. openssl rand -base64 48)`,
      );
    }
  }
  if (raw === '') {
    if (production) {
      throw new ConfigError(
        `CURSOR_SECRET is required when NODE_ENV=production: set it to at least ${MIN_CURSOR_SECRET_LENGTH} random characters (e.g. openssl rand -base64 48)`,
      );
    }
    return { cursorSecret: randomBytes(32).toString('base64url'), cursorSecretsPrevious: previous, cursorSecretGenerated: true };
  }
  return { cursorSecret: raw, cursorSecretsPrevious: previous, cursorSecretGenerated: false };
}

/** The names an `@owner(setting:)` may give: the environment variables `claims` holds. */
export const OWNER_CLAIM_SETTING = /^AUTH_[A-Z0-9_]+_CLAIM$/;

function claimSetting(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw.length > 200 || /\s/.test(raw)) throw new ConfigError(`${name} must be a claim name without spaces; got "${raw}"`);
  return raw;
}

function issuerUrl(env: Env, name: string, production: boolean): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an https URL such as https://issuer.example.com/; got "${raw}"`);
  }
  const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !production))) {
    throw new ConfigError(`${name} must be an https URL (plain http only for 127.0.0.1/localhost); got "${raw}"`);
  }
  return raw;
}

function authSettings(env: Env, production: boolean): AuthConfig {
  const rawMode = env.AUTH_MODE?.trim();
  const devIssuer = boolSetting(env, 'AUTH_DEV_ISSUER', false);
  if (devIssuer && production) throw new ConfigError('AUTH_DEV_ISSUER is for development only; it is refused when NODE_ENV=production');
  if (rawMode === undefined || rawMode === '') {
    if (production) {
      throw new ConfigError(
        'AUTH_MODE is required when NODE_ENV=production: set AUTH_MODE=oidc with AUTH_ISSUER and AUTH_AUDIENCE, or AUTH_MODE=off to serve without authentication on purpose',
      );
    }
    if (devIssuer) throw new ConfigError('AUTH_DEV_ISSUER=true needs AUTH_MODE=oidc');
    return { mode: 'off', explicit: false };
  }
  const mode = choiceSetting(env, 'AUTH_MODE', ['oidc', 'off'] as const, 'off');
  if (mode === 'off') {
    if (devIssuer) throw new ConfigError('AUTH_DEV_ISSUER=true needs AUTH_MODE=oidc');
    return { mode: 'off', explicit: true };
  }
  const devPort = intSetting(env, 'AUTH_DEV_ISSUER_PORT', 4001, 1, 65535);
  const issuer = issuerUrl(env, 'AUTH_ISSUER', production) ?? (devIssuer ? `http://127.0.0.1:${devPort}` : undefined);
  const audience = (env.AUTH_AUDIENCE ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (audience.length === 0 && devIssuer) audience.push(DEV_AUDIENCE);
  if (!issuer) throw new ConfigError('AUTH_MODE=oidc needs AUTH_ISSUER (the issuer URL, exactly as in the tokens\' iss claim)');
  if (audience.length === 0) throw new ConfigError('AUTH_MODE=oidc needs AUTH_AUDIENCE (the API identifier or client id the tokens are issued for)');
  return {
    mode,
    explicit: true,
    issuer,
    audience,
    jwksUrl: issuerUrl(env, 'AUTH_JWKS_URL', production),
    rolesClaim: claimSetting(env, 'AUTH_ROLES_CLAIM', 'groups'),
    claims: Object.fromEntries(
      Object.keys(env).filter((name) => OWNER_CLAIM_SETTING.test(name) && name !== 'AUTH_ROLES_CLAIM' && env[name]?.trim())
        .sort().map((name) => [name, claimSetting(env, name, '')]),
    ),
    clockToleranceSeconds: intSetting(env, 'AUTH_CLOCK_TOLERANCE_SECONDS', 5, 0, 300),
    maxTokenLifetimeSeconds: intSetting(env, 'AUTH_MAX_TOKEN_LIFETIME_SECONDS', 86_400, 60, 2_592_000),
    jwksCooldownSeconds: intSetting(env, 'AUTH_JWKS_COOLDOWN_SECONDS', 30, 0, 3600),
    devIssuer: devIssuer ? { port: devPort } : undefined,
  };
}

export interface LoadOptions {
  /**
   * Whether this process serves GraphQL (default true). The stream processor
   * (`npm run stream-worker`, the stream Lambda) does not, so production
   * requires neither CURSOR_SECRET nor AUTH_MODE of it.
   */
  servesGraphql?: boolean;
}

export function loadConfig(env: Env = process.env, { servesGraphql = true }: LoadOptions = {}): Config {
  const tableName = env.TABLE_NAME || DEFAULTS.tableName;
  if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(tableName)) {
    throw new ConfigError(`TABLE_NAME must be 3-255 characters of a-z, A-Z, 0-9, _ . -; got "${tableName}"`);
  }
  const production = env.NODE_ENV === 'production';
  const { security, dynamoClient } = DEFAULTS;
  return {
    port: intSetting(env, 'PORT', DEFAULTS.port, 0, 65535),
    host: hostSetting(env),
    tableName,
    schemaFile: env.SCHEMA_FILE ? resolve(env.SCHEMA_FILE) : DEFAULT_SCHEMA_FILE,
    endpoint: endpointSetting(env, 'DYNAMODB_ENDPOINT'),
    region: regionSetting(env),
    production,
    corsOrigins: corsSetting(env, production),
    localDynamoPort: intSetting(env, 'DYNAMODB_LOCAL_PORT', DEFAULTS.localDynamoPort, 0, 65535),
    logLevel: choiceSetting(env, 'LOG_LEVEL', LOG_LEVELS, DEFAULTS.logLevel),
    dynamodbMetricsExtension: boolSetting(env, 'DYNAMODB_METRICS_EXTENSION', env.NODE_ENV !== 'production'),
    naive: boolSetting(env, 'GATEWAY_NAIVE', false),
    executor: choiceSetting(env, 'GRAPHQL_EXECUTOR', ['jit', 'graphql-js'] as const, 'jit'),
    security: {
      ...cursorSecrets(env, production && servesGraphql),
      maxDepth: intSetting(env, 'MAX_QUERY_DEPTH', security.maxDepth, 1, 100),
      maxAliases: intSetting(env, 'MAX_QUERY_ALIASES', security.maxAliases, 0, 1000),
      maxTokens: intSetting(env, 'MAX_QUERY_TOKENS', security.maxTokens, 10, 100_000),
      maxCost: intSetting(env, 'MAX_QUERY_COST', security.maxCost, 1, 100_000_000),
      maxBodyBytes: intSetting(env, 'MAX_BODY_BYTES', security.maxBodyBytes, 1_000, 10_000_000),
      allowBatchedRequests: boolSetting(env, 'ALLOW_BATCHED_REQUESTS', security.allowBatchedRequests),
    },
    catalog: {
      pageReadBudget: intSetting(env, 'PAGE_READ_BUDGET', 100, 1, 100_000),
      migrateWriteUnitsPerSecond: intSetting(env, 'MIGRATE_WRITE_UNITS_PER_SECOND', 100, 1, 1_000_000),
      migrateSegments: intSetting(env, 'MIGRATE_SEGMENTS', 4, 1, 1000),
    },
    dynamoClient: {
      maxAttempts: intSetting(env, 'DYNAMODB_MAX_ATTEMPTS', dynamoClient.maxAttempts, 1, 10),
      retryMode: choiceSetting(env, 'DYNAMODB_RETRY_MODE', ['standard', 'adaptive'] as const, dynamoClient.retryMode),
      connectionTimeoutMs: intSetting(env, 'DYNAMODB_CONNECT_TIMEOUT_MS', dynamoClient.connectionTimeoutMs, 50, 60_000),
      requestTimeoutMs: intSetting(env, 'DYNAMODB_REQUEST_TIMEOUT_MS', dynamoClient.requestTimeoutMs, 50, 120_000),
      throttleAttempts: intSetting(env, 'DYNAMODB_THROTTLE_ATTEMPTS', dynamoClient.throttleAttempts, 1, 30),
      throttleBudgetMs: intSetting(env, 'DYNAMODB_THROTTLE_BUDGET_MS', dynamoClient.throttleBudgetMs, 0, 120_000),
      readPath: choiceSetting(env, 'DYNAMODB_READ_PATH', ['lean', 'sdk'] as const, dynamoClient.readPath),
      credentialsConfigured: ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'].some((name) => Boolean(env[name])),
    },
    stream: {
      worker: boolSetting(env, 'STREAM_WORKER', !isAws(env.DYNAMODB_ENDPOINT)),
      pollMs: intSetting(env, 'STREAM_POLL_MS', DEFAULTS.stream.pollMs, 10, 60_000),
      batchSize: intSetting(env, 'STREAM_BATCH_SIZE', DEFAULTS.stream.batchSize, 1, 1000),
      maxAttempts: intSetting(env, 'STREAM_MAX_ATTEMPTS', DEFAULTS.stream.maxAttempts, 1, 100),
      retryDelayMs: intSetting(env, 'STREAM_RETRY_DELAY_MS', DEFAULTS.stream.retryDelayMs, 0, 60_000),
      concurrency: intSetting(env, 'STREAM_CONCURRENCY', DEFAULTS.stream.concurrency, 1, 64),
    },
    reshard: {
      graceMs: intSetting(env, 'RESHARD_GRACE_MS', DEFAULTS.reshard.graceMs, 0, 600_000),
      settleMs: intSetting(env, 'RESHARD_SETTLE_MS', DEFAULTS.reshard.settleMs, 0, 60_000),
      batchSize: intSetting(env, 'RESHARD_BATCH_SIZE', DEFAULTS.reshard.batchSize, 1, 100),
      pauseMs: intSetting(env, 'RESHARD_PAUSE_MS', DEFAULTS.reshard.pauseMs, 0, 60_000),
    },
    operationLimits: {
      maxRequests: intSetting(env, 'MAX_DYNAMODB_REQUESTS', DEFAULTS.operationLimits.maxRequests, 1, 1_000_000),
      maxInFlight: intSetting(env, 'MAX_DYNAMODB_IN_FLIGHT', DEFAULTS.operationLimits.maxInFlight, 1, 1000),
      maxResponseFields: intSetting(env, 'MAX_RESPONSE_FIELDS', DEFAULTS.operationLimits.maxResponseFields, 1, 10_000_000),
      maxResponseBytes: intSetting(env, 'MAX_RESPONSE_BYTES', DEFAULTS.operationLimits.maxResponseBytes, 1000, 100_000_000),
      queryBytesPerRequest: intSetting(env, 'QUERY_BYTES_PER_DYNAMODB_REQUEST', DEFAULTS.operationLimits.queryBytesPerRequest, 0, 100_000),
    },
    http: {
      headersTimeoutMs: intSetting(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULTS.http.headersTimeoutMs, 100, 600_000),
      requestTimeoutMs: intSetting(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULTS.http.requestTimeoutMs, 100, 3_600_000),
      keepAliveTimeoutMs: intSetting(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULTS.http.keepAliveTimeoutMs, 100, 600_000),
      maxConnections: intSetting(env, 'HTTP_MAX_CONNECTIONS', DEFAULTS.http.maxConnections, 1, 1_000_000),
      maxWaitingPerAddress: intSetting(env, 'HTTP_MAX_WAITING_PER_ADDRESS', DEFAULTS.http.maxWaitingPerAddress, 0, 1_000_000),
    },
    idempotencyTtlSeconds: intSetting(env, 'IDEMPOTENCY_TTL_SECONDS', DEFAULTS.idempotencyTtlSeconds, 60, 30 * 86_400),
    healthCacheMs: intSetting(env, 'HEALTH_CACHE_MS', DEFAULTS.healthCacheMs, 0, 60_000),
    trustedDocuments: env.TRUSTED_DOCUMENTS || undefined,
    healthDetails: choiceSetting(env, 'HEALTH_DETAILS', ['public', 'admins'] as const, production ? 'admins' : 'public'),
    auth: authSettings(env, production && servesGraphql),
    telemetry: telemetrySettings(env, (message) => {
      throw new ConfigError(message);
    }),
    subscriptions: subscriptionSettings(env),
  };
}

function subscriptionSettings(env: Env): SubscriptionConfig {
  const d = DEFAULTS.subscriptions;
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL such as redis://localhost:6379; got "${redisUrl}"`);
  }
  return {
    redisUrl,
    maxConnections: intSetting(env, 'WS_MAX_CONNECTIONS', d.maxConnections, 1, 1_000_000),
    perConnection: intSetting(env, 'WS_MAX_SUBSCRIPTIONS', d.perConnection, 1, 10_000),
    initTimeoutMs: intSetting(env, 'WS_INIT_TIMEOUT_MS', d.initTimeoutMs, 100, 600_000),
    maxBufferedBytes: intSetting(env, 'WS_MAX_BUFFERED_BYTES', d.maxBufferedBytes, 1024, 1_073_741_824),
    maxQueued: intSetting(env, 'WS_MAX_QUEUED_EVENTS', d.maxQueued, 1, 1_000_000),
  };
}

/** Real DynamoDB: `aws`, or an amazonaws.com URL. */
function isAws(endpoint: string | undefined): boolean {
  if (endpoint === 'aws') return true;
  try {
    return endpoint !== undefined && /\.amazonaws\.com(\.cn)?$/.test(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}
