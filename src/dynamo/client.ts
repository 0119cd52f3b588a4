/**
 * The DynamoDB document client, with retries and timeouts configured once.
 *
 * Every DynamoDB request of the gateway goes through the client made here,
 * so middleware added here (request counting, fault injection in tests)
 * sees them all.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { instrumentClient } from './metrics.js';
import { GatewayRetryStrategy } from './retryStrategy.js';

export interface ClientOptions {
  /** Endpoint URL; undefined → the SDK's default endpoint for the region (real AWS). */
  endpoint?: string;
  region?: string;
  /** Total attempts per request, first included (default 3). */
  maxAttempts?: number;
  /**
   * `standard` (default): exponential backoff with jitter, throttling and 5xx
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
}

export interface Dynamo {
  /** Raw client: table management, middleware. */
  raw: DynamoDBClient;
  /** Document client: native JS values in and out. */
  doc: DynamoDBDocumentClient;
}

/** Real AWS endpoints sign with real credentials; anything else (DynamoDB Local, docker) gets dummy ones. */
const isAwsEndpoint = (endpoint: string) => /\.amazonaws\.com(\.cn)?$/.test(new URL(endpoint).hostname);

export function createDynamo(options: ClientOptions = {}): Dynamo {
  const local = options.endpoint !== undefined && !isAwsEndpoint(options.endpoint);
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    // DynamoDB Local verifies neither region nor signature; real AWS uses the SDK's chain.
    region: options.region ?? (local ? 'us-east-1' : undefined),
    credentials: local ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    maxAttempts: options.maxAttempts ?? 3,
    retryMode: options.retryMode ?? 'standard',
    // Throttling has its own, larger budget than 5xx and timeouts (retryStrategy.ts).
    retryStrategy: new GatewayRetryStrategy({
      maxAttempts: options.maxAttempts ?? 3,
      mode: options.retryMode ?? 'standard',
      throttleAttempts: options.throttleAttempts ?? 10,
      throttleBudgetMs: options.throttleBudgetMs ?? 5000,
      throttleBaseDelayMs: options.throttleBaseDelayMs,
    }) as never,
    // Bounded so an unreachable or hung DynamoDB becomes UNAVAILABLE within seconds, never a hang:
    // worst case ≈ maxAttempts × requestTimeout plus backoff.
    requestHandler: new NodeHttpHandler({
      connectionTimeout: options.connectionTimeoutMs ?? 1000,
      requestTimeout: options.requestTimeoutMs ?? 2000,
      // Without this the handler only logs a warning when requestTimeout passes and waits on:
      // a DynamoDB that accepts connections but never answers would hang the request for good.
      throwOnRequestTimeout: true,
    }),
  });
  instrumentClient(raw);
  const doc = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { raw, doc };
}
