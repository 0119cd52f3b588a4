/**
 * Bringing edge copies up to date, off the request path.
 *
 * `propagate(store, type, id)` reads the item (consistently) and writes
 * its current value and version into every edge whose copy is older. It
 * always works from the entity as it is now, not from the record that
 * triggered it, so a replayed or out-of-order record does the latest
 * rename's work (or none). Each edge write is conditional:
 *   attribute_exists(<pk>)                    an edge deleted meanwhile is not resurrected
 *   AND (copyVersion absent OR < v            a newer copy is never overwritten
 *        OR (copyVersion = v AND copy <> value))
 * so concurrent processors, replays and racing renames all converge on the
 * highest version, which is the last rename. An entity being deleted is
 * left alone: the cascade removes its edges (a delete wins).
 *
 * When every edge is current, `propagatingSince` is removed from the
 * entity, only if its version is still the one propagated (a newer rename
 * keeps the mark until its own record is processed).
 *
 * `refreshEdges(store, edges)` does the same for new edges (INSERT records):
 * an edge written from an entity read just before a rename can still carry
 * the old copy (on real DynamoDB the inverse side's GSI1 may not show it yet
 * to the rename's pass); its own record brings it up to date.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import type { ItemKey, TableKeys } from '../dynamo/keys.js';
import { DELETING_ATTR, PROPAGATING_ATTR } from '../writes/conditions.js';
import { findInverted, isConditionFailed } from '../writes/create.js';
import { forEachLimit, pages } from '../writes/fanOut.js';
import { getItem, optionsOf, planOf, readsOf, type Store } from '../writes/store.js';
import { retryConflicts } from '../writes/transact.js';
import { copyCollections, versionAttr, writePlanOf, type CopySource, type EdgeCopy, type EdgePair } from '../writes/writePlan.js';

/** What a copy names: the item's field and version, the edge's copy and version. */
export type CopiedField = Pick<CopySource, 'field' | 'versionAttr' | 'copyAttr' | 'copyVersionAttr'>;

/** A record the handler cannot process however often it is retried. */
export class PoisonRecord extends Error {
  override name = 'PoisonRecord';
}

/** The version an item holds in `attr` (absent = 0); NaN when it is not a number (a foreign or broken writer). */
export function versionOf(item: Record<string, unknown>, attr: string): number {
  const v = item[attr];
  if (v === undefined) return 0;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : Number.NaN;
}

/** Does this edge's copy need the item's `value` at `version`? (The same rule as the conditional write.) */
export function copyIsStale(edge: Record<string, unknown>, field: CopiedField, value: string, version: number): boolean {
  const have = versionOf(edge, field.copyVersionAttr);
  if (Number.isNaN(have)) return true;
  return have < version || (have === version && edge[field.copyAttr] !== value);
}

/** The item's copied value and its version, or null when there is nothing to propagate. */
export function source(entity: Item, field: CopiedField, keys: TableKeys): { value: string; version: number } | null {
  const value = entity[field.field];
  const version = versionOf(entity, field.versionAttr);
  if (Number.isNaN(version)) {
    throw new PoisonRecord(`${entity[keys.pk]} has a ${field.versionAttr} that is not a non-negative integer: ${JSON.stringify(entity[field.versionAttr])}`);
  }
  return typeof value === 'string' ? { value, version } : null;
}

/**
 * The conditional UpdateItem that gives one edge the item's `value` at
 * `version`, unless the edge is gone or already holds a newer copy. Also
 * what `npm run migrate` writes onto edges that lack a copy.
 */
