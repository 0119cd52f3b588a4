/**
 * `loadConfig()`: every value parsed and checked by its entry of the
 * settings table (a bad value stops start-up with a ConfigError naming the
 * variable), then the few checks that span settings (prod mode's
 * requirements, OIDC), shaped into the typed Config the rest of src/
 * reads. No variable is read here by name: `get` takes the table's names.
 */
import { randomBytes } from 'node:crypto';
import { changedSettings } from './changedSettings.js';
import { type AuthConfig, type Config, ConfigError, type DynamoEndpoint, type Env, type TelemetrySettings } from './configTypes.js';
import { type Get, isProd, isUnset, PROD_NODE_ENV, reader, SETTINGS } from './settings.js';
import { unknownSettings } from './unknownSettings.js';
import { claimName, MIN_CURSOR_SECRET_LENGTH } from './valueChecks.js';

/** The audience the development issuer's tokens carry. */
export const DEV_AUDIENCE = 'dynamo-graph-gateway';

export interface LoadOptions {
  /**
   * Whether this process serves GraphQL (default true). The stream processor
   * (`npm run stream-worker`, the stream Lambda) does not, so prod
   * requires neither CURSOR_SECRET nor AUTH_MODE of it.
   */
  servesGraphql?: boolean;
}

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
    dynamoClient: dynamoClientSettings(get),
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
    subscriptions: subscriptionSettings(get, prod),
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

/** How the gateway's DynamoDB clients send: attempts, deadlines, the read path, whether credentials were given. */
function dynamoClientSettings(get: Get): Config['dynamoClient'] {
  return {
    maxAttempts: get('DYNAMODB_MAX_ATTEMPTS'),
    retryMode: get('DYNAMODB_RETRY_MODE'),
    connectionTimeoutMs: get('DYNAMODB_CONNECT_TIMEOUT_MS'),
    requestTimeoutMs: get('DYNAMODB_REQUEST_TIMEOUT_MS'),
    throttleAttempts: get('DYNAMODB_THROTTLE_ATTEMPTS'),
    throttleBudgetMs: get('DYNAMODB_THROTTLE_BUDGET_MS'),
    readPath: get('DYNAMODB_READ_PATH'),
    credentialsConfigured: (
      [
        'AWS_ACCESS_KEY_ID',
        'AWS_PROFILE',
        'AWS_WEB_IDENTITY_TOKEN_FILE',
        'AWS_CONTAINER_CREDENTIALS_FULL_URI',
        'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
      ] as const
    ).some((name) => get(name) !== undefined),
  };
}

/** Subscriptions over WebSockets: Redis between instances, and each socket's, address's and instance's budgets. */
function subscriptionSettings(get: Get, prod: boolean): Config['subscriptions'] {
  return {
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
  };
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
  if (!issuer) throw new ConfigError("AUTH_MODE=oidc needs AUTH_ISSUER (the issuer URL, exactly as in the tokens' iss claim)");
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
