/**
 * runCheck(): reads a table against the declared model and reports where
 * its items differ from what the declaration derives (the finding kinds,
 * FINDING_KINDS, are explained in docs/operations.md, "Checking a table").
 *
 * The Scan is migrate.ts's: parallel segments, one page at a time, paced by
 * a token bucket (rateLimiter.ts), here in read units. Checkpoints and the
 * findings so far go to a local state file after each page, never to the
 * table: without `repair` the check writes nothing to the table at all.
 * `repair` applies the conditional writes migrate and the stream processor
 * use (relationFix.ts, layoutFix.ts) to stale copies, counters and missing
 * index keys; a present but wrong counter is first removed (conditioned on
 * the value seen) so that migrate's counting mark counts it race-free.
 * Wrong index keys, unmatched items and missing attributes are reported only.
 */
import { rmSync } from 'node:fs';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { countCollection, type Collection } from '../dynamo/collection.js';
import { itemKeyString } from '../dynamo/keys.js';
import { capacityUnits } from '../dynamo/metrics.js';
import { sdkReads } from '../dynamo/readPort.js';
import { copyIsStale, source, versionOf } from '../stream/propagate.js';
import { COUNTING_ATTR, DELETING_ATTR, PROPAGATING_ATTR } from '../writes/conditions.js';
import { forEachLimit } from '../writes/fanOut.js';
import { locateSources } from './childEnds.js';
import { countersOf, type RelationNeed } from './relationFix.js';
import { jsonText } from './foreignValues.js';
import { liveMark, repairMark, type StaleMark } from './marks.js';
import { type CheckReport, type CheckOptions, type CopyToCheck, type CounterToCheck, type WrongCounter, emptyPage, type CheckRun, openRun, found, report, saveState, add, reading } from './checkRun.js';
import { inspect, childEndReads } from './checkInspect.js';
import { withhold, flaggedIn, repairPage, repairKeys, checkCatalogCounters } from './checkRepair.js';

/** Compares copies with their sources (child ends found first; one consistent BatchGet per page); returns the repairs they need. */
async function checkCopies(run: CheckRun, toCheck: CopyToCheck[]): Promise<RelationNeed[]> {
  if (toCheck.length === 0) return [];
  const copies = await locateSources(childEndReads(run), toCheck);
  const { doc, tableName, keys } = run;
  const sources = [...new Map(copies.map((c) => [itemKeyString(c.from), c.from])).values()];
  const read = await reading(run, sources.length, () => batchGet(sdkReads(doc), tableName, keys, sources, { consistentRead: true }));
  const byKey = new Map(sources.map((k, i) => [itemKeyString(k), read[i]]));
  const needs = new Map<Item, RelationNeed & { kind: 'edge' }>();
  for (const { edge, field, from } of copies) {
    const entity = byKey.get(itemKeyString(from)) ?? null;
    // A source gone, being deleted, or renamed within the mark window: the delete or the stream processor settles the copy.
    // A rename's mark older than the window is reported (staleMarks) and its copies compared as any.
    if (entity === null || entity[DELETING_ATTR] !== undefined || liveMark(entity, PROPAGATING_ATTR, run.markWindowMs, Date.now())) continue;
    let value: { value: string; version: number } | null;
    try {
      value = source(entity, field, keys);
    } catch (err) {
      add(run, 'staleCopies', edge, `${field.copyAttr}: ${(err as Error).message}`);
      continue;
    }
    if (value === null) continue;
    const have = edge[field.copyAttr];
    const haveVersion = versionOf(edge, field.copyVersionAttr);
    const ahead = !Number.isNaN(haveVersion) && haveVersion > value.version;
    if (!ahead && typeof have === 'string' && !copyIsStale(edge, field, value.value, value.version)) continue;
    add(
      run,
      'staleCopies',
      edge,
      `${field.copyAttr} is ${jsonText(have ?? null)} v${Number.isNaN(haveVersion) ? '?' : haveVersion}, source ${field.field} is ${jsonText(value.value)} v${value.version}`,
    );
    if (ahead) continue; // ahead of its source: no conditional copy write replaces it; reported only
    const need = needs.get(edge) ?? { kind: 'edge' as const, edge, copies: [], shards: null };
    need.copies.push({ field, from });
    needs.set(edge, need);
  }
  return [...needs.values()];
}

/** Counts each counter's collection; a disagreement is read and counted again before it is reported. */
async function checkCounters(run: CheckRun, counters: CounterToCheck[]): Promise<WrongCounter[]> {
  const { doc, tableName, keys } = run;
  const wrong: WrongCounter[] = [];
  await forEachLimit(counters, run.concurrency, async ({ item, counter, collection }) => {
    const count = () => reading(run, 1, () => countCollection(sdkReads(doc), tableName, collection, true));
    let seen = item[counter];
    let n = await count();
    if (seen === n) return;
    // The table may have moved since the scan: decide on a fresh read and count.
    const fresh = await reading(run, 1, async () => (await doc.send(new GetCommand({ TableName: tableName, Key: keys.itemKey(item), ConsistentRead: true }))).Item);
    if (fresh === undefined || fresh[DELETING_ATTR] !== undefined) return;
    seen = fresh[counter];
    n = await count();
    if (seen === n) return;
    // A live counting mark: a migrate or a repair counts it now (or one killed less than a lease ago): reported, left to it.
    const counting = liveMark(fresh, COUNTING_ATTR, run.markWindowMs, Date.now());
    const detail = `${counter} is ${jsonText(seen ?? null)}, ${collection.name} counts ${n}`;
    add(run, 'wrongCounters', fresh, counting ? `${detail}; being counted since ${jsonText(fresh[COUNTING_ATTR])}` : detail);
    if (counting || !run.repair) return;
    const flagged = await flaggedIn(run, collection);
    if (flagged !== null) {
      withhold(run, fresh, `${detail}; not repaired: the collection holds ${jsonText(flagged.key)}, which this check flags (${flagged.kind})`);
      return;
    }
    if (collection.index === undefined) wrong.push({ item: fresh, counter, seen, collection });
    else if (!run.evidence.trusted(collection) || !run.evidence.defer(keys.itemKey(fresh), counter)) withhold(run, fresh, untrusted(detail, collection));
  });
  return wrong;
}

