/**
 * A write and the counts it moves, in one TransactWriteItems, without
 * reading the counting items first.
 *
 * A counter is moved only where it exists (conditions.ts: a table another
 * program filled may lack it, and ADD would make it 1 while the true count
 * is N). The gateway's own items always carry their counters, so a write
 * first assumes the counting item exists with its counter and sends every
 * count item with `ReturnValuesOnConditionCheckFailure: ALL_OLD`: when that
 * guess (or an item's existence) is wrong, the cancellation hands back the
 * item as it was, and the next round decides from it, as a read would have
 * (no extra request in the usual case, one more transaction otherwise).
 * A count's item that is absent, or being deleted, is NOT_FOUND for a
 * write that needs it (a child under its parent, an item referring to
 * another); a delete whose counting item is gone deletes without it.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey } from '../dynamo/keys.js';
import { notFound } from '../errors.js';
import { absent, counterOrCheck, DELETING_ATTR } from './conditions.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import type { Store } from './store.js';
import { tryTransact, TransactionCancelled, type TransactItem } from './transact.js';
import type { CountedReference } from './writePlan.js';

/** One count a write moves (or, with no counter, the existence of an item it checks). */
export interface CountMove {
  key: ItemKey;
  /** The counter (null: only a check that the item exists and `also` holds). */
  counter: string | null;
  delta: number;
  /** When the item must be there: NOT_FOUND with this message otherwise. */
  needed: string | null;
  /** The item must not be being deleted either (a create under it or referring to it): NOT_FOUND when it is. */
  live?: boolean;
}

/** The item as first assumed: present, carrying its counter. */
const assumed = (m: CountMove): Item => (m.counter === null ? {} : { [m.counter]: 0 });

const withOldValues = (item: TransactItem): TransactItem => {
  if (item.Update) return { Update: { ...item.Update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  if (item.ConditionCheck) return { ConditionCheck: { ...item.ConditionCheck, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
  return item;
};

/**
 * Sends `own` (the write's items) with the transact items of `moves`;
 * `ownFailed` turns a failed condition of its own items into the caller's
 * error (CONFLICT, NOT_FOUND; it returns when none of them failed).
 */
export async function transactWithCounts(
  store: Store,
  own: TransactItem[],
  moves: readonly CountMove[],
  ownFailed: (cancelled: TransactionCancelled) => void,
): Promise<void> {
  const keys = store.plan.keys;
  const seen: (Item | null)[] = moves.map(assumed);
  await untilFresh(store, async () => {
    const counts = moves.map((m, i) =>
      withOldValues(
        counterOrCheck(store.tableName, keys, {
          key: m.key,
          seen: seen[i] ?? null,
          counter: m.counter,
          delta: m.delta,
          also: m.live ? [absent(DELETING_ATTR)] : [],
        }),
      ),
    );
    const cancelled = await tryTransact(store, [...own, ...counts]);
    if (cancelled === null) return true;
    ownFailed(cancelled);
    let changed = false;
    moves.forEach((m, i) => {
      const at = own.length + i;
      if (!cancelled.failed(at)) return;
      const old = cancelled.old(at);
      if (m.needed !== null && (old === null || (m.live && old[DELETING_ATTR] !== undefined))) throw notFound(m.needed);
      // Absent (a delete's counting item gone), or its counter otherwise than assumed: decide from it as it is.
      seen[i] = old;
      changed = true;
    });
    if (!changed) throw cancelled;
    return READ_AGAIN;
  });
}

/** The referred ids of `counted` an item holds, as stored (attributes) or as its key's values give them. */
export function countedMoves(counted: readonly CountedReference[], values: Readonly<Record<string, unknown>>, delta: number, create: boolean): CountMove[] {
  return counted.flatMap((c) => {
    const id = values[c.field.name];
    if (typeof id !== 'string') return [];
    const what = `${c.target.name} ${id} not found`;
    return [{ key: c.target.key(id), counter: c.counter, delta, needed: create ? what : null, live: create }];
  });
}
