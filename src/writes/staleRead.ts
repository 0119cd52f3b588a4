/**
 * The read → transact → read-again loop of every write that decides from
 * what it read: a round reads, builds a transaction conditioned on what it
 * saw, and returns `READ_AGAIN` when the transaction was cancelled because
 * that changed in between. Rounds are bounded by `staleReadAttempts`; after
 * the last one the typed TRANSACTION_CONFLICT error is thrown (or `exhausted`
 * decides, for callers with a fallback).
 */
import { transactionConflict } from '../errors.js';
import { optionsOf, type Store } from './store.js';

/** What a round returns when what it read changed before its transaction: read again. */
export const READ_AGAIN: unique symbol = Symbol('read again');

export async function untilFresh<T>(
  store: Store,
  round: (n: number) => Promise<T | typeof READ_AGAIN>,
  exhausted: () => T = () => {
    throw transactionConflict();
  },
): Promise<T> {
  const { staleReadAttempts } = optionsOf(store);
  for (let n = 1; n <= staleReadAttempts; n++) {
    const result = await round(n);
    if (result !== READ_AGAIN) return result;
  }
  return exhausted();
}
