import { describe, expect, it } from 'vitest';
import { capacityUnits, OperationMetrics } from '../../src/dynamo/metrics.js';

describe('OperationMetrics', () => {
  it('counts calls issued together as one wave and a call after them as the next', () => {
    const m = new OperationMetrics();
    const a = m.callStarted();
    const b = m.callStarted();
    m.callFinished(a);
    m.callFinished(b);
    const c = m.callStarted();
    m.callFinished(c);
    expect(m.summary()).toMatchObject({ waves: 2, maxConcurrency: 2 });
  });

  it('counts a retry as a request and tallies it among the retries', () => {
    const m = new OperationMetrics();
    m.record('GetItem');
    m.record('GetItem', true);
    m.record('Query');
    expect(m.byOperation).toEqual({ GetItem: 2, Query: 1 });
    expect(m.requests).toBe(3);
    expect(m.retriesByOperation).toEqual({ GetItem: 1 });
  });

  it('does not deepen a wave for a call started while its siblings are still in flight', () => {
    const m = new OperationMetrics();
    const a = m.callStarted();
    const b = m.callStarted();
    m.callFinished(a);
    const c = m.callStarted(); // may depend on a: depth 2
    m.callFinished(b);
    m.callFinished(c);
    expect(m.waves).toBe(2);
  });

  it('sums consumed capacity from single responses and from the arrays of batch and transaction responses', () => {
    expect(capacityUnits({ CapacityUnits: 0.5 })).toBe(0.5);
    expect(capacityUnits([{ CapacityUnits: 1 }, { CapacityUnits: 2.5 }, {}])).toBe(3.5);
    expect(capacityUnits(undefined)).toBe(0);
    const m = new OperationMetrics();
    m.recordCapacity(0.1);
    m.recordCapacity(0.2);
    expect(m.summary().consumedCapacity).toBe(0.3);
  });
});
