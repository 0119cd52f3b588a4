import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { DEFAULT_SCHEMA_FILE } from '../../src/declaration/loadModel.js';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('defaults to port 4000, table AppTable and the embedded DynamoDB Local', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 4000, tableName: 'AppTable', endpoint: { kind: 'embedded' }, prod: false });
  });

  it('accepts an endpoint URL or `aws` for real DynamoDB', () => {
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'http://localhost:8000' }).endpoint).toEqual({ kind: 'url', url: 'http://localhost:8000' });
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'aws' }).endpoint).toEqual({ kind: 'aws' });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DYNAMODB_ENDPOINT', 'localhost:8000'],
    ['TABLE_NAME', 'a b'],
  ])('names %s when its value %j is bad', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('loadConfig defaults', () => {
  it('serves on 0.0.0.0:4000 against the embedded DynamoDB Local with table AppTable at log level info', () => {
    // security and dynamoClient: see "security configuration" below; auth: "auth configuration"; reshard: "reshard pacing".
    const {
      security,
      dynamoClient,
      auth,
      operationLimits,
      http,
      idempotencyTtlSeconds,
      healthCacheMs,
      healthDetails,
      reshard,
      stream,
      catalog,
      subscriptions,
      changedSettings,
      unknownSettings,
      ...rest
    } = loadConfig({});
    expect(changedSettings).toEqual({});
    expect(unknownSettings).toEqual([]);
    expect(catalog).toEqual({ pageReadBudget: 100, migrateWriteUnitsPerSecond: 100, migrateSegments: 4 });
    expect(subscriptions).toEqual({
      redisUrl: undefined,
      maxConnections: 1000,
      maxPerAddress: 100,
      perConnection: 50,
      initTimeoutMs: 5000,
      maxBufferedBytes: 1_048_576,
      maxQueued: 1000,
      maxQueuedBytes: 8_388_608,
      maxDocumentBytes: 4_194_304,
      maxDocumentBytesPerAddress: 33_554_432,
      maxDocumentBytesTotal: 268_435_456,
      eventRequestsPerSecond: 100,
      eventRequestsBurst: 500,
    });
    expect(rest).toEqual({
      port: 4000,
      host: '0.0.0.0',
      tableName: 'AppTable',
      schemaFile: DEFAULT_SCHEMA_FILE,
      endpoint: { kind: 'embedded' },
      region: undefined,
      prod: false,
      corsOrigins: undefined,
      localDynamoPort: 8000,
      logLevel: 'info',
      dynamodbMetricsExtension: true,
      naive: false,
    });
  });

  it('turns the DynamoDB metrics extension off in production unless configured', () => {
    const production = { NODE_ENV: 'production', CURSOR_SECRET: 's0123456789abcdefghijklmnopqrstuv', AUTH_MODE: 'off' };
    expect(loadConfig(production).dynamodbMetricsExtension).toBe(false);
    expect(loadConfig({ ...production, DYNAMODB_METRICS_EXTENSION: '1' }).dynamodbMetricsExtension).toBe(true);
    expect(() => loadConfig({ GATEWAY_NAIVE: 'yes' })).toThrow(/GATEWAY_NAIVE must be 1, 0, true or false/);
  });

  it('treats empty variables as unset', () => {
    // Without CURSOR_SECRET each call generates its own random secret: compare everything else.
    const withoutSecret = ({ security: { cursorSecret, ...security }, ...rest }: ReturnType<typeof loadConfig>) => ({ ...rest, security });
    expect(
      withoutSecret(loadConfig({ PORT: '', TABLE_NAME: '', DYNAMODB_ENDPOINT: '', LOG_LEVEL: '', HOST: '', CORS_ORIGINS: '', CURSOR_SECRET: '' })),
    ).toEqual(withoutSecret(loadConfig({})));
  });

  it('reads every setting it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      TABLE_NAME: 'Prod.Table-1',
      SCHEMA_FILE: 'examples/model.graphql',
      DYNAMODB_ENDPOINT: 'http://dynamodb:8000',
      AWS_REGION: 'eu-west-1',
      NODE_ENV: 'production',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:3000',
      DYNAMODB_LOCAL_PORT: '0',
      LOG_LEVEL: 'WARN',
      DYNAMODB_METRICS_EXTENSION: '1',
      GATEWAY_NAIVE: 'true',
      CURSOR_SECRET: 'c0123456789abcdefghijklmnopqrstuv',
      AUTH_MODE: 'off',
      PAGE_READ_BUDGET: '250',
      MIGRATE_WRITE_UNITS_PER_SECOND: '40',
      MIGRATE_SEGMENTS: '16',
      REDIS_URL: 'redis://redis:6379',
      REDIS_EVENT_SECRET: 'r0123456789abcdefghijklmnopqrstuv',
      WS_MAX_CONNECTIONS: '20',
      WS_MAX_SUBSCRIPTIONS: '3',
      WS_INIT_TIMEOUT_MS: '800',
      WS_MAX_BUFFERED_BYTES: '4096',
      WS_MAX_QUEUED_EVENTS: '7',
    });
    const {
      security,
      dynamoClient,
      auth,
      operationLimits,
      http,
      idempotencyTtlSeconds,
      healthCacheMs,
      healthDetails,
      reshard,
      stream,
      catalog,
      subscriptions,
      changedSettings,
      unknownSettings,
      ...rest
    } = config;
    expect(unknownSettings).toEqual([]);
    // The start-up line lists each of them as given, the secret redacted.
    expect(changedSettings).toEqual({
      PORT: '8080',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      SCHEMA_FILE: 'examples/model.graphql',
      LOG_LEVEL: 'WARN',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:3000',
      GATEWAY_NAIVE: 'true',
      TABLE_NAME: 'Prod.Table-1',
      DYNAMODB_ENDPOINT: 'http://dynamodb:8000',
      DYNAMODB_LOCAL_PORT: '0',
      AWS_REGION: 'eu-west-1',
      DYNAMODB_METRICS_EXTENSION: '1',
      CURSOR_SECRET: '(set)',
      PAGE_READ_BUDGET: '250',
      AUTH_MODE: 'off',
      REDIS_URL: 'redis://redis:6379',
      REDIS_EVENT_SECRET: '(set)',
      WS_MAX_CONNECTIONS: '20',
      WS_MAX_SUBSCRIPTIONS: '3',
      WS_INIT_TIMEOUT_MS: '800',
      WS_MAX_BUFFERED_BYTES: '4096',
      WS_MAX_QUEUED_EVENTS: '7',
      MIGRATE_WRITE_UNITS_PER_SECOND: '40',
      MIGRATE_SEGMENTS: '16',
    });
    expect(catalog).toEqual({ pageReadBudget: 250, migrateWriteUnitsPerSecond: 40, migrateSegments: 16 });
    expect(subscriptions).toEqual({
      redisUrl: 'redis://redis:6379',
      redisEventSecret: 'r0123456789abcdefghijklmnopqrstuv',
      maxConnections: 20,
      maxPerAddress: 100,
      perConnection: 3,
      initTimeoutMs: 800,
      maxBufferedBytes: 4096,
      maxQueued: 7,
      maxQueuedBytes: 8_388_608,
      maxDocumentBytes: 4_194_304,
      maxDocumentBytesPerAddress: 33_554_432,
      maxDocumentBytesTotal: 268_435_456,
      eventRequestsPerSecond: 100,
      eventRequestsBurst: 500,
    });
    expect(rest).toEqual({
      port: 8080,
      host: '127.0.0.1',
      tableName: 'Prod.Table-1',
      schemaFile: resolve('examples/model.graphql'),
      endpoint: { kind: 'url', url: 'http://dynamodb:8000' },
      region: 'eu-west-1',
      prod: true,
      corsOrigins: ['https://app.example.com', 'http://localhost:3000'],
      localDynamoPort: 0,
      logLevel: 'warn',
      dynamodbMetricsExtension: true,
      naive: true,
    });
  });

  it('falls back to AWS_DEFAULT_REGION when AWS_REGION is unset', () => {
    expect(loadConfig({ AWS_DEFAULT_REGION: 'us-west-2' }).region).toBe('us-west-2');
  });
});

