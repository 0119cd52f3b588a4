/**
 * TransactWriteItems with the retries a transaction needs, and its
 * cancellation reasons handed back in a form callers can act on.
 *
 * In:  up to 100 transact items (all-or-nothing).
 * Out: resolves when the transaction committed, or throws
 * - `TransactionCancelled` with one reason code per item (in item order)
 *   when a condition failed: the caller knows which item and decides
 *   (CONFLICT, NOT_FOUND, or read again and retry);
 * - the typed UNAVAILABLE error (`extensions.reason: TRANSACTION_CONFLICT`)
 *   when concurrent transactions kept colliding with this one after
 *   `conflictAttempts` tries with jittered backoff;
 * - plain UNAVAILABLE when the cancellations were for throttling;
 * - anything else unchanged (network, validation: classified by formatError).
 *
 * Why retry here: `TransactionConflict` (another transaction holds one of the
 * items) and `TransactionInProgressException` are transient and the SDK
 * does not retry `TransactionCanceledException`. A cancelled transaction
 * wrote nothing, so sending it again is safe. Each attempt is a new command,
 * so the SDK gives it a fresh ClientRequestToken (its own network retries
 * reuse the token and are therefore idempotent).
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import { transactionConflict, unavailable } from '../errors.js';
import { backoff } from '../dynamo/backoff.js';
import { optionsOf, type Store } from './store.js';

/** What a transaction needs of a store: the client and the retry knobs, not the model. */
export type TransactStore = Pick<Store, 'doc' | 'tableName' | 'writeOptions'>;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Cancellation reason codes DynamoDB reports per item ('None' for items
 * that were fine), and, for an item sent with
 * `ReturnValuesOnConditionCheckFailure: ALL_OLD` whose condition failed,
 * the item as it was (null: absent, or not asked for): a write learns why
 * its condition failed without reading again.
 */
export class TransactionCancelled extends Error {
  override name = 'TransactionCancelled';
  constructor(
    readonly reasons: string[],
    readonly items: readonly (Item | null)[] = [],
  ) {
    super(`transaction cancelled: ${reasons.join(', ')}`);
  }
  /** Did the condition of the item at `index` fail? */
  failed(index: number): boolean {
    return this.reasons[index] === 'ConditionalCheckFailed';
  }
  /** The item at `index` as it was when its condition failed (null: absent then, or its old values were not asked for). */
  old(index: number): Item | null {
    return this.items[index] ?? null;
  }
}

/** Reasons that say "try again shortly", not "your condition is false". */
const THROTTLING_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);
const TRANSIENT_REASONS = new Set(['TransactionConflict', ...THROTTLING_REASONS]);
const TRANSIENT_ERRORS = new Set(['TransactionInProgressException', 'TransactionConflictException']);

interface AwsError {
  name?: string;
  CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[];
}

/** Is this error a transient collision with another transaction (retry the same request)? */
export function isTransientConflict(err: unknown): boolean {
  const e = err as AwsError;
  if (TRANSIENT_ERRORS.has(e?.name ?? '')) return true;
  if (e?.name !== 'TransactionCanceledException') return false;
  const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
  return !codes.includes('ConditionalCheckFailed') && codes.some((c) => TRANSIENT_REASONS.has(c));
}

const isThrottled = (err: unknown) => ((err as AwsError)?.CancellationReasons ?? []).some((r) => THROTTLING_REASONS.has(r.Code ?? ''));

/**
 * Runs `attempt` until it succeeds or fails with something other than a
 * transient conflict; after `conflictAttempts` conflicts, the typed error
 * (plain UNAVAILABLE when the last cancellation was throttling, not a conflict).
 */
export async function retryConflicts<T>(store: TransactStore, attempt: () => Promise<T>): Promise<T> {
  const { conflictAttempts, conflictDelayMs } = optionsOf(store);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isTransientConflict(err)) throw err;
      if (n >= conflictAttempts) throw isThrottled(err) ? unavailable() : transactionConflict();
      await backoff(conflictDelayMs, n);
    }
  }
}

export async function transact(store: TransactStore, items: TransactItem[]): Promise<void> {
  try {
    await retryConflicts(store, () => store.doc.send(new TransactWriteCommand({ TransactItems: items })));
  } catch (err) {
    const e = err as AwsError;
    if (e?.name === 'TransactionCanceledException' && e.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')) {
      // The document client leaves the reasons' items in DynamoDB's wire form.
      const reasons = e.CancellationReasons;
      throw new TransactionCancelled(
        reasons.map((r) => r.Code ?? 'None'),
        reasons.map((r) => (r.Item ? (unmarshall(r.Item) as Item) : null)),
      );
    }
    throw err;
  }
}

/** `transact`, with a cancellation by a failed condition returned instead of thrown (null: committed). */
export async function tryTransact(store: TransactStore, items: TransactItem[]): Promise<TransactionCancelled | null> {
  try {
    await transact(store, items);
    return null;
  } catch (err) {
    if (err instanceof TransactionCancelled) return err;
    throw err;
  }
}
