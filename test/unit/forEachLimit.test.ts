/** The bounded-concurrency loop of fan-outs and cascades. */
import { describe, expect, it } from 'vitest';
import { forEachLimit } from '../../src/writes/fanOut.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('forEachLimit', () => {
  it('runs every item with at most `concurrency` in flight', async () => {
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    await forEachLimit(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async (i) => {
        peak = Math.max(peak, ++active);
        await tick();
        active--;
        done.push(i);
      },
    );
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(4);
  });

  it('starts nothing new after a failure, lets calls in flight finish, and rethrows the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = forEachLimit(
      Array.from({ length: 10 }, (_, i) => i),
      2,
      async (i) => {
        started.push(i);
        await tick();
        if (i === 2) throw new Error('edge 2 failed');
        finished.push(i);
      },
    );
    await expect(run).rejects.toThrow('edge 2 failed');
    expect(started).toEqual([0, 1, 2, 3]);
    expect(finished).toEqual([0, 1, 3]);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await forEachLimit([], 8, async () => {
      calls++;
    });
    expect(calls).toBe(0);
  });
});
