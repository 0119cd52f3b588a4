/**
 * The GraphQL layer's CPU, old vs new, without DynamoDB Local's noise: the
 * second old-vs-new table of `npm run bench -- --baseline <ref>`.
 *
 * In:  one harness per side (`old`: the baseline's bench/cpu.ts, `new`:
 *      this checkout's, `big`: this checkout's serving the 50-type model),
 *      each bundled by its own version's scripts/bundle.ts
 *      (bench/baseline.ts, replayHarness()); the run's DynamoDB Local, seeded.
 * Out: per bench case, `pairs` rounds, each with one run of every side:
 *      CPU per operation of each run, and the DynamoDB requests each side
 *      made per operation.
 *
 * The runs of a round run at once, taking turns: every process is stopped
 * (SIGSTOP) but one, which runs for a slice of `sliceMs` (40 ms) before the
 * next one's turn (SIGCONT), round-robin until all are done. So the sides
 * of a round meet the same moments of a shared machine (another job
 * starting, the CPU's clock changing), which separate runs one after the
 * other do not: the ratio of a round compares like with like. Only one of
 * them runs at any time, so none competes with another for a core. Where
 * processes cannot be stopped (Windows), the runs of a round go one after
 * the other, their order rotating from round to round.
 *
 * Each run is one process: `cpu.mjs --case <name> --ops N --warmup W
 * --replay`. The warm-up sends the real requests to DynamoDB Local and
 * records the answers; the N measured operations are answered from memory,
 * so the CPU measured is Apollo's pipeline, the plugins, resolvers,
 * loaders, mapping, execution and serialization, with no socket, no SDK and
 * no Java process competing for the two cores at the same moment.
 *
 * Requests are counted outside the harness (a harness of another version
 * need not report them): each side reaches DynamoDB Local through a
 * loopback proxy of its own that counts requests by operation
 * (`X-Amz-Target`).
 * A complete replay sends only the warm-up's requests, so a side's requests
 * per operation are the count ÷ W; a replay that missed (an input that
 * differs per operation) shows up as more, and a count that does not divide
 * evenly is shown as a fraction: either way not equal to the other side's.
 *
 * The same rounds run once more without `--replay` (`replayed: false`):
 * every operation then goes through the SDK and a socket to DynamoDB Local,
 * as a server's do, still taking turns, so the SDK's part is compared too
 * and each side's requests are counted over all its operations.
 *
 * N is calibrated once per case (a short run of the new side) so that each
 * run measures about `targetMs` of CPU; every run of a case uses the same N,
 * after a warm-up of N/2 operations (300 to 1500), so the measured part runs
 * code V8 has finished optimizing (with shorter warm-ups the same bundle's
 * runs differed by up to a third).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';

/**
 * `old`: the baseline's harness; `new`: this checkout's; `big`: this checkout's with the 50-type model;
 * `control`: a second copy of this checkout's, run like the others: identical code, so its ratio to
 * `new` shows how far a round moves with no difference in the code (`--control`).
 */
export type Side = 'old' | 'new' | 'big' | 'control';

export interface Harness {
  side: Side;
  /** Node arguments: flags, then the entry (absolute). */
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** `bundle` (its version's own bundling) or `tsx` (its sources). */
  how: 'bundle' | 'tsx';
}

export interface ReplayRun {
  /** Measured CPU, ms per operation. */
  msPerOp: number;
  /** DynamoDB requests per operation, by operation (count ÷ warm-up operations). */
  requests: Record<string, number>;
  failed: number;
}

export interface ReplayRow {
  name: string;
  ops: number;
  warmup: number;
  runs: Partial<Record<Side, ReplayRun[]>>;
  /** 1-minute load average of the machine when the case's replay began. */
  load: number;
  /** Why a row has no figures (a run failed), if it has none. */
  error?: string;
}

/** The summary line bench/cpu.ts prints on stderr (the same words in every version that has `--replay`). */
export function parseSummary(stderr: string): { ops: number; measuredMs: number; failed: number } | null {
  const m = /(\d+) ops in \d+ ms, process CPU \d+ ms, measured CPU (\d+) ms \([\d.]+ ms\/op\), (\d+) failed/.exec(stderr);
  return m ? { ops: Number(m[1]), measuredMs: Number(m[2]), failed: Number(m[3]) } : null;
}

/** Requests per operation from a proxy's counts over `warmup` warm-up operations. */
export function perOperation(counts: Record<string, number>, warmup: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, n]) => [op, n / warmup]),
  );
}

/** The order of the sides in pair `i`: rotated by one each pair, so each side runs first and follows each other side. */
export function pairOrder<T>(sides: T[], i: number): T[] {
  const shift = i % sides.length;
  return [...sides.slice(shift), ...sides.slice(0, shift)];
}

