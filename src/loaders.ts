/**
 * Per-request DataLoaders. Made fresh in the context function for every
 * GraphQL operation, never at module level: a cache shared across requests
 * would serve one user's stale or foreign data to another. They read
 * through the operation's read port (dynamo/readPort.ts), which counts every
 * request into the operation's metrics.
 *
 * - `item`: every entity read by primary key goes through one loader, so all
 *   entity reads of a tick (of every item type alike)
 *   become one BatchGetItem (chunked by 100 in batchGet.ts), or one GetItem
 *   when the tick reads a single entity.
 * - `range`, `exists`, `count`, `order`: Queries cannot be batched, but
 *   identical ones within an operation are sent once.
 * - `withParent`: an entity and the first page of a connection beside it in
 *   one Query of the partition they share, in the table or an index
 *   (entityPage.ts); it primes `range` with the page and `item` with the
 *   entity, so the resolvers that ask for them next find them cached.
 *
 * Naive mode (`naive: true`, for benchmarks only) turns batching and caching
 * off: every load is its own request, as in a resolver tree without
 * DataLoader. Look-ahead checks `naive` too and stays off.
 */
import DataLoader from 'dataloader';
import { batchGet, type Item } from './dynamo/batchGet.js';
import { countCollection, existsBeyond, readRange, type Collection, type RangeRead, type StartKey } from './dynamo/collection.js';
import { readEntityPage } from './dynamo/entityPage.js';
import { itemKeyString, type ItemKey, type TableKeys } from './dynamo/keys.js';
import { invariant } from './errors.js';
import type { ReadPort } from './dynamo/readPort.js';
import type { ItemPlan } from './plan/itemPlan.js';
import type { ItemRecord } from './plan/records.js';
import { GSI1 } from './dynamo/keys.js';
import { GSI1_PK, GSI1_SK } from './declaration/layout.js';

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

/**
 * The items of one loader batch, in key order: one key is a GetItem (the
 * same capacity as a one-key BatchGetItem, but less work for DynamoDB to
 * serve), more keys are BatchGetItem calls of up to 100 keys.
 */
async function getItems(reads: ReadPort, tableName: string, table: TableKeys, keys: readonly ItemKey[]): Promise<(Item | null)[]> {
  if (keys.length !== 1) return batchGet(reads, tableName, table, keys);
  const out = await reads.get({ TableName: tableName, Key: table.key(keys[0]) });
  return [out.Item ?? null];
}

/** An entity item and the first page of a connection beside it, read together. */
export interface ParentPageRead {
  parentKey: ItemKey;
  /** The entity's sort key in the connection's index, and which side of the members it sorts on. */
  entitySk: string;
  side: 'before' | 'after';
  /** Items of other kinds (one a partition each) that may sort between the entity and the page: read past. */
  between: number;
  /** Kinds with many items may sort between: the page read toward the entity stops past the members (entityPage.ts). */
  crowded: boolean;
  read: RangeRead;
}

export interface LoaderOptions {
  /** Batching, caching and look-ahead off (benchmark baseline). */
  naive?: boolean;
}

const json = (value: unknown) => JSON.stringify(value);

export function createLoaders(reads: ReadPort, tableName: string, table: TableKeys, { naive = false }: LoaderOptions = {}) {
  const batching = { batch: !naive, cache: !naive };
  const item = new DataLoader<ItemKey, Item | null, string>((keys) => getItems(reads, tableName, table, keys), {
    ...batching,
    cacheKeyFn: itemKeyString,
  });
  const range = new DataLoader<RangeRead, Item[], string>(
    (batch) => eachSettled(batch, (read) => readRange(reads, tableName, read)),
    { ...batching, cacheKeyFn: json },
  );
  /** One item by id (and parent id, for a child type; the values of the fields its key holds), through the item loader; its plan keys and maps it. */
  const entity = (spec: ItemPlan, id: string, parentId?: string, fields?: Readonly<Record<string, unknown>>): Promise<ItemRecord | null> =>
    item.load(spec.key(id, parentId, fields)).then((found) => (found ? spec.map(found) : null));
  /**
   * An inverted type's item by its sort key alone (GSI1 pk = its table sort key): a Query of
   * GSI1 for one item, identical reads of an operation sent once.
   */
  const bySortKey = new DataLoader<{ spec: ItemPlan; id: string }, ItemRecord | null, string>(
    (batch) =>
      eachSettled(batch, async ({ spec, id }) => {
        const { type } = spec;
        const collection: Collection = {
          name: `${type.name}.bySortKey`,
          index: GSI1,
          pkAttr: GSI1_PK,
          skAttr: GSI1_SK,
          pk: type.sk.fill({ id }),
          prefix: type.pk.prefix,
          table: table.names,
        };
        const [found] = await readRange(reads, tableName, { collection, forward: true, limit: 1 });
        return found ? spec.map(found) : null;
      }),
    { ...batching, cacheKeyFn: ({ spec, id }) => `${spec.name}\u0000${id}` },
  );

  return {
    naive,
    item,
    entity,

    range,
    withParent: new DataLoader<ParentPageRead, Item | null, string>(
      (batch) =>
        eachSettled(batch, async ({ parentKey, entitySk, side, between, crowded, read }) => {
          invariant(!read.exclusiveStart && !read.bound, 'a page read with its parent starts at an end of the collection');
          const page = await readEntityPage(reads, tableName, {
            collection: read.collection,
            entitySk,
            entityKey: table.key(parentKey) as Record<string, string>,
            side,
            forward: read.forward,
            limit: read.limit,
            between,
            crowded,
          });
          range.prime(read, page.items);
          if (!page.known) return item.load(parentKey);
          item.prime(parentKey, page.entity);
          return page.entity;
        }),
      { ...batching, cacheKeyFn: json },
    ),
    exists: new DataLoader<ExistsQuery, boolean, string>(
      (qs) => eachSettled(qs, (q) => existsBeyond(reads, tableName, q.collection, q.key, q.atOrAfter)),
      { ...batching, cacheKeyFn: json },
    ),
    count: new DataLoader<Collection, number, string>(
      (cs) => eachSettled(cs, (c) => countCollection(reads, tableName, c)),
      { ...batching, cacheKeyFn: json },
    ),
    bySortKey,
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
