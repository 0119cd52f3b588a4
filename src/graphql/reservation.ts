/**
 * Budgets of DynamoDB requests reserved before the work. An execution
 * (an HTTP operation, or one execution of a subscription event) reserves
 * its planned requests from every budget it draws from (the caller's
 * bucket, the socket's) before it runs; its calls claim them one by one
 * (dynamo/metrics.ts), reserve more when all are claimed, and fail with
 * DYNAMODB_REQUEST_LIMIT when the budgets hold no more; when it ends, what
 * it did not send goes back. A bucket is taken from only down to empty,
 * so executions side by side (on one instance, or on several drawing from
 * one bucket in Redis) never send together more first attempts than it
 * holds: the invariant of docs/limits.md ("Reserved before the work").
 */
import type { RequestLease } from '../dynamo/metrics.js';

/** What a budget gave: whole requests, and what it holds after (for Retry-After). */
export interface Grant {
  granted: number;
  tokens: number;
}

/** A bucket of DynamoDB requests that reservations draw from. */
export interface RequestSource {
  /** Takes up to `wanted` whole requests, never below empty. */
  reserve(wanted: number): Grant | Promise<Grant>;
  /** Gives back `requests` reserved and not sent; a negative number charges more (retries past the reservation). */
  release(requests: number): void;
  /** The budget named in the error of a call it could not serve. */
  readonly why: string;
}

/** Requests reserved at a time once the first reservation is used up: one wave of calls in flight. */
export const TOP_UP = 32;

const then = <T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> => (value instanceof Promise ? value.then(next) : next(value));

export class Reservation implements RequestLease {
  granted = 0;
  why = '';
  /** The budget that gave least at the opening, and what it held then. */
  limiting: { source: RequestSource; tokens: number } | undefined;
  private pending: Promise<void> | undefined;
  private closed = false;

  /** `cap`: the most the execution may send at all (MAX_DYNAMODB_REQUESTS, or a lower cap). */
  constructor(
    private readonly sources: readonly RequestSource[],
    private readonly cap: number,
  ) {}

  /** Reserves the execution's planned requests (at most its cap); settles once reserved. */
  open(planned: number): void | Promise<void> {
    const done = then(this.take(Math.min(this.cap, Math.max(1, planned))), () => undefined);
    return done instanceof Promise ? done : undefined;
  }

  extend(wanted: number): void | Promise<void> {
    if (this.pending) return this.pending;
    const more = Math.min(this.cap - this.granted, Math.max(wanted - this.granted, TOP_UP));
    if (this.closed || more <= 0) return;
    const taken = this.take(more);
    if (!(taken instanceof Promise)) return;
    return (this.pending = taken.then(() => {
      this.pending = undefined;
    }));
  }

  /** The execution sent `requests` (retries included): what it did not send goes back to every budget. */
  close(requests: number): void {
    if (this.closed) return;
    this.closed = true;
    const unused = this.granted - requests;
    if (unused !== 0) for (const source of this.sources) source.release(unused);
  }

  /** Takes `wanted` from every source in turn; each gets back what a later one did not give. */
  private take(wanted: number, from = 0): number | Promise<number> {
    if (from === this.sources.length || wanted <= 0) {
      if (!this.closed) this.granted += wanted;
      // Reserved after the execution ended (a call left over): straight back.
      else if (wanted > 0) for (const source of this.sources) source.release(wanted);
      return wanted;
    }
    const source = this.sources[from]!;
    return then(source.reserve(wanted), ({ granted, tokens }) => {
      if (granted < wanted) {
        for (let i = 0; i < from; i++) this.sources[i]!.release(wanted - granted);
        this.why = source.why;
        if (this.granted === 0) this.limiting = { source, tokens };
      }
      return this.take(granted, from + 1);
    });
  }
}
