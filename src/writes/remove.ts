/**
 * The delete of one item that takes nothing else with it (no edges,
 * children, catalog entry or shard counters), at the least a careful
 * client needs:
 * - alone: one DeleteItem on attribute_exists of the table key (with
 *   @delete(match:), also on the values named, the item's old values
 *   returned on failure to tell CONFLICT from NOT_FOUND);
 * - with counts (a child's parent counter, the counts
 *   of its counted references) or a child's id claim: one
 *   TransactWriteItems, the counting items not read first (counts.ts).
 * The referred ids of counted references come from the item's key (a
 * derived id, the key's values); a reference the key does not hold is
 * read first (one consistent GetItem), and the delete is conditional on
 * it being unchanged.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey } from '../dynamo/keys.js';
import { conflict, notFound } from '../errors.js';
import { and, exists, expressionParts, unchanged, type Condition } from './conditions.js';
import { countedMoves, transactWithCounts, type CountMove } from './counts.js';
import { isConditionFailed } from './create.js';
import { getItem, type Store } from './store.js';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { retryConflicts } from './transact.js';
import type { TypeWrites } from './writePlan.js';

/** A stored field and the value the item must hold in it to be deleted (@delete(match)). */
export interface Match {
  name: string;
  value: unknown;
}

/** CONFLICT, before anything is written, when the item does not hold the values a delete names. */
export function checkMatch(what: string, item: Item, match: readonly Match[]): void {
  const differs = match.find((m) => item[m.name] !== m.value);
  if (differs) throw conflict(`${what} does not have ${differs.name} ${JSON.stringify(differs.value)}: not deleted`);
}

export interface Removal {
  t: TypeWrites;
  id: string;
  key: ItemKey;
  /** The values its key holds, by field (the referred ids of references in it among them). */
  keyValues: Readonly<Record<string, unknown>>;
  /** A child's parent: its counter −1, or the check that it exists. */
  parent?: CountMove;
  /** Further items deleted with it (an inverted child's id claim). */
  also?: ItemKey[];
  match?: readonly Match[];
}

/** Deletes the item of `r`; NOT_FOUND when it is absent (CONFLICT when it holds other values than `match` names). */
export async function removeAlone(store: Store, r: Removal): Promise<void> {
  const keys = store.plan.keys;
  const what = `${r.t.item.name} ${r.id}`;
  const match = r.match ?? [];
  const unread = r.t.counted.filter((c) => !c.inKey);
  // A counted reference the key does not hold: read, and deleted only while it still refers there.
  const stored = unread.length > 0 ? await getItem(store, r.key) : null;
  if (unread.length > 0 && stored === null) throw notFound(`${what} not found`);
  if (stored !== null) checkMatch(what, stored, match);
  const values = stored === null ? r.keyValues : { ...r.keyValues, ...r.t.item.map(stored) };
  const conditions: Condition[] = [
    exists(keys.pk),
    ...match.map((m) => unchanged(m.name, m.value)),
    ...unread.map((c) => unchanged(c.field.storedAs, stored![c.field.storedAs])),
  ];
  const moves = [...(r.parent ? [r.parent] : []), ...countedMoves(r.t.counted, values, -1, false)];
  const failed = (old: Item | null) => {
    if (old !== null && match.length > 0) checkMatch(what, old, match);
    return notFound(`${what} not found`);
  };
  const self = {
    TableName: store.tableName,
    Key: keys.key(r.key),
    ...expressionParts(and(...conditions)),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  if (moves.length === 0 && (r.also ?? []).length === 0) {
    try {
      await retryConflicts(store, () => store.doc.send(new DeleteCommand(self)));
    } catch (err) {
      if (isConditionFailed(err)) throw failed(oldOf(err));
      throw err;
    }
    return;
  }
  await transactWithCounts(
    store,
    [{ Delete: self }, ...(r.also ?? []).map((k) => ({ Delete: { TableName: store.tableName, Key: keys.key(k) } }))],
    moves,
    (cancelled) => {
      if (cancelled.failed(0)) throw failed(cancelled.old(0));
    },
  );
}

/** The item as it was when a single write's condition failed (asked with ReturnValuesOnConditionCheckFailure), or null. */
function oldOf(err: unknown): Item | null {
  const raw = (err as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return raw ? (unmarshall(raw) as Item) : null;
}
