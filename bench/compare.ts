/**
 * The verdicts of `npm run bench` (bench/run.ts): whether two servers made
 * the same DynamoDB requests for a row, and whether one's CPU per operation
 * is within a limit of the other's. A row whose requests or answers differ
 * is never called equal: its CPU figures would compare different work.
 */
import { isDeepStrictEqual } from 'node:util';
import type { MetricsSummary } from '../src/dynamo/metrics.js';

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * after[i] ÷ before[i] for the rounds where both have a figure (a run on an overloaded
 * machine can complete no operation); none when fewer than half the rounds have one.
 */
export function pairedRatios(after: number[], before: number[]): number[] {
  const ratios = after.map((x, i) => x / before[i]!).filter((r) => Number.isFinite(r) && r > 0);
  return ratios.length * 2 >= after.length && ratios.length > 0 ? ratios : [];
}

/** Same requests: the total and the count per DynamoDB operation. */
export const sameRequests = (a: MetricsSummary, b: MetricsSummary) => a.requests === b.requests && isDeepStrictEqual({ ...a.byOperation }, { ...b.byOperation });

/**
 * The verdict of one row: never "within" when the requests or the answers differ (the
 * CPU figures would then compare different work); otherwise the ratio against the limit.
 */
export function verdict(row: { sameRequests: boolean; sameAnswer: boolean; ratio: number }, limit: number): string {
  if (!row.sameRequests) return '**not comparable: requests differ**';
  if (!row.sameAnswer) return '**not comparable: answers differ**';
  if (!Number.isFinite(row.ratio) || row.ratio <= 0) return 'not measured';
  const pct = Math.round(Math.abs(row.ratio - 1) * 100);
  if (row.ratio <= 1 + limit) return row.ratio < 1 ? `within ${limit * 100}% (${pct}% less)` : `within ${limit * 100}%`;
  return `**${pct}% more CPU**`;
}

