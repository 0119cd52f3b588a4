/**
 * The two tools of every write that touches an unbounded number of edges
 * (rename fan-out, cascade delete):
 * - `pages`: the children of a collection, `pageSize` at a time, following
 *   LastEvaluatedKey until the collection is exhausted, through the same
 *   collection layer as reads (dynamo/collection.ts; base-table pages are
 *   read strongly consistent; GSI1 offers only eventual consistency);
 * - `forEachLimit`: at most `concurrency` calls in flight; after the first
 *   failure no new call starts, the ones in flight finish, and the failure
 *   is rethrown (so a crash point is well defined and re-running resumes).
 */
import type { Item } from '../dynamo/batchGet.js';
import { pages as collectionPages, readPage, type Collection } from '../dynamo/collection.js';
import { readsOf, type Store } from './store.js';

/** One page of at most `limit` edges, read as writes read (strongly consistent where possible). */
export const edgePage = (store: Store, collection: Collection, limit: number) =>
  readPage(readsOf(store), store.tableName, collection, { limit, consistent: true });

/** The write-side pager: every edge of `collection`, `pageSize` at a time. */
export const pages = (store: Store, collection: Collection, pageSize: number): AsyncGenerator<Item[]> =>
  collectionPages(readsOf(store), store.tableName, collection, pageSize, true);

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
