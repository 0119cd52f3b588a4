/**
 * SocketBudget: what one WebSocket may hold and spend. The transport makes
 * one per socket; the subscription engine charges and releases it.
 */
import type { Identity } from '../auth/identity.js';
import { callerKey, type CallerBuckets } from './plugins/callerBudget.js';
import type { Grant, RequestSource } from './reservation.js';
import type { DocumentHolder } from './heldDocuments.js';

/** DynamoDB requests the event executions of one socket may send: `perSecond`, up to `burst` saved. */
export interface EventRequestBudget {
  perSecond: number;
  burst: number;
}
const UNBOUNDED_EVENTS: EventRequestBudget = { perSecond: Infinity, burst: Infinity };

/**
 * What one socket may hold: the documents of its live subscriptions and
 * the events waiting for them, both in estimated bytes; and the DynamoDB
 * requests its events may cause, a token bucket executions reserve from
 * (reservation.ts).
 */
export class SocketBudget implements RequestSource, DocumentHolder {
  /** The client's address (its documents count against its address's budget too: heldDocuments.ts). */
  address = '';
  documentBytes = 0;
  queuedBytes = 0;
  /** The caller's own bucket of DynamoDB requests, shared with its HTTP operations (plugins/callerBudget.ts). */
  caller: { buckets: CallerBuckets; key: string } | undefined;
  /** DynamoDB requests the socket's event executions may still send (a token bucket), and when it was last filled. */
  private tokens: number;
  private filledAt: number;
  constructor(
    readonly maxDocumentBytes: number,
    readonly maxQueuedBytes: number,
    readonly requests: EventRequestBudget = UNBOUNDED_EVENTS,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.tokens = requests.burst;
    this.filledAt = now();
  }

  readonly why = " within what this connection's subscriptions may send per second (WS_DYNAMODB_REQUESTS_PER_SECOND)";

  /** Reserves up to `wanted` whole requests of the socket's bucket for an execution, never below empty. */
  reserve(wanted: number): Grant {
    const at = this.now();
    this.tokens = Math.min(this.requests.burst, this.tokens + ((at - this.filledAt) / 1000) * this.requests.perSecond);
    this.filledAt = at;
    const granted = Math.max(0, Math.min(wanted, Math.floor(this.tokens)));
    this.tokens -= granted;
    return { granted, tokens: this.tokens };
  }

  /** An execution gives back what it did not send (negative: charges its retries past the reservation). */
  release(requests: number): void {
    this.tokens = Math.min(this.requests.burst, this.tokens + requests);
  }

  /** Draws from the caller's bucket too, keyed as its HTTP operations are (subject, else address). */
  callerIs(buckets: CallerBuckets | undefined, who: { identity: Identity; clientAddress?: string }): void {
    this.caller = buckets ? { buckets, key: callerKey(who) } : undefined;
  }
}
