/**
 * @delete: an item of any type with all its edges and children, however
 * many; counters at the other ends and its catalog counter follow
 * (docs/mutations.md, "Cascade deletes"). Each step is safe to repeat:
 * 1. mark the entity `deletingAt` and remove its own counter: link and
 *    update refuse it from then on, and totalCount counts what remains;
 * 2. page through its edges; each goes in one small transaction with the
 *    other side's counter (one a concurrent writer deleted is skipped);
 * 3. check no edge is left, then delete the entity while it carries the mark.
 * A missing entity is NOT_FOUND unless edges of it remain (then those are
 * cleaned up). With a stream the request does step 1 alone and the stream
 * processor the rest (`finishCascade`); a second delete keeps the first mark.
 * A child with children or edges of its own goes as a cascade of its own;
 * an edge's other end that is a child is found by its id for its count.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import { idClaimKey, type CatalogSpec, type ItemKey } from '../dynamo/keys.js';
import { conflict, notFound, unavailable } from '../errors.js';
import { validateId } from '../connections/args.js';
import { counterOrCheck, DELETING_ATTR } from './conditions.js';
import { findInverted, isConditionFailed } from './create.js';
import { anyLeft, forEachLimit, pages } from './fanOut.js';
import { sleep } from '../dynamo/backoff.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, optionsOf, planOf, readsOf, type Store } from './store.js';
import { retryConflicts, tryTransact, type TransactionCancelled, type TransactItem } from './transact.js';
import { countedMoves, transactWithCounts, type CountMove } from './counts.js';
import { catalogCounterChange } from './catalog.js';
import { writePlanOf, type EdgeSide, type TypeWrites } from './writePlan.js';
import { deleteChild, keyValuesOf, locate } from './child.js';
import { checkMatch as checkMatchOf, removeAlone, type Match } from './remove.js';

const MAX_PASSES = 4;

/**
 * The keys of the items counting a page's edges at their other end: from
 * the edge's keys, or, for a child end, found by its id (one GSI1 Query per
 * distinct id; null when it is gone, its count with it).
 */
async function otherKeysOf(store: Store, group: EdgeSide, page: readonly Item[]): Promise<(ItemKey | null)[]> {
  const child = group.otherChild;
  if (child === null) return page.map(group.otherKey);
  const found = new Map<string, Promise<ItemKey | null>>();
  const keyOf = (id: string) => {
    let key = found.get(id);
    if (!key) {
      key = findInverted(store, child.plan.name, id).then((f) => (f === null ? null : child.plan.key(id, f.parentId)));
      found.set(id, key);
    }
    return key;
  };
  return Promise.all(page.map((edge) => keyOf(child.id(edge))));
}

export interface Side {
  /** What writes of its type do (the counts its references keep, among them). */
  t: TypeWrites;
  /** The GSI2 catalog the entity is listed in (null: none), and its id. */
  catalog: CatalogSpec | null;
  id: string;
  what: string;
  key: ItemKey;
  /** The entity's own counters (removed by the mark). */
  ownCounters: readonly string[];
  /** Its edges and children, each set with the counter at the other end. */
  groups: readonly EdgeSide[];
  /** Items apart from the entity that hold its count (a sharded parent's counter shards). */
  counterItems: (entity: Item | null) => ItemKey[];
}

/** The item `id` of `typeName` as a delete sees it: its keys, counters, edges and children. */
export function sideOf(store: Store, typeName: string, id: string, fields?: Readonly<Record<string, unknown>>, parentId?: string): Side {
  const t = writePlanOf(planOf(store)).type(typeName);
  const key = t.item.key(id, parentId, fields);
  const sharding = t.sharding;
  return {
    t,
    catalog: t.catalog?.spec ?? null,
    id,
    what: `${typeName} ${id}`,
    key,
    ownCounters: t.item.counters,
    groups: t.sides,
    counterItems: (item) => (sharding ? sharding.counters(id, sharding.layoutOf(item)).filter((k) => k.PK !== key.PK || k.SK !== key.SK) : []),
  };
}

/** Every collection of the entity's edges and children, as its stored item (null when absent) lays them out. */
const collectionsOf = (side: Side, entity: Item | null): { group: EdgeSide; collection: Collection }[] =>
  side.groups.flatMap((group) => group.collections(side.id, entity).map((collection) => ({ group, collection })));

/**
 * Deletes the item `id` of `typeName` with all its edges and children; returns its id.
 * A child type's item (under `parent.id`, or found by its id when inverted) goes with its parent's counter (child.ts).
 */
