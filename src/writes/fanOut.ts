/**
 * The two tools of every write that touches an unbounded number of edges
 * (rename fan-out, cascade delete):
 * - `pages`: the children of a collection, `pageSize` at a time, following
 *   LastEvaluatedKey until the collection is exhausted (base-table pages are
 *   read strongly consistent; GSI1 offers only eventual consistency);
 * - `forEachLimit`: at most `concurrency` calls in flight; after the first
 *   failure no new call starts, the ones in flight finish, and the failure
 *   is rethrown (so a crash point is well defined and re-running resumes).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import type { Store } from './store.js';

/** One Query page of a collection's children; `next` is the LastEvaluatedKey (more may follow). */
export async function queryPage(
  store: Store,
  collection: Collection,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; next: Record<string, unknown> | undefined }> {
  const out = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: collection.index,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': collection.pkAttr, '#sk': collection.skAttr },
      ExpressionAttributeValues: { ':pk': collection.pk, ':prefix': collection.prefix },
      ConsistentRead: collection.index ? undefined : true,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

export async function* pages(store: Store, collection: Collection, pageSize: number): AsyncGenerator<Item[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const { items, next } = await queryPage(store, collection, pageSize, startKey);
    if (items.length > 0) yield items;
    startKey = next;
  } while (startKey);
}

/** Is there any child left in the collection? (One Limit-1 Query.) */
export async function anyLeft(store: Store, collection: Collection): Promise<boolean> {
  for await (const page of pages(store, collection, 1)) return page.length > 0;
  return false;
}

export async function forEachLimit<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure) throw failure.error;
}
