/**
 * `npm run bench:coldstart [-- --repeat 10 --out <file> --cases <names> --baseline <dir>]`
 *
 * How fast a fresh process answers its first GraphQL request: the part of
 * a Lambda cold start the code decides. Per case, `repeat` fresh Node
 * processes (cases interleaved, so machine load falls on all alike) import
 * the bundle's handler and answer one API Gateway (HTTP API v2) event with
 * a nested query against DynamoDB Local, then a second (warm) one.
 * Reported: import and first-invocation ms, the warm invocation, RSS, CPU
 * time to the first answer, the bundle's size; medians and fastest runs,
 * each against the plain bundle of the same round; and telemetry on minus
 * off, paired run by run.
 *
 * Cases: `gateway` (the Lambda bundle of `npm run build:lambda`),
 * `gateway + telemetry` (the same with OTEL_* to a collector stand-in on
 * 127.0.0.1), `plain Apollo` (bench/plainLambda.ts: Apollo Server and
 * `@as-integrations/aws-lambda` with the same schema, bundled by esbuild).
 * `--baseline <dir>`: the Lambda bundle of another checkout, interleaved.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildLambda } from '../scripts/build-lambda.js';
import { root } from '../scripts/bundle.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { createDynamo } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { loadDemoData } from '../src/transport/demoData.js';
import { DEFAULT_SCHEMA_FILE } from '../src/declaration/loadModel.js';
import { writeNamed } from './output.js';
import { median } from './compare.js';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '10' },
    out: { type: 'string', default: join(root, 'dist/bench/coldstart.json') },
    baseline: { type: 'string' },
    /** Only the cases whose name contains one of these (comma-separated), e.g. `telemetry`. */
    cases: { type: 'string' },
  },
});
const repeat = Number(values.repeat);

/** The nested operation every case answers: a student, their courses, each course's students. */
const QUERY = `query StudentCourses($id: ID!) {
  student(id: $id) { name courses(first: 3) { edges { node { title students(first: 3) { edges { node { name } } } } } } }
}`;

const probe = `
const t0 = performance.now();
const { handler } = await import(process.argv[1]);
const t1 = performance.now();
const event = (n) => ({
  version: '2.0', routeKey: 'POST /graphql', rawPath: '/graphql', rawQueryString: '',
  headers: { 'content-type': 'application/json', host: 'bench.execute-api.eu-west-1.amazonaws.com' },
  requestContext: { http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' }, requestId: 'r' + n, stage: '$default' },
  body: JSON.stringify({ query: process.argv[2], variables: { id: '1' } }), isBase64Encoded: false,
});
const context = (n) => ({ awsRequestId: 'cold-' + n, getRemainingTimeInMillis: () => 10000 });
const first = await handler(event(1), context(1));
const t2 = performance.now();
const cpu = process.cpuUsage();
const rss = process.memoryUsage().rss;
await handler(event(2), context(2));
const t3 = performance.now();
const cpu2 = process.cpuUsage();
const body = JSON.parse(first.body);
process.stdout.write('COLD ' + JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, secondMs: t3 - t2, cpuMs: (cpu.user + cpu.system) / 1000, cpu2Ms: (cpu2.user + cpu2.system) / 1000, rss, status: first.statusCode, name: body.data?.student?.name ?? null, errors: body.errors ?? null }) + '\\n');
process.exit(0);
`;

/** Per process: ms to import and to each answer; CPU ms (all threads) from its start to the first and to the second answer; RSS. */
interface Sample {
  importMs: number;
  firstMs: number;
  secondMs: number;
  cpuMs: number;
  cpu2Ms: number;
  rss: number;
}

function runOnce(file: string, env: Record<string, string>): Promise<Sample> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', probe, file, QUERY], {
      cwd: dirname(file),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('COLD '));
      if (!line) return reject(new Error(`probe of ${file} exited ${code}: ${err.slice(-2000)}`));
      const sample = JSON.parse(line.slice(5));
      if (sample.status !== 200 || sample.name === null) return reject(new Error(`${file} answered ${sample.status}: ${JSON.stringify(sample.errors)}`));
      resolvePromise(sample);
    });
  });
}

/** Bytes of every .mjs in the function's folder. */
function bundleBytes(entry: string): number {
  const all = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? all(join(d, f)) : [join(d, f)]));
  return all(dirname(entry))
    .filter((f) => f.endsWith('.mjs'))
    .reduce((n, f) => n + statSync(f).size, 0);
}

