/**
 * What the model derives from *other* items than the one scanned, and how
 * migrate.ts (and check.ts's repair) add it where it is missing:
 * - edge-copy: the stream processor's conditional copy write
 *   (stream/propagate.ts), so a newer copy is never replaced by an older
 *   one and a deleted edge is not brought back; a child end is found by
 *   its id first (childEnds.ts);
 * - edge-shards: the copy of a sharded parent's shard count, conditioned on
 *   the parent still having it and no reshard under way;
 * - counter: a paged `Select: COUNT` of the collection, under a counting
 *   mark (`countingSince`) set first: writers that would move an absent
 *   counter of a marked item fail and read again, so nothing changes the
 *   collection while it is counted. A mark older than COUNTING_LEASE_MS is
 *   ignored and replaced; so is a mark of the same owner (`countingBy`:
 *   the run's id and a nonce), whatever its age: a run resumed after a
 *   kill takes over the marks its dead process left, instead of skipping
 *   their items until the lease ends. The count is written only while the
 *   mark is still exactly the one this process set, so taking over a live
 *   process's mark costs it its count, never a wrong one. GSI1
 *   collections are counted after `indexSettleMs` (docs/model.md has the
 *   race in full).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { countCollection, type Collection } from '../dynamo/collection.js';
import { isBookkeeping, itemKeyString, type ItemKey, type TableKeys } from '../dynamo/keys.js';
import { capacityUnits } from '../dynamo/metrics.js';
import { sleep } from '../dynamo/backoff.js';
import { sdkReads } from '../dynamo/readPort.js';
import type { Plan } from '../plan/plan.js';
import { isMoving, RESHARD_FROM_ATTR, RESHARD_TO_ATTR, type Sharding } from '../plan/sharding.js';
import { COUNTING_ATTR, COUNTING_LEASE_MS, DELETING_ATTR, notCounting, unchanged } from '../writes/conditions.js';
import { isConditionFailed } from '../writes/create.js';
import { forEachLimit } from '../writes/fanOut.js';
import { tryTransact } from '../writes/transact.js';
import { versionAttr, writePlanOf, type EdgeCopy } from '../writes/writePlan.js';
import { copyIsStale, copyUpdate, source, type CopiedField } from '../stream/propagate.js';
import { locateSources, sourceAt, type ChildEndReads, type SourceAt } from './childEnds.js';
import type { RateLimiter } from './rateLimiter.js';
import { GSI1_PK } from '../declaration/layout.js';

/** Who set a counting mark: `<owner>#<nonce>` (the owner a run's id, the nonce one process's). */
export const COUNTING_BY_ATTR = 'countingBy';

export const RELATION_FIX_KINDS = ['edge-copy', 'edge-shards', 'counter'] as const;
export type RelationFixKind = (typeof RELATION_FIX_KINDS)[number];

/** An edge lacking copies (each with the item it copies, or the child end to find it by) or its parent's shard-count copy. */
export interface EdgeNeed {
  kind: 'edge';
  edge: Item;
  copies: ({ field: CopiedField } & SourceAt)[];
  shards: { sharding: Sharding; parentId: string; memberId: string; parentKey: ItemKey } | null;
}

/** An item lacking counters, each with the collection it counts. */
export interface CounterNeed {
  kind: 'counters';
  item: Item;
  counts: { counter: string; collection: Collection }[];
}

export type RelationNeed = EdgeNeed | CounterNeed;

/** A declared copy (`copy: [{ field, attribute }]`, `from`: the copied field's stored name) with its version attributes. */
export const copyField = (c: EdgeCopy): CopiedField => ({
  field: c.from,
  versionAttr: versionAttr(c.from),
  copyAttr: c.attribute,
  copyVersionAttr: versionAttr(c.attribute),
});

/**
 * The counters of `item` (of type `typeName`, id `id`), each with the
 * collection it counts: a relation's collection is named by its owner's id
 * alone, a child type's too (the model requires a child with relations to
 * be found by its id). A write-sharded side only while its edges sit in the
 * one unsharded partition. Migrate fills the absent ones; check compares all.
 */