export function copyUpdate(tableName: string, keys: TableKeys, edge: Item, field: CopiedField, value: string, version: number) {
  return {
    TableName: tableName,
    Key: keys.itemKey(edge),
    UpdateExpression: 'SET #c = :value, #cv = :v',
    ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(#cv) OR #cv < :v OR (#cv = :v AND #c <> :value))',
    ExpressionAttributeNames: { '#pk': keys.pk, '#c': field.copyAttr, '#cv': field.copyVersionAttr },
    ExpressionAttributeValues: { ':value': value, ':v': version },
  };
}

/** Writes the copy on one edge if it is older; false when the condition said no (gone or newer). */
async function writeCopy(store: Store, edge: Item, field: CopiedField, value: string, version: number): Promise<boolean> {
  try {
    await retryConflicts(store, () => store.doc.send(new UpdateCommand(copyUpdate(store.tableName, store.plan.keys, edge, field, value, version))));
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

export interface PropagateResult {
  /** Edges whose copy this call wrote. */
  written: number;
  /** Why nothing was propagated, if so. */
  skipped?: 'absent' | 'deleting' | 'no value';
}

/**
 * Brings every copy of the item `id` of `typeName` to its current values.
 * `at` is the item's key; without it the key is made from the id, which
 * only a type keyed by its id alone allows (a child's key holds its
 * parent's id, a type keyed by several values their values).
 */
export async function propagate(store: Store, typeName: string, id: string, at?: ItemKey): Promise<PropagateResult> {
  const t = writePlanOf(planOf(store)).type(typeName);
  const key = at ?? t.item.key(id);
  const entity = await getItem(store, key);
  if (entity === null) return { written: 0, skipped: 'absent' };
  if (entity[DELETING_ATTR] !== undefined) return { written: 0, skipped: 'deleting' };
  const sources = t.copies.flatMap((copy) => {
    const from = source(entity, copy, store.plan.keys);
    return from === null ? [] : [{ copy, from }];
  });
  if (sources.length === 0) return { written: 0, skipped: 'no value' };

  const { pageSize, concurrency } = optionsOf(store);
  let written = 0;
  for (const { copy, from } of sources) {
    for (const edges of copyCollections(t, copy, id, entity)) {
      for await (const page of pages(store, edges, pageSize)) {
        const stale = page.filter((edge) => copyIsStale(edge, copy, from.value, from.version));
        await forEachLimit(stale, concurrency, async (edge) => {
          if (await writeCopy(store, edge, copy, from.value, from.version)) written++;
        });
      }
    }
  }
  if (entity[PROPAGATING_ATTR] !== undefined)
    await unmark(
      store,
      key,
      sources.map((s) => ({ attr: s.copy.versionAttr, version: s.from.version })),
    );
  return { written };
}

/** Removes `propagatingSince`, only while every version is still the one propagated. */
async function unmark(store: Store, key: ItemKey, versions: { attr: string; version: number }[]): Promise<void> {
  const names: Record<string, string> = { '#p': PROPAGATING_ATTR };
  const values: Record<string, unknown> = {};
  const single = versions.length === 1;
  const conditions = versions.map(({ attr, version }, i) => {
    const [n, v] = single ? ['#v', ':v'] : [`#v${i}`, `:v${i}`];
    names[n] = attr;
    if (version === 0) return `attribute_not_exists(${n})`;
    values[v] = version;
    return `${n} = ${v}`;
  });
  // With only absent versions, the item must still exist.
  const allAbsent = versions.every((v) => v.version === 0);
  try {
    await retryConflicts(store, () =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: store.plan.keys.key(key),
          UpdateExpression: 'REMOVE #p',
          ConditionExpression: (allAbsent ? ['attribute_exists(#pk)', ...conditions] : conditions).join(' AND '),
          ExpressionAttributeNames: allAbsent ? { ...names, '#pk': store.plan.keys.pk } : names,
          ...(Object.keys(values).length === 0 ? {} : { ExpressionAttributeValues: values }),
        }),
      ),
    );
  } catch (err) {
    if (!isConditionFailed(err)) throw err; // renamed again (its own record finishes) or deleted meanwhile
  }
}

/**
 * New edges: each copy is compared with its item (all items of the batch
 * in one consistent BatchGet) and brought up to date when older. Returns
 * the number of copies written.
 */
export async function refreshEdges(store: Store, edges: Item[]): Promise<number> {
  if (edges.length === 0) return 0;
  const { pairs } = writePlanOf(planOf(store));
  // A child end's key needs its parent's id: found by its id (null when gone: nothing to refresh from).
  const keyOf = async (end: EdgePair['owner'], id: string): Promise<ItemKey | null> => {
    if (!end.type.parent) return end.key(id);
    const found = await findInverted(store, end.name, id);
    return found === null ? null : end.key(id, found.parentId);
  };
  const located = await Promise.all(
    edges.map(async (edge) => {
      for (const pair of pairs) {
        const ends = pair.ends(edge);
        if (ends === null) continue;
        const { ownerId, nodeId } = ends;
        const copies = async (list: EdgePairCopies, end: EdgePair['owner'], id: string) => {
          if (list.length === 0) return [];
          const key = await keyOf(end, id);
          return key === null
            ? []
            : list.map((c) => ({
                edge,
                key,
                field: { field: c.from, versionAttr: versionAttr(c.from), copyAttr: c.attribute, copyVersionAttr: versionAttr(c.attribute) },
              }));
        };
        return [...(await copies(pair.ownerCopies, pair.owner, ownerId)), ...(await copies(pair.nodeCopies, pair.node, nodeId))];
      }
      return [];
    }),
  );
  const sides = located.flat();
  if (sides.length === 0) return 0;
  const entities = await batchGet(
    readsOf(store),
    store.tableName,
    store.plan.keys,
    sides.map((s) => s.key),
    { consistentRead: true },
  );
  let written = 0;
  const { concurrency } = optionsOf(store);
  await forEachLimit(
    sides.map((s, i) => ({ ...s, entity: entities[i] })),
    concurrency,
    async ({ edge, field, entity }) => {
      if (entity === null || entity[DELETING_ATTR] !== undefined) return;
      const from = source(entity, field, store.plan.keys);
      if (from === null || !copyIsStale(edge, field, from.value, from.version)) return;
      if (await writeCopy(store, edge, field, from.value, from.version)) written++;
    },
  );
  return written;
}

type EdgePairCopies = readonly EdgeCopy[];
