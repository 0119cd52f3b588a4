/**
 * The state of one runCheck (check.ts): its findings, the state file it
 * resumes from, and the read and write budgets its work takes from.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ulid } from 'ulid';
import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Item } from '../dynamo/batchGet.js';
import { type Collection } from '../dynamo/collection.js';
import { COUNTER_SK, FAILED_SK_PREFIX, GSI1, IDEMPOTENCY_PREFIX, IDEMPOTENCY_SK, isBookkeeping, parseShardPartition, SHARD_SK_PREFIX, STREAM_PREFIX } from '../dynamo/keys.js';
import { tableContradictions } from '../dynamo/table.js';
import type { Plan } from '../plan/plan.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import { source, type CopiedField } from '../stream/propagate.js';
import { MODEL_PARTITION } from '../stream/modelWork.js';
import { writePlanOf, type EdgePair } from '../writes/writePlan.js';
import type { Store } from '../writes/store.js';
import { compileLayoutFix, type LayoutFix } from './layoutFix.js';
import { RateLimiter } from './rateLimiter.js';
import { type SourceAt } from './childEnds.js';
import { CounterEvidence, emptyEvidence, type EvidenceState } from './counterEvidence.js';
import { compileSeparatorCheck, jsonSafe } from './foreignValues.js';
import { MARK_WINDOW_MS, pacedDoc, type StaleMark } from './marks.js';

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

export interface SegmentState {
  lastKey: Record<string, unknown> | null;
  done: boolean;
  scanned: number;
}

export interface StateFile {
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

export const emptyFindings = (): CheckReport['findings'] =>
  Object.fromEntries(FINDING_KINDS.map((k) => [k, { count: 0, samples: [] }])) as unknown as CheckReport['findings'];

/** The table as DescribeTable gives it, or CheckInputError naming what is wrong with it. */
export async function describeChecked(raw: DynamoDBClient, tableName: string, plan: Plan) {
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
export type Classified =
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
export type CopyToCheck = { edge: Item; field: CopiedField } & SourceAt;

/** Index keys an item lacks: migrate's layout fix, or @indexed written keys. */
export type KeyRepair = { item: Item; fix: LayoutFix } | { item: Item; set: Record<string, string> };

/** A counter to compare with a count of its collection. */
export interface CounterToCheck {
  item: Item;
  counter: string;
  collection: Collection;
}

export type WrongCounter = { item: Item; counter: string; seen: unknown; collection: Collection };

/** What one page's items need beyond themselves: copies and counters to compare, keys to add, stale marks to finish. */
export interface PageWork {
  copies: CopyToCheck[];
  counters: CounterToCheck[];
  keyRepairs: KeyRepair[];
  marks: StaleMark[];
}

export const emptyPage = (): PageWork => ({ copies: [], counters: [], keyRepairs: [], marks: [] });

/** One run: its settings, budgets, totals and the state file's contents (checkpoints, findings, repairs). */
export interface CheckRun {
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
export function readState(options: CheckOptions): StateFile | null {
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

export async function openRun(options: CheckOptions): Promise<{ run: CheckRun; resumed: boolean }> {
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

export const found = (run: CheckRun) => FINDING_KINDS.reduce((n, k) => n + run.state.findings[k].count, 0);

export function report(run: CheckRun): void {
  const { totals } = run;
  run.options.onProgress?.({ scanned: totals.scanned, estimatedTotal: run.estimatedTotal, found: found(run), segmentsDone: totals.segmentsDone, segments: run.segments });
}

export function saveState(run: CheckRun): void {
  const path = run.options.statePath;
  if (!path) return;
  // Written whole and renamed into place: a crash mid-write leaves the previous state.
  writeFileSync(`${path}.tmp`, JSON.stringify(jsonSafe(run.state)));
  renameSync(`${path}.tmp`, path);
}

export function add(run: CheckRun, kind: FindingKind, item: Item, detail: string): void {
  const f = run.state.findings[kind];
  f.count += 1;
  if (f.samples.length < SAMPLES) f.samples.push({ key: jsonSafe(run.keys.itemKey(item)) as Record<string, unknown>, detail });
}

/** A read within the read budget; `units` is its estimate. */
export async function reading<T>(run: CheckRun, units: number, fn: () => Promise<T>): Promise<T> {
  await run.reads.take(units);
  run.totals.readUnits += units;
  return fn();
}

/** A write within the write budget; `units` is its estimate. */
export async function writing(run: CheckRun, units: number): Promise<void> {
  await run.writes.take(units);
  run.totals.writeUnits += units;
}
