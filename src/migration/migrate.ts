/**
 * runMigration(): brings every item of a table to the layout the model
 * declares (docs/catalog.md, "npm run migrate"): layoutFix.ts says what an
 * item derives from itself (index keys, catalog entries), relationFix.ts
 * what it derives from other items (copies, counters).
 *
 * A parallel Scan (one segment per worker), resumable: after each page is
 * fully written, the segment's position is checkpointed in the table under
 * the run recorded on the layout record. Idempotent: every write is
 * conditioned on the item as scanned, so a page scanned twice writes
 * nothing the second time and a catalog entry is counted once (entry and
 * counter in one transaction). Writes take their units from a token bucket
 * (rateLimiter.ts). A dry run writes nothing. When every segment is done the
 * layout record gets the current version and the checkpoints go.
 */
import { DescribeTableCommand, UpdateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { Item } from '../dynamo/batchGet.js';
import {
  CATALOG_SHARDS,
  catalogEntryShard,
  CURRENT_LAYOUT_VERSION,
  GSI2,
  layoutStateKey,
  migrationCheckpointKey,
  type CatalogSpec,
  type TableKeys,
} from '../dynamo/keys.js';
import { capacityUnits } from '../dynamo/metrics.js';
import { tableDefinition, type TableShape } from '../dynamo/table.js';
import { compileLayoutFix, FIX_KINDS, layoutFixUpdate, type LayoutFix } from './layoutFix.js';
import { applyRelationFixes, compileRelationFix, RELATION_FIX_KINDS, type RelationFixKind, type RelationNeed } from './relationFix.js';
import type { Plan } from '../plan/plan.js';
import { catalogCounterChange } from '../writes/catalog.js';
import { transact, TransactionCancelled, tryTransact, type TransactItem } from '../writes/transact.js';
import { forEachLimit } from '../writes/fanOut.js';
import { RateLimiter } from './rateLimiter.js';
import { sleep } from '../dynamo/backoff.js';

export interface MigrationOptions {
  raw: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** The plan of the model whose layout the items are brought to (SCHEMA_FILE, loaded by the command). */
  plan: Plan;
  /** Scan segments worked in parallel (TotalSegments). A resumed run keeps the segments it started with. */
  segments: number;
  /** Write capacity units per second the migration may consume. */
  writeUnitsPerSecond: number;
  /** Items per Scan page (Scan `Limit`); also the checkpoint interval. */
  pageSize?: number;
  /** Item writes in flight per segment. */
  concurrency?: number;
  /** Time GSI1 gets to show writes committed before a counting mark (relationFix.ts); default 1000 ms. */
  indexSettleMs?: number;
  dryRun?: boolean;
  /** Ignore an unfinished run's checkpoints and start over. */
  restart?: boolean;
  onProgress?: (progress: MigrationProgress) => void;
  /** Called after each checkpoint; a throw stops the run there (tests simulate crashes with it). */
  afterCheckpoint?: (segment: number, pagesDone: number) => void;
}

export interface MigrationProgress {
  scanned: number;
  /** DescribeTable's ItemCount: approximate (refreshed about every six hours on DynamoDB). */
  estimatedTotal: number;
  changed: number;
  segmentsDone: number;
  segments: number;
}

export interface MigrationResult {
  runId: string | null;
  resumed: boolean;
  segments: number;
  scanned: number;
  /** Fixes written (or, in a dry run, found): one per kind and item, one per copy or counter. */
  changed: number;
  byKind: Record<FixKind, number>;
  /** Items that changed under the migration until it gave up on them (the gateway's writes keep them current). */
  skipped: number;
  writeUnits: number;
  seconds: number;
  itemsPerSecond: number;
  /** Whether this call added the GSI2 index to the table. */
  addedIndex: boolean;
  /** Every index this call added (the model's indexes the table lacked). */
  addedIndexes: string[];
}

/** Every kind of fix, as the summary's `byKind` names them. */
export type FixKind = LayoutFix['kind'] | RelationFixKind;
export const ALL_FIX_KINDS: readonly FixKind[] = [...FIX_KINDS, ...RELATION_FIX_KINDS];

interface Checkpoint {
  runId: string;
  lastKey: Record<string, unknown> | null;
  done: boolean;
  scanned: number;
  changed: number;
}

interface RunState {
  id: string;
  segments: number;
}

const FIX_ATTEMPTS = 3;
/** Catalog entries per transaction: with up to 2 × CATALOG_SHARDS counter items, within the 100 a transaction holds. */
const CHUNK = 100 - 2 * CATALOG_SHARDS;

/**
 * Creates the indexes the model declares and the table lacks (GSI2 on a
 * table made before it existed, or an index a changed model added), one
 * UpdateTable each, as DynamoDB builds one new index at a time, and waits
 * for each to become ACTIVE: DynamoDB backfills it from attributes the
 * items already carry, and from the keys the item pass writes.
 */
async function ensureIndexes(raw: DynamoDBClient, tableName: string, shape: TableShape): Promise<string[]> {
  const added: string[] = [];
  const def = tableDefinition(tableName, shape);
  for (const index of def.GlobalSecondaryIndexes ?? []) {
    const { Table } = await raw.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).some((i) => i.IndexName === index.IndexName)) continue;
    const keys = new Set(index.KeySchema!.map((k) => k.AttributeName));
    await raw.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: def.AttributeDefinitions!.filter((a) => keys.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index as never }],
      }),
    );
    added.push(index.IndexName!);
    // DynamoDB accepts writes while it builds the index; DynamoDB Local may fail them. Wait (a while) for ACTIVE.
    for (let i = 0; i < INDEX_WAIT_SECONDS; i++) {
      const { Table: now } = await raw.send(new DescribeTableCommand({ TableName: tableName }));
      const built = (now?.GlobalSecondaryIndexes ?? []).find((x) => x.IndexName === index.IndexName);
      if (now?.TableStatus === 'ACTIVE' && built?.IndexStatus === 'ACTIVE') break;
      await sleep(1000);
    }
  }
  return added;
}

