/**
 * Smoke test of `npm run bench`'s report (bench/run.ts): from the figures
 * of a run, the comparison tables of old vs new and of its control (a
 * second process of the same gateway, `twin`), judged by the same rule.
 */
import { describe, expect, it } from 'vitest';
import { oldVsNew, report, type CaseResult, type ModeResult } from '../../bench/run.js';
import type { MetricsSummary } from '../../src/dynamo/metrics.js';

const metrics: MetricsSummary = { requests: 1, byOperation: { Query: 1 }, consumedCapacity: 0.5, waves: 1, maxConcurrency: 1 };

const served = (roundCpu: number[]): ModeResult => ({
  metrics,
  agrees: true,
  p50: 10,
  p99: 20,
  opsPerSec: 1000,
  failures: 0,
  cpu: { server: roundCpu.reduce((a, b) => a + b, 0) / roundCpu.length, dynamodb: 1, client: 0.1 },
  roundCpu,
});

const row = (results: CaseResult['results']): CaseResult => ({ name: 'customer(id) { name orders(last: 10) }', results, load: 1 });
const meta = { baseline: 'abc1234' };

const controlTable = (lines: string[]) => {
  const start = lines.findIndex((l) => l.startsWith('**Control, identical code, end to end**'));
  return start < 0 ? null : lines.slice(start, start + 6);
};

describe('the bench report', () => {
  it('reports requests per operation and the gateway against the hand-written endpoint and the naive gateway', () => {
    const text = report([row({ gateway: served([1, 1]), naive: { ...served([2, 2]), metrics: { ...metrics, requests: 3, byOperation: { GetItem: 3 } } }, direct: served([0.5, 0.5]) })], { loadAverage: '1', elapsedSeconds: 60 });
    expect(text).toContain('| customer(id) { name orders(last: 10) } | gateway | 1 (1 Query) |');
    // gateway ÷ direct ops/s, direct ÷ gateway CPU, gateway ÷ naive ops/s, requests gateway / naive.
    expect(text).toContain('| customer(id) { name orders(last: 10) } | 1.00 | 0.50 | 1.00 | 1 / 3 |');
    expect(text).not.toContain('Old vs new');
  });


  it('reports the second process of the gateway against the first, round by round', () => {
    const lines = oldVsNew(
      [row({ gateway: served([1, 1, 1, 1]), baseline: served([0.8, 0.8, 0.8, 0.8]), twin: served([1.2, 0.9, 1.0, 1.0]) })],
      meta,
    );
    const table = controlTable(lines);
    expect(table).not.toBeNull();
    const cells = table!.find((l) => l.startsWith('| customer'))!.split('|').map((c) => c.trim());
    // new again ÷ new: rounds 1.2, 0.9, 1.0, 1.0 → median 1.0, one round above 1.05.
    expect(cells[6]).toBe('1.000 (0.90–1.20)');
    expect(cells[8]).toBe('within noise (median ±0%)');
    // The old-vs-new table of the same rounds is still there, and judges old against new, not the twin.
    const old = lines.find((l) => l.startsWith('| customer') && !table!.includes(l))!;
    expect(old.split('|')[6]!.trim()).toBe('1.250 (1.25–1.25)');
  });

  it('prints no control table when no twin ran', () => {
    const lines = oldVsNew([row({ gateway: served([1, 1, 1]), baseline: served([1, 1, 1]) })], meta);
    expect(controlTable(lines)).toBeNull();
    expect(lines.some((l) => l.startsWith('**Old vs new, end to end**'))).toBe(true);
  });

  it('gives the control a table of its own even without a baseline', () => {
    const lines = oldVsNew([row({ gateway: served([1, 1, 1]), twin: served([1.01, 0.99, 1.02]) })], {});
    const cells = controlTable(lines)!.find((l) => l.startsWith('| customer'))!.split('|').map((c) => c.trim());
    expect(cells[8]).toBe('within 5%');
  });
});
