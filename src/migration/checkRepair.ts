/**
 * What runCheck (check.ts) repairs with `repair`: stale copies and counters,
 * missing index keys, catalog counters, and the findings it withholds.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../dynamo/backoff.js';
import { type Item } from '../dynamo/batchGet.js';
import { readPage, type Collection } from '../dynamo/collection.js';
import { CATALOG_COUNT_ATTR, catalogShardCounterKey } from '../dynamo/keys.js';
import { sdkReads } from '../dynamo/readPort.js';
import { source } from '../stream/propagate.js';
import { catalogCounterChange, countCatalogShard } from '../writes/catalog.js';
import { COUNTING_ATTR, DELETING_ATTR } from '../writes/conditions.js';
import { transact, TransactionCancelled } from '../writes/transact.js';
import { isConditionFailed } from '../writes/create.js';
import { forEachLimit } from '../writes/fanOut.js';
import { layoutFixUpdate, type LayoutFix } from './layoutFix.js';
import { applyRelationFixes, type RelationFixContext, type RelationNeed } from './relationFix.js';
import { jsonSafe, jsonText } from './foreignValues.js';
import { type FindingKind, SAMPLES, emptyFindings, type KeyRepair, type WrongCounter, emptyPage, type CheckRun, add, reading, writing } from './checkRun.js';
import { childEndReads, inspect } from './checkInspect.js';

/** A wrong counter repair leaves: reported as withheld. */
export function withhold(run: CheckRun, item: Item, detail: string): void {
  const w = run.state.withheld!;
  w.count += 1;
  if (w.samples.length < SAMPLES) w.samples.push({ key: jsonSafe(run.keys.itemKey(item)) as Record<string, unknown>, detail });
}

/** Findings that make an item no evidence for a count: its keys or values are not what the declaration says. */
export const UNTRUSTED: readonly FindingKind[] = ['unmatched', 'keysWithSeparator', 'badValues', 'wrongIndexKeys'];

/**
 * The first item of `collection` this check flags with one of UNTRUSTED
 * (the collection read a page at a time within the read budget, each item
 * inspected on a scratch copy of the run's findings), or null.
 */
export async function flaggedIn(run: CheckRun, collection: Collection): Promise<{ key: Record<string, unknown>; kind: FindingKind } | null> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await reading(run, 1, () => readPage(sdkReads(run.doc), run.tableName, collection, { startKey, consistent: true }));
    for (const item of page.items) {
      const scratch: CheckRun = { ...run, state: { ...run.state, findings: emptyFindings() } };
      inspect(scratch, item, emptyPage());
      const kind = UNTRUSTED.find((k) => scratch.state.findings[k].count > 0);
      if (kind !== undefined) return { key: run.keys.itemKey(item), kind };
    }
    startKey = page.next;
  } while (startKey);
  return null;
}

/** relationFix.ts's context for the repairs of one run. */
export function relationContextOf(run: CheckRun): RelationFixContext {
  return {
    ...childEndReads(run),
    keys: run.keys,
    dryRun: false,
    limiter: run.writes,
    indexSettleMs: run.options.indexSettleMs ?? 1000,
    owner: run.state.owner!,
    fixed: (kind) => {
      if (kind === 'edge-copy') run.state.repaired.copies += 1;
      else if (kind === 'counter') run.state.repaired.counters += 1;
    },
    skipped: () => {},
    consumed: (units) => {
      run.totals.writeUnits += units;
    },
  };
}

/**
 * Repairs a page's copies (relationFix.ts: re-read the source, the
 * stream processor's conditional copy write) and counters: a wrong
 * counter is removed while it still holds the value seen, then counted
 * under migrate's counting mark, so no link made meanwhile is lost.
 */
export async function repairPage(run: CheckRun, copyNeeds: RelationNeed[], wrong: WrongCounter[]): Promise<void> {
  const counterNeeds: RelationNeed[] = [];
  await forEachLimit(wrong, run.concurrency, async ({ item, counter, seen, collection }) => {
    if (seen !== undefined) {
      await writing(run, 1);
      try {
        await run.doc.send(
          new UpdateCommand({
            TableName: run.tableName,
            Key: run.keys.itemKey(item),
            UpdateExpression: 'REMOVE #c',
            ConditionExpression: '#c = :seen AND attribute_not_exists(#del) AND attribute_not_exists(#m)',
            ExpressionAttributeNames: { '#c': counter, '#del': DELETING_ATTR, '#m': COUNTING_ATTR },
            ExpressionAttributeValues: { ':seen': seen },
          }),
        );
      } catch (err) {
        if (isConditionFailed(err)) return; // moved meanwhile: the next check decides again
        throw err;
      }
    }
    counterNeeds.push({ kind: 'counters', item, counts: [{ counter, collection }] });
  });
  await applyRelationFixes(relationContextOf(run), [...copyNeeds, ...counterNeeds]);
}

