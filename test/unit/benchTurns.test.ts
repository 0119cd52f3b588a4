/**
 * The replayed comparison's rounds (bench/replay.ts): the runs of a round
 * are alive at once but take turns, so no two of them run at the same
 * moment and each gets many short turns.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { canTakeTurns, takeTurns } from '../../bench/replay.js';

// Busy for 240 ms of its own running time, noting the wall-clock millisecond of each moment it ran; prints them at the end.
const BUSY = `
const seen = new Set(); let ran = 0; let last = performance.now();
while (ran < 240) { const now = performance.now(); const step = now - last; last = now; if (step < 5) ran += step; seen.add(Math.floor(Date.now())); }
console.log(JSON.stringify([...seen]));
`;

function busy(name: string) {
  const child = spawn(process.execPath, ['-e', BUSY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const done = new Promise<{ name: string; ms: number[] }>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve({ name, ms: JSON.parse(out) as number[] }) : reject(new Error(`${name} exited ${code}`)))),
  );
  return { child, done };
}

describe.skipIf(!canTakeTurns)('the runs of a replay round', () => {
  it('take turns: never two running in the same moment, each in several turns', async () => {
    const outcomes = await takeTurns([() => busy('a'), () => busy('b')], 20);
    const [a, b] = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : null));
    expect(a && b).toBeTruthy();
    const inA = new Set(a!.ms);
    // Milliseconds both processes noted: at most the switches' edges (a turn ends within the millisecond the next begins).
    const both = b!.ms.filter((ms) => inA.has(ms));
    const timeline = [...a!.ms.map((ms) => [ms, 'a'] as const), ...b!.ms.map((ms) => [ms, 'b'] as const)].sort((x, y) => x[0] - y[0]);
    let turns = 1;
    for (let i = 1; i < timeline.length; i++) if (timeline[i]![1] !== timeline[i - 1]![1]) turns += 1;
    expect(turns).toBeGreaterThanOrEqual(6);
    expect(both.length).toBeLessThanOrEqual(turns);
  }, 30_000);

  it('reports a run that fails in its place and still finishes the others', async () => {
    const failing = () => {
      const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
      return { child, done: new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`exited ${code}`)))) };
    };
    const outcomes = await takeTurns([failing, () => busy('b')], 20);
    expect(outcomes[0]!.status).toBe('rejected');
    expect(outcomes[1]!.status).toBe('fulfilled');
  }, 30_000);
});