export async function deleteItem(
  store: Store,
  typeName: string,
  id: string,
  parent: { id: unknown; argument: string | null; fields?: Readonly<Record<string, unknown>> } = { id: undefined, argument: null },
  match: readonly Match[] = [],
): Promise<string> {
  const t = writePlanOf(planOf(store)).type(typeName);
  if (t.item.type.parent) {
    const located = await locate(store, t, id, parent.id, parent.argument, parent.fields);
    if (t.sides.length > 0) {
      // A child with children of its own: marked (no child is added behind the delete), emptied, then deleted with its parent's counter.
      const side = sideOf(store, typeName, t.item.checkId(id), parent.fields, located.parentId);
      if (await markDeleting(store, side)) await finishCascade(store, side, false);
    }
    return deleteChild(store, t, t.item.checkId(id), located, parent.fields);
  }
  t.item.checkId(id);
  if (t.alone) {
    // Nothing goes with it: one DeleteItem (one transaction with the counts of its references).
    const located = { key: t.item.key(id, undefined, parent.fields), parentId: undefined };
    await removeAlone(store, { t, id, key: located.key, keyValues: keyValuesOf(t, id, located, parent.fields), match });
    return id;
  }
  await cascade(store, sideOf(store, typeName, id, parent.fields), match);
  return id;
}

const checkMatch = (side: Side, entity: Item, match: readonly Match[]) => checkMatchOf(side.what, entity, match);

async function cascade(store: Store, side: Side, match: readonly Match[] = []): Promise<void> {
  // An item with no edges or children has nothing to fan out: the stream processor does not follow its type, so it goes now.
  const viaStream = store.fanOut === 'stream' && side.groups.length > 0;
  // A delete that names values the entity must hold reads it first (and marks it only while it holds them).
  const read = !viaStream || match.length > 0 ? await getItem(store, side.key) : null;
  if (read !== null && match.length > 0) checkMatch(side, read, match);
  if (viaStream) {
    if (await markDeleting(store, side, match)) return;
    // Not marked though it was read holding the values: changed since, so its children and edges stay.
    if (match.length > 0 && read !== null) {
      const now = await getItem(store, side.key);
      if (now !== null) {
        checkMatch(side, now, match);
        throw conflict(`${side.what} changed while being deleted: try again`);
      }
    }
    // Nothing to mark: only edges an absent entity left behind remain to clean up, here and now.
    if (
      !(await anyLeftIn(
        store,
        side.groups.flatMap((g) => g.collections(side.id, null)),
      ))
    )
      throw notFound(`${side.what} not found`);
    await finishCascade(store, side, false);
    return;
  }
  const entity = read;
  if (
    entity === null &&
    !(await anyLeftIn(
      store,
      side.groups.flatMap((g) => g.collections(side.id, null)),
    ))
  )
    throw notFound(`${side.what} not found`);
  if (entity !== null && entity[DELETING_ATTR] === undefined && !(await markDeleting(store, side, match)) && match.length > 0) {
    // Changed (or deleted) between the read and the mark: the values are checked again.
    const now = await getItem(store, side.key);
    if (now === null) throw notFound(`${side.what} not found`);
    checkMatch(side, now, match);
  }
  await finishCascade(store, side, entity !== null, { entity });
}

async function anyLeftIn(store: Store, collections: readonly Collection[]): Promise<boolean> {
  for (const collection of collections) if (await anyLeft(store, collection)) return true;
  return false;
}

/**
 * Steps 2 and 3: every edge with the other side's counter, then the entity
 * (only while it carries the mark, and only when `entityExisted`: a fresh
 * entity created under the same id while orphaned edges were being cleaned
 * up is not ours to delete). Safe to repeat; the stream processor runs it
 * with `onlyMarked`, since its record may be old: it acts only on an entity
 * that is still marked (absent: the cascade already finished; unmarked: a
 * new entity was created under the same id since).
 * Returns the number of edges this call removed.
 */