describe('loadConfig rejects a bad value with a ConfigError naming the variable', () => {
  const bad: Array<[string, string]> = [
    ['PAGE_READ_BUDGET', '0'],
    ['MIGRATE_WRITE_UNITS_PER_SECOND', 'fast'],
    ['MIGRATE_SEGMENTS', '1.5'],
    ['PORT', 'http'],
    ['PORT', '4000.5'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['HOST', 'http://0.0.0.0'],
    ['HOST', 'local host'],
    ['TABLE_NAME', 'ab'],
    ['TABLE_NAME', 'my table'],
    ['TABLE_NAME', 'x'.repeat(256)],
    ['DYNAMODB_ENDPOINT', 'localhost:8000'],
    ['DYNAMODB_ENDPOINT', 'ftp://localhost:8000'],
    ['AWS_REGION', 'EU West 1'],
    ['AWS_DEFAULT_REGION', 'eu_west_1'],
    ['CORS_ORIGINS', 'https://app.example.com/'],
    ['CORS_ORIGINS', 'https://ok.example.com,app.example.com'],
    ['DYNAMODB_LOCAL_PORT', 'eight thousand'],
    ['LOG_LEVEL', 'verbose'],
  ];
  it.each(bad)('%s=%j', (name, value) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(new RegExp(`^${name} `));
  });
});