export function countersOf(plan: Plan, typeName: string, item: Item, id: string): { counter: string; collection: Collection }[] {
  const counts: { counter: string; collection: Collection }[] = [];
  for (const r of plan.relationsOf.get(typeName) ?? []) {
    if (r.counter === null) continue;
    if (r.sharded !== null) {
      const layout = plan.sharding(r).layoutOf(item);
      if (layout.shards > 1 || isMoving(layout) || item[RESHARD_TO_ATTR] !== undefined) continue;
    }
    counts.push({ counter: r.counter, collection: r.collection(id) });
  }
  return counts;
}

/** The relation fixes a scanned item may need (decided from the item alone; the fix reads the rest). */
export function compileRelationFix(plan: Plan): (item: Item) => RelationNeed | null {
  const writes = writePlanOf(plan);
  const types = [...plan.items.values()];
  const { pk, sk } = plan.keys;
  return (item) => {
    if (isBookkeeping(item[pk]) || item[DELETING_ATTR] !== undefined) return null;
    for (const type of types) {
      const ids = type.ids(item);
      if (!ids) continue;
      const counts = countersOf(plan, type.name, item, ids.id).filter((c) => typeof item[c.counter] !== 'number');
      return counts.length > 0 ? { kind: 'counters', item, counts } : null;
    }
    for (const pair of writes.pairs) {
      const ends = pair.ends(item);
      if (ends === null) continue;
      const { ownerId, nodeId } = ends;
      const copies = [
        ...pair.nodeCopies.map((c) => ({ field: copyField(c), ...sourceAt(pair.node, nodeId) })),
        ...pair.ownerCopies.map((c) => ({ field: copyField(c), ...sourceAt(pair.owner, ownerId) })),
      ].filter((c) => typeof item[c.field.copyAttr] !== 'string');
      const s = pair.sharding;
      const shards =
        s?.copy && item[s.copy] === undefined ? { sharding: s, parentId: nodeId, memberId: ownerId, parentKey: pair.node.key(nodeId) } : null;
      return copies.length > 0 || shards ? { kind: 'edge', edge: item, copies, shards } : null;
    }
    return null;
  };
}

/** The client, table, plan and concurrency, and `paced` for the reads that find child ends (childEnds.ts). */
export interface RelationFixContext extends ChildEndReads {
  /** The table's key attributes (the model's @table). */
  keys: TableKeys;
  dryRun: boolean;
  /** Paces the writes. */
  limiter: RateLimiter;
  /** Time GSI1 gets to show writes committed before a counting mark. */
  indexSettleMs: number;
  /**
   * Whose counting marks these are: the run's id (migrate's, recorded on
   * the layout record; a check's, in its state file), so that the same
   * run resumed takes over the marks it left. No `#`.
   */
  owner: string;
  /** This process's nonce within the owner's marks (default: random). */
  nonce?: string;
  /** One fix of `kind` written (or, in a dry run, found). */
  fixed(kind: RelationFixKind): void;
  /** An item that changed under the fix; the next run decides it again. */
  skipped(): void;
  /** Write units consumed. */
  consumed(units: number): void;
}

/** Applies the needs of one scanned page: edges first (child ends found, then one consistent BatchGet of the sources), then counters. */
export async function applyRelationFixes(ctx: RelationFixContext, needs: readonly RelationNeed[]): Promise<void> {
  const edges = needs.filter((n): n is EdgeNeed => n.kind === 'edge');
  const counters = needs.filter((n): n is CounterNeed => n.kind === 'counters');
  if (edges.length > 0) await fixEdges(ctx, edges);
  if (counters.length > 0) await fixCounters(ctx, counters);
}

/**
 * One conditional UpdateItem within the rate limit, its consumed capacity
 * counted (the estimate when DynamoDB reports none): false when its
 * condition failed (the item changed meanwhile: nothing to do).
 */
async function updateIf(ctx: RelationFixContext, estimate: number, input: UpdateCommandInput): Promise<boolean> {
  await ctx.limiter.take(estimate);
  let actual = estimate;
  try {
    const out = await ctx.doc.send(new UpdateCommand({ ...input, ReturnConsumedCapacity: 'TOTAL' }));
    actual = capacityUnits(out.ConsumedCapacity) || estimate;
    return true;
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    return false;
  } finally {
    ctx.limiter.settle(estimate, actual);
    ctx.consumed(actual);
  }
}

