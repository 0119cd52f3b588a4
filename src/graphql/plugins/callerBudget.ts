/**
 * A budget of DynamoDB requests per caller (CALLER_DYNAMODB_REQUESTS_PER_SECOND,
 * _BURST): a token bucket keyed by the token's subject, else the client's
 * address, shared by all of that caller's operations and subscription
 * events; on every instance with REDIS_URL (redisBuckets.ts; each instance
 * serves from its own while Redis cannot answer), else on this one.
 *
 * An operation reserves its planned requests (its cost, at most its cap)
 * from the caller's bucket before it runs (reservation.ts): one whose
 * caller's bucket holds not one request is refused before any request
 * (`RATE_LIMITED`, HTTP 429, `Retry-After`); otherwise it may send what it
 * reserved and what it can reserve more as it goes, never more than the
 * bucket holds, and gives back what it did not send. It counts work, not
 * text, so padding a query changes nothing. Buckets are kept for the
 * callers seen last (a forgotten full bucket equals a new one).
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError } from 'graphql';
import { HeaderMap } from '@apollo/server';
import type { Context } from '../context.js';
import type { SharedBuckets } from './redisBuckets.js';
import { Reservation, type Grant, type RequestSource } from '../reservation.js';

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
  /** The clock of the shared buckets (epoch ms: instances compare it). */
  private readonly clock: () => number;
  private readonly maxCallers: number;
  readonly shared: SharedBuckets | undefined;
  private readonly onFallback: (err: unknown) => void;
  /** Checks and charges the local buckets served because the shared ones could not answer. */
  fallbacks = 0;

  constructor({ perSecond, burst, now, maxCallers = 100_000, shared, onFallback = () => {} }: CallerBudget) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.now = now ?? (() => performance.now());
    this.clock = now ?? Date.now;
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

  /** Reserves up to `wanted` whole requests of the caller's bucket on this instance, never below empty. */
  private reserveLocal(key: string, wanted: number): Grant {
    const bucket = this.bucket(key);
    const granted = Math.max(0, Math.min(wanted, Math.floor(bucket.tokens)));
    bucket.tokens -= granted;
    return { granted, tokens: bucket.tokens };
  }

  /** Gives back (or, negative, charges) requests to the caller's bucket on this instance. */
  private releaseLocal(key: string, requests: number): void {
    const bucket = this.bucket(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + requests);
  }

  /** The shared buckets, when they can answer now (connected, and not found hung since: redisBuckets.ts). */
  private get sharedNow(): SharedBuckets | undefined {
    const shared = this.shared;
    if (shared && !shared.ready) this.fellBack(new Error('shared buckets not answering'));
    return shared?.ready ? shared : undefined;
  }

  private fellBack(err: unknown): void {
    this.fallbacks++;
    this.onFallback(err);
  }

  /**
   * The caller's bucket as a budget reservations draw from (reservation.ts):
   * in Redis while it answers, else on this instance. What one reservation
   * took goes back where it was taken.
   */
  source(key: string): RequestSource {
    let fromShared = 0;
    let fromLocal = 0;
    const local = (wanted: number) => {
      const grant = this.reserveLocal(key, wanted);
      fromLocal += grant.granted;
      return grant;
    };
    return {
      why: ` within this caller's DynamoDB requests (${this.why})`,
      reserve: (wanted) => {
        const shared = this.sharedNow;
        if (!shared) return local(wanted);
        return shared.reserve(key, wanted, this, this.clock()).then(
          (grant) => {
            fromShared += grant.granted;
            return grant;
          },
          (err: unknown) => {
            this.fellBack(err);
            return local(wanted);
          },
        );
      },
      release: (requests) => {
        const shared = this.shared?.ready ? this.shared : undefined;
        if (requests < 0) {
          // Retries past the reservation: charged where the caller's budget is kept now.
          if (shared) void shared.release(key, requests, this, this.clock()).catch(() => {});
          else this.releaseLocal(key, requests);
          return;
        }
        const toLocal = Math.min(requests, fromLocal);
        fromLocal -= toLocal;
        if (toLocal > 0) this.releaseLocal(key, toLocal);
        const toShared = Math.min(requests - toLocal, fromShared);
        fromShared -= toShared;
        // What Redis gave goes back there; while it cannot answer, its bucket refills there in time.
        if (toShared > 0 && shared) void shared.release(key, toShared, this, this.clock()).catch(() => {});
      },
    };
  }

  /** The requests the caller holds now (a fraction of one included), reserved ones not counted. */
  tokens(key: string): number | Promise<number> {
    const shared = this.sharedNow;
    const local = () => this.bucket(key).tokens;
    if (!shared) return local();
    return shared.reserve(key, 0, this, this.clock()).then(
      (grant) => grant.tokens,
      (err: unknown) => {
        this.fellBack(err);
        return local();
      },
    );
  }

  /** Whole requests the caller may reserve now. */
  available(key: string): number | Promise<number> {
    const tokens = this.tokens(key);
    return typeof tokens === 'number' ? Math.floor(tokens) : tokens.then(Math.floor);
  }

  /** The message of a cap or refusal, naming the setting. */
  get why(): string {
    return `CALLER_DYNAMODB_REQUESTS_PER_SECOND: ${this.perSecond} a second, up to ${this.burst} at once${this.shared ? ', across instances' : ''}`;
  }
}

/** The refusal of a caller whose bucket held not one request: 429 with Retry-After. */
function rateLimited(buckets: CallerBuckets, tokens: number): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil((1 - tokens) / buckets.perSecond));
  return new GraphQLError(`This caller has used its DynamoDB requests for now (${buckets.why}); retry in ${retryAfter} s`, {
    extensions: {
      code: RATE_LIMITED,
      retryAfterSeconds: retryAfter,
      http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfter)]]) },
    },
  });
}

export function callerBudgetPlugin(budget: CallerBudget | CallerBuckets): GatewayPlugin {
  const buckets = budget instanceof CallerBuckets ? budget : new CallerBuckets(budget);
  return {
    requestDidStart() {
      let reservation: Reservation | undefined;
      const hooks: RequestHooks = {
        // After the query limits: the operation's cost (its planned requests) and caps are known.
        didResolveOperation({ operation, contextValue }) {
          if (!operation) return;
          const { metrics } = contextValue;
          const held = new Reservation([buckets.source(callerKey(contextValue))], metrics.requestCap);
          const opened = () => {
            if (held.granted === 0) throw rateLimited(buckets, held.limiting?.tokens ?? 0);
            reservation = held;
            metrics.reserveThrough(held);
          };
          const reserving = held.open(contextValue.cost ?? metrics.requestCap);
          return reserving ? reserving.then(opened) : opened();
        },
        willSendResponse({ contextValue }) {
          reservation?.close(contextValue.metrics.requests);
          reservation = undefined;
        },
      };
      return hooks;
    },
  };
}