/** How long a migration waits for an index it added to become ACTIVE before it writes anyway. */
const INDEX_WAIT_SECONDS = 120;

type Entering = { item: Item; change: Extract<LayoutFix, { kind: 'enter-catalog' }> };

/** One migration: its settings, budget, totals and, unless a dry run, the run recorded on the layout record. */
interface MigrationJob {
  options: MigrationOptions;
  doc: DynamoDBDocumentClient;
  tableName: string;
  keys: Plan['keys'];
  dryRun: boolean;
  pageSize: number;
  concurrency: number;
  limiter: RateLimiter;
  layoutFix: ReturnType<typeof compileLayoutFix>;
  relationFix: ReturnType<typeof compileRelationFix>;
  run: RunState | null;
  segments: number;
  estimatedTotal: number;
  checkpoints: Map<number, Checkpoint>;
  byKind: MigrationResult['byKind'];
  totals: { scanned: number; changed: number; skipped: number; writeUnits: number; segmentsDone: number };
  /** The first error of a segment: the others stop at their next page. */
  failure?: { error: unknown };
  catalogLane: Promise<unknown>;
}

/** The run recorded on the layout record to resume, or a new one recorded there (none in a dry run). */
async function startRun(options: MigrationOptions, dryRun: boolean): Promise<{ run: RunState | null; resumed: boolean }> {
  const { doc, tableName } = options;
  const key = options.plan.keys.key(layoutStateKey);
  const state = (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  const previous = state?.run as RunState | undefined;
  const resumed = !dryRun && !options.restart && previous !== undefined;
  const run: RunState | null = dryRun ? null : resumed ? previous! : { id: ulid(), segments: options.segments };
  if (run && !resumed) {
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #run = :run',
        ExpressionAttributeNames: { '#run': 'run' },
        ExpressionAttributeValues: { ':run': { ...run, startedAt: new Date().toISOString() } },
      }),
    );
  }
  return { run, resumed };
}

function report(job: MigrationJob): void {
  const { totals } = job;
  job.options.onProgress?.({
    scanned: totals.scanned,
    estimatedTotal: job.estimatedTotal,
    changed: totals.changed,
    segmentsDone: totals.segmentsDone,
    segments: job.segments,
  });
}

/** Brings one item up to date; true when it changed (or would, in a dry run). */
async function fix(job: MigrationJob, item: Item): Promise<boolean> {
  let current: Item | null = item;
  for (let attempt = 1; current !== null; attempt++) {
    const change = job.layoutFix(current);
    if (change === null) return false;
    if (job.dryRun || (await write(job, current, change))) {
      job.byKind[change.kind] += 1;
      job.totals.changed += 1;
      return true;
    }
    if (attempt >= FIX_ATTEMPTS) {
      job.totals.skipped += 1;
      return false;
    }
    // Changed since it was scanned: decide again from what it is now.
    current = await readAgain(job, current);
  }
  return false;
}