async function fixEdges(ctx: RelationFixContext, needs: readonly EdgeNeed[]): Promise<void> {
  const copiesOf = new Map<EdgeNeed, { field: CopiedField; from: ItemKey }[]>(needs.map((n) => [n, []]));
  for (const { need, field, from } of await locateSources(ctx, needs.flatMap((need) => need.copies.map((c) => ({ need, ...c }))))) {
    copiesOf.get(need)!.push({ field, from });
  }
  const keys = needs.flatMap((n) => [...copiesOf.get(n)!.map((c) => c.from), ...(n.shards ? [n.shards.parentKey] : [])]);
  const read = await batchGet(sdkReads(ctx.doc), ctx.tableName, ctx.keys, keys, { consistentRead: true });
  const found = new Map<string, Item | null>(keys.map((k, i) => [itemKeyString(k), read[i]]));
  const itemAt = (k: ItemKey) => {
    const item = found.get(itemKeyString(k)) ?? null;
    return item === null || item[DELETING_ATTR] !== undefined ? null : item;
  };
  await forEachLimit(needs, ctx.concurrency, async (need) => {
    const { edge, shards } = need;
    for (const { field, from } of copiesOf.get(need)!) {
      const entity = itemAt(from);
      let value: { value: string; version: number } | null = null;
      try {
        value = entity && source(entity, field, ctx.keys);
      } catch {
        continue; // a version no writer of ours wrote: the stream processor reports it; nothing to copy here
      }
      if (value === null || !copyIsStale(edge, field, value.value, value.version)) continue;
      if (ctx.dryRun) {
        ctx.fixed('edge-copy');
        continue;
      }
      // The edge item and its GSI1 entry; a failed condition: gone, or a newer copy arrived meanwhile.
      if (await updateIf(ctx, 2, copyUpdate(ctx.tableName, ctx.keys, edge, field, value.value, value.version))) ctx.fixed('edge-copy');
    }
    if (shards) await fixShardCopy(ctx, edge, shards, itemAt(shards.parentKey));
  });
}

async function fixShardCopy(ctx: RelationFixContext, edge: Item, need: NonNullable<EdgeNeed['shards']>, parent: Item | null): Promise<void> {
  const { sharding: s, parentId, memberId, parentKey } = need;
  const n = parent === null ? null : s.layoutToCopy(parent);
  // No parent, a reshard under way, or the edge indexed elsewhere than the layout says: a link would copy nothing.
  if (parent === null || n === null || edge[GSI1_PK] !== s.partition(parentId, memberId, n)) return;
  if (ctx.dryRun) {
    ctx.fixed('edge-shards');
    return;
  }
  const count = unchanged(s.count, parent[s.count]);
  // A transaction of two items: twice their units, plus the edge's GSI1 entry (estimated: transactions report none here).
  const estimate = 5;
  await ctx.limiter.take(estimate);
  ctx.consumed(estimate);
  const cancelled = await tryTransact({ doc: ctx.doc, tableName: ctx.tableName }, [
    {
      Update: {
        TableName: ctx.tableName,
        Key: ctx.keys.itemKey(edge),
        UpdateExpression: 'SET #copy = :n',
        ConditionExpression: `attribute_exists(#pk) AND ${GSI1_PK} = :p AND attribute_not_exists(#copy)`,
        ExpressionAttributeNames: { '#pk': ctx.keys.pk, '#copy': s.copy! },
        ExpressionAttributeValues: { ':n': n, ':p': edge[GSI1_PK] },
      },
    },
    {
      ConditionCheck: {
        TableName: ctx.tableName,
        Key: ctx.keys.key(parentKey),
        ConditionExpression: `attribute_exists(#pk) AND attribute_not_exists(#to) AND attribute_not_exists(#from) AND attribute_not_exists(#del) AND ${count.expression}`,
        ExpressionAttributeNames: { '#pk': ctx.keys.pk, '#to': RESHARD_TO_ATTR, '#from': RESHARD_FROM_ATTR, '#del': DELETING_ATTR, ...count.names },
        ...(Object.keys(count.values).length > 0 ? { ExpressionAttributeValues: count.values } : {}),
      },
    },
  ]);
  if (cancelled === null) ctx.fixed('edge-shards');
  else if (cancelled.failed(1)) ctx.skipped(); // the parent changed since it was read (a reshard, a delete): decided again next run
  // failed(0): the edge got its copy meanwhile, moved or went: nothing to do
}

