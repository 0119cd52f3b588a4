/**
 * Marks that say work is under way on an item, and what `npm run check`
 * makes of one whose work stopped (docs/operations.md, "Checking a table"):
 * - `propagatingSince`: a rename the stream processor has not carried to
 *   every copy yet; stale after the check's mark window (MARK_WINDOW_MS by
 *   default). Repaired with the processor's own pass (stream/propagate.ts),
 *   which writes every older copy and removes the mark while the version
 *   is still the one propagated;
 * - `deletingAt`: a delete whose cascade has not finished; stale after the
 *   same window. Repaired with the cascade's own steps (writes/cascade.ts:
 *   what the processor runs for a top-level item, what the request runs
 *   for a child, whose parent's counter goes with it);
 * - `countingSince`: a count by migrate or a repair; stale once older than
 *   its lease (COUNTING_LEASE_MS), when writers ignore it. The counters
 *   the item lacks are counted by the counter repair (relationFix.ts
 *   replaces an expired mark, and removes its own); a mark left after
 *   that is removed while it still holds the value seen.
 * A live mark is the work of a running process: the check leaves its item
 * to it. Repairs go through a store whose client takes every request from
 * the check's read or write budget (pacedDoc).
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey } from '../dynamo/keys.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import { ErrorCode } from '../errors.js';
import { propagate, PoisonRecord } from '../stream/propagate.js';
import { finishCascade, sideOf } from '../writes/cascade.js';
import { deleteChild } from '../writes/child.js';
import { COUNTING_ATTR, COUNTING_LEASE_MS, DELETING_ATTR, PROPAGATING_ATTR } from '../writes/conditions.js';
import { isConditionFailed } from '../writes/create.js';
import type { Store } from '../writes/store.js';
import { writePlanOf } from '../writes/writePlan.js';
import { COUNTING_BY_ATTR } from './relationFix.js';

/** How long a rename or a delete may take before the check calls its mark stale: 15 minutes. */
export const MARK_WINDOW_MS = 15 * 60_000;

export type MarkAttr = typeof PROPAGATING_ATTR | typeof DELETING_ATTR | typeof COUNTING_ATTR;

export interface Mark {
  attr: MarkAttr;
  value: unknown;
  /** Stale: older than its window or lease, or no time at all. */
  stale: boolean;
  /** Its age in ms (NaN when the value is no time). */
  age: number;
}

/** The marks an item carries, each judged against `windowMs` (the counting mark against its lease) at `now`. */
export function marksOf(item: Item, windowMs: number, now: number): Mark[] {
  const marks: Mark[] = [];
  for (const attr of [PROPAGATING_ATTR, DELETING_ATTR, COUNTING_ATTR] as const) {
    const value = item[attr];
    if (value === undefined) continue;
    const age = typeof value === 'string' ? now - Date.parse(value) : Number.NaN;
    const limit = attr === COUNTING_ATTR ? COUNTING_LEASE_MS : windowMs;
    marks.push({ attr, value, stale: !(age <= limit), age });
  }
  return marks;
}

/** Is a live mark of `attr` on `item`: work under way that the check leaves alone? */
export const liveMark = (item: Item, attr: MarkAttr, windowMs: number, now: number): boolean =>
  marksOf(item, windowMs, now).some((m) => m.attr === attr && !m.stale);

/** The detail of a stale mark's finding. */
export function staleMarkDetail(typeName: string, mark: Mark, windowMs: number): string {
  const when = JSON.stringify(mark.value);
  const what = {
    [PROPAGATING_ATTR]: `a rename not yet carried to every copy`,
    [DELETING_ATTR]: `a delete whose cascade has not finished`,
    [COUNTING_ATTR]: `a count that stopped`,
  }[mark.attr];
  if (Number.isNaN(mark.age)) return `${typeName} ${mark.attr} is ${when}, no time: ${what}`;
  const limit = mark.attr === COUNTING_ATTR ? `its lease of ${COUNTING_LEASE_MS / 1000} s` : `the window of ${Math.round(windowMs / 1000)} s`;
  return `${typeName} ${mark.attr} ${when} is older than ${limit}: ${what}`;
}

/** A stale mark to repair: the item as scanned, its type and ids. */
export interface StaleMark {
  item: Item;
  type: ItemPlan;
  id: string;
  parentId: string | null;
  attr: MarkAttr;
}

/**
 * Finishes the work a stale mark stands for, as the process that set it
 * would have; true when the mark is gone. An item whose own values the
 * check flagged (a version that is no number) is left as it is.
 */
export async function repairMark(store: Store, mark: StaleMark): Promise<boolean> {
  const key = store.plan.keys.keyOf(mark.item);
  if (mark.attr === PROPAGATING_ATTR) {
    try {
      await propagate(store, mark.type.name, mark.id, key);
    } catch (err) {
      if (err instanceof PoisonRecord) return false;
      throw err;
    }
    return true;
  }
  if (mark.attr === DELETING_ATTR) return finishDelete(store, mark, key);
  // Run after the page's counter repairs: a count that replaced this mark has removed it already (the condition says so).
  return removeCountingMark(store, key, mark.item[COUNTING_ATTR]);
}

/** The values of the fields an item's key holds, as its key holds them (what `key()` takes back). */
function keyValues(type: ItemPlan, key: ItemKey): Record<string, string> {
  return { ...type.type.pk.match(key.PK), ...type.type.sk.match(key.SK) };
}

async function finishDelete(store: Store, mark: StaleMark, key: ItemKey): Promise<boolean> {
  const t = writePlanOf(store.plan).type(mark.type.name);
  const fields = keyValues(mark.type, key);
  if (mark.parentId === null) {
    await finishCascade(store, sideOf(store, t.item.name, mark.id, fields), true, { onlyMarked: true });
    return true;
  }
  // A child: emptied as its request would, then deleted with its parent's counter.
  if (t.sides.length > 0) await finishCascade(store, sideOf(store, t.item.name, mark.id, fields, mark.parentId), false);
  try {
    await deleteChild(store, t, mark.id, { key, parentId: mark.parentId });
  } catch (err) {
    if ((err as { extensions?: { code?: string } })?.extensions?.code !== ErrorCode.NOT_FOUND) throw err;
  }
  return true;
}

/** Removes a counting mark while it holds the value seen (a count that starts meanwhile keeps its own). */
async function removeCountingMark(store: Store, key: ItemKey, seen: unknown): Promise<boolean> {
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: store.plan.keys.key(key),
        UpdateExpression: 'REMOVE #m, #by',
        ConditionExpression: '#m = :seen',
        ExpressionAttributeNames: { '#m': COUNTING_ATTR, '#by': COUNTING_BY_ATTR },
        ExpressionAttributeValues: { ':seen': seen },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/** Which budget a command's request takes: reads or writes. */
const READS = new Set(['GetCommand', 'QueryCommand', 'BatchGetCommand', 'ScanCommand']);

/**
 * `doc` with every request paced: one unit from `take(kind)` before it is
 * sent (the repairs a stale mark needs are the processor's and the
 * cascade's own code, which send through a store's client).
 */
export function pacedDoc(doc: DynamoDBDocumentClient, take: (kind: 'read' | 'write') => Promise<void>): DynamoDBDocumentClient {
  return new Proxy(doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return async (command: { constructor: { name: string } }, ...rest: unknown[]) => {
        await take(READS.has(command.constructor.name) ? 'read' : 'write');
        return (target.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
}
