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
export const sameRequests = (a: MetricsSummary, b: MetricsSummary) =>
  a.requests === b.requests && isDeepStrictEqual({ ...a.byOperation }, { ...b.byOperation });

/**
 * The verdict of one row, from the per-round (or per-pair) ratios new ÷ old
 * of CPU per operation. A demanding reader should get the same verdict from
 * two runs of the same code on a shared machine, so a verdict is only
 * claimed when every round agrees with it:
 *
 * - requests or answers differ: not comparable (never "within");
 * - fewer than half the rounds have a figure: not measured;
 * - fewer than 3 rounds have one: too few rounds (one or two rounds
 *   cannot show that the rounds agree);
 * - every round at most 1 + limit: within the limit ("x% less" when every
 *   round is below 1 − limit as well);
 * - every round above 1 + limit: x% more (x from the median);
 * - the rounds straddle 1 + limit: the machine's noise is larger than the
 *   difference sought, and the verdict says so: "within noise" when the
 *   median is at most 1 + limit (not shown to exceed it), "x% more by the
 *   median" otherwise (probably above it, not every round agreeing).
 *
 * `pass` is true for "within" and "less" only; a straddling row never passes.
 */
export type VerdictKind = 'not comparable' | 'not measured' | 'too few rounds' | 'less' | 'within' | 'more' | 'noise, within' | 'noise, more';

export interface RowVerdict {
  kind: VerdictKind;
  text: string;
  pass: boolean;
  median: number;
  low: number;
  high: number;
}

/** The fewest rounds (pairs) with figures a row needs for any verdict on its CPU. */
export const MIN_ROUNDS = 3;

export function verdict(row: { sameRequests: boolean; sameAnswer: boolean; ratios: number[] }, limit: number): RowVerdict {
  const ratios = row.ratios.filter((r) => Number.isFinite(r) && r > 0);
  const enough = ratios.length > 0 && ratios.length * 2 >= row.ratios.length;
  const m = enough ? median(ratios) : NaN;
  const low = enough ? Math.min(...ratios) : NaN;
  const high = enough ? Math.max(...ratios) : NaN;
  const out = (kind: VerdictKind, text: string): RowVerdict => ({ kind, text, pass: kind === 'within' || kind === 'less', median: m, low, high });
  if (!row.sameRequests) return out('not comparable', '**not comparable: requests differ**');
  if (!row.sameAnswer) return out('not comparable', '**not comparable: answers differ**');
  if (!enough) return out('not measured', 'not measured');
  if (ratios.length < MIN_ROUNDS) return out('too few rounds', `too few rounds (${ratios.length}; median ${m.toFixed(2)})`);
  const pct = (r: number) => Math.round(Math.abs(r - 1) * 100);
  const limitPct = Math.round(limit * 100);
  const side = m < 1 ? `${pct(m)}% less` : `${pct(m)}% more`;
  if (high < 1 - limit) return out('less', `${pct(m)}% less`);
  if (high <= 1 + limit) return out('within', m < 1 ? `within ${limitPct}% (${side})` : `within ${limitPct}%`);
  if (low > 1 + limit) return out('more', `**${pct(m)}% more**`);
  if (m <= 1 + limit) return out('noise, within', `within noise (median ${pct(m) === 0 ? '±0%' : side})`);
  return out('noise, more', `**${pct(m)}% more by the median** (not every round)`);
}