async function readAgain(job: MigrationJob, item: Item): Promise<Item | null> {
  return (await job.doc.send(new GetCommand({ TableName: job.tableName, Key: job.keys.itemKey(item), ConsistentRead: true }))).Item ?? null;
}

/** One conditional write; false when the item changed since it was read. */
async function write(job: MigrationJob, item: Item, change: LayoutFix): Promise<boolean> {
  const { doc, tableName, keys, limiter } = job;
  const update = layoutFixUpdate(tableName, keys, item, change);
  // Item and index write; a transaction costs double, with the counter's write.
  const estimate = change.kind === 'enter-catalog' ? 6 : 2;
  await limiter.take(estimate);
  let actual = estimate;
  try {
    if (change.kind === 'enter-catalog') {
      await transact({ doc, tableName }, [{ Update: update }, catalogCounterChange(tableName, keys, change.spec, change.id, 1)]);
    } else {
      const out = await doc.send(new UpdateCommand({ ...update, ReturnConsumedCapacity: 'TOTAL' }));
      actual = capacityUnits(out.ConsumedCapacity) || estimate;
    }
    return true;
  } catch (err) {
    if (err instanceof TransactionCancelled && err.failed(0)) return false;
    if ((err as { name?: string })?.name === 'ConditionalCheckFailedException') return false;
    throw err;
  } finally {
    limiter.settle(estimate, actual);
    job.totals.writeUnits += actual;
  }
}

/**
 * Catalog transactions run one at a time across all segments: they all move the same few counter
 * items, and concurrent transactions on one item cancel each other (TransactionConflict).
 */
function inCatalogLane<T>(job: MigrationJob, fn: () => Promise<T>): Promise<T> {
  const next = job.catalogLane.then(fn, fn);
  job.catalogLane = next.catch(() => {});
  return next;
}

/** The transaction that enters `pending` into the catalog with their shards' counters, and its write estimate. */
function catalogTransaction(job: MigrationJob, pending: Entering[]): { items: TransactItem[]; estimate: number } {
  const { tableName, keys } = job;
  const counters = new Map<string, { spec: CatalogSpec; id: string; n: number }>();
  for (const { change } of pending) {
    const key = `${change.spec.key}#${catalogEntryShard(change.spec, change.id)}`;
    const counter = counters.get(key) ?? { spec: change.spec, id: change.id, n: 0 };
    counter.n += 1;
    counters.set(key, counter);
  }
  const items: TransactItem[] = [
    ...pending.map(({ item, change }) => ({ Update: layoutFixUpdate(tableName, keys, item, change) })),
    ...[...counters.values()].map((c) => catalogCounterChange(tableName, keys, c.spec, c.id, c.n)),
  ];
  // A transactional write costs two units per item (≤ 1 KB), plus the GSI2 entry.
  return { items, estimate: 3 * pending.length + 2 * counters.size };
}

/**
 * Items entering the catalog, up to CHUNK of them, in one transaction
 * with the counters of their shards (one counter item per shard, moved by
 * the chunk's count): entries and counts stay equal, and a chunk costs one
 * request instead of one per item. Items whose condition failed (changed
 * since the scan) are read again and retried; the others are retried as
 * they are. Returns the number of items changed.
 */
async function enterCatalog(job: MigrationJob, chunk: Entering[]): Promise<number> {
  let pending = chunk;
  let changed = 0;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const { items, estimate } = catalogTransaction(job, pending);
    await job.limiter.take(estimate);
    job.totals.writeUnits += estimate;
    const cancelled = await tryTransact({ doc: job.doc, tableName: job.tableName }, items);
    if (cancelled === null) {
      job.byKind['enter-catalog'] += pending.length;
      job.totals.changed += pending.length;
      return changed + pending.length;
    }
    const failed = pending.filter((_, i) => cancelled.failed(i));
    if (failed.length === 0) throw cancelled;
    pending = pending.filter((_, i) => !cancelled.failed(i));
    for (const { item } of failed) {
      const fresh = await readAgain(job, item);
      const change = fresh ? job.layoutFix(fresh) : null;
      if (fresh === null || change === null) continue;
      if (change.kind !== 'enter-catalog') {
        if (await fix(job, fresh)) changed += 1;
      } else if (attempt < FIX_ATTEMPTS) pending.push({ item: fresh, change });
      else job.totals.skipped += 1;
    }
  }
  return changed;
}

