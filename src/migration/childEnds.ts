/**
 * Where the source of an edge's copy is. A top-level end's key comes from
 * its id; a child end's key needs its parent's id, which the edge does not
 * hold, so the child is found by its id as the gateway finds it (its GSI1
 * entry: the model requires a child end to be inverted). check.ts and
 * relationFix.ts (migrate, check's repair) both locate through here: one
 * GSI1 Query per distinct child of a page, within the caller's budget.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from '../dynamo/keys.js';
import { sdkReads } from '../dynamo/readPort.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import type { Plan } from '../plan/plan.js';
import { findInvertedIn } from '../writes/create.js';
import { forEachLimit } from '../writes/fanOut.js';

/** A child end of an edge: its type's plan and its id. */
export interface ChildEnd {
  end: ItemPlan;
  id: string;
}

/** A copy's source: its key, or a child end still to be found. */
export type SourceAt = { from: ItemKey } | { child: ChildEnd };

/** An edge's end `end` with id `id` as a copy's source. */
export const sourceAt = (end: ItemPlan, id: string): SourceAt => (end.type.parent ? { child: { end, id } } : { from: end.key(id) });

/** What locating reads with. */
export interface ChildEndReads {
  doc: DynamoDBDocumentClient;
  tableName: string;
  plan: Plan;
  concurrency: number;
  /** One read within the caller's budget; `units` is its estimate. */
  paced<T>(units: number, read: () => Promise<T>): Promise<T>;
}

/** `T` with its source as a key. */
export type Located<T extends SourceAt> = Omit<T, 'from' | 'child'> & { from: ItemKey };

const nameOf = ({ end, id }: ChildEnd) => `${end.name}\u0000${id}`;

/**
 * Each entry with its source's key, in order: child ends found by their
 * ids (one Query per distinct child). A child no longer found drops its
 * entries: its delete settles the copies.
 */
export async function locateSources<T extends SourceAt>(reads: ChildEndReads, entries: readonly T[]): Promise<Located<T>[]> {
  const children = new Map<string, ChildEnd>();
  for (const e of entries) if ('child' in e) children.set(nameOf(e.child), e.child);
  const keys = new Map<string, ItemKey | null>();
  await forEachLimit([...children], reads.concurrency, async ([name, { end, id }]) => {
    const found = await reads.paced(1, () => findInvertedIn(sdkReads(reads.doc), reads.tableName, reads.plan, end.name, id));
    keys.set(name, found === null ? null : end.key(id, found.parentId));
  });
  return entries.flatMap((e) => {
    const { from, child, ...rest } = e as T & { from?: ItemKey; child?: ChildEnd };
    const key = from ?? keys.get(nameOf(child!)) ?? null;
    return key === null ? [] : [{ ...rest, from: key } as unknown as Located<T>];
  });
}
