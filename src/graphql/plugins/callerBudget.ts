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

export function callerBudgetPlugin({ perSecond, burst, now = () => performance.now(), maxCallers = 100_000 }: CallerBudget): GatewayPlugin {
  const buckets = new Map<string, Bucket>();

  const bucketOf = (key: string): Bucket => {
    const at = now();
    let bucket = buckets.get(key);
    if (bucket) {
      buckets.delete(key);
      bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
      bucket.at = at;
    } else {
      bucket = { tokens: burst, at };
      if (buckets.size >= maxCallers) buckets.delete(buckets.keys().next().value!);
    }
    buckets.set(key, bucket);
    return bucket;
  };

  return {
    requestDidStart() {
      let bucket: Bucket | undefined;
      const hooks: RequestHooks = {
        didResolveOperation({ operation, contextValue }) {
          if (!operation) return;
          bucket = bucketOf(callerKey(contextValue));
          if (bucket.tokens < 1) {
            const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
            bucket = undefined;
            throw new GraphQLError(
              `This caller has used its DynamoDB requests for now (CALLER_DYNAMODB_REQUESTS_PER_SECOND: ${perSecond} a second, up to ${burst} at once); retry in ${retryAfter} s`,
              {
                extensions: {
                  code: RATE_LIMITED,
                  retryAfterSeconds: retryAfter,
                  http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
                },
              },
            );
          }
          contextValue.metrics.capRequests(Math.floor(bucket.tokens), ` within this caller's DynamoDB requests (CALLER_DYNAMODB_REQUESTS_PER_SECOND: ${perSecond} a second, up to ${burst} at once)`);
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
