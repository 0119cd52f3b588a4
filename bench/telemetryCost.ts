/**
 * `npm run bench:telemetry [-- --rounds 8 --ops 300 --concurrency 8 --off-only --baseline <dir> --isolated]`
 *
 * What telemetry costs per GraphQL operation: the gateway's CPU time per
 * operation with telemetry off (no OTEL_* variable: no plugin, no SDK) and
 * on (traces and metrics over OTLP/HTTP protobuf to a collector stand-in on
 * 127.0.0.1, through the batch span processor, exports included), in one
 * process, rounds alternating so machine load falls on both alike.
 * DynamoDB Local runs in its own process, so the CPU counted is the
 * gateway's alone (its HTTP requests to DynamoDB included). Operations run
 * through Apollo's executeOperation, `concurrency` at a time.
 *
 * Cases: the nested operation (a student, their courses, each course's
 * students: 4 DynamoDB requests in 2 waves on the demo data) and a single
 * GetItem (`course(id)`), where the fixed cost per operation shows most.
 * `--off-only` leaves telemetry on out. `--baseline <dir>` adds another
 * checkout of the gateway (its src/, e.g. `git archive main | tar -x -C
 * <dir>` with node_modules linked in) as a third variant in the same
 * process, with its own server, context and DynamoDB client: "off" against
 * the code before telemetry existed, under the same load. Raw figures go to
 * dist/bench/telemetry.json, outside the tracked files.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { createDynamo } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { loadDemoData } from '../src/transport/demoData.js';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';
import { createServer } from '../src/graphql/server.js';
import { createContext } from '../src/graphql/context.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { silentLogger } from '../src/logger.js';
import { writeResult } from './output.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    ops: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    'off-only': { type: 'boolean', default: false },
    baseline: { type: 'string' },
    isolated: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const ops = Number(values.ops);
const concurrency = Number(values.concurrency);

const CASES = {
  nested: {
    query: `query StudentCourses($id: ID!) { student(id: $id) { name courses(first: 3) { edges { node { title students(first: 3) { edges { node { name } } } } } } } }`,
    variables: { id: '1' },
  },
  getItem: { query: `query One($id: ID!) { course(id: $id) { title } }`, variables: { id: 'A' } },
};

/**
 * `--isolated`: the telemetry work alone, without GraphQL or DynamoDB: what
 * the plugin and the DynamoDB path ask of it for the nested operation (one
 * operation span, four DynamoDB call spans, the metrics), in a loop, with
 * and without the OTLP export of what was recorded.
 */
