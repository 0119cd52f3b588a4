/**
 * `npm run bench:hot [-- --only rush|paging --seconds 4 --scale 0.05 --paging-size 200000]`
 *
 * Hot partitions, measured through the partition simulator
 * (bench/simulator/partitionSimulator.ts) in front of a DynamoDB Local this
 * runner starts. The gateway runs in this process (executeOperation, no
 * HTTP), with its production retry settings.
 *
 * Cases (each `{ name, measure }`):
 * - rush: clients enroll distinct students into one course at a fixed
 *   attempted rate, for 1, 8 and 32 shards: accepted per second, the share
 *   of attempts that ended UNAVAILABLE, p50/p99 latency, requests the
 *   simulator throttled (retried by the SDK or the gateway), and a check
 *   that totalCount equals the enrollments accepted.
 * - paging: a course of `--paging-size` enrollments (and one of 2,000, to
 *   show the cost does not grow with size) for 1 and 8 shards, seeded
 *   straight into Local with BatchWriteItem: first page, a page after a
 *   cursor in the middle, `last: 20`: requests, read units, latency.
 *
 * `--scale` multiplies the simulator's per-partition rates and the attempted
 * rates alike, so a small machine whose DynamoDB Local cannot serve 3,000
 * transactions a second still runs the rush at the same ratios; rates in
 * the table are divided by it again (real-DynamoDB terms). Latencies are
 * those of DynamoDB Local on this machine, retries and backoff included.
 */
import { parseArgs } from 'node:util';
import { createDynamo } from '../src/dynamo/client.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { ensureTable } from '../src/dynamo/table.js';
import { batchPut } from '../src/dynamo/batchWrite.js';
import type { Item } from '../src/dynamo/batchGet.js';
import { counterShardKey, shardOf } from '../test/support/model.js';
import { OperationMetrics } from '../src/dynamo/metrics.js';
import { createServer } from '../src/graphql/server.js';
import { createContext } from '../src/graphql/context.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { cursorOf } from '../src/connections/engine.js';
import { mergedShards } from '../src/connections/mergedShards.js';
import { courseStudentShards } from '../test/support/model.js';
import { courseItem, enrollmentItem, studentItem } from '../test/support/defaultItems.js';
import { startPartitionSimulator, type PartitionSimulator } from './simulator/partitionSimulator.js';
import { WRITE_DOCS_OPTION, writeDocument, wrote } from './output.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    seconds: { type: 'string', default: '4' },
    scale: { type: 'string', default: '0.02' },
    'paging-size': { type: 'string', default: '200000' },
    ...WRITE_DOCS_OPTION,
  },
});
const SECONDS = Number(opts.seconds);
const SCALE = Number(opts.scale);
const PAGING_SIZE = Number(opts['paging-size']);
const SHARDS = (process.env.BENCH_SHARDS ?? "1,8,32").split(",").map(Number);
const RATES: [number, number][] = [
  [300, 16],
  [1000, 32],
  [3000, 64],
];

type Env = Awaited<ReturnType<typeof setup>>;

async function setup() {
  const local = await startLocalDynamo({ port: 0 });
  const sim = await startPartitionSimulator({ target: local.endpoint, scale: SCALE, burstSeconds: 1 });
  const tableName = 'HotBench';
  const direct = createDynamo({ endpoint: local.endpoint, requestTimeoutMs: 60_000 });
  await ensureTable(direct.raw, tableName);
  const dynamo = createDynamo({ endpoint: sim.endpoint });
  const model = loadModel();
  const server = createServer({ prod: true, model });
  await server.start();
  const cursors = createCursorCodec({ current: 'bench-cursor-secret-0123456789abcdefghij' });
  const deps = { doc: dynamo.doc, readPath: dynamo.reads, tableName, cursors, plan: compilePlan(model) };
  async function run(query: string, variables?: Record<string, unknown>) {
    const metrics = new OperationMetrics();
    const started = performance.now();
    const response = await server.executeOperation({ query, variables }, { contextValue: createContext(deps, metrics) });
    const ms = performance.now() - started;
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return { result: response.body.singleResult as { data?: any; errors?: any[] }, metrics, ms };
  }
  return {
    local,
    sim,
    tableName,
    direct,
    dynamo,
    server,
    cursors,
    run,
    seed: (items: Item[], concurrency = 4) => seedDirect(direct.doc, tableName, items, concurrency),
    stop: async () => {
      await server.stop();
      dynamo.raw.destroy();
      direct.raw.destroy();
      await sim.stop();
      await local.stop();
    },
  };
}