export async function finishCascade(
  store: Store,
  side: Side,
  entityExisted: boolean,
  { onlyMarked = false, entity = null }: { onlyMarked?: boolean; entity?: Item | null } = {},
): Promise<number> {
  if (onlyMarked) {
    entity = await getItem(store, side.key);
    if (entity === null || entity[DELETING_ATTR] === undefined) return 0;
  }
  const sets = collectionsOf(side, entity);
  const collections = sets.map((s) => s.collection);
  const { pageSize, concurrency } = optionsOf(store);
  let removed = 0;
  for (let pass = 1; ; pass++) {
    for (const { group, collection } of sets) {
      for await (const page of pages(store, collection, pageSize)) {
        // The other ends' counters, read together (children have none: nothing to read).
        const otherKeys = group.otherCounter === null ? page.map(() => null) : await otherKeysOf(store, group, page);
        const found = otherKeys.filter((k): k is ItemKey => k !== null);
        const read = found.length === 0 ? [] : await batchGet(readsOf(store), store.tableName, store.plan.keys, found, { consistentRead: true });
        const others = otherKeys.map((k) => (k === null ? null : read.shift()!));
        await forEachLimit(
          page.map((edge, i) => ({ edge, other: others[i], otherKey: otherKeys[i] })),
          concurrency,
          async ({ edge, other, otherKey }) => {
            if (await removeEdge(store, group, edge, other ?? null, otherKey ?? null)) removed++;
          },
        );
      }
    }
    if (!(await anyLeftIn(store, collections))) break;
    // Only a lagging GSI1 (an inverse side, real DynamoDB) can show edges here: give it a moment, then look again.
    if (pass >= MAX_PASSES) throw unavailable(`${side.what} still lists edges; try the delete again`);
    await sleep(100 * pass);
  }
  if (!entityExisted) return removed;
  // A sharded parent's counter items (all at 0 now that its edges are gone) go before the parent item.
  for (const key of side.counterItems(entity)) {
    await retryConflicts(store, () => store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: store.plan.keys.key(key) })));
  }
  await deleteMarked(store, side, entity);
  return removed;
}

/**
 * Deletes the marked entity; when it is in the GSI2 catalog (has GSI2PK)
 * its catalog shard's counter is decremented in the same transaction
 * (writes/catalog.ts). The condition pins whether it is indexed, so an
 * entity indexed meanwhile (by `npm run migrate`) is read again rather than
 * deleted uncounted. The first round uses the entity as already read, or,
 * when none was read, assumes it is indexed (every entity is once
 * migrated): a wrong guess fails the condition and the entity is read.
 */
async function deleteMarked(store: Store, side: Side, seen: Item | null): Promise<void> {
  let entity: Item | null = seen;
  // Its counted references' counts go with it: their ids are the entity's own.
  if (side.t.counted.length > 0 && entity === null) {
    entity = await getItem(store, side.key);
    if (entity === null || entity[DELETING_ATTR] === undefined) return;
  }
  await untilFresh(store, async (round) => {
    if (round > 1) {
      entity = await getItem(store, side.key);
      // Already deleted by a concurrent cascade, or a new entity under the same id: not ours.
      if (entity === null || entity[DELETING_ATTR] === undefined) return;
    }
    const catalog = side.catalog;
    const indexed = catalog === null ? false : entity === null ? true : typeof entity.GSI2PK === 'string';
    const moves = entity === null ? [] : countedMoves(side.t.counted, side.t.item.map(entity), -1, false);
    const cancelled = await tryTransactWithCounts(store, moves, [
      {
        Delete: {
          TableName: store.tableName,
          Key: store.plan.keys.key(side.key),
          ...(catalog === null
            ? { ConditionExpression: 'attribute_exists(#deleting)', ExpressionAttributeNames: { '#deleting': DELETING_ATTR } }
            : {
                ConditionExpression: `attribute_exists(#deleting) AND ${indexed ? 'attribute_exists' : 'attribute_not_exists'}(#gsi2pk)`,
                ExpressionAttributeNames: { '#deleting': DELETING_ATTR, '#gsi2pk': 'GSI2PK' },
              }),
        },
      },
      ...(catalog !== null && indexed ? [catalogCounterChange(store.tableName, store.plan.keys, catalog, side.id, -1)] : []),
    ]);
    if (cancelled === null) return;
    if (cancelled.failed(0)) return READ_AGAIN;
    throw cancelled;
  });
}

/**
 * `own` with the counts of `moves` (counts.ts), the cancellation of `own`
 * returned instead of thrown (null: committed); with no moves, one
 * transaction of `own`, as tryTransact sends it.
 */
async function tryTransactWithCounts(store: Store, moves: readonly CountMove[], own: TransactItem[]): Promise<TransactionCancelled | null> {
  if (moves.length === 0) return tryTransact(store, own);
  let ownCancelled: TransactionCancelled | null = null;
  try {
    await transactWithCounts(store, own, moves, (cancelled) => {
      if (own.some((_, i) => cancelled.failed(i))) throw (ownCancelled = cancelled);
    });
  } catch (err) {
    if (err !== ownCancelled || ownCancelled === null) throw err;
  }
  return ownCancelled;
}

