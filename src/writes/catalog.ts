/**
 * Catalog bookkeeping of the writes that create or delete an item of a
 * type with a @catalog: the item's GSI2 entry (docs/catalog.md) and the
 * counter of its shard, in the same transaction, so `totalCount` of the
 * list always equals the number of entries in the index.
 *
 * Invariant: counter shard k of a catalog = number of items whose GSI2PK
 * is `<key>#<k>`. Every write that adds or removes a GSI2PK moves the
 * counter with it: create (+1), the final delete of a cascade (−1, only if
 * the item was indexed), `npm run migrate` indexing an old item (+1).
 * Renames change GSI2SK only (the shard depends on the id).
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  CATALOG_COUNT_ATTR,
  catalogEntryPartition,
  catalogEntryShard,
  catalogShardCounterKey,
  GSI2,
  type CatalogSpec,
  type TableKeys,
} from '../dynamo/keys.js';
import type { Item } from '../dynamo/batchGet.js';
import { conflict } from '../errors.js';
import { transact, TransactionCancelled, type TransactItem } from './transact.js';
import type { Store } from './store.js';

/** The transact item that moves a catalog shard's counter (created at 0 by its first ADD). */
export function catalogCounterChange(tableName: string, keys: TableKeys, spec: CatalogSpec, id: string, delta: number): TransactItem {
  const key = catalogShardCounterKey(spec, catalogEntryShard(spec, id));
  return {
    Update: {
      TableName: tableName,
      Key: keys.key(key),
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': CATALOG_COUNT_ATTR },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/**
 * Puts a new item (CONFLICT when its key exists) with, in one transaction,
 * its catalog counter (when `catalog` is given) and `also`, further items
 * put with it (a sharded parent's counter items).
 */
export async function putNewWith(
  store: Store,
  item: Item,
  what: string,
  catalog: { spec: CatalogSpec; id: string } | null,
  also: readonly Item[] = [],
): Promise<void> {
  try {
    await transact(store, [
      { Put: { TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: store.plan.keys.pkName } },
      ...(catalog ? [catalogCounterChange(store.tableName, store.plan.keys, catalog.spec, catalog.id, 1)] : []),
      ...also.map((extra) => ({ Put: { TableName: store.tableName, Item: extra } })),
    ]);
  } catch (err) {
    if (err instanceof TransactionCancelled && err.failed(0)) throw conflict(`${what} already exists`);
    throw err;
  }
}

/** A page of a COUNT Query: what countCatalogShard needs of the answer. */
interface CountPage {
  Count?: number;
  LastEvaluatedKey?: Record<string, unknown>;
}

/**
 * The entries one catalog shard holds, counted by COUNT Queries of its GSI2
 * partition (page by page); `query` sends one (rate-limited by a caller that
 * needs it).
 */
export async function countCatalogShard(
  query: (input: QueryCommandInput) => Promise<CountPage>,
  tableName: string,
  spec: CatalogSpec,
  shard: number,
): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await query({
      TableName: tableName,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogEntryPartition(spec, shard) },
      Select: 'COUNT',
      ExclusiveStartKey: start,
    });
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
