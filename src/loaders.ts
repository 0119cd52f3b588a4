/**
 * Per-request DataLoaders. Made fresh in the context function for every
 * GraphQL operation, never at module level: a cache shared across requests
 * would serve one user's stale or foreign data to another.
 *
 * - `item`: every entity read by primary key goes through one loader, so all
 *   entity reads of a tick (students, courses, customers, products alike)
 *   become one BatchGetItem (chunked by 100 in batchGet.ts).
 * - `range`, `exists`, `count`, `order`: Queries cannot be batched, but
 *   identical ones within an operation are sent once.
 */
import DataLoader from 'dataloader';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from './dynamo/batchGet.js';
import {
  countCollection,
  existsBeyond,
  readRange,
  type Collection,
  type RangeRead,
  type StartKey,
} from './dynamo/collection.js';
import { courseKey, customerKey, itemKeyString, productKey, studentKey, type ItemKey } from './dynamo/keys.js';
import { orderById } from './model/collections.js';
import { toCourse, toCustomer, toOrder, toProduct, toStudent } from './model/mappers.js';
import type { CourseRecord, CustomerRecord, OrderRecord, ProductRecord, StudentRecord } from './model/records.js';

export interface ExistsQuery {
  collection: Collection;
  key: StartKey;
  atOrAfter: boolean;
}

/** Settles every promise: a rejected one becomes its Error, as DataLoader expects per key. */
async function eachSettled<K, V>(keys: readonly K[], fn: (key: K) => Promise<V>): Promise<(V | Error)[]> {
  const settled = await Promise.allSettled(keys.map(fn));
  return settled.map((s) =>
    s.status === 'fulfilled' ? s.value : s.reason instanceof Error ? s.reason : new Error(String(s.reason)),
  );
}

const json = (value: unknown) => JSON.stringify(value);

export function createLoaders(doc: DynamoDBDocumentClient, tableName: string) {
  const item = new DataLoader<ItemKey, Item | null, string>((keys) => batchGet(doc, tableName, keys), {
    cacheKeyFn: itemKeyString,
  });
  const entity =
    <R>(keyOf: (id: string) => ItemKey, map: (item: Item) => R) =>
    async (id: string): Promise<R | null> => {
      const found = await item.load(keyOf(id));
      return found ? map(found) : null;
    };

  return {
    item,
    student: entity<StudentRecord>(studentKey, toStudent),
    course: entity<CourseRecord>(courseKey, toCourse),
    customer: entity<CustomerRecord>(customerKey, toCustomer),
    product: entity<ProductRecord>(productKey, toProduct),

    range: new DataLoader<RangeRead, Item[], string>(
      (reads) => eachSettled(reads, (read) => readRange(doc, tableName, read)),
      { cacheKeyFn: json },
    ),
    exists: new DataLoader<ExistsQuery, boolean, string>(
      (qs) => eachSettled(qs, (q) => existsBeyond(doc, tableName, q.collection, q.key, q.atOrAfter)),
      { cacheKeyFn: json },
    ),
    count: new DataLoader<Collection, number, string>(
      (cs) => eachSettled(cs, (c) => countCollection(doc, tableName, c)),
      { cacheKeyFn: json },
    ),
    order: new DataLoader<string, OrderRecord | null>((ids) =>
      eachSettled(ids, async (id) => {
        const [found] = await readRange(doc, tableName, { collection: orderById(id), forward: true, limit: 1 });
        return found ? toOrder(found) : null;
      }),
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
