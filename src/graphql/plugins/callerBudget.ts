/**
 * A budget of DynamoDB requests per caller (CALLER_DYNAMODB_REQUESTS_PER_SECOND,
 * CALLER_DYNAMODB_REQUESTS_BURST): a token bucket keyed by the verified
 * token's subject, else the client's address, shared by all of that
 * caller's operations on this instance.
 *
 * - An operation of a caller whose bucket is empty is refused before any
 *   DynamoDB request: `RATE_LIMITED`, HTTP 429 with `Retry-After` (the
 *   seconds until one request's worth is back).
 * - Otherwise it runs with its requests capped at what the bucket holds
 *   (and at MAX_DYNAMODB_REQUESTS), and pays what it sent.
 * - The executions of the caller's subscription events draw from the same
 *   bucket (`CallerBuckets`, handed to the subscription engine).
 *
 * It counts work, not text: the requests an operation really sent. So an
 * ordinary nested query runs whatever its length, and padding a query
 * changes nothing. Buckets are kept for the callers seen last (a bounded
 * map, least recently seen out: a full bucket forgotten is the same as a
 * new one).
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError } from 'graphql';
import { HeaderMap } from '@apollo/server';
import type { Context } from '../context.js';

export const RATE_LIMITED = 'RATE_LIMITED';

export interface CallerBudget {
  /** Requests a second a caller's bucket refills by; 0 turns the budget off. */
  perSecond: number;
  /** Requests a caller may save up. */
  burst: number;
  /** Clock in ms (tests). */
  now?: () => number;
  /** Callers whose buckets are kept (default 100,000). */
  maxCallers?: number;
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
 * The buckets of one instance's callers, shared by their HTTP operations
 * and the executions of their subscriptions' events.
 */
export class CallerBuckets {
  private readonly buckets = new Map<string, Bucket>();
  readonly perSecond: number;
  readonly burst: number;
  private readonly now: () => number;
  private readonly maxCallers: number;

  constructor({ perSecond, burst, now = () => performance.now(), maxCallers = 100_000 }: CallerBudget) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.now = now;
    this.maxCallers = maxCallers;
  }

  /** The caller's bucket, filled up to now. */
  bucket(key: string): Bucket {
    const at = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((at - bucket.at) / 1000) * this.perSecond);
      bucket.at = at;
    } else {
      bucket = { tokens: this.burst, at };
      if (this.buckets.size >= this.maxCallers) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** Whole requests the caller may send now. */
  available(key: string): number {
    return Math.floor(this.bucket(key).tokens);
  }

  spend(key: string, requests: number): void {
    this.bucket(key).tokens -= requests;
  }

  /** The message of a cap or refusal, naming the setting. */
  get why(): string {
    return `CALLER_DYNAMODB_REQUESTS_PER_SECOND: ${this.perSecond} a second, up to ${this.burst} at once`;
  }
}

export function callerBudgetPlugin(budget: CallerBudget | CallerBuckets): GatewayPlugin {
  const buckets = budget instanceof CallerBuckets ? budget : new CallerBuckets(budget);
  const { perSecond } = buckets;
  return {
    requestDidStart() {
      let bucket: Bucket | undefined;
      const hooks: RequestHooks = {
        didResolveOperation({ operation, contextValue }) {
          if (!operation) return;
          bucket = buckets.bucket(callerKey(contextValue));
          if (bucket.tokens < 1) {
            const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
            bucket = undefined;
            throw new GraphQLError(`This caller has used its DynamoDB requests for now (${buckets.why}); retry in ${retryAfter} s`, {
              extensions: {
                code: RATE_LIMITED,
                retryAfterSeconds: retryAfter,
                http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
              },
            });
          }
          contextValue.metrics.capRequests(Math.floor(bucket.tokens), ` within this caller's DynamoDB requests (${buckets.why})`);
        },
        willSendResponse({ contextValue }) {
          if (bucket) bucket.tokens -= contextValue.metrics.requests;
          bucket = undefined;
        },
      };
      return hooks;
    },
  };
}
