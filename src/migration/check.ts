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
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ulid } from 'ulid';
import { GetCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../dynamo/backoff.js';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { countCollection, readPage, type Collection } from '../dynamo/collection.js';
import {
  CATALOG_COUNT_ATTR,
  catalogShardCounterKey,
  COUNTER_SK,
  FAILED_SK_PREFIX,
  GSI1,
  IDEMPOTENCY_PREFIX,
  IDEMPOTENCY_SK,
  isBookkeeping,
  layoutStateKey,
  itemKeyString,
  parseShardPartition,
  SHARD_SK_PREFIX,
  STREAM_PREFIX,
} from '../dynamo/keys.js';
import { capacityUnits } from '../dynamo/metrics.js';
import { sdkReads } from '../dynamo/readPort.js';
import { tableContradictions } from '../dynamo/table.js';
import type { Plan } from '../plan/plan.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import { copyIsStale, source, versionOf, type CopiedField } from '../stream/propagate.js';
import { MODEL_PARTITION } from '../stream/modelWork.js';
import { catalogCounterChange, countCatalogShard } from '../writes/catalog.js';
import { COUNTING_ATTR, DELETING_ATTR, PROPAGATING_ATTR } from '../writes/conditions.js';
import { transact, TransactionCancelled } from '../writes/transact.js';
import { indexKeysOf, isConditionFailed } from '../writes/create.js';
import { forEachLimit } from '../writes/fanOut.js';
import { writePlanOf, type EdgePair } from '../writes/writePlan.js';
import type { Store } from '../writes/store.js';
import { compileLayoutFix, layoutFixUpdate, type LayoutFix } from './layoutFix.js';
import { RateLimiter } from './rateLimiter.js';
import { locateSources, sourceAt, type ChildEndReads, type SourceAt } from './childEnds.js';
import { CounterEvidence, emptyEvidence, type EvidenceState } from './counterEvidence.js';
import { applyRelationFixes, copyField, countersOf, type RelationFixContext, type RelationNeed } from './relationFix.js';
import { badValuesOf, compileSeparatorCheck, jsonSafe, jsonText } from './foreignValues.js';
import { liveMark, MARK_WINDOW_MS, marksOf, pacedDoc, repairMark, staleMarkDetail, type StaleMark } from './marks.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

export const FINDING_KINDS = [
  'unmatched',
  'keysWithSeparator',
  'missingAttributes',
  'badValues',
  'missingIndexKeys',
  'wrongIndexKeys',
  'staleCopies',
  'wrongCounters',
  'staleMarks',
  'unfinishedRuns',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Samples kept per kind. */
export const SAMPLES = 5;

export interface Sample {
  key: Record<string, unknown>;
  detail: string;
}

export interface CheckReport {
  table: string;
  segments: number;
  scanned: number;
  /** Whether this run resumed from a state file. */
  resumed: boolean;
  /** Findings of every kind together (0: the table matches the declaration). */
  found: number;
  findings: Record<FindingKind, { count: number; samples: Sample[] }>;
  /** What `repair` wrote (zero without it): copies, counters, items given missing index keys, stale marks finished. */
  repaired: { copies: number; counters: number; indexKeys: number; marks: number };
  /**
   * Wrong counters `repair` left as they are: their collection holds an
   * item this check flags (keys that are not its template's, a `#` in a
   * key value, a value not of its type), so a count of it is no evidence.
   */
  withheld: { count: number; samples: Sample[] };
  readUnits: number;
  writeUnits: number;
  seconds: number;
}

export interface CheckProgress {
  scanned: number;
  /** DescribeTable's ItemCount: approximate. */
  estimatedTotal: number;
  found: number;
  segmentsDone: number;
  segments: number;
}

export interface CheckOptions {
  raw: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
  plan: Plan;
  segments: number;
  /** Read capacity units per second the Scan, the source reads and the counts may consume. */
  readUnitsPerSecond: number;
  /** Write capacity units per second of the repairs. */
  writeUnitsPerSecond?: number;
  pageSize?: number;
  concurrency?: number;
  repair?: boolean;
  /** A local file holding the checkpoints and the findings so far: a run given the same file resumes. */
  statePath?: string;
  /** Ignore the state file's checkpoints and start over. */
  restart?: boolean;
  /** Time GSI1 gets to show writes committed before a counting mark (relationFix.ts). */
  indexSettleMs?: number;
  /** How old a rename's or a delete's mark may be before it is reported as stale (marks.ts; default MARK_WINDOW_MS). */
  markWindowMs?: number;
  onProgress?: (progress: CheckProgress) => void;
  /** Called after each page's checkpoint; a throw stops the run there (tests simulate crashes). */
  afterCheckpoint?: (segment: number, pagesDone: number) => void;
}

/** Input the check cannot work on (no such table, keys the model contradicts): one line for the operator. */
export class CheckInputError extends Error {}

interface SegmentState {
  lastKey: Record<string, unknown> | null;
  done: boolean;
  scanned: number;
}

interface StateFile {
  table: string;
  /** The run's id: the owner of the counting marks its repairs set (a resumed run takes over its own). */
  owner?: string;
  segments: number;
  checkpoints: Record<string, SegmentState>;
  findings: CheckReport['findings'];
  repaired: CheckReport['repaired'];
  withheld?: CheckReport['withheld'];
  /** Suspect index partitions and index counter repairs waiting for the end of the Scan (counterEvidence.ts). */
  evidence?: EvidenceState;
}

const emptyFindings = (): CheckReport['findings'] =>
  Object.fromEntries(FINDING_KINDS.map((k) => [k, { count: 0, samples: [] }])) as unknown as CheckReport['findings'];

/** The table as DescribeTable gives it, or CheckInputError naming what is wrong with it. */
async function describeChecked(raw: DynamoDBClient, tableName: string, plan: Plan) {
  let table;
  try {
    table = (await raw.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (err) {
    if ((err as { name?: string })?.name === 'ResourceNotFoundException') throw new CheckInputError(`check: table ${tableName} does not exist`);
    throw err;
  }
  const contradictions = tableContradictions(table, plan.table);
  if (contradictions.length > 0) throw new CheckInputError(`check: table ${tableName} contradicts the model: ${contradictions.join('; ')}`);
  return table;
}

/** What one scanned item is, by the declaration. */
type Classified =
  | { kind: 'bookkeeping' }
  | { kind: 'unmatched' }
  | { kind: 'item'; type: ItemPlan; id: string; parentId: string | null }
  | { kind: 'edge'; pair: EdgePair; ownerId: string; nodeId: string };

export function compileClassifier(plan: Plan): (item: Item) => Classified {
  const { pk, sk } = plan.keys;
  const types = [...plan.items.values()];
  const pairs = writePlanOf(plan).pairs;
  const shardedTypes = types.filter((t) => plan.shardedOf(t.name) !== null);
  // Id claims of child types (writes/create.ts idClaimKey): `<P>ID#<id>` / `<P>_ID`.
  const claims = types
    .filter((t) => t.type.parent !== null)
    .map((t) => {
      const prefix = t.type.sk.prefix;
      const base = prefix.endsWith('#') ? prefix.slice(0, -1) : prefix;
      return { pk: `${base}ID#`, sk: `${base}_ID` };
    });
  const isOwnBookkeeping = (p: unknown, s: unknown): boolean => {
    if (isBookkeeping(p)) return true;
    if (typeof p !== 'string' || typeof s !== 'string') return false;
    if (p.startsWith(STREAM_PREFIX) && (s.startsWith(SHARD_SK_PREFIX) || s.startsWith(FAILED_SK_PREFIX))) return true;
    if (p === MODEL_PARTITION) return true;
    if (p.startsWith(IDEMPOTENCY_PREFIX) && s === IDEMPOTENCY_SK) return true;
    if (claims.some((c) => p.startsWith(c.pk) && s === c.sk)) return true;
    if (s === COUNTER_SK) {
      // A shard counter of a write-sharded parent: `<parent PK>#<k>` / COUNTER.
      const cut = p.lastIndexOf('#');
      const parentPk = cut > 0 ? p.slice(0, cut) : '';
      return shardedTypes.some((t) => t.type.pk.match(parentPk) !== null && parseShardPartition(parentPk, p) !== null);
    }
    return false;
  };
  return (item) => {
    if (isOwnBookkeeping(item[pk], item[sk])) return { kind: 'bookkeeping' };
    for (const type of types) {
      const ids = type.ids(item);
      if (ids) return { kind: 'item', type, id: ids.id, parentId: ids.parentId };
    }
    for (const pair of pairs) {
      const ends = pair.ends(item);
      if (ends !== null) return { kind: 'edge', pair, ...ends };
    }
    return { kind: 'unmatched' };
  };
}

/** A copy on an edge to compare with its source: its key, or a child end's id (its key needs its parent's id). */
type CopyToCheck = { edge: Item; field: CopiedField } & SourceAt;

/** Index keys an item lacks: migrate's layout fix, or @indexed written keys. */
type KeyRepair = { item: Item; fix: LayoutFix } | { item: Item; set: Record<string, string> };

/** A counter to compare with a count of its collection. */
interface CounterToCheck {
  item: Item;
  counter: string;
  collection: Collection;
}

type WrongCounter = { item: Item; counter: string; seen: unknown; collection: Collection };

/** What one page's items need beyond themselves: copies and counters to compare, keys to add, stale marks to finish. */
interface PageWork {
  copies: CopyToCheck[];
  counters: CounterToCheck[];
  keyRepairs: KeyRepair[];
  marks: StaleMark[];
}

const emptyPage = (): PageWork => ({ copies: [], counters: [], keyRepairs: [], marks: [] });

/** One run: its settings, budgets, totals and the state file's contents (checkpoints, findings, repairs). */
interface CheckRun {
  options: CheckOptions;
  doc: DynamoDBDocumentClient;
  tableName: string;
  plan: Plan;
  keys: Plan['keys'];
  pageSize: number;
  concurrency: number;
  repair: boolean;
  segments: number;
  estimatedTotal: number;
  reads: RateLimiter;
  writes: RateLimiter;
  classify: (item: Item) => Classified;
  separatorCheck: (item: Item) => string | null;
  evidence: CounterEvidence;
  /** The fields of each type that edges copy (their versions are checked). */
  copied: ReadonlyMap<string, readonly string[]>;
  markWindowMs: number;
  /** What stale marks are finished with: the processor's and the cascade's code, every request paced. */
  store: Store;
  layoutFix: ReturnType<typeof compileLayoutFix>;
  state: StateFile;
  totals: { scanned: number; readUnits: number; writeUnits: number; segmentsDone: number };
  /** The first error of a segment: the others stop at their next page. */
  failure?: { error: unknown };
  catalogLane: Promise<unknown>;
}

/** The state file to resume from, or null when there is none (or `restart`). */
function readState(options: CheckOptions): StateFile | null {
  if (!options.statePath || options.restart || !existsSync(options.statePath)) return null;
  let read: StateFile;
  try {
    read = JSON.parse(readFileSync(options.statePath, 'utf8')) as StateFile;
  } catch {
    throw new CheckInputError(`check: state file ${options.statePath} is not one this command wrote (use another, or --restart)`);
  }
  if (read.table !== options.tableName) throw new CheckInputError(`check: state file ${options.statePath} belongs to table ${read.table}, not ${options.tableName}`);
  return read;
}

async function openRun(options: CheckOptions): Promise<{ run: CheckRun; resumed: boolean }> {
  const { raw, doc, tableName, plan, pageSize = 200, concurrency = 4, repair = false } = options;
  const table = await describeChecked(raw, tableName, plan);
  const resumed = readState(options);
  const segments = resumed?.segments ?? options.segments;
  const state: StateFile = resumed ?? { table: tableName, segments, checkpoints: {}, findings: emptyFindings(), repaired: { copies: 0, counters: 0, indexKeys: 0, marks: 0 } };
  state.owner ??= `check-${ulid()}`;
  state.withheld ??= { count: 0, samples: [] };
  // A state file of an older check lacks the newer kinds.
  for (const kind of FINDING_KINDS) state.findings[kind] ??= { count: 0, samples: [] };
  state.repaired.marks ??= 0;
  state.evidence ??= emptyEvidence();
  const totals = { scanned: 0, readUnits: 0, writeUnits: 0, segmentsDone: 0 };
  for (const c of Object.values(state.checkpoints)) {
    totals.scanned += c.scanned;
    if (c.done) totals.segmentsDone += 1;
  }
  const run: CheckRun = {
    options,
    doc,
    tableName,
    plan,
    keys: plan.keys,
    pageSize,
    concurrency,
    repair,
    segments,
    estimatedTotal: Number(table?.ItemCount ?? 0),
    reads: new RateLimiter(options.readUnitsPerSecond),
    writes: new RateLimiter(options.writeUnitsPerSecond ?? options.readUnitsPerSecond),
    classify: compileClassifier(plan),
    separatorCheck: compileSeparatorCheck(plan),
    evidence: new CounterEvidence(state.evidence),
    copied: new Map([...plan.items.keys()].map((name) => [name, writePlanOf(plan).type(name).copies.map((c) => c.field)])),
    markWindowMs: options.markWindowMs ?? MARK_WINDOW_MS,
    store: undefined as unknown as Store,
    layoutFix: compileLayoutFix(plan),
    state,
    totals,
    catalogLane: Promise.resolve(),
  };
  const paced = pacedDoc(doc, (kind) => (kind === 'read' ? reading(run, 1, async () => {}) : writing(run, 1)));
  run.store = { doc: paced, tableName, plan, writeOptions: { concurrency, pageSize: 100 } };
  return { run, resumed: resumed !== null };
}

const found = (run: CheckRun) => FINDING_KINDS.reduce((n, k) => n + run.state.findings[k].count, 0);

function report(run: CheckRun): void {
  const { totals } = run;
  run.options.onProgress?.({ scanned: totals.scanned, estimatedTotal: run.estimatedTotal, found: found(run), segmentsDone: totals.segmentsDone, segments: run.segments });
}

function saveState(run: CheckRun): void {
  const path = run.options.statePath;
  if (!path) return;
  // Written whole and renamed into place: a crash mid-write leaves the previous state.
  writeFileSync(`${path}.tmp`, JSON.stringify(jsonSafe(run.state)));
  renameSync(`${path}.tmp`, path);
}

function add(run: CheckRun, kind: FindingKind, item: Item, detail: string): void {
  const f = run.state.findings[kind];
  f.count += 1;
  if (f.samples.length < SAMPLES) f.samples.push({ key: jsonSafe(run.keys.itemKey(item)) as Record<string, unknown>, detail });
}

/** A read within the read budget; `units` is its estimate. */
async function reading<T>(run: CheckRun, units: number, fn: () => Promise<T>): Promise<T> {
  await run.reads.take(units);
  run.totals.readUnits += units;
  return fn();
}

/** A write within the write budget; `units` is its estimate. */
async function writing(run: CheckRun, units: number): Promise<void> {
  await run.writes.take(units);
  run.totals.writeUnits += units;
}

/** The findings an item shows by itself; what needs other items to be checked goes to `page`. */
function inspect(run: CheckRun, item: Item, page: PageWork): void {
  const what = run.classify(item);
  if (what.kind === 'bookkeeping') {
    inspectBookkeeping(run, item);
    return;
  }
  if (what.kind === 'unmatched') {
    const separator = run.separatorCheck(item);
    if (separator !== null) add(run, 'keysWithSeparator', item, separator);
    else add(run, 'unmatched', item, 'matches no @item template or edge');
    return;
  }
  if (what.kind === 'item') inspectMarks(run, item, what, page);
  // Items being deleted are half-gone on purpose: the delete finishes them (a stale mark is reported above).
  if (item[DELETING_ATTR] !== undefined) return;
  if (what.kind === 'item') inspectItem(run, item, what, page);
  else inspectEdge(run, item, what, page);
}

/** The layout record names a migrate run until it finishes: one that stopped (or runs now) left items behind. */
function inspectBookkeeping(run: CheckRun, item: Item): void {
  const { PK, SK } = run.keys.keyOf(item);
  if (PK !== layoutStateKey.PK || SK !== layoutStateKey.SK || item.run === undefined) return;
  const migration = item.run as { id?: unknown; startedAt?: unknown };
  add(run, 'unfinishedRuns', item, `migrate run ${jsonText(migration.id)} started ${jsonText(migration.startedAt)} has not finished: running now, or stopped (npm run migrate resumes it)`);
}

/** Marks older than their window or lease: the work that set them stopped (marks.ts). */
function inspectMarks(run: CheckRun, item: Item, what: Classified & { kind: 'item' }, page: PageWork): void {
  for (const mark of marksOf(item, run.markWindowMs, Date.now())) {
    if (!mark.stale) continue;
    add(run, 'staleMarks', item, staleMarkDetail(what.type.name, mark, run.markWindowMs));
    page.marks.push({ item, type: what.type, id: what.id, parentId: what.parentId, attr: mark.attr });
  }
}

function inspectItem(run: CheckRun, item: Item, what: Classified & { kind: 'item' }, page: PageWork): void {
  const { type, id, parentId } = what;
  const record = type.map(item) as Record<string, unknown>;
  const bad = badValuesOf(type, item, run.keys, run.copied.get(type.name) ?? []);
  if (bad.lines.length > 0) add(run, 'badValues', item, `${type.name}: ${bad.lines.join('; ')}`);
  const missing = type.requiredFields.filter((f) => record[f] === undefined && !bad.fields.has(f));
  if (missing.length > 0) add(run, 'missingAttributes', item, `${type.name} lacks ${missing.join(', ')}`);
  if (type.type.inverted) indexKeys(run, item, type.name, null);
  for (const placement of type.type.indexed) {
    const expected = indexKeysOf(placement, id, parentId ?? undefined, type.type, item);
    // One finding per item and index, naming every key attribute that is off.
    const absent: Record<string, string> = {};
    const wrong: string[] = [];
    for (const [attribute, value] of Object.entries(expected)) {
      if (item[attribute] === undefined) absent[attribute] = value as string;
      else if (item[attribute] !== value) wrong.push(`${attribute} is ${jsonText(item[attribute])}, expected ${value}`);
    }
    const lacking = Object.entries(absent).map(([a, v]) => `${a} (expected ${v})`);
    if (lacking.length > 0) add(run, 'missingIndexKeys', item, `${type.name} lacks ${lacking.join(', ')} in ${placement.index}`);
    if (wrong.length > 0) add(run, 'wrongIndexKeys', item, `${type.name} in ${placement.index}: ${wrong.join('; ')}`);
    const first = placement.pk[0]?.attribute;
    if (first !== undefined && (lacking.length > 0 || wrong.length > 0)) run.evidence.suspect(placement.index, item[first], expected[first]);
    // Keys derived from a value the check flags are not written: that value is no evidence.
    if (Object.keys(absent).length > 0 && bad.lines.length === 0) page.keyRepairs.push({ item, set: absent });
  }
  const fix = run.layoutFix(item);
  if (fix !== null && bad.lines.length === 0) page.keyRepairs.push({ item, fix });
  gsi2(run, item, type.name, fix);
  for (const c of countersOf(run.plan, type.name, item, id)) page.counters.push({ item, ...c });
}

function inspectEdge(run: CheckRun, item: Item, what: Classified & { kind: 'edge' }, page: PageWork): void {
  const { pair, ownerId, nodeId } = what;
  // Fields the item's own key holds are read back from it, not stored.
  const held = pair.base.member(item) !== null ? pair.baseHeld : pair.mirrorHeld;
  const missing = pair.edgeAttributes.filter((a) => a.required && !held.has(a.name) && (item[a.storedAs] === undefined || item[a.storedAs] === null)).map((a) => a.name);
  if (missing.length > 0) add(run, 'missingAttributes', item, `edge ${pair.base.path} lacks ${missing.join(', ')}`);
  if (pair.gsi1) indexKeys(run, item, `edge ${pair.base.path}`, pair.sharding ? String(item[run.keys.sk]) : null);
  const fix = run.layoutFix(item);
  if (fix !== null) page.keyRepairs.push({ item, fix });
  // A child end's key needs its parent's id, which the edge does not hold: checkCopies finds the child by its id.
  for (const c of pair.nodeCopies) page.copies.push({ edge: item, field: copyField(c), ...sourceAt(pair.node, nodeId) });
  for (const c of pair.ownerCopies) page.copies.push({ edge: item, field: copyField(c), ...sourceAt(pair.owner, ownerId) });
}

/** What childEnds.ts reads with: the run's client and plan, its read budget. */
const childEndReads = (run: CheckRun): ChildEndReads => ({
  doc: run.doc,
  tableName: run.tableName,
  plan: run.plan,
  concurrency: run.concurrency,
  paced: (units, read) => reading(run, units, read),
});

/** GSI1 keys: the sort key and the partition key swapped (`shardedPk`: an edge of a sharded parent may carry `<sk>#<k>`). */
function indexKeys(run: CheckRun, item: Item, what: string, shardedPk: string | null): void {
  const wantPk = item[run.keys.sk];
  const wantSk = item[run.keys.pk];
  if (item[GSI1_PK] === undefined && item[GSI1_SK] === undefined) {
    add(run, 'missingIndexKeys', item, `${what} lacks ${GSI1_PK}/${GSI1_SK}`);
    run.evidence.suspect(GSI1, wantPk);
    return;
  }
  const pkOk = item[GSI1_PK] === wantPk || (shardedPk !== null && parseShardPartition(shardedPk, item[GSI1_PK]) !== null);
  if (!pkOk) add(run, 'wrongIndexKeys', item, `${what} ${GSI1_PK} is ${jsonText(item[GSI1_PK])}, expected ${wantPk}`);
  else if (item[GSI1_SK] !== wantSk) add(run, 'wrongIndexKeys', item, `${what} ${GSI1_SK} is ${jsonText(item[GSI1_SK])}, expected ${wantSk}`);
  if (!pkOk || item[GSI1_SK] !== wantSk) run.evidence.suspect(GSI1, item[GSI1_PK], wantPk);
}

/** Catalog and by-instant entries, as migrate's layout fix decides them. */
function gsi2(run: CheckRun, item: Item, typeName: string, fix: LayoutFix | null): void {
  if (fix === null || fix.kind === 'index-keys') return; // GSI1 is checked above
  const absent = fix.kind === 'enter-catalog' || (fix.kind === 'order-date' && item.GSI2PK === undefined);
  const expected = `GSI2PK ${'GSI2PK' in fix.set ? fix.set.GSI2PK : item.GSI2PK}, GSI2SK ${fix.set.GSI2SK}`;
  if (absent) add(run, 'missingIndexKeys', item, `${typeName} lacks its GSI2 entry (${expected})`);
  else add(run, 'wrongIndexKeys', item, `${typeName} GSI2 entry is ${jsonText(item.GSI2PK)}/${jsonText(item.GSI2SK)}, expected ${expected}`);
}

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

/** A wrong counter repair leaves: reported as withheld. */
function withhold(run: CheckRun, item: Item, detail: string): void {
  const w = run.state.withheld!;
  w.count += 1;
  if (w.samples.length < SAMPLES) w.samples.push({ key: jsonSafe(run.keys.itemKey(item)) as Record<string, unknown>, detail });
}

/** Findings that make an item no evidence for a count: its keys or values are not what the declaration says. */
const UNTRUSTED: readonly FindingKind[] = ['unmatched', 'keysWithSeparator', 'badValues', 'wrongIndexKeys'];

/**
 * The first item of `collection` this check flags with one of UNTRUSTED
 * (the collection read a page at a time within the read budget, each item
 * inspected on a scratch copy of the run's findings), or null.
 */
async function flaggedIn(run: CheckRun, collection: Collection): Promise<{ key: Record<string, unknown>; kind: FindingKind } | null> {
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
function relationContextOf(run: CheckRun): RelationFixContext {
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
async function repairPage(run: CheckRun, copyNeeds: RelationNeed[], wrong: WrongCounter[]): Promise<void> {
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
function inCatalogLane<T>(run: CheckRun, fn: () => Promise<T>): Promise<T> {
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
async function repairKeys(run: CheckRun, repairs: KeyRepair[]): Promise<void> {
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

async function writeLayoutFix(run: CheckRun, item: Item, fix: LayoutFix): Promise<void> {
  const { doc, tableName, keys } = run;
  const update = layoutFixUpdate(tableName, keys, item, fix);
  if (fix.kind === 'enter-catalog') {
    const { spec, id } = fix;
    await transact({ doc, tableName }, [{ Update: update }, catalogCounterChange(tableName, keys, spec, id, 1)]);
  } else await doc.send(new UpdateCommand(update));
}

/** @indexed written keys, each set only where still absent. */
async function writeAbsentKeys(run: CheckRun, item: Item, set: Record<string, string>): Promise<void> {
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
async function checkCatalogCounters(run: CheckRun): Promise<void> {
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

async function repairCatalogCounter(run: CheckRun, key: Record<string, unknown>, seen: unknown, count: number): Promise<void> {
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
