/**
 * `npm run bench:telemetry [-- --rounds 8 --ops 300 --concurrency 8 --off-only]`
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
 * `--off-only` measures telemetry off alone (for comparing builds). Raw
 * figures go to dist/bench/telemetry.json, outside the tracked files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { createDynamo } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { loadDemoData } from '../src/model/demoData.js';
import { createServer } from '../src/graphql/server.js';
import { createContext } from '../src/graphql/context.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { silentLogger } from '../src/logger.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    ops: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    'off-only': { type: 'boolean', default: false },
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

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const collector = createHttpServer(async (req, res) => {
    for await (const _ of req);
    res.end();
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const dynamo = createDynamo({ endpoint: local.endpoint });
  const stops: (() => Promise<void>)[] = [];
  try {
    const tableName = 'TelemetryCost';
    await ensureTable(dynamo.raw, tableName);
    await loadDemoData(dynamo.doc, tableName);
    const deps = { doc: dynamo.doc, tableName, cursors: createCursorCodec({ current: 'telemetry-cost-bench-secret-0123456789abcdef' }) };

    const variants: { name: string; server: ReturnType<typeof createServer>; flush: () => Promise<void> }[] = [];
    const off = createServer({ production: true, logger: silentLogger });
    variants.push({ name: 'off', server: off, flush: async () => {} });
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
      variants.push({ name: 'on', server: createServer({ production: true, logger: silentLogger, telemetry }), flush: () => telemetry.flush() });
    }
    for (const v of variants) {
      await v.server.start();
      stops.push(() => v.server.stop());
    }

    const results: Record<string, Record<string, number[]>> = {};
    for (const [caseName, spec] of Object.entries(CASES)) {
      const runBatch = async (server: ReturnType<typeof createServer>, n: number) => {
        let next = 0;
        const worker = async () => {
          while (next++ < n) {
            const r = await server.executeOperation({ query: spec.query, variables: spec.variables }, { contextValue: createContext(deps) });
            if (r.body.kind !== 'single' || r.body.singleResult.errors) throw new Error(JSON.stringify(r.body));
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
      };
      for (const v of variants) await runBatch(v.server, ops); // warm-up: JIT, compiled operations, sockets
      results[caseName] = Object.fromEntries(variants.map((v) => [v.name, []]));
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 ? [...variants].reverse() : variants;
        for (const v of order) {
          const before = process.cpuUsage();
          await runBatch(v.server, ops);
          await v.flush(); // the export of what the round recorded counts into the round
          const spent = process.cpuUsage(before);
          results[caseName]![v.name]!.push((spent.user + spent.system) / 1000 / ops);
        }
      }
    }

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`\nNode ${process.version}: gateway CPU ms per operation (median of ${rounds} rounds of ${ops} operations, ${concurrency} at a time)\n`);
    console.log(`| operation | ${variants.map((v) => `telemetry ${v.name}`).join(' | ')} |${variants.length > 1 ? ' difference |' : ''}`);
    console.log(`|---|${variants.map(() => '---:').join('|')}|${variants.length > 1 ? '---:|' : ''}`);
    for (const [caseName, byVariant] of Object.entries(results)) {
      const m = variants.map((v) => median(byVariant[v.name]!));
      const diff = m.length > 1 ? ` +${(m[1]! - m[0]!).toFixed(3)} (${(((m[1]! - m[0]!) / m[0]!) * 100).toFixed(0)}%) |` : '';
      console.log(`| ${caseName} | ${m.map((x) => x.toFixed(3)).join(' | ')} |${diff}`);
    }
    const out = join(process.cwd(), 'dist/bench/telemetry.json');
    mkdirSync(join(process.cwd(), 'dist/bench'), { recursive: true });
    writeFileSync(out, JSON.stringify({ node: process.version, rounds, ops, concurrency, results }, null, 2) + '\n');
    console.log(`\nraw figures: ${out}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    dynamo.raw.destroy();
    collector.close();
    await local.stop();
  }
}

await main();
