/**
 * An entity item and the first page of a connection beside it, in one
 * Query of the partition they share (in the table or an index): the
 * entity sorts before every member or after every member, with nothing
 * but them between (the plan makes sure: plan/beside.ts).
 *
 * - before, read ascending: `<sort key> BETWEEN <entity's> AND <range end>`,
 *   the entity first, then the page;
 * - after, read descending (a newest-first page): `BETWEEN <range start>
 *   AND <entity's>` backward, the entity first;
 * - after, read ascending: the same range forward, the entity reached when
 *   the connection fits the page or exceeds it by at most FORWARD_OVER_READ
 *   items (the read asks for that many more); otherwise it is unknown and
 *   the caller reads it by its key.
 *
 * Items between that are neither (another program's) are read past. The
 * page is exactly what collection.ts `readRange` returns for the same read.
 *
 * Crowded (kinds with many items may sort between the members and an
 * entity after them; read ascending only): the same Limit, and the read
 * stops once it is past the members, so what sorts between costs no more
 * than the over-read; the entity is known when that Query reached it.
 */
import type { ReadPort } from './readPort.js';
import type { Item } from './batchGet.js';
import { FORWARD_OVER_READ, inCollection, prefixEnd, rangeStart, readPage, type Collection } from './collection.js';

export interface EntityPageRead {
  collection: Collection;
  /** The entity's sort key in the collection's index, and its table key (attribute → value) that tells it from another item there. */
  entitySk: string;
  entityKey: Readonly<Record<string, string>>;
  /** Where the entity sorts beside the members. */
  side: 'before' | 'after';
  /** The page's read direction (ascending: true). */
  forward: boolean;
  /** Items wanted (the page and one more). */
  limit: number;
  /** Items of other kinds, one a partition each, that may sort between the entity and the members: read past. */
  between: number;
  /** Kinds with many items may sort between the members and the entity (side after, read ascending). */
  crowded?: boolean;
}

export interface EntityPage {
  /** The first `limit` items in read direction. */
  items: Item[];
  /** The entity item, or null when `known` and it is not there. */
  entity: Item | null;
  /**
   * Whether the read settled the entity: a forward read stopped before it
   * knows nothing of it, and an index need not hold it (a sparse index, an
   * item another program wrote without its index keys).
   */
  known: boolean;
}

export async function readEntityPage(reads: ReadPort, tableName: string, read: EntityPageRead): Promise<EntityPage> {
  const { collection, entitySk, entityKey, side, forward, limit, between, crowded = false } = read;
  if (side === 'before' && !forward) throw new Error(`Invariant violation: ${collection.name} read away from the entity sorting before it`);
  if (crowded && !(side === 'after' && forward)) throw new Error(`Invariant violation: ${collection.name} read from its entity across kinds of many items`);
  const whole = collection.range ?? { lo: rangeStart(collection.prefix), hi: prefixEnd(collection.prefix) };
  const range = side === 'before' ? { lo: entitySk, hi: whole.hi } : { lo: whole.lo, hi: entitySk };
  // Reading toward an entity that sorts after the members: a few more, so a short connection reaches it.
  const overRead = side === 'after' && forward ? FORWARD_OVER_READ : 0;
  const passes = (collection.passes?.length ?? 0) + between;
  const isEntity = (item: Item) => Object.keys(entityKey).every((attr) => item[attr] === entityKey[attr]);
  const items: Item[] = [];
  let entity: Item | null = null;
  let startKey: Record<string, unknown> | undefined;
  let exhausted = false;
  // Crowded: an item at or past the members' end means the page is whole; what follows it is not read on.
  let pastMembers = false;
  do {
    const want = limit - items.length + passes + (entity ? 0 : 1 + overRead);
    const page = await readPage(reads, tableName, collection, { range, forward, limit: want, startKey });
    for (const item of page.items) {
      const sk = item[collection.skAttr];
      if (sk === entitySk && isEntity(item)) entity = item;
      else if (items.length < limit && inCollection(collection, sk) && (!collection.accepts || collection.accepts(item))) items.push(item);
      if (typeof sk === 'string' && sk >= whole.hi) pastMembers = true;
    }
    startKey = page.next;
    exhausted = startKey === undefined;
  } while (items.length < limit && !exhausted && !(crowded && pastMembers));
  // The read starts at the entity's own key, or passes it: had it been there, it was read.
  const passed = entity !== null || exhausted || !(side === 'after' && forward);
  return { items, entity, known: passed && (entity !== null || collection.index === undefined) };
}
