/**
 * The replayed comparison's rounds (bench/replay.ts): the runs of a round
 * are alive at once but take turns, so no two of them run at the same
 * moment and each gets many short turns.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canTakeTurns, replayComparison, takeTurns, type Side } from '../../bench/replay.js';

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

// A stand-in for bench/cpu.ts: one request per operation to DYNAMODB_ENDPOINT, the measured ones only without --replay,
// then the summary line bench/cpu.ts prints: 1 ms per operation replayed, 2 without.
const HARNESS = `
const args = process.argv.slice(1);
const arg = (name) => Number(args[args.indexOf(name) + 1]);
const replay = args.includes('--replay');
const send = () => fetch(process.env.DYNAMODB_ENDPOINT, { method: 'POST', headers: { 'x-amz-target': 'DynamoDB_20120810.GetItem' }, body: '{}' }).then((r) => r.text());
(async () => {
  if (process.env.RUNS_LOG) require('node:fs').appendFileSync(process.env.RUNS_LOG, JSON.stringify({ ops: arg('--ops'), warmup: arg('--warmup') }) + '\\n');
  for (let i = 0; i < arg('--warmup'); i++) await send();
  for (let i = 0; i < arg('--ops'); i++) if (!replay) await send();
  const ms = arg('--ops') * (replay ? 1 : 2);
  console.error(\`\${arg('--ops')} ops in 10 ms, process CPU 10 ms, measured CPU \${ms} ms (1.000 ms/op), 0 failed\`);
})();
`;

describe('the comparison rounds', () => {
  async function compare(replayed: boolean, env: Record<string, string> = {}, sides: Side[] = ['old', 'new']) {
    const { createServer } = await import('node:http');
    const dynamo = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
    await new Promise<void>((resolve) => dynamo.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(dynamo.address() as { port: number }).port}`;
    const harness = (side: Side) => ({ side, command: ['-e', HARNESS, '--'], cwd: process.cwd(), env, how: 'bundle' as const });
    try {
      return await replayComparison({ harnesses: sides.map(harness), cases: ['a case'], endpoint, pairs: 2, targetMs: 200, replayed, warmupOps: 30 });
    } finally {
      dynamo.closeAllConnections();
      await new Promise((resolve) => dynamo.close(resolve));
    }
  }

  it('replayed, passes --replay and counts the warm-up requests per warm-up operation', async () => {
    const [row] = await compare(true);
    expect(row!.error).toBeUndefined();
    expect(row!.runs.old).toHaveLength(2);
    for (const run of [...row!.runs.old!, ...row!.runs.new!]) expect(run).toMatchObject({ msPerOp: 1, requests: { GetItem: 1 } });
  }, 60_000);

  it('through DynamoDB Local, sends every operation there and counts them all', async () => {
    const [row] = await compare(false);
    expect(row!.error).toBeUndefined();
    // Calibrated at 2 ms per operation: 100 operations make the 200 ms asked for.
    expect(row!.ops).toBe(100);
    for (const run of [...row!.runs.old!, ...row!.runs.new!]) expect(run).toMatchObject({ msPerOp: 2, requests: { GetItem: 1 } });
  }, 60_000);

  it('runs the control (a second copy of the new harness) in every round, measured and counted as the others', async () => {
    const [row] = await compare(true, {}, ['old', 'new', 'control']);
    expect(row!.error).toBeUndefined();
    expect(Object.keys(row!.runs).sort()).toEqual(['control', 'new', 'old']);
    expect(row!.runs.control).toHaveLength(2);
    for (const run of row!.runs.control!) expect(run).toMatchObject({ msPerOp: 1, requests: { GetItem: 1 }, failed: 0 });
  }, 60_000);

  it('calibrates after as long a warm-up as the measured runs get, so a case is sized from its steady cost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runs-'));
    try {
      const log = join(dir, 'runs.jsonl');
      const [row] = await compare(true, { RUNS_LOG: log });
      const runs = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ops: number; warmup: number });
      // The calibration first (200 operations), then 2 pairs of 2 sides, all after the same warm-up.
      expect(runs).toHaveLength(5);
      expect(runs[0]).toEqual({ ops: 200, warmup: 30 });
      for (const run of runs.slice(1)) expect(run).toEqual({ ops: row!.ops, warmup: 30 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