/** The young generation every harness run of the turn-taking tables has, per semi-space (MB). */
export const HARNESS_SEMI_SPACE_MB = 32;

/**
 * Node flags of every harness run (every side, every round): one fixed young
 * generation, `--min-semi-space-size` = `--max-semi-space-size` =
 * HARNESS_SEMI_SPACE_MB. V8 grows a process's young generation from what
 * has survived its scavenges so far, so with a growable one each side's
 * size followed what its harness did before the measured part: the old
 * version's bench/cpu.ts builds the whole data set in the process (it uses
 * only the ids), and so reached about twice the young generation of this
 * version's harness, which builds only the ids, and a garbage collection
 * (scavenge) for every 26 MB allocated instead of every 13 MB; the side
 * that allocated less then collected more often. Fixed, both sides collect
 * after the same amount of garbage, and a difference in CPU is one in what
 * the code does. `BENCH_REPLAY_NODE_FLAGS` replaces these flags (one
 * string, split at spaces).
 */
export function harnessNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  const flags = env.BENCH_REPLAY_NODE_FLAGS ?? `--min-semi-space-size=${HARNESS_SEMI_SPACE_MB} --max-semi-space-size=${HARNESS_SEMI_SPACE_MB}`;
  return flags.split(' ').filter(Boolean);
}

/** Operations for a run measuring about `targetMs` of CPU, from a calibration run's ms per operation. */
export function opsFor(msPerOp: number, targetMs: number): number {
  if (!Number.isFinite(msPerOp) || msPerOp <= 0) return 500;
  return Math.min(20_000, Math.max(50, Math.round(targetMs / msPerOp)));
}

/**
 * Warm-up operations before a run's measured part: enough for V8 to have compiled the hot paths (a
 * measured part that is still compiling costs several times the steady figure and spreads widely).
 * The same for every case, whatever it costs per operation: an optimizing compile is triggered by how
 * often a function runs, and the largest functions (the compiled query of 250 aliased fields) are
 * compiled last. With 300 warm-up operations that query measured at up to 1.5 times its steady cost.
 */
export const WARMUP_OPS = 1500;

/**
 * Measured operations of the calibration run that sizes a case's runs. It warms up as long as the
 * measured runs, so its ms per operation is the steady figure. A cold calibration (100 operations
 * of warm-up) read a short query at several times its steady cost; the runs then measured a few
 * hundred operations after 300 of warm-up, while V8 was still compiling, and a code base whose
 * compilation takes longer read as slower per operation.
 */
export const CALIBRATION_OPS = 200;

/** A loopback HTTP proxy to DynamoDB Local that counts requests by operation. */
export async function countingProxy(target: string): Promise<{ url: string; take: () => Record<string, number>; close: () => Promise<void> }> {
  const to = new URL(target);
  let counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    const op = String(req.headers['x-amz-target'] ?? 'unknown').split('.').pop()!;
    counts[op] = (counts[op] ?? 0) + 1;
    const headers: IncomingHttpHeaders = { ...req.headers, host: to.host };
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take: () => {
      const taken = counts;
      counts = {};
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Summary = { ops: number; measuredMs: number; failed: number };

/** One run of a harness, started: its process, and its summary (or an error with the end of its stderr) once it exits. */
function startRun(h: Harness, args: string[], endpoint: string): { child: ChildProcess; done: Promise<Summary> } {
  const child = spawn(process.execPath, [...h.command, ...args], {
    cwd: h.cwd,
    env: { ...process.env, ...h.env, DYNAMODB_ENDPOINT: endpoint },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8000)));
  const done = new Promise<Summary>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const summary = parseSummary(stderr);
      if (summary) resolve(summary);
      else reject(new Error(`${h.side} harness exited (${code}) without a summary: ${stderr.trim().slice(-600)}`));
    });
  });
  return { child, done };
}

/** Whether this platform can stop and continue a process (POSIX signals). */
export const canTakeTurns = process.platform !== 'win32';

/**
 * Runs the processes `start` makes at once, one at a time: all stopped but
 * the one whose turn it is, for `sliceMs` each, round-robin until every one
 * has exited. Resolves with their outcomes in order (a failed run's error
 * in its place).
 */
