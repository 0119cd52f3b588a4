/**
 * Defaults other modules use when they are built without a Config (tests,
 * tools): each read from the settings table, never restated.
 */
import type { LogLevel } from './configTypes.js';
import { SETTINGS, type SettingName, type ValueOf } from './settings.js';

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