async function fixCounters(ctx: RelationFixContext, needs: readonly CounterNeed[]): Promise<void> {
  if (ctx.dryRun) {
    for (const need of needs) for (const _ of need.counts) ctx.fixed('counter');
    return;
  }
  // 1. Mark every item of the page (writers that would move its absent counters read again from now on).
  const by = `${ctx.owner}#${ctx.nonce ?? randomUUID()}`;
  const marked: { need: CounterNeed; mark: string; at: number }[] = [];
  await forEachLimit(needs, ctx.concurrency, async (need) => {
    const at = Date.now();
    const mark = new Date(at).toISOString();
    const absentCounters = need.counts.map((c, i) => [`#c${i}`, c.counter] as const);
    const live = notCounting(at);
    const ours = await updateIf(ctx, 1, {
      TableName: ctx.tableName,
      Key: ctx.keys.itemKey(need.item),
      UpdateExpression: 'SET #m = :mark, #by = :by',
      ConditionExpression: [
        'attribute_exists(#pk)',
        'attribute_not_exists(#del)',
        // No live mark, or one this run's owner left (a process of it that died while counting).
        `(${live.expression} OR begins_with(#by, :owner))`,
        ...absentCounters.map(([n]) => `attribute_not_exists(${n})`),
      ].join(' AND '),
      ExpressionAttributeNames: { '#pk': ctx.keys.pk, '#m': COUNTING_ATTR, '#by': COUNTING_BY_ATTR, '#del': DELETING_ATTR, ...live.names, ...Object.fromEntries(absentCounters) },
      ExpressionAttributeValues: { ':mark': mark, ':by': by, ':owner': `${ctx.owner}#`, ...live.values },
    });
    if (ours) marked.push({ need, mark, at });
    else ctx.skipped(); // counted meanwhile, being deleted, or marked by another run
  });
  // 2. GSI1 shows what was committed before the marks (DynamoDB's index is eventually consistent).
  if (ctx.indexSettleMs > 0 && marked.some((m) => m.need.counts.some((c) => c.collection.index !== undefined))) await sleep(ctx.indexSettleMs);
  // 3. Count, and write the counts while the mark is still ours.
  await forEachLimit(marked, ctx.concurrency, async ({ need, mark, at }) => {
    const counts: number[] = [];
    for (const c of need.counts) counts.push(await countCollection(sdkReads(ctx.doc), ctx.tableName, c.collection, true));
    const names: Record<string, string> = { '#m': COUNTING_ATTR, '#by': COUNTING_BY_ATTR, '#del': DELETING_ATTR };
    const values: Record<string, unknown> = { ':mark': mark, ':by': by };
    const sets = need.counts.map((c, i) => {
      names[`#c${i}`] = c.counter;
      values[`:n${i}`] = counts[i];
      return `#c${i} = :n${i}`;
    });
    const inTime = Date.now() - at < COUNTING_LEASE_MS / 2;
    const written = await updateIf(ctx, 1, {
      TableName: ctx.tableName,
      Key: ctx.keys.itemKey(need.item),
      // Too slow a count may have let a writer past an expired mark: only the mark goes.
      UpdateExpression: inTime ? `SET ${sets.join(', ')} REMOVE #m, #by` : 'REMOVE #m, #by',
      ConditionExpression: ['#m = :mark', '#by = :by', 'attribute_not_exists(#del)', ...need.counts.map((_, i) => `attribute_not_exists(#c${i})`)].join(' AND '),
      ExpressionAttributeNames: inTime ? names : { '#m': COUNTING_ATTR, '#by': COUNTING_BY_ATTR, '#del': DELETING_ATTR, ...Object.fromEntries(need.counts.map((c, i) => [`#c${i}`, c.counter])) },
      ExpressionAttributeValues: inTime ? values : { ':mark': mark, ':by': by },
    });
    // A failed condition: deleted or marked by another run since, decided again next run.
    if (written && inTime) for (const _ of need.counts) ctx.fixed('counter');
    else ctx.skipped();
  });
}
