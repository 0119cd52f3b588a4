/**
 * The DynamoDB client's retry strategy: throttling is absorbed, other
 * transient failures are retried a few times.
 *
 * Two separate budgets per request (one `client.send()`):
 * - throttling (`ProvisionedThroughputExceededException`,
 *   `ThrottlingException`, `RequestLimitExceeded`, HTTP 429, …): up to
 *   `throttleAttempts` attempts (default 10, as AWS's older SDK did for
 *   DynamoDB) with full-jitter exponential backoff, as long as the waits add
 *   up to at most `throttleBudgetMs`. Throttling says "slow down", not
 *   "broken": waiting it out costs latency instead of a failed read.
 * - anything else the SDK classifies as transient (5xx, timeouts, resets):
 *   up to `maxAttempts` attempts (default 3). A DynamoDB that is down is
 *   reported as UNAVAILABLE within seconds, not hidden behind long retries.
 * - an answer that is not DynamoDB's JSON (a proxy's HTML page with a 200,
 *   errors.ts `isUnreadableAnswer`) counts as a 5xx: retried within
 *   `maxAttempts`.
 * - credentials DynamoDB refused: one more attempt once they were
 *   refreshed (credentialRefresh.ts), outside both budgets.
 * Other client errors (validation, conditional check failures, cancelled
 * transactions) are never retried here.
 *
 * `adaptive` mode keeps the SDK's client-side rate limiter (DefaultRateLimiter):
 * every attempt waits for a send token, and throttling lowers the sending rate.
 */
import { DefaultRateLimiter } from '@smithy/core/retry';
import { isUnreadableAnswer } from '../errors.js';
import { credentialsRefreshedFor } from './credentialRefresh.js';

export interface RetryOptions {
  /** Attempts for non-throttling transient failures, first included. */
  maxAttempts: number;
  /** Attempts for throttling, first included. */
  throttleAttempts: number;
  /** Most total backoff (ms) spent on throttling by one request. */
  throttleBudgetMs: number;
  /** First throttling backoff ceiling in ms (doubles per retry, capped at 1 s). */
  throttleBaseDelayMs?: number;
  /** First backoff ceiling for other transient failures in ms (default 100). */
  baseDelayMs?: number;
  mode: 'standard' | 'adaptive';
}

type ErrorType = 'THROTTLING' | 'TRANSIENT' | 'SERVER_ERROR' | 'CLIENT_ERROR';

interface ErrorInfo {
  errorType: ErrorType;
  error?: unknown;
}

/** The SDK's RetryToken shape, plus our counters. */
class Token {
  constructor(
    readonly throttles: number,
    readonly others: number,
    readonly throttleWaitMs: number,
    private readonly delay: number,
    /** Retries after refreshed credentials (at most 1). */
    readonly credentialRetries = 0,
  ) {}
  getRetryCount(): number {
    return this.throttles + this.others + this.credentialRetries;
  }
  getRetryDelay(): number {
    return this.delay;
  }
}

const MAX_DELAY_MS = 1000;

/** Full jitter: a random delay up to min(cap, base·2^retry). */
const jitter = (baseMs: number, retry: number) => Math.random() * Math.min(MAX_DELAY_MS, baseMs * 2 ** retry);

export class GatewayRetryStrategy {
  readonly mode: 'standard' | 'adaptive';
  private readonly rateLimiter: DefaultRateLimiter | null;

  constructor(private readonly options: RetryOptions) {
    this.mode = options.mode;
    this.rateLimiter = options.mode === 'adaptive' ? new DefaultRateLimiter() : null;
  }

  async acquireInitialRetryToken(_scope: string): Promise<Token> {
    await this.rateLimiter?.getSendToken();
    return new Token(0, 0, 0, 0);
  }

  async refreshRetryTokenForRetry(token: Token, info: ErrorInfo): Promise<Token> {
    this.rateLimiter?.updateClientSendingRate(info as never);
    const next = this.next(token, info);
    if (!next) throw new Error('No retry token available');
    await this.rateLimiter?.getSendToken();
    return next;
  }

  recordSuccess(_token: Token): void {
    this.rateLimiter?.updateClientSendingRate({} as never);
  }

  /** Also read by the SDK's retry middleware for its `amz-sdk-request` header. */
  async maxAttempts(): Promise<number> {
    return Math.max(this.options.maxAttempts, this.options.throttleAttempts);
  }

  private next(token: Token, { errorType, error }: ErrorInfo): Token | null {
    const { maxAttempts, throttleAttempts, throttleBudgetMs, throttleBaseDelayMs = 25, baseDelayMs = 100 } = this.options;
    if (credentialsRefreshedFor(error)) {
      return token.credentialRetries === 0 ? new Token(token.throttles, token.others, token.throttleWaitMs, 0, 1) : null;
    }
    if (isUnreadableAnswer(error)) errorType = 'TRANSIENT';
    if (errorType === 'THROTTLING') {
      if (token.throttles + 1 >= throttleAttempts) return null;
      const delay = jitter(throttleBaseDelayMs, token.throttles);
      if (token.throttleWaitMs + delay > throttleBudgetMs) return null;
      return new Token(token.throttles + 1, token.others, token.throttleWaitMs + delay, delay, token.credentialRetries);
    }
    if (errorType === 'TRANSIENT') {
      if (token.others + 1 >= maxAttempts) return null;
      const delay = jitter(baseDelayMs, token.others);
      return new Token(token.throttles, token.others + 1, token.throttleWaitMs, delay, token.credentialRetries);
    }
    return null;
  }
}