const counterName = (counters: readonly string[], i: number) => (counters.length === 1 ? '#counter' : `#counter${i}`);
const removal = (counters: readonly string[]) => (counters.length === 0 ? '' : ` REMOVE ${counters.map((_, i) => counterName(counters, i)).join(', ')}`);
const counterNames = (counters: readonly string[]) => Object.fromEntries(counters.map((c, i) => [counterName(counters, i), c]));

/** Step 1. True when the entity exists (now marked); false when it is absent. */
async function markDeleting(store: Store, side: Side, match: readonly Match[] = []): Promise<boolean> {
  const names = Object.fromEntries(match.map((m, i) => [`#m${i}`, m.name]));
  const values = Object.fromEntries(match.map((m, i) => [`:m${i}`, m.value]));
  try {
    await retryConflicts(store, () =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: store.plan.keys.key(side.key),
          // A second delete of a marked entity keeps the first mark (its time says since when it is pending).
          UpdateExpression: `SET #deleting = if_not_exists(#deleting, :now)${removal(side.ownCounters)}`,
          ConditionExpression: ['attribute_exists(#pk)', ...match.map((_, i) => `#m${i} = :m${i}`)].join(' AND '),
          ExpressionAttributeNames: { '#pk': store.plan.keys.pk, '#deleting': DELETING_ATTR, ...counterNames(side.ownCounters), ...names },
          ExpressionAttributeValues: { ':now': new Date().toISOString(), ...values },
        }),
      ),
    );
    return true;
  } catch (err) {
    // Absent, or deleted by a concurrent cascade of the same entity: its edges are still cleaned up.
    if (!isConditionFailed(err)) throw err;
    return false;
  }
}

/**
 * Deletes one edge with the other side's counter decrement; re-reads the
 * other side when it changed. False when the edge was already gone.
 */
async function removeEdge(store: Store, side: EdgeSide, edge: Item, other: Item | null, otherKey: ItemKey | null): Promise<boolean> {
  const keys = store.plan.keys;
  // A mirrored pair's other item goes in the same transaction (unconditionally: the edge's own condition decides).
  const mirrorKey = side.mirrorKey(edge);
  const mirror = mirrorKey ? [{ Delete: { TableName: store.tableName, Key: keys.key(mirrorKey) } }] : [];
  if (side.otherCounter === null || otherKey === null) {
    // A child (or an edge whose other end keeps no count, or a child end no longer found): the item alone, and an inverted child's id claim (child.ts).
    const isChild = side.relation.relation.kind === 'children';
    const child = isChild && side.relation.node.type.inverted ? side.relation.node.ids(edge) : null;
    const claim = child ? idClaimKey(side.relation.node.type.sk.prefix, side.relation.node.type.sk.cased(child.id)) : null;
    const childWrites = isChild ? writePlanOf(planOf(store)).type(side.relation.node.name) : null;
    if (childWrites && childWrites.sides.length > 0) {
      // A child with children of its own goes as any cascade: marked, emptied, deleted (its own parent is going: no counter).
      const ids = side.relation.node.ids(edge);
      if (ids === null) return false;
      const childSide = sideOf(store, side.relation.node.name, ids.id, undefined, ids.parentId ?? undefined);
      if (!(await markDeleting(store, childSide))) return false;
      await finishCascade(store, childSide, true);
      if (claim) await retryConflicts(store, () => store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: keys.key(claim) })));
      return true;
    }
    // A child's counted references lose it from their counts in the same transaction.
    const moves = childWrites ? countedMoves(childWrites.counted, childWrites.item.map(edge), -1, false) : [];
    const cancelled = await tryTransactWithCounts(store, moves, [
      { Delete: { TableName: store.tableName, Key: keys.itemKey(edge), ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: keys.pkName } },
      ...(claim ? [{ Delete: { TableName: store.tableName, Key: keys.key(claim) } }] : []),
      ...mirror,
    ]);
    return cancelled === null;
  }
  return untilFresh<boolean>(store, async (round) => {
    // The first round uses the other side as the page's BatchGet read it.
    if (round > 1) other = await getItem(store, otherKey);
    const cancelled = await tryTransact(store, [
      {
        Delete: {
          TableName: store.tableName,
          Key: keys.itemKey(edge),
          ConditionExpression: 'attribute_exists(#pk)',
          ExpressionAttributeNames: keys.pkName,
        },
      },
      counterOrCheck(store.tableName, keys, { key: otherKey, seen: other, counter: side.otherCounter, delta: -1 }),
      ...mirror,
    ]);
    if (cancelled === null) return true;
    if (cancelled.failed(1)) return READ_AGAIN;
    if (cancelled.failed(0)) return false; // already deleted by a concurrent unlink or cascade
    throw cancelled;
  });
}