async function isolated(collectorUrl: string) {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collectorUrl;
  const { startOpenTelemetry } = await import('../src/telemetry/otel.js');
  const { telemetrySettings } = await import('../src/telemetry/settings.js');
  const summary = { requests: 4, byOperation: { Query: 4 }, consumedCapacity: 2, waves: 2, maxConcurrency: 3 };
  console.log(`\nNode ${process.version}: telemetry CPU µs per nested operation (1 + 4 spans and its metrics), median of ${rounds} rounds of ${ops * 5}\n`);
  for (const exportIt of [false, true]) {
    const env = exportIt
      ? { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_METRIC_EXPORT_INTERVAL: '5000' }
      : { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' };
    const settings = telemetrySettings(env, (m) => {
      throw new Error(m);
    })!;
    // Without exporters spans are still made and ended (a no-op processor), metrics still aggregated (no reader: none kept).
    const t = await startOpenTelemetry(settings, silentLogger);
    const op = () => {
      const o = t.startOperation(undefined);
      for (let i = 0; i < 4; i++) {
        const c = o.calls.callStarted('Query', { TableName: 'T', IndexName: 'GSI1', Limit: 4 });
        c.finished({ ConsumedCapacity: { CapacityUnits: 0.5, TableName: 'T' }, $metadata: { attempts: 1, requestId: 'r' } });
      }
      o.finish({ name: 'StudentCourses', type: 'query', cost: 13, codes: [], outcome: 'ok', dynamodb: summary, requestId: 'r' });
    };
    for (let i = 0; i < ops * 5; i++) op();
    await t.flush();
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = process.cpuUsage();
      for (let i = 0; i < ops * 5; i++) op();
      await t.flush();
      const d = process.cpuUsage(before);
      samples.push((d.user + d.system) / (ops * 5));
    }
    await t.shutdown();
    console.log(`| ${exportIt ? 'recorded and exported over OTLP/HTTP' : 'recorded, not exported'} | ${[...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!.toFixed(1)} µs |`);
  }
}

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const collector = createHttpServer(async (req, res) => {
    for await (const _ of req);
    res.end();
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  // Patient timeouts: a loaded machine's latency must not turn into retries.
  if (values.isolated) {
    try {
      await isolated(`http://127.0.0.1:${(collector.address() as AddressInfo).port}`);
    } finally {
      collector.close();
      await local.stop();
    }
    return;
  }
  const dynamo = createDynamo({ endpoint: local.endpoint, requestTimeoutMs: 20_000, connectionTimeoutMs: 10_000 });
  const stops: (() => Promise<void>)[] = [];
  try {
    const tableName = 'TelemetryCost';
    await ensureTable(dynamo.raw, tableName);
    await loadDemoData(dynamo.doc, tableName, DEFAULT_SCHEMA_FILE);
    const cursors = createCursorCodec({ current: 'telemetry-cost-bench-secret-0123456789abcdef' });
    const model = loadModel();
    const deps = { doc: dynamo.doc, readPath: dynamo.reads, tableName, cursors, plan: compilePlan(model) };
    type Server = ReturnType<typeof createServer>;
    interface Variant {
      name: string;
      server: Server;
      context: () => ReturnType<typeof createContext>;
      flush: () => Promise<void>;
    }
    const variants: Variant[] = [];
    if (values.baseline) {
      // The other checkout's own modules: its server, context and client (with its own DynamoDB instrumentation).
      const from = (path: string) => import(join(values.baseline!, path));
      const [{ createServer: baseServer }, { createContext: baseContext }, { createDynamo: baseDynamo }, { createCursorCodec: baseCodec }] = await Promise.all([
        from('src/graphql/server.ts'),
        from('src/graphql/context.ts'),
        from('src/dynamo/client.ts'),
        from('src/connections/cursorSigning.ts'),
      ]);
      const baseClient = baseDynamo({ endpoint: local.endpoint, requestTimeoutMs: 20_000, connectionTimeoutMs: 10_000 });
      stops.push(async () => baseClient.raw.destroy());
      const baseDeps = { doc: baseClient.doc, readPath: baseClient.reads, tableName, cursors: baseCodec({ current: 'telemetry-cost-bench-secret-0123456789abcdef' }) };
      variants.push({ name: 'baseline', server: baseServer({ production: true, logger: silentLogger }), context: () => baseContext(baseDeps), flush: async () => {} });
    }
    const off = createServer({ prod: true, logger: silentLogger, model });
    variants.push({ name: 'off', server: off, context: () => createContext(deps), flush: async () => {} });
    if (!values['off-only']) {
      // The SDK's OTLP exporters read their endpoint from the environment, as in production.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      const { loadTelemetry } = await import('../src/telemetry/telemetry.js');
      const { telemetrySettings } = await import('../src/telemetry/settings.js');
      const settings = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_METRIC_EXPORT_INTERVAL: '5000' }, (m) => {
        throw new Error(m);
      });
      const telemetry = (await loadTelemetry(settings, silentLogger))!;
      stops.push(() => telemetry.shutdown());
      variants.push({
        name: 'on',
        server: createServer({ prod: true, logger: silentLogger, telemetry, model }),
        context: () => createContext(deps),
        flush: () => telemetry.flush(),
      });
    }
    for (const v of variants) {
      await v.server.start();
      stops.push(() => v.server.stop());
    }

    const results: Record<string, Record<string, number[]>> = {};
    for (const [caseName, spec] of Object.entries(CASES)) {
      const runBatch = async ({ server, context }: Variant, n: number) => {
        let next = 0;
        const worker = async () => {
          while (next++ < n) {
            const r = await server.executeOperation({ query: spec.query, variables: spec.variables }, { contextValue: context() });
            if (r.body.kind !== 'single' || r.body.singleResult.errors) throw new Error(JSON.stringify(r.body));
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
      };
      for (const v of variants) await runBatch(v, ops); // warm-up: JIT, compiled operations, sockets
      results[caseName] = Object.fromEntries(variants.map((v) => [v.name, []]));
      for (let round = 0; round < rounds; round++) {
        // Rotate the order: each variant runs first once per len(variants) rounds.
        const order = [...variants.slice(round % variants.length), ...variants.slice(0, round % variants.length)];
        for (const v of order) {
          const before = process.cpuUsage();
          await runBatch(v, ops);
          await v.flush(); // the export of what the round recorded counts into the round
          const spent = process.cpuUsage(before);
          results[caseName]![v.name]!.push((spent.user + spent.system) / 1000 / ops);
        }
      }
    }

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`\nNode ${process.version}: gateway CPU ms per operation (median of ${rounds} rounds of ${ops} operations, ${concurrency} at a time)\n`);
    const title = (name: string) => (name === 'baseline' ? 'baseline (before telemetry)' : `telemetry ${name}`);
    const has = (name: string) => variants.some((v) => v.name === name);
    const columns = [...(has('baseline') ? ['off − baseline'] : []), ...(has('on') ? ['on − off'] : [])];
    console.log(`| operation | ${[...variants.map((v) => title(v.name)), ...columns].join(' | ')} |`);
    console.log(`|---|${[...variants, ...columns].map(() => '---:').join('|')}|`);
    const delta = (a: number, b: number) => `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(3)} (${(((a - b) / b) * 100).toFixed(0)}%)`;
    for (const [caseName, byVariant] of Object.entries(results)) {
      const m = Object.fromEntries(variants.map((v) => [v.name, median(byVariant[v.name]!)]));
      const diffs = [...(has('baseline') ? [delta(m.off!, m.baseline!)] : []), ...(has('on') ? [delta(m.on!, m.off!)] : [])];
      console.log(`| ${caseName} | ${[...variants.map((v) => m[v.name]!.toFixed(3)), ...diffs].join(' | ')} |`);
    }
    const out = writeResult('telemetry.json', JSON.stringify({ node: process.version, rounds, ops, concurrency, results }, null, 2) + '\n');
    console.log(`\nraw figures: ${out}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    dynamo.raw.destroy();
    collector.close();
    await local.stop();
  }
}

await main();