describe('reshard pacing', () => {
  it('defaults to a 10 s grace, 1 s settle, batches of 25 and 100 ms pauses, and reads each setting', () => {
    expect(loadConfig({}).reshard).toEqual({ graceMs: 10_000, settleMs: 1000, batchSize: 25, pauseMs: 100 });
    expect(loadConfig({ RESHARD_GRACE_MS: '0', RESHARD_SETTLE_MS: '5', RESHARD_BATCH_SIZE: '100', RESHARD_PAUSE_MS: '7' }).reshard).toEqual({
      graceMs: 0,
      settleMs: 5,
      batchSize: 100,
      pauseMs: 7,
    });
    expect(() => loadConfig({ RESHARD_BATCH_SIZE: '101' })).toThrow(/RESHARD_BATCH_SIZE must be an integer from 1 to 100/);
  });
});

const SECRET = 'x0123456789abcdefghijklmnopqrstuv';

describe('stream processor configuration', () => {
  it('reads the stream itself by default, except against real DynamoDB where the Lambda consumer does', () => {
    expect(loadConfig({}).stream).toEqual({ worker: true, pollMs: 250, batchSize: 100, maxAttempts: 5, retryDelayMs: 200, concurrency: 8 });
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'http://localhost:8000' }).stream.worker).toBe(true);
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'aws' }).stream.worker).toBe(false);
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'https://dynamodb.eu-west-1.amazonaws.com' }).stream.worker).toBe(false);
    expect(loadConfig({ DYNAMODB_ENDPOINT: 'aws', STREAM_WORKER: '1' }).stream.worker).toBe(true);
    expect(loadConfig({ STREAM_WORKER: 'false' }).stream.worker).toBe(false);
  });

  it('does not require CURSOR_SECRET in production of a process that serves no GraphQL (the stream processor)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, { servesGraphql: false })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_SECRET is required/);
  });

  it('reads and bounds every stream setting, naming the variable', () => {
    const { stream } = loadConfig({
      STREAM_POLL_MS: '50',
      STREAM_BATCH_SIZE: '1000',
      STREAM_MAX_ATTEMPTS: '3',
      STREAM_RETRY_DELAY_MS: '0',
      STREAM_CONCURRENCY: '16',
    });
    expect(stream).toEqual({ worker: true, pollMs: 50, batchSize: 1000, maxAttempts: 3, retryDelayMs: 0, concurrency: 16 });
    expect(() => loadConfig({ STREAM_BATCH_SIZE: '1001' })).toThrow(/STREAM_BATCH_SIZE must be an integer from 1 to 1000/);
    expect(() => loadConfig({ STREAM_MAX_ATTEMPTS: '0' })).toThrow(/STREAM_MAX_ATTEMPTS/);
    expect(() => loadConfig({ STREAM_WORKER: 'maybe' })).toThrow(/STREAM_WORKER must be 1, 0, true or false/);
  });
});