/** Catalog transactions one at a time: they all move the same few counter items (as in migrate.ts). */
export function inCatalogLane<T>(run: CheckRun, fn: () => Promise<T>): Promise<T> {
  const next = run.catalogLane.then(fn, fn);
  run.catalogLane = next.catch(() => {});
  return next;
}

/**
 * Adds the index keys items lack: migrate's layout fixes (its conditional
 * UpdateItem; a catalog entry in one transaction with its counter) and
 * @indexed written keys (only where still absent). A failed condition:
 * the item changed since the scan; the next run decides it again.
 */
export async function repairKeys(run: CheckRun, repairs: KeyRepair[]): Promise<void> {
  await forEachLimit(repairs, run.concurrency, async (r) => {
    const inCatalog = 'fix' in r && r.fix.kind === 'enter-catalog';
    const attempt = async () => {
      await writing(run, inCatalog ? 6 : 2);
      try {
        if ('fix' in r) await writeLayoutFix(run, r.item, r.fix);
        else await writeAbsentKeys(run, r.item, r.set);
        run.state.repaired.indexKeys += 1;
      } catch (err) {
        if (isConditionFailed(err) || (err instanceof TransactionCancelled && err.failed(0))) return;
        throw err;
      }
    };
    if (inCatalog) await inCatalogLane(run, attempt);
    else await attempt();
  });
}

export async function writeLayoutFix(run: CheckRun, item: Item, fix: LayoutFix): Promise<void> {
  const { doc, tableName, keys } = run;
  const update = layoutFixUpdate(tableName, keys, item, fix);
  if (fix.kind === 'enter-catalog') {
    const { spec, id } = fix;
    await transact({ doc, tableName }, [{ Update: update }, catalogCounterChange(tableName, keys, spec, id, 1)]);
  } else await doc.send(new UpdateCommand(update));
}

/** @indexed written keys, each set only where still absent. */
export async function writeAbsentKeys(run: CheckRun, item: Item, set: Record<string, string>): Promise<void> {
  const names: Record<string, string> = { '#pk': run.keys.pk };
  const values: Record<string, unknown> = {};
  const attrs = Object.entries(set).map(([attr, value], i) => {
    names[`#a${i}`] = attr;
    values[`:v${i}`] = value;
    return i;
  });
  await run.doc.send(
    new UpdateCommand({
      TableName: run.tableName,
      Key: run.keys.itemKey(item),
      UpdateExpression: `SET ${attrs.map((i) => `#a${i} = :v${i}`).join(', ')}`,
      ConditionExpression: ['attribute_exists(#pk)', ...attrs.map((i) => `attribute_not_exists(#a${i})`)].join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Catalog counters (one item per GSI2 shard) against a `Select: COUNT`
 * of their shard's entries. Read, GSI2 given time to show what was
 * committed before the read, counted; a repair is written only while
 * the counter still holds the value read (entries and counter move
 * together in the gateway's transactions, so an unchanged counter means
 * no entry came or went).
 */
export async function checkCatalogCounters(run: CheckRun): Promise<void> {
  const { doc, tableName, keys, plan } = run;
  const settleMs = run.options.indexSettleMs ?? 1000;
  for (const field of plan.catalogs) {
    const { spec } = plan.catalogOf(field.type)!;
    for (let shard = 0; shard < spec.shards; shard++) {
      const key = keys.key(catalogShardCounterKey(spec, shard));
      const counter = await reading(run, 1, async () => (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item);
      const seen = counter?.[CATALOG_COUNT_ATTR];
      if (run.repair && settleMs > 0) await sleep(settleMs);
      const count = await countCatalogShard((input) => reading(run, 1, () => doc.send(new QueryCommand(input))), tableName, spec, shard);
      if ((seen ?? 0) === count) continue;
      add(run, 'wrongCounters', key, `${CATALOG_COUNT_ATTR} is ${jsonText(seen ?? null)}, ${field.field} shard ${shard} holds ${count} entries`);
      if (run.repair) await repairCatalogCounter(run, key, seen, count);
    }
  }
}

export async function repairCatalogCounter(run: CheckRun, key: Record<string, unknown>, seen: unknown, count: number): Promise<void> {
  await writing(run, 1);
  try {
    await run.doc.send(
      new UpdateCommand({
        TableName: run.tableName,
        Key: key,
        UpdateExpression: 'SET #n = :n',
        ConditionExpression: seen === undefined ? 'attribute_not_exists(#n)' : '#n = :seen',
        ExpressionAttributeNames: { '#n': CATALOG_COUNT_ATTR },
        ExpressionAttributeValues: { ':n': count, ...(seen === undefined ? {} : { ':seen': seen }) },
      }),
    );
    run.state.repaired.counters += 1;
  } catch (err) {
    if (!isConditionFailed(err)) throw err; // moved meanwhile: the next check decides again
  }
}

