/**
 * Catalog bookkeeping of the writes that create or delete a student or a
 * course: the entity's GSI2 entry (docs/catalog.md) and the counter of its
 * shard, in the same transaction, so `totalCount` of the lists always
 * equals the number of entries in the index.
 *
 * Invariant: counter shard k of a kind = number of items of that kind whose
 * GSI2PK is `CATALOG#<kind>#k`. Every write that adds or removes a GSI2PK
 * moves the counter with it: create (+1), the final delete of a cascade
 * (−1, only if the entity was indexed), `npm run migrate` indexing an old
 * item (+1). Renames change GSI2SK only (the shard depends on the id).
 */
import {
  CATALOG_COUNT_ATTR,
  catalogCounterKey,
  catalogShardOf,
  type CatalogKind,
} from '../dynamo/keys.js';
import type { Item } from '../dynamo/batchGet.js';
import { conflict } from '../graphql/errors.js';
import { transact, TransactionCancelled, type TransactItem } from './transact.js';
import type { Store } from './store.js';

/** The transact item that moves a catalog shard's counter (created at 0 by its first ADD). */
export function catalogCounterChange(tableName: string, kind: CatalogKind, id: string, delta: number): TransactItem {
  const key = catalogCounterKey(kind, catalogShardOf(id));
  return {
    Update: {
      TableName: tableName,
      Key: { PK: key.PK, SK: key.SK },
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': CATALOG_COUNT_ATTR },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/**
 * Puts a new catalog entity (CONFLICT when its id exists) and counts it, in
 * one transaction; `also` are further items put with it (a sharded course's
 * counter items).
 */
export async function putCatalogEntity(
  store: Store,
  kind: CatalogKind,
  id: string,
  item: Item,
  what: string,
  also: readonly Item[] = [],
): Promise<void> {
  try {
    await transact(store, [
      { Put: { TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
      catalogCounterChange(store.tableName, kind, id, 1),
      ...also.map((extra) => ({ Put: { TableName: store.tableName, Item: extra } })),
    ]);
  } catch (err) {
    if (err instanceof TransactionCancelled && err.failed(0)) throw conflict(`${what} already exists`);
    throw err;
  }
}