describe('security configuration', () => {
  it('refuses to start in production without CURSOR_SECRET, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_SECRET is required/);
  });

  it('refuses a cursor secret shorter than 32 characters, current or previous', () => {
    expect(() => loadConfig({ CURSOR_SECRET: 'short' })).toThrow(/CURSOR_SECRET must be at least 32/);
    expect(() => loadConfig({ CURSOR_SECRET: SECRET, CURSOR_SECRETS_PREVIOUS: 'short' })).toThrow(/CURSOR_SECRETS_PREVIOUS must be at least 32/);
  });

  it('generates a random secret in development and says so', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.security.cursorSecretGenerated).toBe(true);
    expect(a.security.cursorSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.security.cursorSecret).not.toBe(b.security.cursorSecret);
  });

  it('reads the secret, previous secrets and every limit from the environment', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      CURSOR_SECRET: SECRET,
      CURSOR_SECRETS_PREVIOUS: `${'y0123456789abcdefghijklmnopqrstuvwxyzABC'}, ${'z0123456789abcdefghijklmnopqrstuvw'}`,
      MAX_QUERY_DEPTH: '8',
      MAX_QUERY_ALIASES: '5',
      MAX_QUERY_TOKENS: '500',
      MAX_QUERY_COST: '1000',
      MAX_BODY_BYTES: '2000',
      ALLOW_BATCHED_REQUESTS: 'true',
      DYNAMODB_MAX_ATTEMPTS: '5',
      DYNAMODB_RETRY_MODE: 'adaptive',
      DYNAMODB_CONNECT_TIMEOUT_MS: '200',
      DYNAMODB_REQUEST_TIMEOUT_MS: '800',
      AUTH_MODE: 'off',
    });
    expect(config.security).toEqual({
      cursorSecret: SECRET,
      cursorSecretsPrevious: ['y0123456789abcdefghijklmnopqrstuvwxyzABC', 'z0123456789abcdefghijklmnopqrstuvw'],
      cursorSecretGenerated: false,
      maxDepth: 8,
      maxAliases: 5,
      maxTokens: 500,
      maxCost: 1000,
      maxBodyBytes: 2000,
      allowBatchedRequests: true,
    });
    expect(config.dynamoClient).toEqual({
      maxAttempts: 5,
      retryMode: 'adaptive',
      connectionTimeoutMs: 200,
      requestTimeoutMs: 800,
      throttleAttempts: 10,
      throttleBudgetMs: 5000,
      readPath: 'lean',
      credentialsConfigured: false,
    });
  });

  it('defaults: batching off, 3 attempts in standard mode, bounded timeouts', () => {
    const config = loadConfig({ CURSOR_SECRET: SECRET });
    expect(config.security).toMatchObject({ maxDepth: 15, maxAliases: 30, maxTokens: 2000, maxCost: 20000, maxBodyBytes: 100000, allowBatchedRequests: false });
    expect(config.dynamoClient).toEqual({
      maxAttempts: 3,
      retryMode: 'standard',
      connectionTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      throttleAttempts: 10,
      throttleBudgetMs: 5000,
      readPath: 'lean',
      credentialsConfigured: false,
    });
  });

  it('defaults and reads the limits on operations, HTTP clients, idempotency and health checks', () => {
    const defaults = loadConfig({ CURSOR_SECRET: SECRET });
    expect(defaults.operationLimits).toEqual({
      maxRequests: 2000,
      maxInFlight: 32,
      maxResponseFields: 50_000,
      maxResponseBytes: 1_000_000,
      queryBytesPerRequest: 0,
      callerRequestsPerSecond: 1000,
      callerRequestsBurst: 10_000,
    });
    expect(defaults.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 1000,
      maxWaitingPerAddress: 100,
    });
    expect(defaults.idempotencyTtlSeconds).toBe(86_400);
    expect(defaults.healthCacheMs).toBe(1000);
    const set = loadConfig({
      CURSOR_SECRET: SECRET,
      MAX_DYNAMODB_REQUESTS: '500',
      MAX_DYNAMODB_IN_FLIGHT: '8',
      MAX_RESPONSE_FIELDS: '1000',
      MAX_RESPONSE_BYTES: '200000',
      QUERY_BYTES_PER_DYNAMODB_REQUEST: '0',
      HTTP_MAX_WAITING_PER_ADDRESS: '0',
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '15000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
      HTTP_MAX_CONNECTIONS: '200',
      IDEMPOTENCY_TTL_SECONDS: '3600',
      HEALTH_CACHE_MS: '2000',
      DYNAMODB_THROTTLE_ATTEMPTS: '6',
      DYNAMODB_THROTTLE_BUDGET_MS: '3000',
      DYNAMODB_READ_PATH: 'sdk',
    });
    expect(set.operationLimits).toEqual({
      maxRequests: 500,
      maxInFlight: 8,
      maxResponseFields: 1000,
      maxResponseBytes: 200_000,
      queryBytesPerRequest: 0,
      callerRequestsPerSecond: 1000,
      callerRequestsBurst: 10_000,
    });
    expect(set.http).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 15_000, keepAliveTimeoutMs: 2000, maxConnections: 200, maxWaitingPerAddress: 0 });
    expect(set.idempotencyTtlSeconds).toBe(3600);
    expect(set.healthCacheMs).toBe(2000);
    expect(set.dynamoClient).toMatchObject({ throttleAttempts: 6, throttleBudgetMs: 3000, readPath: 'sdk' });
    expect(() => loadConfig({ DYNAMODB_READ_PATH: 'fast' })).toThrow(/^DYNAMODB_READ_PATH /);
    expect(() => loadConfig({ MAX_DYNAMODB_REQUESTS: '0' })).toThrow(/^MAX_DYNAMODB_REQUESTS /);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/^HTTP_REQUEST_TIMEOUT_MS /);
  });

  it('refuses a bad retry mode or boolean', () => {
    expect(() => loadConfig({ DYNAMODB_RETRY_MODE: 'legacy' })).toThrow(/DYNAMODB_RETRY_MODE/);
    expect(() => loadConfig({ ALLOW_BATCHED_REQUESTS: 'yes' })).toThrow(/ALLOW_BATCHED_REQUESTS/);
  });
});

