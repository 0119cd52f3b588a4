/**
 * Smoke test of `npm run bench`'s report (bench/run.ts): from the figures
 * of a run, the comparison tables of old vs new and of its control (a
 * second process of the same gateway, `twin`), judged by the same rule.
 */
import { describe, expect, it } from 'vitest';
import { oldVsNew, report, variantSettings, type CaseResult, type ModeResult } from '../../bench/run.js';
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
    const text = report(
      [
        row({
          gateway: served([1, 1]),
          naive: { ...served([2, 2]), metrics: { ...metrics, requests: 3, byOperation: { GetItem: 3 } } },
          direct: served([0.5, 0.5]),
        }),
      ],
      { loadAverage: '1', elapsedSeconds: 60 },
    );
    expect(text).toContain('| customer(id) { name orders(last: 10) } | gateway | 1 (1 Query) |');
    // gateway ÷ direct ops/s, direct ÷ gateway CPU, gateway ÷ naive ops/s, requests gateway / naive.
    expect(text).toContain('| customer(id) { name orders(last: 10) } | 1.00 | 0.50 | 1.00 | 1 / 3 |');
    expect(text).not.toContain('Old vs new');
  });

  it('reports the second process of the gateway against the first, round by round', () => {
    const lines = oldVsNew([row({ gateway: served([1, 1, 1, 1]), baseline: served([0.8, 0.8, 0.8, 0.8]), twin: served([1.2, 0.9, 1.0, 1.0]) })], meta);
    const table = controlTable(lines);
    expect(table).not.toBeNull();
    const cells = table!
      .find((l) => l.startsWith('| customer'))!
      .split('|')
      .map((c) => c.trim());
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
    const cells = controlTable(lines)!
      .find((l) => l.startsWith('| customer'))!
      .split('|')
      .map((c) => c.trim());
    expect(cells[8]).toBe('within 5%');
  });

  it('judges the gateway against a variant with other settings: a row passes only when every round saves 10%', () => {
    const lines = oldVsNew(
      [
        row({
          gateway: served([1, 1, 1]),
          twin: served([1, 1, 1]),
          'with DYNAMODB_READ_PATH=sdk': served([2, 2, 2]),
          'with GRAPHQL_EXECUTOR=graphql-js': served([1.05, 0.95, 1.2]),
        }),
      ],
      {},
    );
    const rowOf = (title: string) => {
      const start = lines.findIndex((l) => l.startsWith(`**The gateway against itself ${title}**`));
      return lines
        .slice(start)
        .find((l) => l.startsWith('| customer'))!
        .split('|')
        .map((c) => c.trim());
    };
    expect(rowOf('with DYNAMODB_READ_PATH=sdk')[6]).toBe('0.500 (0.50–0.50)');
    expect(rowOf('with DYNAMODB_READ_PATH=sdk')[8]).toBe('50% less');
    expect(rowOf('with GRAPHQL_EXECUTOR=graphql-js')[8]).toBe('within 10% (5% less)');
    expect(lines.filter((l) => l.includes('rows save at least 10% in every round'))).toEqual([
      '1 of 1 rows save at least 10% in every round; medians 0.50–0.50.',
      '0 of 1 rows save at least 10% in every round; medians 0.95–0.95.',
    ]);
  });

  it('reads a variant as SETTING=value pairs and refuses anything else', () => {
    expect(variantSettings('DYNAMODB_READ_PATH=sdk, GRAPHQL_EXECUTOR=graphql-js')).toEqual({ DYNAMODB_READ_PATH: 'sdk', GRAPHQL_EXECUTOR: 'graphql-js' });
    expect(() => variantSettings('sdk')).toThrow(/--variant: expected SETTING=value/);
    expect(() => variantSettings('')).toThrow(/--variant/);
  });
});
