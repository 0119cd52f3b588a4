/**
 * Denormalized copies on edges (`studentName`, `courseTitle`): bringing every
 * edge of an entity to the entity's current value, page by page with
 * bounded concurrency, without resurrecting deleted edges, and converging
 * when renames race each other (see update.ts for how renames use this).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import type { ItemKey } from '../dynamo/keys.js';
import { isConditionFailed } from './create.js';
import { forEachLimit, pages } from './fanOut.js';
import { getItem, optionsOf, type Store } from './store.js';
import { retryConflicts } from './transact.js';

/** How many times the copies are re-synchronised when concurrent renames keep changing the value. */
const MAX_SETTLE_PASSES = 5;

/** A denormalized copy: the entity attribute it copies, the edges holding it, their attribute. */
export interface Copy {
  attr: string;
  value: string;
  /** Every collection holding such edges (one, or each GSI1 partition of a sharded course). */
  edges: readonly Collection[];
  copyAttr: string;
}

export const editEdge = (tableName: string, edge: Item, copy: Copy) => ({
  TableName: tableName,
  Key: { PK: edge.PK, SK: edge.SK },
  UpdateExpression: 'SET #copy = :value',
  ConditionExpression: 'attribute_exists(PK)',
  ExpressionAttributeNames: { '#copy': copy.copyAttr },
  ExpressionAttributeValues: { ':value': copy.value },
});

/** Sets the copy on every edge that lacks it, page by page. Returns the number of edges written. */
export async function refreshCopies(store: Store, copy: Copy): Promise<number> {
  const { pageSize, concurrency } = optionsOf(store);
  let written = 0;
  for (const edges of copy.edges) {
    for await (const page of pages(store, edges, pageSize)) {
      const stale = page.filter((edge) => edge[copy.copyAttr] !== copy.value);
      await forEachLimit(stale, concurrency, async (edge) => {
        try {
          await retryConflicts(store, () => store.doc.send(new UpdateCommand(editEdge(store.tableName, edge, copy))));
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
 * Brings the copies to `copy.value`, then again with the entity's newer
 * value while a concurrent rename changed it. Returns the entity as last read.
 */
export async function settleCopies(store: Store, key: ItemKey, copy: Copy): Promise<Item | null> {
  let now: Item | null = null;
  for (let pass = 1; pass <= MAX_SETTLE_PASSES; pass++) {
    await refreshCopies(store, copy);
    now = await getItem(store, key);
    if (now === null || typeof now[copy.attr] !== 'string' || now[copy.attr] === copy.value) return now;
    copy = { ...copy, value: now[copy.attr] as string };
  }
  return now;
}