async function seedDirect(doc: ReturnType<typeof createDynamo>['doc'], tableName: string, items: Item[], concurrency: number) {
  const chunk = 25 * 20;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const start = next;
        next += chunk;
        await batchPut(doc, tableName, items.slice(start, start + chunk));
      }
    }),
  );
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
const codeOf = (result: { errors?: any[] }) => result.errors?.[0]?.extensions?.code as string | undefined;

interface RushRow {
  shards: number;
  attemptedPerSecond: number;
  clients: number;
  attempts: number;
  acceptedPerSecond: number;
  unavailableShare: number;
  otherErrors: number;
  p50: number;
  p99: number;
  throttledRequests: number;
  totalCountExact: boolean;
  outcomes: Record<string, number>;
}

async function rushCase(env: Env, shards: number, rate: number, clients: number): Promise<RushRow> {
  const courseId = `rush-${shards}-${rate}`;
  const created = await env.run(`mutation($id: ID!, $n: Int) { createCourse(input: { id: $id, title: "Rush", shards: $n }) { id } }`, {
    id: courseId,
    n: shards,
  });
  if (created.result.errors) throw new Error(JSON.stringify(created.result.errors));
  const scaledRate = rate * SCALE;
  const attempts = Math.round(scaledRate * SECONDS);
  const students = Array.from({ length: attempts }, (_, i) => `${courseId}-s${i}`);
  await env.seed(students.map((id) => studentItem({ id, name: `Student ${id}` })));
  await new Promise((r) => setTimeout(r, 1000)); // buckets of earlier cases refill
  env.sim.resetUsage();
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const i = next++;
        if (i >= attempts) return;
        const due = started + (i / scaledRate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const { result, ms } = await env.run(`mutation($s: ID!, $c: ID!) { enroll(studentId: $s, courseId: $c) { enrolledAt } }`, {
          s: students[i],
          c: courseId,
        });
        const code = codeOf(result) ?? 'OK';
        outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        if (code !== 'OK' && process.env.BENCH_DEBUG) console.error(code, ms, JSON.stringify(result.errors?.[0]));
        latencies.push(ms);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const throttledRequests = env.sim.totals().throttledRequests;
  await new Promise((r) => setTimeout(r, 1000));
  const ok = outcomes.get('OK') ?? 0;
  // Exact: totalCount equals the edges listed (an attempt that timed out may still have committed).
  let listed = 0;
  let totalCount = -1;
  let after: string | null = null;
  for (;;) {
    const page: { result: { data?: any } } = await env.run(
      `query($c: ID!, $a: String) { course(id: $c) { students(first: 100, after: $a) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } } }`,
      { c: courseId, a: after },
    );
    const students = page.result.data?.course?.students;
    if (!students) throw new Error(`listing ${courseId} failed`);
    listed += students.edges.length;
    totalCount = students.totalCount;
    if (!students.pageInfo.hasNextPage) break;
    after = students.pageInfo.endCursor;
  }
  latencies.sort((a, b) => a - b);
  return {
    shards,
    attemptedPerSecond: rate,
    clients,
    attempts,
    acceptedPerSecond: Math.round(ok / elapsed / SCALE),
    unavailableShare: (outcomes.get('UNAVAILABLE') ?? 0) / attempts,
    otherErrors: attempts - ok - (outcomes.get('UNAVAILABLE') ?? 0),
    p50: Math.round(percentile(latencies, 0.5)),
    p99: Math.round(percentile(latencies, 0.99)),
    throttledRequests,
    totalCountExact: totalCount === listed,
    outcomes: Object.fromEntries(outcomes),
  };
}

interface PagingRow {
  shards: number;
  size: number;
  page: string;
  requests: number;
  waves: number;
  readUnits: number;
  ms: number;
  edges: number;
}

/** A course of `size` enrollments in `shards` shards, with exact counters, written straight into Local. */
async function seedCourse(env: Env, courseId: string, shards: number, size: number) {
  const course = courseItem({ id: courseId, title: `Course ${courseId}`, studentCount: size });
  const items: Item[] = [course];
  if (shards > 1) {
    course.shards = shards;
    delete course.studentCount;
    const counts = new Array(shards).fill(0);
    for (let i = 0; i < size; i++) counts[shardOf(`st${String(i).padStart(7, '0')}`, shards)]++;
    counts.forEach((studentCount, k) => items.push({ ...counterShardKey(courseId, k), studentCount }));
  }
  for (let i = 0; i < size; i++) {
    const id = `st${String(i).padStart(7, '0')}`;
    items.push(enrollmentItem({ studentId: id, courseId, shards, enrolledAt: '2026-11-01T00:00:00.000Z', courseTitle: `Course ${courseId}`, studentName: `Student ${id}` }));
  }
  await env.seed(items);
}

async function pagingCase(env: Env, shards: number, size: number): Promise<PagingRow[]> {
  const courseId = `page-${shards}-${size}`;
  await seedCourse(env, courseId, shards, size);
  const mid = `st${String(Math.floor(size / 2)).padStart(7, '0')}`;
  const deep = cursorOf(mergedShards, courseStudentShards(courseId, shards), env.cursors, {
    GSI1SK: `STUDENT#${mid}`,
    PK: `STUDENT#${mid}`,
    SK: `COURSE#${courseId}`,
  });
  const selection = `totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id name } }`;
  const pages: [string, string, Record<string, unknown>][] = [
    ['first: 20', `query($c: ID!) { course(id: $c) { title students(first: 20) { ${selection} } } }`, { c: courseId }],
    ['first: 20 after a deep cursor', `query($c: ID!, $a: String) { course(id: $c) { title students(first: 20, after: $a) { ${selection} } } }`, { c: courseId, a: deep }],
    ['last: 20', `query($c: ID!) { course(id: $c) { title students(last: 20) { ${selection} } } }`, { c: courseId }],
  ];
  const rows: PagingRow[] = [];
  for (const [page, query, variables] of pages) {
    const runs: { ms: number; requests: number; waves: number; readUnits: number; edges: number }[] = [];
    for (let i = 0; i < 7; i++) {
      env.sim.resetUsage();
      const { result, metrics, ms } = await env.run(query, variables);
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      runs.push({ ms, requests: metrics.requests, waves: metrics.waves, readUnits: env.sim.totals().readUnits, edges: result.data.course.students.edges.length });
    }
    const measured = runs.slice(2); // the first runs warm the JIT
    const median = measured.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(measured.length / 2)];
    rows.push({ shards, size, page, requests: measured[0].requests, waves: measured[0].waves, readUnits: measured[0].readUnits, ms: Math.round(median * 10) / 10, edges: measured[0].edges });
  }
  return rows;
}

