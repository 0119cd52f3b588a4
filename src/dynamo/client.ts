/**
 * The DynamoDB document client, with retries and timeouts configured once.
 *
 * Every DynamoDB request of the gateway goes through the client made here:
 * writes and table management through the SDK's middleware stack (where
 * request counting is installed), and, unless `readPath: 'sdk'`, the reads
 * of operations through the read path (`reads`, leanReads/readPath.ts: the
 * request context hands each operation a read port on it, readPort.ts),
 * which shares this client's credentials, region, retry strategy and
 * request handler (its sockets, deadline and proxy settings). Tests inject faults on both (test/support/faults.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULTS, type Config } from '../config.js';
import { instrumentClient } from './metrics.js';
import { ReadPath } from './leanReads/readPath.js';
import { GatewayRetryStrategy } from './retryStrategy.js';
import { DeadlineHandler } from './deadlineHandler.js';
import { proxyEnvOf } from '../config/proxy.js';
import { CredentialRefresher, refreshCredentialsOnRefusal } from './credentialRefresh.js';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { Sha256 } from './sha256.js';
import { invariantViolation } from '../errors.js';

export interface ClientOptions {
  /** Endpoint URL; undefined → the SDK's default endpoint for the region (real AWS). */
  endpoint?: string;
  region?: string;
  /** Total attempts per request, first included. */
  maxAttempts?: number;
  /**
   * `standard`: exponential backoff with jitter, throttling and 5xx
   * retried. `adaptive` also rate-limits the client after throttling.
   */
  retryMode?: 'standard' | 'adaptive';
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Attempts of a throttled request, first included (default 10; see retryStrategy.ts). */
  throttleAttempts?: number;
  /** Most backoff one request spends on throttling, in ms (default 5000). */
  throttleBudgetMs?: number;
  /** First throttling backoff ceiling in ms (default 25; tests use less). */
  throttleBaseDelayMs?: number;
  /** `lean` (default): operations' reads skip the SDK's middleware stack (leanReads/readPath.ts); `sdk`: everything through the SDK. */
  readPath?: 'lean' | 'sdk';
  /** AWS credentials are configured: sign with the SDK's chain even for a non-AWS endpoint (else dummy credentials there). */
  credentialsConfigured?: boolean;
  /** The credentials provider (tests, embedders); default: dummy ones for a local endpoint, else the SDK's chain. */
  credentials?: AwsCredentialIdentityProvider;
  /** Proxy settings for the client's sockets (deadlineHandler.ts); default: the environment's when `NODE_USE_ENV_PROXY=1`. */
  proxyEnv?: NodeJS.ProcessEnv;
}

export interface Dynamo {
  /** Raw client: table management, middleware. */
  raw: DynamoDBClient;
  /** Document client: native JS values in and out. */
  doc: DynamoDBDocumentClient;
  /** The operations' reads without the SDK's middleware (undefined with `readPath: 'sdk'`): createContext makes each operation's read port on it. */
  reads?: ReadPath;
}

/**
 * Real AWS endpoints sign with the SDK's chain; so does any other endpoint
 * when credentials are configured (a DynamoDB-compatible service that checks
 * them, tools sharing DynamoDB Local's per-key tables); dummy ones only when
 * none are.
 */
const isAwsEndpoint = (endpoint: string) => /\.amazonaws\.com(\.cn)?$/.test(new URL(endpoint).hostname);

export function createDynamo(options: ClientOptions = {}): Dynamo {
  const local = options.endpoint !== undefined && !isAwsEndpoint(options.endpoint);
  // One strategy object for both paths: adaptive mode's rate limiter sees every request.
  const retryStrategy = new GatewayRetryStrategy({
    maxAttempts: options.maxAttempts ?? DEFAULTS.dynamoClient.maxAttempts,
    mode: options.retryMode ?? DEFAULTS.dynamoClient.retryMode,
    throttleAttempts: options.throttleAttempts ?? DEFAULTS.dynamoClient.throttleAttempts,
    throttleBudgetMs: options.throttleBudgetMs ?? DEFAULTS.dynamoClient.throttleBudgetMs,
    throttleBaseDelayMs: options.throttleBaseDelayMs,
  });
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.dynamoClient.requestTimeoutMs;
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    // DynamoDB Local verifies neither region nor signature; real AWS uses the SDK's chain.
    region: options.region ?? (local ? DEFAULTS.localRegion : undefined),
    credentials: options.credentials ?? (local && !options.credentialsConfigured ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined),
    maxAttempts: options.maxAttempts ?? DEFAULTS.dynamoClient.maxAttempts,
    retryMode: options.retryMode ?? DEFAULTS.dynamoClient.retryMode,
    // Signing's HMAC keys made once, not per request (sha256.ts); the read path signs with it too.
    sha256: Sha256,
    // Throttling has its own, larger budget than 5xx and timeouts (retryStrategy.ts).
    retryStrategy: retryStrategy as never,
    // One deadline over each whole exchange, so an unreachable, hung or trickling DynamoDB becomes
    // UNAVAILABLE within seconds, never a hang: worst case ≈ maxAttempts × requestTimeout plus backoff.
    requestHandler: new DeadlineHandler({
      connectionTimeoutMs: options.connectionTimeoutMs ?? DEFAULTS.dynamoClient.connectionTimeoutMs,
      requestTimeoutMs,
      proxyEnv: 'proxyEnv' in options ? options.proxyEnv : proxyEnvOf(),
    }),
  });
  instrumentClient(raw);
  // Refused credentials are refreshed at once, on both paths, and the refused request tried once more.
  const refresher = new CredentialRefresher((o) => (raw.config.credentials as (o?: object) => Promise<unknown>)(o));
  refreshCredentialsOnRefusal(raw, refresher);
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
  });
  if ((options.readPath ?? DEFAULTS.dynamoClient.readPath) === 'sdk') return { raw, doc };
  // It sends through the client's request handler: its sockets are the client's and close with them.
  return { raw, doc, reads: new ReadPath(raw, retryStrategy, refresher) };
}

/** What a client is built from: the resolved endpoint, the region and the retry/timeout settings. */
export type DynamoSettings = Pick<Config, 'endpoint' | 'region' | 'dynamoClient'>;

/**
 * The client options for a configuration. `embedded` needs the URL of the
 * DynamoDB Local that was started for it; `aws` leaves the endpoint to the SDK.
 */
export function clientOptions(settings: DynamoSettings, embeddedUrl?: string): ClientOptions {
  const { endpoint } = settings;
  let url: string | undefined;
  if (endpoint.kind === 'url') url = endpoint.url;
  else if (endpoint.kind === 'embedded') {
    if (embeddedUrl === undefined) invariantViolation('the embedded DynamoDB Local has not been started');
    url = embeddedUrl;
  }
  return { endpoint: url, region: settings.region, ...settings.dynamoClient };
}

/** The client of every entry point (server, Lambda, seed, bench): built from the resolved configuration. */
export const dynamoFromConfig = (settings: DynamoSettings, embeddedUrl?: string): Dynamo => createDynamo(clientOptions(settings, embeddedUrl));

/** Where a configuration's client points, for log lines (`AWS` for the SDK's endpoint). */
export const endpointLabel = (options: ClientOptions): string => options.endpoint ?? 'AWS';