const untrusted = (detail: string, collection: Collection) =>
  `${detail}; not repaired: an item whose index keys this check flags belongs in ${collection.name}'s partition or sits in it (or too many such items to tell)`;

/**
 * The index counters' repairs kept for the end of the Scan: each decided
 * again (read, counted) and written only where no item with flagged index
 * keys touches its partition (counterEvidence.ts).
 */
async function settleDeferred(run: CheckRun): Promise<void> {
  const { doc, tableName, keys } = run;
  const evidence = run.state.evidence!;
  const wrong: WrongCounter[] = [];
  await forEachLimit(evidence.deferred, run.concurrency, async ({ key, counter }) => {
    const item = await reading(run, 1, async () => (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item);
    const what = item === undefined || item[DELETING_ATTR] !== undefined ? null : run.classify(item);
    if (what?.kind !== 'item') return;
    const found = countersOf(run.plan, what.type.name, item!, what.id).find((c) => c.counter === counter);
    if (found === undefined || liveMark(item!, COUNTING_ATTR, run.markWindowMs, Date.now())) return;
    const n = await reading(run, 1, () => countCollection(sdkReads(doc), tableName, found.collection, true));
    if (item![counter] === n) return;
    if (!run.evidence.trusted(found.collection)) withhold(run, item!, untrusted(`${counter} is ${jsonText(item![counter] ?? null)}, ${found.collection.name} counts ${n}`, found.collection));
    else wrong.push({ item: item!, counter, seen: item![counter], collection: found.collection });
  });
  evidence.deferred = [];
  await repairPage(run, [], wrong);
  saveState(run);
}

/** Scans one segment from its checkpoint, a page at a time, checking (and repairing) each page before the next. */
async function checkSegment(run: CheckRun, segment: number): Promise<void> {
  const { doc, tableName, pageSize, totals } = run;
  const checkpoint = run.state.checkpoints[segment];
  if (checkpoint?.done) return;
  let startKey = checkpoint?.lastKey ?? undefined;
  let scanned = checkpoint?.scanned ?? 0;
  let pages = 0;
  do {
    if (run.failure) return;
    // A page of small items costs a fraction of its item count in units; DynamoDB's own figure settles it.
    const estimate = Math.max(1, Math.ceil(pageSize / 20));
    await run.reads.take(estimate);
    const out = await doc.send(
      new ScanCommand({ TableName: tableName, Segment: segment, TotalSegments: run.segments, Limit: pageSize, ExclusiveStartKey: startKey, ReturnConsumedCapacity: 'TOTAL' }),
    );
    const actual = capacityUnits(out.ConsumedCapacity) || estimate;
    run.reads.settle(estimate, actual);
    totals.readUnits += actual;
    await checkPage(run, out.Items ?? []);
    scanned += out.Items?.length ?? 0;
    totals.scanned += out.Items?.length ?? 0;
    startKey = out.LastEvaluatedKey;
    run.state.checkpoints[segment] = { lastKey: startKey ?? null, done: startKey === undefined, scanned };
    saveState(run);
    pages += 1;
    if (startKey === undefined) totals.segmentsDone += 1;
    report(run);
    run.options.afterCheckpoint?.(segment, pages);
  } while (startKey);
}

async function checkPage(run: CheckRun, items: Item[]): Promise<void> {
  const page = emptyPage();
  for (const item of items) inspect(run, item, page);
  const copyNeeds = await checkCopies(run, page.copies);
  const wrong = await checkCounters(run, page.counters);
  if (run.repair) {
    await repairKeys(run, page.keyRepairs);
    await repairPage(run, copyNeeds, wrong);
    await repairMarks(run, page.marks);
  }
}

/** Finishes what stale marks stand for (marks.ts), one item at a time: each may be a whole fan-out or cascade. */
async function repairMarks(run: CheckRun, marks: readonly StaleMark[]): Promise<void> {
  for (const mark of marks) if (await repairMark(run.store, mark)) run.state.repaired.marks += 1;
}

export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const { run, resumed } = await openRun(options);
  report(run);
  await Promise.all(
    Array.from({ length: run.segments }, (_, segment) =>
      checkSegment(run, segment).catch((error) => {
        run.failure ??= { error };
      }),
    ),
  );
  if (run.failure) throw run.failure.error;
  if (run.repair) await settleDeferred(run);
  await checkCatalogCounters(run);
  // Done: the next run starts over (as migrate removes its checkpoints).
  if (options.statePath) rmSync(options.statePath, { force: true });
  const { totals } = run;
  return {
    table: run.tableName,
    segments: run.segments,
    scanned: totals.scanned,
    resumed,
    found: found(run),
    findings: run.state.findings,
    repaired: run.state.repaired,
    withheld: run.state.withheld!,
    readUnits: Math.round(totals.readUnits * 10) / 10,
    writeUnits: Math.round(totals.writeUnits * 10) / 10,
    seconds: (performance.now() - started) / 1000,
  };
}

export { FINDING_KINDS, SAMPLES, CheckInputError, compileClassifier } from './checkRun.js';
export type { CheckOptions, CheckProgress, CheckReport, FindingKind, Sample } from './checkRun.js';