/** The relation fixes of one page (copies, shard-count copies, counters); the number written. */
async function relationFixes(job: MigrationJob, needs: RelationNeed[]): Promise<number> {
  const { byKind, totals } = job;
  let fixed = 0;
  await applyRelationFixes(
    {
      doc: job.doc,
      tableName: job.tableName,
      plan: job.options.plan,
      keys: job.keys,
      dryRun: job.dryRun,
      concurrency: job.concurrency,
      limiter: job.limiter,
      // Finding a child end (a GSI1 Query of one item) takes a unit from the one budget a migration has.
      paced: async (units, read) => {
        await job.limiter.take(units);
        return read();
      },
      indexSettleMs: job.options.indexSettleMs ?? 1000,
      // The run recorded on the layout record: resumed, it takes over the counting marks its killed process left.
      owner: job.run?.id ?? 'dry-run',
      fixed: (kind) => {
        byKind[kind] += 1;
        totals.changed += 1;
        fixed += 1;
      },
      skipped: () => {
        totals.skipped += 1;
      },
      consumed: (units) => {
        totals.writeUnits += units;
      },
    },
    needs,
  );
  return fixed;
}

/**
 * Fixes one page; the number of fixes. Items entering the catalog go in chunked transactions with
 * their counters; the rest one conditional UpdateItem each, `concurrency` at a time.
 */
async function migratePage(job: MigrationJob, items: Item[]): Promise<number> {
  const entering: Entering[] = [];
  const single: Item[] = [];
  const needs: RelationNeed[] = [];
  for (const item of items) {
    const change = job.layoutFix(item);
    // Relation fixes are decided from the item as its layout fix leaves it (an edge's GSI1 keys first).
    const need = job.relationFix(change === null ? item : { ...item, ...change.set });
    if (need !== null) needs.push(need);
    if (change === null) continue;
    if (change.kind === 'enter-catalog' && !job.dryRun) entering.push({ item, change });
    else single.push(item);
  }
  const chunks = Array.from({ length: Math.ceil(entering.length / CHUNK) }, (_, i) => entering.slice(i * CHUNK, (i + 1) * CHUNK));
  let changed = 0;
  await Promise.all([
    forEachLimit(single, job.concurrency, async (item) => {
      if (await fix(job, item)) changed += 1;
    }),
    forEachLimit(chunks, 1, async (chunk) => {
      changed += await inCatalogLane(job, () => enterCatalog(job, chunk));
    }),
  ]);
  return changed + (await relationFixes(job, needs));
}

/** Scans one segment from its checkpoint; each page is fully written before its checkpoint is. */
async function migrateSegment(job: MigrationJob, segment: number): Promise<void> {
  const { doc, tableName, keys, run, totals } = job;
  const checkpoint = job.checkpoints.get(segment);
  if (checkpoint?.done) return;
  let startKey = checkpoint?.lastKey ?? undefined;
  let scanned = checkpoint?.scanned ?? 0;
  let changedBefore = checkpoint?.changed ?? 0;
  let pages = 0;
  do {
    if (job.failure) return;
    const out = await doc.send(
      new ScanCommand({ TableName: tableName, Segment: segment, TotalSegments: job.segments, Limit: job.pageSize, ExclusiveStartKey: startKey }),
    );
    changedBefore += await migratePage(job, out.Items ?? []);
    scanned += out.Items?.length ?? 0;
    totals.scanned += out.Items?.length ?? 0;
    startKey = out.LastEvaluatedKey;
    if (run) {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.key(migrationCheckpointKey(segment)),
            runId: run.id,
            lastKey: startKey ? JSON.stringify(startKey) : null,
            done: startKey === undefined,
            scanned,
            changed: changedBefore,
          },
        }),
      );
    }
    pages += 1;
    if (startKey === undefined) totals.segmentsDone += 1;
    report(job);
    job.options.afterCheckpoint?.(segment, pages);
  } while (startKey);
}

/** Records the layout version the table now has and removes the run and its checkpoints. */
async function finishRun(job: MigrationJob): Promise<void> {
  await job.doc.send(
    new UpdateCommand({
      TableName: job.tableName,
      Key: job.keys.key(layoutStateKey),
      UpdateExpression: 'SET layoutVersion = :v, completedAt = :now REMOVE #run',
      ExpressionAttributeNames: { '#run': 'run' },
      ExpressionAttributeValues: { ':v': CURRENT_LAYOUT_VERSION, ':now': new Date().toISOString() },
    }),
  );
  await removeCheckpoints(job.doc, job.tableName, job.keys, job.segments);
}

