/**
 * Denormalized copies on edges (the `copy` of an @edges relation): bringing every
 * edge of an entity to the entity's current value, page by page with
 * bounded concurrency, without resurrecting deleted edges, and converging
 * when renames race each other (see update.ts for how renames use this).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import type { ItemKey, TableKeys } from '../dynamo/keys.js';
import { isConditionFailed } from './create.js';
import { forEachLimit, pages } from './fanOut.js';
import { getItem, optionsOf, type Store } from './store.js';
import { retryConflicts } from './transact.js';

/** How many times the copies are re-synchronised when concurrent renames keep changing the value. */
const MAX_SETTLE_PASSES = 5;

/** Denormalized copies: the entity attributes copied, the edges holding them, the edges' attributes. */
export interface Copy {
  fields: readonly { attr: string; value: string; copyAttr: string }[];
  /** Every collection holding such edges (one, or each GSI1 partition of a sharded parent). */
  edges: readonly Collection[];
}

/** Does the edge lack one of the copies' values? */
export const isStale = (edge: Item, copy: Copy): boolean => copy.fields.some((f) => edge[f.copyAttr] !== f.value);

export function editEdge(tableName: string, keys: TableKeys, edge: Item, copy: Copy) {
  const names: Record<string, string> = { '#pk': keys.pk };
  const values: Record<string, unknown> = {};
  const sets = copy.fields.map((f, i) => {
    const [n, v] = copy.fields.length === 1 ? ['#copy', ':value'] : [`#copy${i}`, `:value${i}`];
    names[n] = f.copyAttr;
    values[v] = f.value;
    return `${n} = ${v}`;
  });
  return {
    TableName: tableName,
    Key: keys.itemKey(edge),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(#pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Sets the copies on every edge that lacks them, page by page. Returns the number of edges written. */
export async function refreshCopies(store: Store, copy: Copy): Promise<number> {
  const { pageSize, concurrency } = optionsOf(store);
  let written = 0;
  for (const edges of copy.edges) {
    for await (const page of pages(store, edges, pageSize)) {
      const stale = page.filter((edge) => isStale(edge, copy));
      await forEachLimit(stale, concurrency, async (edge) => {
        try {
          await retryConflicts(store, () => store.doc.send(new UpdateCommand(editEdge(store.tableName, store.plan.keys, edge, copy))));
          written++;
        } catch (err) {
          if (!isConditionFailed(err)) throw err; // the edge was deleted meanwhile: nothing to update
        }
      });
    }
  }
  return written;
}

/**
 * Brings the copies to their values, then again with the entity's newer
 * values while a concurrent rename changed them. Returns the entity as last read.
 */
export async function settleCopies(store: Store, key: ItemKey, copy: Copy): Promise<Item | null> {
  let now: Item | null = null;
  for (let pass = 1; pass <= MAX_SETTLE_PASSES; pass++) {
    await refreshCopies(store, copy);
    now = await getItem(store, key);
    if (now === null) return now;
    const current = now;
    const newer = copy.fields.map((f) => (typeof current[f.attr] === 'string' && current[f.attr] !== f.value ? { ...f, value: current[f.attr] as string } : f));
    if (newer.every((f, i) => f === copy.fields[i])) return now;
    copy = { ...copy, fields: newer };
  }
  return now;
}