describe('auth configuration', () => {
  const prod = { NODE_ENV: 'production', CURSOR_SECRET: SECRET };

  it('is off by default in development, with the rules not applied', () => {
    expect(loadConfig({}).auth).toEqual({ mode: 'off', explicit: false });
  });

  it('refuses to start in production unless AUTH_MODE is set, naming the variable and both ways out', () => {
    expect(() => loadConfig(prod)).toThrow(/AUTH_MODE is required when NODE_ENV=production: set AUTH_MODE=oidc .* or AUTH_MODE=off/);
    expect(loadConfig({ ...prod, AUTH_MODE: 'off' }).auth).toEqual({ mode: 'off', explicit: true });
  });

  it('reads every OIDC setting, with documented defaults', () => {
    const base = { ...prod, AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', AUTH_AUDIENCE: 'client1, client2' };
    expect(loadConfig(base).auth).toEqual({
      mode: 'oidc',
      explicit: true,
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
      audience: ['client1', 'client2'],
      jwksUrl: undefined,
      rolesClaim: 'groups',
      claims: {},
      clockToleranceSeconds: 5,
      maxTokenLifetimeSeconds: 86_400,
      jwksCooldownSeconds: 30,
      devIssuer: undefined,
    });
    expect(
      loadConfig({
        ...base,
        AUTH_JWKS_URL: 'https://idp.example.com/keys',
        AUTH_ROLES_CLAIM: 'cognito:groups',
        AUTH_STUDENT_CLAIM: 'custom:student_id',
        AUTH_CUSTOMER_CLAIM: 'custom:customer_id',
        AUTH_CLOCK_TOLERANCE_SECONDS: '10',
        AUTH_MAX_TOKEN_LIFETIME_SECONDS: '3600',
        AUTH_JWKS_COOLDOWN_SECONDS: '60',
      }).auth,
    ).toMatchObject({
      jwksUrl: 'https://idp.example.com/keys',
      rolesClaim: 'cognito:groups',
      claims: { AUTH_CUSTOMER_CLAIM: 'custom:customer_id', AUTH_STUDENT_CLAIM: 'custom:student_id' },
      clockToleranceSeconds: 10,
      maxTokenLifetimeSeconds: 3600,
      jwksCooldownSeconds: 60,
    });
  });

  it("keeps every AUTH_<NAME>_CLAIM set, by variable name, for the claims a model's @item(claimSetting:) settings rename", () => {
    const base = { AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://i', AUTH_AUDIENCE: 'a' };
    const auth = loadConfig({ ...base, AUTH_TEAM_CLAIM: ' team_id ', AUTH_EMPTY_CLAIM: '', TEAM_CLAIM: 'x', AUTH_ROLES_CLAIM: 'roles' }).auth;
    expect(auth).toMatchObject({ rolesClaim: 'roles', claims: { AUTH_TEAM_CLAIM: 'team_id' } });
  });

  it('needs an issuer and an audience for oidc, and https outside 127.0.0.1 in production', () => {
    expect(() => loadConfig({ AUTH_MODE: 'oidc', AUTH_AUDIENCE: 'a' })).toThrow(/AUTH_ISSUER/);
    expect(() => loadConfig({ AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://idp.example.com' })).toThrow(/AUTH_AUDIENCE/);
    expect(() => loadConfig({ ...prod, AUTH_MODE: 'oidc', AUTH_ISSUER: 'http://idp.example.com', AUTH_AUDIENCE: 'a' })).toThrow(
      /AUTH_ISSUER must be an https URL/,
    );
    expect(() => loadConfig({ AUTH_MODE: 'saml' })).toThrow(/AUTH_MODE must be one of oidc, off/);
    expect(() => loadConfig({ AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://i', AUTH_AUDIENCE: 'a', AUTH_ROLES_CLAIM: 'two words' })).toThrow(/AUTH_ROLES_CLAIM/);
    expect(() => loadConfig({ AUTH_MODE: 'oidc', AUTH_ISSUER: 'https://i', AUTH_AUDIENCE: 'a', AUTH_TEAM_CLAIM: 'two words' })).toThrow(
      /AUTH_TEAM_CLAIM must be a claim name/,
    );
  });

  it('offers a development issuer on 127.0.0.1, never in production', () => {
    expect(loadConfig({ AUTH_MODE: 'oidc', AUTH_DEV_ISSUER: 'true' }).auth).toMatchObject({
      issuer: 'http://127.0.0.1:4001',
      audience: ['dynamo-graph-gateway'],
      devIssuer: { port: 4001 },
    });
    expect(() => loadConfig({ ...prod, AUTH_MODE: 'oidc', AUTH_DEV_ISSUER: 'true' })).toThrow(/AUTH_DEV_ISSUER is for development only/);
    expect(() => loadConfig({ AUTH_DEV_ISSUER: 'true' })).toThrow(/needs AUTH_MODE=oidc/);
  });
});

describe('settings an attacker would like weak', () => {
  const prod = { NODE_ENV: 'production', AUTH_MODE: 'off', DYNAMODB_ENDPOINT: 'aws', AWS_REGION: 'eu-west-1' };
  // A previous secret is trimmed (the list is comma-separated): blank ones are dropped, weak ones refused.
  it.each([
    ['32 spaces', ' '.repeat(32), 'dropped'],
    ['one letter repeated', 'a'.repeat(48), 'refused'],
    ['a short word padded with spaces', `secret${' '.repeat(40)}`, 'refused'],
    ['two characters alternating', 'ab'.repeat(20), 'refused'],
  ])('refuses a CURSOR_SECRET of %s; as a previous secret it is %s', (_, secret, previous) => {
    expect(() => loadConfig({ ...prod, CURSOR_SECRET: secret })).toThrow(/CURSOR_SECRET is too weak/);
    const asPrevious = () => {
      try {
        return loadConfig({ CURSOR_SECRET: 'x0123456789abcdefghijklmnopqrstuvwxyzABC', CURSOR_SECRETS_PREVIOUS: secret }).security.cursorSecretsPrevious
          .length === 0
          ? 'dropped'
          : 'kept';
      } catch (err) {
        return /too weak|at least 32/.test((err as Error).message) ? 'refused' : (err as Error).message;
      }
    };
    expect(asPrevious()).toBe(previous);
  });

  it('accepts what openssl rand makes', () => {
    expect(loadConfig({ ...prod, CURSOR_SECRET: 'q3Jx9yB0dK4LmN2pR7sT1uV5wX8zA6cE0fG3hI9jK2lM4nO7pQ1rS' }).security.cursorSecret).toHaveLength(53);
    expect(loadConfig({ ...prod, CURSOR_SECRET: '9f86d081884c7d659a2feaa0c55ad015' }).security.cursorSecret).toHaveLength(32);
  });

  it('allows no browser origin by default in production, localhost ones in development', () => {
    expect(loadConfig({ ...prod, CURSOR_SECRET: '9f86d081884c7d659a2feaa0c55ad015' }).corsOrigins).toEqual([]);
    expect(loadConfig({}).corsOrigins).toBeUndefined();
  });

  it('shows /health details to administrators only in production, unless HEALTH_DETAILS=public', () => {
    const secret = { CURSOR_SECRET: '9f86d081884c7d659a2feaa0c55ad015' };
    expect(loadConfig({ ...prod, ...secret }).healthDetails).toBe('admins');
    expect(loadConfig({ ...prod, ...secret, HEALTH_DETAILS: 'public' }).healthDetails).toBe('public');
    expect(loadConfig({}).healthDetails).toBe('public');
    expect(() => loadConfig({ HEALTH_DETAILS: 'everyone' })).toThrow(/HEALTH_DETAILS/);
  });
});