export async function takeTurns<T>(
  runs: (() => { child: ChildProcess; done: Promise<T> })[],
  sliceMs: number,
): Promise<PromiseSettledResult<T>[]> {
  const started = runs.map((start) => {
    const run = start();
    run.child.kill('SIGSTOP');
    // Settled at the end (allSettled below); a run failing before then is not an unhandled rejection.
    run.done.catch(() => {});
    let exited = false;
    const ended = new Promise<void>((resolve) => run.child.once('exit', () => resolve()));
    void ended.then(() => (exited = true));
    return { ...run, ended, exited: () => exited };
  });
  try {
    while (started.some((r) => !r.exited())) {
      for (const run of started) {
        if (run.exited()) continue;
        run.child.kill('SIGCONT');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, sliceMs))), run.ended]);
        clearTimeout(timer);
        if (!run.exited()) run.child.kill('SIGSTOP');
      }
    }
  } finally {
    // Never leave a stopped process behind (an error above, a harness that hangs).
    for (const run of started) if (!run.exited()) run.child.kill('SIGKILL');
  }
  return Promise.allSettled(started.map((r) => r.done));
}

export interface ReplayOptions {
  harnesses: Harness[];
  cases: string[];
  /** The run's DynamoDB Local, seeded. */
  endpoint: string;
  pairs: number;
  targetMs: number;
  /** Each process's turn when a round's runs take turns (default 40 ms). */
  sliceMs?: number;
  /** Warm-up operations of every run and of the calibration (default `WARMUP_OPS`; the tests' stand-in needs few). */
  warmupOps?: number;
  /**
   * Replayed (default): DynamoDB answered from memory after the warm-up.
   * false: every operation goes to DynamoDB Local through the SDK and a
   * socket, as a server's do; the measured CPU then includes the SDK's work,
   * and the proxy counts every operation's requests.
   */
  replayed?: boolean;
  log?: (line: string) => void;
}

/** Every case, `pairs` rounds of every harness: the runs of a round taking turns (or, without signals, rotated). */
export async function replayComparison(options: ReplayOptions): Promise<ReplayRow[]> {
  const log = options.log ?? (() => {});
  const replayed = options.replayed ?? true;
  const mode = replayed ? ['--replay'] : [];
  const what = replayed ? 'replay' : 'through DynamoDB Local';
  // A proxy per side: the runs of a round are alive at once, and each side's requests are counted apart.
  const proxies = await Promise.all(options.harnesses.map(() => countingProxy(options.endpoint)));
  const rows: ReplayRow[] = [];
  try {
    const calibrator = options.harnesses.findIndex((h) => h.side === 'new');
    for (const name of options.cases) {
      const row: ReplayRow = { name, ops: 0, warmup: 0, runs: {}, load: os.loadavg()[0]! };
      rows.push(row);
      try {
        const c = Math.max(0, calibrator);
        row.warmup = options.warmupOps ?? WARMUP_OPS;
        const calibration = await startRun(options.harnesses[c]!, ['--case', name, '--ops', String(CALIBRATION_OPS), '--warmup', String(row.warmup), ...mode], proxies[c]!.url).done;
        proxies[c]!.take();
        row.ops = opsFor(calibration.measuredMs / calibration.ops, options.targetMs);
        const args = ['--case', name, '--ops', String(row.ops), '--warmup', String(row.warmup), ...mode];
        // Replayed, only the warm-up reaches DynamoDB Local; otherwise every operation does.
        const counted = replayed ? row.warmup : row.warmup + row.ops;
        for (let i = 0; i < options.pairs; i++) {
          for (const p of proxies) p.take();
          const sides = options.harnesses.map((h, k) => ({ h, k }));
          const outcomes = canTakeTurns
            ? await takeTurns(sides.map(({ h, k }) => () => startRun(h, args, proxies[k]!.url)), options.sliceMs ?? 40)
            : await inTurn(pairOrder(sides, i), ({ h, k }) => startRun(h, args, proxies[k]!.url).done, sides);
          for (const { h, k } of sides) {
            const outcome = outcomes[k]!;
            if (outcome.status === 'rejected') throw outcome.reason;
            const s = outcome.value;
            (row.runs[h.side] ??= []).push({ msPerOp: s.measuredMs / s.ops, requests: perOperation(proxies[k]!.take(), counted), failed: s.failed });
          }
          process.stderr.write(`\r${what} ${name}: round ${i + 1}/${options.pairs}`);
        }
        process.stderr.write('\n');
      } catch (error) {
        // One case failing leaves the others' figures standing.
        row.error = String((error as Error).message ?? error).slice(0, 300);
        log(`  ${what}: ${name} FAILED: ${row.error}`);
      }
    }
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
  }
  return rows;
}

/** The runs one after the other in `order`; outcomes by the sides' own positions. */
async function inTurn<S extends { k: number }>(order: S[], run: (side: S) => Promise<Summary>, sides: S[]): Promise<PromiseSettledResult<Summary>[]> {
  const outcomes: PromiseSettledResult<Summary>[] = new Array(sides.length);
  for (const side of order) {
    try {
      outcomes[side.k] = { status: 'fulfilled', value: await run(side) };
    } catch (reason) {
      outcomes[side.k] = { status: 'rejected', reason };
    }
  }
  return outcomes;
}
