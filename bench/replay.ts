/**
 * The GraphQL layer's CPU, old vs new, without DynamoDB Local's noise: the
 * second old-vs-new table of `npm run bench -- --baseline <ref>`.
 *
 * In:  one harness per side (`old`: the baseline's bench/cpu.ts, `new`:
 *      this checkout's, `big`: this checkout's serving the 50-type model),
 *      each bundled by its own version's scripts/bundle.ts
 *      (bench/baseline.ts, replayHarness()); the run's DynamoDB Local, seeded.
 * Out: per bench case, `pairs` runs of each side, the sides' order rotating
 *      from one pair to the next: CPU per operation of each run, and the
 *      DynamoDB requests each side made per operation.
 *
 * Each run is one process: `cpu.mjs --case <name> --ops N --warmup W
 * --replay`. The warm-up sends the real requests to DynamoDB Local and
 * records the answers; the N measured operations are answered from memory,
 * so the CPU measured is Apollo's pipeline, the plugins, resolvers,
 * loaders, mapping, execution and serialization, with no socket, no SDK and
 * no Java process competing for the two cores at the same moment.
 *
 * Requests are counted outside the harness (a harness of another version
 * need not report them): each run reaches DynamoDB Local through a
 * loopback proxy that counts requests by operation (`X-Amz-Target`).
 * A complete replay sends only the warm-up's requests, so a side's requests
 * per operation are the count ÷ W; a replay that missed (an input that
 * differs per operation) shows up as more, and a count that does not divide
 * evenly is shown as a fraction: either way not equal to the other side's.
 *
 * N is calibrated once per case (a short run of the new side) so that each
 * run measures about `targetMs` of CPU; every run of a case uses the same N.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';

export type Side = 'old' | 'new' | 'big';

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

/** Operations for a run measuring about `targetMs` of CPU, from a calibration run's ms per operation. */
export function opsFor(msPerOp: number, targetMs: number): number {
  if (!Number.isFinite(msPerOp) || msPerOp <= 0) return 500;
  return Math.min(20_000, Math.max(50, Math.round(targetMs / msPerOp)));
}

/** Warm-up operations for a run of `ops`: enough to compile the hot paths and record every answer, few enough for DynamoDB Local. */
export const warmupFor = (ops: number) => Math.min(200, Math.max(32, Math.round(ops / 10)));

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

/** One run of a harness: its process's summary, or an error with the end of its stderr. */
function runOnce(h: Harness, args: string[], endpoint: string): Promise<{ ops: number; measuredMs: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...h.command, ...args], {
      cwd: h.cwd,
      env: { ...process.env, ...h.env, DYNAMODB_ENDPOINT: endpoint },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const summary = parseSummary(stderr);
      if (summary) resolve(summary);
      else reject(new Error(`${h.side} harness exited (${code}) without a summary: ${stderr.trim().slice(-600)}`));
    });
  });
}

export interface ReplayOptions {
  harnesses: Harness[];
  cases: string[];
  /** The run's DynamoDB Local, seeded. */
  endpoint: string;
  pairs: number;
  targetMs: number;
  log?: (line: string) => void;
}

/** Every case, `pairs` rotated rounds of every harness. */
export async function replayComparison(options: ReplayOptions): Promise<ReplayRow[]> {
  const log = options.log ?? (() => {});
  const proxy = await countingProxy(options.endpoint);
  const rows: ReplayRow[] = [];
  try {
    const calibrator = options.harnesses.find((h) => h.side === 'new') ?? options.harnesses[0]!;
    for (const name of options.cases) {
      const row: ReplayRow = { name, ops: 0, warmup: 0, runs: {}, load: os.loadavg()[0]! };
      rows.push(row);
      try {
        const calibration = await runOnce(calibrator, ['--case', name, '--ops', '100', '--warmup', '16', '--replay'], proxy.url);
        proxy.take();
        row.ops = opsFor(calibration.measuredMs / calibration.ops, options.targetMs);
        row.warmup = warmupFor(row.ops);
        for (let i = 0; i < options.pairs; i++) {
          for (const h of pairOrder(options.harnesses, i)) {
            proxy.take();
            const s = await runOnce(h, ['--case', name, '--ops', String(row.ops), '--warmup', String(row.warmup), '--replay'], proxy.url);
            (row.runs[h.side] ??= []).push({ msPerOp: s.measuredMs / s.ops, requests: perOperation(proxy.take(), row.warmup), failed: s.failed });
          }
          process.stderr.write(`\rreplay ${name}: pair ${i + 1}/${options.pairs}`);
        }
        process.stderr.write('\n');
      } catch (error) {
        // One case failing leaves the others' figures standing.
        row.error = String((error as Error).message ?? error).slice(0, 300);
        log(`  replay of ${name} FAILED: ${row.error}`);
      }
    }
  } finally {
    await proxy.close();
  }
  return rows;
}
