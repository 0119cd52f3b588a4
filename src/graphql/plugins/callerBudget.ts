/**
 * A budget of DynamoDB requests per caller (CALLER_DYNAMODB_REQUESTS_PER_SECOND,
 * _BURST): a token bucket keyed by the token's subject, else the client's
 * address, shared by all of that caller's operations and subscription
 * events; on every instance with REDIS_URL (redisBuckets.ts; each instance
 * serves from its own while Redis cannot answer), else on this one.
 *
 * An operation of a caller whose bucket is empty is refused before any
 * request (`RATE_LIMITED`, HTTP 429, `Retry-After`); otherwise its requests
 * are capped at what the bucket holds, and it pays what it sent. It counts
 * work, not text, so padding a query changes nothing. Buckets are kept for
 * the callers seen last (a forgotten full bucket equals a new one).
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError } from 'graphql';
import { HeaderMap } from '@apollo/server';
import type { Context } from '../context.js';
import type { SharedBuckets } from './redisBuckets.js';

export const RATE_LIMITED = 'RATE_LIMITED';

export interface CallerBudget {
  /** Requests a second a caller's bucket refills by; 0 turns the budget off. */
  perSecond: number;
  /** Requests a caller may save up. */
  burst: number;
  /** Clock in ms (tests); default a monotonic clock here, epoch ms for shared buckets. */
  now?: () => number;
  /** Callers whose buckets are kept (default 100,000). */
  maxCallers?: number;
  /** Buckets shared by every instance (Redis: redisBuckets.ts); the local ones serve while it cannot answer. */
  shared?: SharedBuckets;
  /** Told when the shared buckets could not answer and the local ones served instead. */
  onFallback?: (err: unknown) => void;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The caller a bucket belongs to: the verified subject, else the client's address. */
export function callerKey(context: Pick<Context, 'identity' | 'clientAddress'>): string {
  const { identity } = context;
  if (identity.kind === 'caller' && identity.subject) return `sub:${identity.subject}`;
  return `addr:${context.clientAddress ?? 'unknown'}`;
}

/**
 * The buckets of the callers, shared by their HTTP operations and the
 * executions of their subscriptions' events: in Redis when shared buckets
 * are given and answer, else this instance's own.
 */
export class CallerBuckets {
  private readonly buckets = new Map<string, Bucket>();
  readonly perSecond: number;
  readonly burst: number;
  private readonly now: () => number;
  private readonly sharedNow: () => number;
  private readonly maxCallers: number;
  readonly shared: SharedBuckets | undefined;
  private readonly onFallback: (err: unknown) => void;
  /** Checks and charges the local buckets served because the shared ones could not answer. */
  fallbacks = 0;

  constructor({ perSecond, burst, now, maxCallers = 100_000, shared, onFallback = () => {} }: CallerBudget) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.now = now ?? (() => performance.now());
    this.sharedNow = now ?? Date.now;
    this.maxCallers = maxCallers;
    this.shared = shared;
    this.onFallback = onFallback;
  }

  /** The caller's bucket on this instance, filled up to now. */
  private bucket(key: string): Bucket {
    const at = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
      bucket.tokens = Math.min(this.burst, bucket.tokens + (Math.max(0, at - bucket.at) / 1000) * this.perSecond);
      bucket.at = at;
    } else {
      bucket = { tokens: this.burst, at };
      if (this.buckets.size >= this.maxCallers) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** Takes `spend` from the shared bucket, or from the local one when the shared cannot answer; the tokens left. */
  private take(key: string, spend: number): number | Promise<number> {
    const local = () => {
      const bucket = this.bucket(key);
      bucket.tokens -= spend;
      return bucket.tokens;
    };
    const shared = this.shared;
    if (!shared?.ready) {
      if (shared) this.fellBack(new Error('shared buckets not connected'));
      return local();
    }
    return shared.take(key, spend, this, this.sharedNow()).catch((err: unknown) => {
      this.fellBack(err);
      return local();
    });
  }

  private fellBack(err: unknown): void {
    this.fallbacks++;
    this.onFallback(err);
  }

  /** The requests the caller holds now (a fraction of one included). */
  tokens(key: string): number | Promise<number> {
    return this.take(key, 0);
  }

  /** Whole requests the caller may send now. */
  available(key: string): number | Promise<number> {
    const tokens = this.tokens(key);
    return typeof tokens === 'number' ? Math.floor(tokens) : tokens.then(Math.floor);
  }

  /** The caller sent `requests`; settles once charged (never fails). */
  spend(key: string, requests: number): void | Promise<unknown> {
    if (requests <= 0) return;
    const left = this.take(key, requests);
    return typeof left === 'number' ? undefined : left;
  }

  /** The message of a cap or refusal, naming the setting. */
  get why(): string {
    return `CALLER_DYNAMODB_REQUESTS_PER_SECOND: ${this.perSecond} a second, up to ${this.burst} at once${this.shared ? ', across instances' : ''}`;
  }
}

export function callerBudgetPlugin(budget: CallerBudget | CallerBuckets): GatewayPlugin {
  const buckets = budget instanceof CallerBuckets ? budget : new CallerBuckets(budget);
  const { perSecond } = buckets;
  return {
    requestDidStart() {
      let key: string | undefined;
      const check = (tokens: number, metrics: Context['metrics']) => {
        if (tokens < 1) {
          const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perSecond));
          key = undefined;
          throw new GraphQLError(`This caller has used its DynamoDB requests for now (${buckets.why}); retry in ${retryAfter} s`, {
            extensions: {
              code: RATE_LIMITED,
              retryAfterSeconds: retryAfter,
              http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
            },
          });
        }
        metrics.capRequests(Math.floor(tokens), ` within this caller's DynamoDB requests (${buckets.why})`);
      };
      const hooks: RequestHooks = {
        didResolveOperation({ operation, contextValue }) {
          if (!operation) return;
          key = callerKey(contextValue);
          const tokens = buckets.tokens(key);
          if (typeof tokens === 'number') return check(tokens, contextValue.metrics);
          return tokens.then((t) => check(t, contextValue.metrics));
        },
        willSendResponse({ contextValue }) {
          const spent = key === undefined ? undefined : buckets.spend(key, contextValue.metrics.requests);
          key = undefined;
          return spent?.then(() => undefined);
        },
      };
      return hooks;
    },
  };
}
