/**
 * The shapes the rest of src/ reads: the typed Config loadConfig()
 * returns, its parts, and the error a bad setting raises. Each field names
 * its variable; what it means, its default and its range are the settings
 * table's (settings.ts).
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment, as process.env. */
export type Env = Record<string, string | undefined>;

/**
 * Where DynamoDB is: `embedded` (DYNAMODB_ENDPOINT unset: `npm start` runs
 * DynamoDB Local itself, with demo data), `url` (DynamoDB Local, docker, or
 * any endpoint), `aws` (the SDK's endpoint for the region, real credentials).
 */
export type DynamoEndpoint = { kind: 'embedded' } | { kind: 'url'; url: string } | { kind: 'aws' };

/** For programs that never start DynamoDB Local (Lambda, seed): unset means AWS itself. */
export const withoutEmbedded = (endpoint: DynamoEndpoint): DynamoEndpoint => (endpoint.kind === 'embedded' ? { kind: 'aws' } : endpoint);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type TraceExporterName = 'otlp' | 'console';
export type MetricExporterName = 'otlp' | 'prometheus' | 'console';

export interface UnknownSetting {
  name: string;
  /** The known setting nearest in spelling. */
  closest: string;
}

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
