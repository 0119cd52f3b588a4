/**
 * The verdicts `npm run bench` prints per row (bench/compare.ts): a row is
 * called within the limit only when both servers made the same DynamoDB
 * requests and gave the same answer (the rule for the CPU ratios is tested
 * with the baseline's plumbing, test/unit/benchBaseline.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { median, pairedRatios, sameRequests, verdict } from '../../bench/compare.js';
import type { MetricsSummary } from '../../src/dynamo/metrics.js';

const metrics = (byOperation: Record<string, number>): MetricsSummary =>
  ({ requests: Object.values(byOperation).reduce((a, b) => a + b, 0), byOperation, consumedCapacity: 1, waves: 1, maxConcurrency: 1 }) as unknown as MetricsSummary;

describe('bench verdicts', () => {
  it('refuse to call a row equal when the requests differ, however close the CPU', () => {
    expect(verdict({ sameRequests: false, sameAnswer: true, ratios: [1, 1, 1] }, 0.05).text).toBe('**not comparable: requests differ**');
  });

  it('refuse to call a row equal when the answers differ', () => {
    expect(verdict({ sameRequests: true, sameAnswer: false, ratios: [0.9, 0.9] }, 0.05).text).toBe('**not comparable: answers differ**');
  });

  it('count requests as the same only when the total and each operation match', () => {
    expect(sameRequests(metrics({ Query: 1, GetItem: 1 }), metrics({ GetItem: 1, Query: 1 }))).toBe(true);
    expect(sameRequests(metrics({ Query: 2 }), metrics({ Query: 1, GetItem: 1 }))).toBe(false);
    expect(sameRequests(metrics({ Query: 11, BatchGetItem: 1 }), metrics({ Query: 11, BatchGetItem: 2 }))).toBe(false);
  });

  it('pair the rounds that have figures on both sides, and give none when most lack them', () => {
    expect(pairedRatios([2, 3, NaN, 4], [1, 3, 2, 2])).toEqual([2, 1, 2]);
    expect(pairedRatios([NaN, NaN, NaN, 4], [1, 1, 1, 2])).toEqual([]);
    expect(median(pairedRatios([NaN], [1]))).toBeNaN();
  });

  it('take the median of the rounds', () => {
    expect(median([1.2, 0.9, 1.0])).toBe(1.0);
    expect(median([1, 2, 3, 10])).toBe(2.5);
  });
});