async function openJob(options: MigrationOptions): Promise<{ job: MigrationJob; resumed: boolean }> {
  const { raw, doc, tableName, plan, dryRun = false, pageSize = 200, concurrency = 4 } = options;
  const { Table } = await raw.send(new DescribeTableCommand({ TableName: tableName }));
  const { run, resumed } = await startRun(options, dryRun);
  // Bookkeeping (the layout record, scan checkpoints) lives in the same table, under its key attributes.
  const keys = plan.keys;
  const checkpoints = run ? await readCheckpoints(doc, tableName, keys, run) : new Map<number, Checkpoint>();
  const totals = { scanned: 0, changed: 0, skipped: 0, writeUnits: 0, segmentsDone: 0 };
  for (const c of checkpoints.values()) {
    totals.scanned += c.scanned;
    totals.changed += c.changed;
    if (c.done) totals.segmentsDone += 1;
  }
  const job: MigrationJob = {
    options,
    doc,
    tableName,
    keys,
    dryRun,
    pageSize,
    concurrency,
    limiter: new RateLimiter(options.writeUnitsPerSecond),
    layoutFix: compileLayoutFix(plan),
    relationFix: compileRelationFix(plan),
    run,
    segments: run?.segments ?? options.segments,
    estimatedTotal: Number(Table?.ItemCount ?? 0),
    checkpoints,
    byKind: Object.fromEntries(ALL_FIX_KINDS.map((kind) => [kind, 0])) as MigrationResult['byKind'],
    totals,
    catalogLane: Promise.resolve(),
  };
  return { job, resumed };
}

export async function runMigration(options: MigrationOptions): Promise<MigrationResult> {
  const started = performance.now();
  const addedIndexes = options.dryRun ? [] : await ensureIndexes(options.raw, options.tableName, options.plan.table);
  const { job, resumed } = await openJob(options);
  report(job);
  await Promise.all(
    Array.from({ length: job.segments }, (_, segment) =>
      migrateSegment(job, segment).catch((error) => {
        job.failure ??= { error };
      }),
    ),
  );
  if (job.failure) throw job.failure.error;
  if (job.run) await finishRun(job);
  const { totals } = job;
  const seconds = (performance.now() - started) / 1000;
  return {
    runId: job.run?.id ?? null,
    resumed,
    segments: job.segments,
    scanned: totals.scanned,
    changed: totals.changed,
    byKind: job.byKind,
    skipped: totals.skipped,
    writeUnits: Math.round(totals.writeUnits * 10) / 10,
    seconds,
    itemsPerSecond: Math.round(totals.scanned / Math.max(seconds, 0.001)),
    addedIndex: addedIndexes.includes(GSI2),
    addedIndexes,
  };
}

async function readCheckpoints(doc: DynamoDBDocumentClient, tableName: string, table: TableKeys, run: RunState): Promise<Map<number, Checkpoint>> {
  const found = new Map<number, Checkpoint>();
  const keys = Array.from({ length: run.segments }, (_, s) => table.key(migrationCheckpointKey(s)));
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    while (pending && pending.length > 0) {
      const out: { Responses?: Record<string, Item[]>; UnprocessedKeys?: Record<string, { Keys?: Record<string, unknown>[] }> } = await doc.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) {
        if (item.runId !== run.id) continue; // left by another run
        const segment = Number(String(item[table.sk]).split('#').pop());
        found.set(segment, {
          runId: run.id,
          lastKey: typeof item.lastKey === 'string' ? JSON.parse(item.lastKey) : null,
          done: item.done === true,
          scanned: Number(item.scanned ?? 0),
          changed: Number(item.changed ?? 0),
        });
      }
      pending = out.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
}

async function removeCheckpoints(doc: DynamoDBDocumentClient, tableName: string, table: TableKeys, segments: number): Promise<void> {
  const keys = Array.from({ length: segments }, (_, s) => table.key(migrationCheckpointKey(s)));
  for (let i = 0; i < keys.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    while (pending && pending.length > 0) {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
      pending = out.UnprocessedItems?.[tableName] as Record<string, unknown>[] | undefined;
    }
  }
}