const cases = [
  {
    name: 'rush',
    measure: async (env: Env) => {
      const rows: RushRow[] = [];
      for (const shards of SHARDS) {
        for (const [rate, clients] of RATES) {
          const row = await rushCase(env, shards, rate, clients);
          console.error(JSON.stringify(row));
          rows.push(row);
        }
      }
      return rows;
    },
  },
  {
    name: 'paging',
    measure: async (env: Env) => {
      const rows: PagingRow[] = [];
      for (const size of [2000, PAGING_SIZE]) {
        for (const shards of [1, 8]) {
          const got = await pagingCase(env, shards, size);
          for (const row of got) console.error(JSON.stringify(row));
          rows.push(...got);
        }
      }
      return rows;
    },
  },
];

function rushTable(rows: RushRow[]) {
  const lines = [
    '| shards | attempted/s | clients | attempts | accepted/s | UNAVAILABLE | other errors | p50 ms | p99 ms | requests throttled | totalCount = students listed |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.shards} | ${r.attemptedPerSecond} | ${r.clients} | ${r.attempts} | ${r.acceptedPerSecond} | ${(r.unavailableShare * 100).toFixed(1)}% | ${r.otherErrors} | ${r.p50} | ${r.p99} | ${r.throttledRequests} | ${r.totalCountExact ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}

function pagingTable(rows: PagingRow[]) {
  const lines = ['| shards | enrollments | page | requests | waves | read units | median ms |', '|---:|---:|---|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.shards} | ${r.size.toLocaleString('en')} | ${r.page} | ${r.requests} | ${r.waves} | ${r.readUnits} | ${r.ms} |`);
  return lines.join('\n');
}

async function main() {
  const env = await setup();
  const out: string[] = [`Scale ${SCALE} (per-partition rates and attempted rates multiplied by it; rates below in real-DynamoDB terms), ${SECONDS} s per rush.`];
  try {
    for (const c of cases) {
      if (opts.only && opts.only !== c.name) continue;
      const started = Date.now();
      const rows = await c.measure(env);
      out.push(`\n### ${c.name} (${Math.round((Date.now() - started) / 1000)} s)\n`);
      out.push(c.name === 'rush' ? rushTable(rows as RushRow[]) : pagingTable(rows as PagingRow[]));
    }
  } finally {
    await env.stop();
  }
  const text = out.join('\n');
  console.log(text);
  console.error(wrote(writeDocument('bench/results/hot.md', `${text}\n`, opts['write-docs'])));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
