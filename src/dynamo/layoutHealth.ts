/**
 * tableHealth(): the /health verdict of the HTTP server (health.ts
 * `tableState`, and a read of the layout record through the operations'
 * read path, `readsAnswer`) plus details for the response body: what the table lacks
 * of the current layout (table.ts `describeLayout`: GSI2, stream, time to
 * live, and whether its items need `npm run migrate`). The details never
 * turn a reachable table unhealthy: a table that needs migrating still
 * serves. Kept apart from health.ts so the Lambda bundle, which answers
 * /health with the verdict alone, does not carry table management.
 */
import type { Dynamo } from './client.js';
import { cachedProbe, readsAnswer, tableState, within, type TableState } from './health.js';
import { layoutStateKey, tableKeys } from './keys.js';
import { DEFAULT_TABLE_SHAPE, describeLayout, type Gsi2Readers, type TableShape } from './table.js';

export interface HealthReport {
  ok: boolean;
  /** DynamoDB says the table does not exist (`/health` answers `table-missing`). */
  missing?: boolean;
  /** Present when the layout could be read. */
  table?: { needsMigration: boolean; itemsLayoutVersion: number; lacks: string[] };
}

/** The verdict alone: one DescribeTable, then one GetItem (of the layout record) on the operations' read path. */
async function verdictOf(
  dynamo: Dynamo,
  tableName: string,
  seen?: (state: TableState) => void,
  shape: TableShape = DEFAULT_TABLE_SHAPE,
): Promise<HealthReport> {
  const state = await tableState(dynamo, tableName);
  seen?.(state);
  if (state === 'missing') return { ok: false, missing: true };
  return { ok: state === 'ok' && (await readsAnswer(dynamo, tableName, tableKeys(shape).key(layoutStateKey))) };
}

/** `detailsTimeoutMs`: how long the details may take before /health answers without them. */
export async function tableHealth(
  dynamo: Dynamo,
  tableName: string,
  detailsTimeoutMs = 2000,
  seen?: (state: TableState) => void,
  readers?: Gsi2Readers,
  shape?: TableShape,
): Promise<HealthReport> {
  const verdict = await verdictOf(dynamo, tableName, seen, shape);
  const { ok } = verdict;
  if (!ok) return verdict;
  const layout = await within(detailsTimeoutMs, () => describeLayout(dynamo.raw, tableName, readers, shape));
  return layout === null ? { ok } : { ok, table: { needsMigration: layout.needsMigration, itemsLayoutVersion: layout.itemsVersion, lacks: layout.lacks } };
}

/**
 * `/health`'s probe: the verdict alone (one DescribeTable, one GetItem) for callers who
 * see only the status, the verdict with the layout for those who see the
 * details; each cached for `ttlMs`. `seen` hears each check's state (the
 * table watch: a missing table is logged once); `readers` words the layout's messages.
 */
export function healthProbe(
  dynamo: Dynamo,
  tableName: string,
  ttlMs: number,
  seen?: (state: TableState) => void,
  readers?: Gsi2Readers,
  shape?: TableShape,
): (details: boolean) => Promise<boolean | HealthReport> {
  const verdict = cachedProbe(() => verdictOf(dynamo, tableName, seen, shape), ttlMs);
  const detailed = cachedProbe(() => tableHealth(dynamo, tableName, 2000, seen, readers, shape), ttlMs);
  return (details) => (details ? detailed() : verdict());
}
