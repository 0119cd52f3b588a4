/**
 * The findings one item of runCheck's Scan (check.ts) shows by itself, and
 * what it leaves to the page's checks (copies, counters, key repairs, marks).
 */
import { type Item } from '../dynamo/batchGet.js';
import { GSI1, layoutStateKey, parseShardPartition } from '../dynamo/keys.js';
import { DELETING_ATTR } from '../writes/conditions.js';
import { indexKeysOf } from '../writes/create.js';
import { type LayoutFix } from './layoutFix.js';
import { sourceAt, type ChildEndReads } from './childEnds.js';
import { copyField, countersOf } from './relationFix.js';
import { badValuesOf, jsonText } from './foreignValues.js';
import { marksOf, staleMarkDetail } from './marks.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';
import { type Classified, type PageWork, type CheckRun, add, reading } from './checkRun.js';

/** The findings an item shows by itself; what needs other items to be checked goes to `page`. */
export function inspect(run: CheckRun, item: Item, page: PageWork): void {
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
export function inspectBookkeeping(run: CheckRun, item: Item): void {
  const { PK, SK } = run.keys.keyOf(item);
  if (PK !== layoutStateKey.PK || SK !== layoutStateKey.SK || item.run === undefined) return;
  const migration = item.run as { id?: unknown; startedAt?: unknown };
  add(run, 'unfinishedRuns', item, `migrate run ${jsonText(migration.id)} started ${jsonText(migration.startedAt)} has not finished: running now, or stopped (npm run migrate resumes it)`);
}

/** Marks older than their window or lease: the work that set them stopped (marks.ts). */
export function inspectMarks(run: CheckRun, item: Item, what: Classified & { kind: 'item' }, page: PageWork): void {
  for (const mark of marksOf(item, run.markWindowMs, Date.now())) {
    if (!mark.stale) continue;
    add(run, 'staleMarks', item, staleMarkDetail(what.type.name, mark, run.markWindowMs));
    page.marks.push({ item, type: what.type, id: what.id, parentId: what.parentId, attr: mark.attr });
  }
}

export function inspectItem(run: CheckRun, item: Item, what: Classified & { kind: 'item' }, page: PageWork): void {
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

export function inspectEdge(run: CheckRun, item: Item, what: Classified & { kind: 'edge' }, page: PageWork): void {
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
export const childEndReads = (run: CheckRun): ChildEndReads => ({
  doc: run.doc,
  tableName: run.tableName,
  plan: run.plan,
  concurrency: run.concurrency,
  paced: (units, read) => reading(run, units, read),
});

/** GSI1 keys: the sort key and the partition key swapped (`shardedPk`: an edge of a sharded parent may carry `<sk>#<k>`). */
export function indexKeys(run: CheckRun, item: Item, what: string, shardedPk: string | null): void {
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
export function gsi2(run: CheckRun, item: Item, typeName: string, fix: LayoutFix | null): void {
  if (fix === null || fix.kind === 'index-keys') return; // GSI1 is checked above
  const absent = fix.kind === 'enter-catalog' || (fix.kind === 'order-date' && item.GSI2PK === undefined);
  const expected = `GSI2PK ${'GSI2PK' in fix.set ? fix.set.GSI2PK : item.GSI2PK}, GSI2SK ${fix.set.GSI2SK}`;
  if (absent) add(run, 'missingIndexKeys', item, `${typeName} lacks its GSI2 entry (${expected})`);
  else add(run, 'wrongIndexKeys', item, `${typeName} GSI2 entry is ${jsonText(item.GSI2PK)}/${jsonText(item.GSI2SK)}, expected ${expected}`);
}
