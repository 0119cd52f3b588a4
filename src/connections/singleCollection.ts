/**
 * The engine's source for one item collection: a partition and a sort-key
 * prefix, on the table or an index. Read through the request's loaders, so
 * identical reads are sent once and look-ahead's reads are found again.
 * Forward: ascending from `after`, one item more than the page; backward:
 * descending from `before`, reversed; a far-side cursor bounds the range,
 * and the far-side flag is one `Limit: 1` Query, only when selected. A page
 * of 0 sends its Query only if pageInfo asks. Positions are start keys,
 * bound to the connection, partition and index.
 */
import type { Item } from '../dynamo/batchGet.js';
import { keyAttributes, partitionLabel, startKeyOf, type Collection, type RangeRead, type StartKey } from '../dynamo/collection.js';
import { memo, orderedBy, type Page, type PagePlan, type Source } from './engine.js';

/** The reads of item collections: the request's loaders (cached, deduplicated), direct reads, or a test's fakes. */
export interface CollectionReads {
  /** collection.ts `readRange`: up to `limit` items in read direction. */
  range: { load(read: RangeRead): Promise<Item[]> };
  /** collection.ts `existsBeyond`: any item at `key`'s sort key or beyond it. */
  exists: { load(query: ExistsQuery): Promise<boolean> };
}

export interface ExistsQuery {
  collection: Collection;
  key: StartKey;
  atOrAfter: boolean;
}

export interface CollectionPlan extends PagePlan<Collection, StartKey> {
  /** The range read behind the page: one item more than the page, in read direction. */
  read: RangeRead;
}

const indexOf = (collection: Collection) => collection.index ?? 'table';

const ascending: Source<Collection, CollectionPlan, CollectionReads, StartKey> = {
  binding: (collection) => ({
    name: collection.name,
    partition: partitionLabel(collection.pk, collection.pkMore),
    index: indexOf(collection),
    // Over several sort attributes, the values the arguments fix bind cursors too.
    ...(collection.sortKey ? { args: collection.sortKey.binding } : collection.range ? { args: collection.range.binding } : {}),
  }),
  shape: (collection) => ({
    attrs: keyAttributes(collection),
    skAttr: collection.skAttr,
    prefix: collection.prefix,
    partition: { attr: collection.pkAttr, value: collection.pk },
    ...(collection.numbers ? { numbers: collection.numbers } : {}),
  }),
  plan(collection, window) {
    const { forward, size, after, before } = window;
    const read: RangeRead = {
      collection,
      forward,
      limit: size + 1,
      exclusiveStart: forward ? after : before,
      bound: forward ? before : after,
    };
    return { target: collection, window, read };
  },
  async read({ target: collection, window, read }, reads): Promise<Page> {
    const { after, before, forward, size } = window;
    const beyond = (key: StartKey | null, atOrAfter: boolean): false | (() => Promise<boolean>) =>
      key ? memo(() => reads.exists.load({ collection, key, atOrAfter })) : false;
    if (size === 0) {
      const anyItem = memo(async () => (await reads.range.load(read)).length > 0);
      const orBeyond = (key: StartKey | null, atOrAfter: boolean) => {
        const b = beyond(key, atOrAfter);
        return async () => (await anyItem()) || (b !== false && (await b()));
      };
      return {
        items: [],
        hasNextPage: forward ? orBeyond(before, true) : beyond(before, true),
        hasPreviousPage: forward ? beyond(after, false) : orBeyond(after, false),
      };
    }
    const items = await reads.range.load(read);
    const more = items.length > size;
    const page = items.slice(0, size);
    if (!forward) page.reverse();
    return {
      items: page,
      hasNextPage: forward ? more || beyond(before, true) : beyond(before, true),
      hasPreviousPage: forward ? beyond(after, false) : more || beyond(after, false),
    };
  },
  position: startKeyOf,
};

/** A collection declared `order: DESCENDING` is read from its highest sort key. */
export const singleCollection = orderedBy((collection: Collection) => collection.descending === true, ascending);