async function buildPlain(outDir: string): Promise<string> {
  const outfile = join(outDir, 'src/transport/plain.mjs');
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [join(root, 'bench/plainLambda.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  writeNamed(join(outDir, 'schema.graphql'), readFileSync(join(root, 'schema.graphql'), 'utf8'));
  writeNamed(join(outDir, 'package.json'), '{"type":"module"}\n');
  return outfile;
}

async function main() {
  const work = join(root, 'dist/bench/coldstart');
  const local = await startLocalDynamo({ port: 0 });
  const collector = createServer(async (req, res) => {
    for await (const _ of req);
    res.setHeader('content-type', 'application/x-protobuf');
    res.end();
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  try {
    const dynamo = createDynamo({ endpoint: local.endpoint, requestTimeoutMs: 20_000, connectionTimeoutMs: 10_000 });
    const tableName = 'ColdStart';
    await ensureTable(dynamo.raw, tableName);
    await loadDemoData(dynamo.doc, tableName, DEFAULT_SCHEMA_FILE);
    dynamo.raw.destroy();

    const gatewayDir = await buildLambda(join(work, 'gateway'));
    const gateway = join(gatewayDir, 'src/transport/lambda.mjs');
    const plain = await buildPlain(join(work, 'plain'));
    const common = { DYNAMODB_ENDPOINT: local.endpoint, TABLE_NAME: tableName, NODE_ENV: 'production', AWS_REGION: 'us-east-1' };
    // Patient DynamoDB timeouts (the plain server's SDK client has none): a loaded machine must not turn into retries.
    const gatewayEnv = {
      ...common,
      AUTH_MODE: 'off',
      LOG_LEVEL: 'info',
      CURSOR_SECRET: 'coldstart-bench-cursor-secret-0123456789abcdef',
      DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
      DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
    };
    const otel = {
      OTEL_SERVICE_NAME: 'coldstart-bench',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    };
    const baseline = values.baseline ? join(resolve(values.baseline), 'src/transport/lambda.mjs') : undefined;
    const all = [
      { name: 'gateway', file: gateway, env: gatewayEnv },
      { name: 'gateway + telemetry', file: gateway, env: { ...gatewayEnv, ...otel } },
      ...(baseline
        ? [
            { name: 'baseline gateway', file: baseline, env: gatewayEnv },
            { name: 'baseline gateway + telemetry', file: baseline, env: { ...gatewayEnv, ...otel } },
          ]
        : []),
      { name: 'plain Apollo', file: plain, env: common },
    ];
    const wanted = values.cases?.split(',').map((w) => w.trim());
    const cases = wanted ? all.filter((c) => wanted.some((w) => c.name.includes(w))) : all;
    const samples: Record<string, Sample[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
    for (const c of cases) await runOnce(c.file, c.env); // disk cache warm for every case alike
    for (let i = 0; i < repeat; i++) {
      for (const c of cases) samples[c.name]!.push(await runOnce(c.file, c.env));
      process.stdout.write(`\rround ${i + 1}/${repeat}`);
    }
    process.stdout.write('\n');

    const plainSamples = samples['plain Apollo'];
    const total = (x: Sample) => x.importMs + x.firstMs;
    const rows = cases.map((c) => {
      const s = samples[c.name]!;
      return {
        name: c.name,
        importMs: median(s.map((x) => x.importMs)),
        firstMs: median(s.map((x) => x.firstMs)),
        totalMs: median(s.map(total)),
        // The least disturbed run: on a busy machine the better estimate of what the code costs.
        fastestMs: Math.min(...s.map(total)),
        secondMs: median(s.map((x) => x.secondMs)),
        cpuMs: median(s.map((x) => x.cpuMs)),
        fastestCpuMs: Math.min(...s.map((x) => x.cpuMs)),
        cpu2Ms: median(s.map((x) => x.cpu2Ms)),
        // Per round against the plain bundle's run of the same round (the same machine load), then the median.
        vsPlain: plainSamples ? median(s.map((x, i) => total(x) / total(plainSamples[i]!))) : NaN,
        rssMb: median(s.map((x) => x.rss)) / 2 ** 20,
        bundleKb: bundleBytes(c.file) / 1024,
      };
    });
    const f = (n: number) => n.toFixed(0);
    console.log(`\nNode ${process.version}, ${repeat} fresh processes per case (medians)\n`);
    console.log(
      '| case | import ms | first invocation ms | import + first ms | fastest import + first ms | ÷ plain Apollo (same round) | CPU ms to first answer | fastest CPU ms | CPU ms to second answer | second invocation ms | RSS MB | bundle KB (.mjs) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${f(r.importMs)} | ${f(r.firstMs)} | ${f(r.totalMs)} | ${f(r.fastestMs)} | ${r.vsPlain.toFixed(2)} | ${f(r.cpuMs)} | ${f(r.fastestCpuMs)} | ${f(r.cpu2Ms)} | ${r.secondMs.toFixed(1)} | ${f(r.rssMb)} | ${f(r.bundleKb)} |`,
      );
    }
    // Telemetry on against off, run by run in the same round (the same machine load), then the median.
    const pairs = cases.filter((c) => c.name.endsWith(' + telemetry') && samples[c.name.slice(0, -' + telemetry'.length)]);
    if (pairs.length > 0) {
      console.log('\nTelemetry on − off, paired by round (median of the differences; fastest on − fastest off)\n');
      console.log('| case | import + first ms | fastest import + first ms | CPU ms to first answer | fastest CPU ms | CPU ms to second answer |');
      console.log('|---|---:|---:|---:|---:|---:|');
      for (const c of pairs) {
        const on = samples[c.name]!;
        const off = samples[c.name.slice(0, -' + telemetry'.length)]!;
        const diff = (g: (x: Sample) => number) => median(on.map((x, i) => g(x) - g(off[i]!)));
        const fastest = (g: (x: Sample) => number) => Math.min(...on.map(g)) - Math.min(...off.map(g));
        const signed = (n: number) => (n >= 0 ? '+' : '−') + Math.abs(n).toFixed(0);
        console.log(
          `| ${c.name} | ${signed(diff(total))} | ${signed(fastest(total))} | ${signed(diff((x) => x.cpuMs))} | ${signed(fastest((x) => x.cpuMs))} | ${signed(diff((x) => x.cpu2Ms))} |`,
        );
      }
    }
    writeNamed(values.out!, JSON.stringify({ node: process.version, repeat, rows, samples }, null, 2) + '\n');
    console.log(`\nraw figures: ${values.out}`);
  } finally {
    collector.close();
    await local.stop();
  }
}

await main();
