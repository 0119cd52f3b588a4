/**
 * Fixed work in one process, for whole-process CPU comparisons of two
 * builds or settings (e.g. with `/usr/bin/time -v`, or any tool that runs
 * two commands in turn and compares their CPU seconds):
 *
 *   npx tsx bench/cpu.ts --seed                                 # once: fills TABLE_NAME at DYNAMODB_ENDPOINT
 *   npx tsx bench/cpu.ts --case 'orders(first: 10)' --ops 800 [--warmup 200] [--direct]
 *   (environment: DYNAMODB_ENDPOINT, TABLE_NAME, SCHEMA_FILE for a model other than schema.graphql; with NODE_ENV=production also CURSOR_SECRET and AUTH_MODE=off)
 *
 * To compare compiled builds, bundle it first like the bench does
 * (scripts/bundle.ts: `bundle({ entry: 'bench/cpu.ts', outDir, name: 'cpu' })`)
 * and run `node <outDir>/src/transport/cpu.mjs …`.
 *
 * Runs `--ops` operations of one benchmark case (bench/cases.ts; `--case`
 * matches part of its name), `--concurrency` at a time, through Apollo's
 * HTTP entry point (executeHTTPGraphQLRequest: the request pipeline, the
 * context, execution, the DynamoDB client), without sockets on the GraphQL
 * side; `--direct` runs the case's hand-written function instead (reading
 * through the SDK's document client, as bench/run.ts's direct server does;
 * `--direct-reads lean` gives it the gateway's read path). DynamoDB
 * Local runs elsewhere, so its CPU is not counted. `--warmup` operations run
 * first and are left out of the "measured CPU" (start-up, compilation and
 * caches excluded; whole-process CPU is printed too). `--replay` answers
 * the measured operations' DynamoDB requests from what the warm-up
 * recorded (see replayingClient): the GraphQL layer's CPU alone, without
 * the SDK's and the sockets' (and their noise). `--profile <file>` writes
 * a CPU profile of the measured operations alone (`--heap-profile <file>`
 * their allocations), `--gc` their garbage collections. Prints nothing but a
 * summary line on stderr; exits 1 if any operation failed.
 */
import { parseArgs } from 'node:util';
import { writeNamed } from './output.js';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { HeaderMap } from '@apollo/server';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/graphql/context.js';
import { metricsClient, OperationMetrics } from '../src/dynamo/metrics.js';
import { dynamoFromConfig } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { createGatewayParts } from '../src/transport/gatewayParts.js';
import { silentLogger } from '../src/logger.js';
import { datasetIds } from '../scripts/datasetIds.js';
import { writeItems } from '../scripts/seedTable.js';
import { CASES, SHAPE } from './cases.js';
import { LeanReads } from '../src/dynamo/readPort.js';
import type { ReadPath } from '../src/dynamo/readPath.js';
import { directCases, directClient } from './direct.js';

async function main() {
  const { values } = parseArgs({
    options: {
      case: { type: 'string', default: 'course(id) { title students(first: 10) { id name } }' },
      ops: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '16' },
      warmup: { type: 'string', default: '0' },
      direct: { type: 'boolean', default: false },
      'direct-reads': { type: 'string', default: 'sdk' },
      seed: { type: 'boolean', default: false },
      replay: { type: 'boolean', default: false },
      profile: { type: 'string' },
      'heap-profile': { type: 'string' },
      gc: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  const parts = createGatewayParts(config, { logger: silentLogger });
  if (values.seed) {
    await ensureTable(parts.dynamo.raw, config.tableName);
    // Imported here: the items are built from the default model's plan, which a measured run must not compile too.
    const { buildDataset } = await import('../scripts/dataset.js');
    await writeItems(parts.dynamo.doc, config.tableName, buildDataset(SHAPE).items, { concurrency: 8 });
    parts.dynamo.raw.destroy();
    return;
  }
  const spec = CASES.find((c) => c.name.includes(values.case!));
  if (!spec) throw new Error(`no case matches ${values.case}`);
  // The ids alone: building the items here, through the engine's own key and copy functions, would
  // leave the request path's allocations pretenured, as no served process has them (scripts/datasetIds.ts).
  const variables = spec.variables({ ids: datasetIds(SHAPE) });
  const body = { query: spec.query, variables };
  const headers = new HeaderMap([['content-type', 'application/json']]);
  await parts.server.start();
  const direct = directCases[spec.direct]!;
  const directReads = values['direct-reads'] === 'lean' ? 'lean' : 'sdk';
  const directDynamo = dynamoFromConfig({ ...config, dynamoClient: { ...config.dynamoClient, readPath: directReads } });
  let directDoc = directDynamo.doc;
  let directPath = directDynamo.reads;
  const replay = values.replay ? replayingClient(values.direct ? directDoc : parts.deps.doc, values.direct ? directPath : parts.deps.readPath) : null;
  if (replay && values.direct) [directDoc, directPath] = [replay.doc, replay.readPath];
  else if (replay) [parts.deps.doc, parts.deps.readPath] = [replay.doc, replay.readPath];

  const one = async (): Promise<boolean> => {
    if (values.direct) {
      const metrics = new OperationMetrics();
      const client = directClient(metricsClient(directDoc, metrics), directPath && new LeanReads(directPath, metrics));
      const result = (await direct(client, config.tableName, variables)) as { data?: unknown };
      // Serialized like bench/serve.ts answers it (the gateway's CPU includes its serialization too).
      return JSON.stringify(result).length > 0 && result.data !== undefined;
    }
    const metrics = new OperationMetrics();
    const response = await parts.server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers, search: '', body },
      context: async () => createContext(parts.deps, metrics),
    });
    return response.status === undefined || response.status === 200
      ? response.body.kind === 'complete' && !response.body.string.includes('"errors"')
      : false;
  };

  let failed = 0;
  const run = async (ops: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: Number(values.concurrency) }, async () => {
        while (next < ops) {
          next += 1;
          if (!(await one())) failed += 1;
        }
      }),
    );
  };
  // Warm-up operations (compilation, caches) are left out of the measured CPU.
  await run(Math.max(Number(values.warmup), replay ? 1 : 0));
  replay?.start();
  const profiler = values.profile ? await startProfile('cpu') : values['heap-profile'] ? await startProfile('heap') : null;
  const gcs = values.gc ? watchGc() : null;
  const ops = Number(values.ops);
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  await run(ops);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const measured = process.cpuUsage(before);
  if (profiler) writeNamed((values.profile ?? values['heap-profile'])!, JSON.stringify(await profiler.stop()));
  const cpu = process.cpuUsage();
  const measuredMs = (measured.user + measured.system) / 1000;
  console.error(
    `${values.direct ? 'direct' : 'gateway'} ${process.version} ${spec.name}: ${ops} ops in ${ms.toFixed(0)} ms, ` +
      `process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, measured CPU ${measuredMs.toFixed(0)} ms ` +
      `(${(measuredMs / ops).toFixed(3)} ms/op), ${failed} failed`,
  );
  if (gcs) console.error(`GC while measured: ${gcs()}`);
  await parts.server.stop();
  parts.dynamo.raw.destroy();
  directDynamo.raw.destroy();
  if (failed) process.exitCode = 1;
}

/**
 * `--profile <file>`: a CPU profile (.cpuprofile, as `node --cpu-prof` writes)
 * of the measured operations alone, warm-up and start-up left out.
 * `--heap-profile <file>`: a sampling allocation profile (.heapprofile) of
 * them instead, every allocation counted whether or not a GC freed it since.
 */
async function startProfile(kind: 'cpu' | 'heap') {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
  if (kind === 'cpu') {
    await post('Profiler.enable');
    await post('Profiler.start');
  } else {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  return {
    stop: async () => {
      const { profile } = (await post(kind === 'cpu' ? 'Profiler.stop' : 'HeapProfiler.stopSampling')) as { profile: object };
      session.disconnect();
      return profile;
    },
  };
}

/** `--gc`: the garbage collections of the measured operations, by kind: how many, and their pauses' total. */
function watchGc() {
  const kinds = new Map<string, { n: number; ms: number }>();
  const names: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = names[(entry.detail as { kind?: number } | undefined)?.kind ?? 0] ?? 'other';
      const k = kinds.get(kind) ?? { n: 0, ms: 0 };
      k.n += 1;
      k.ms += entry.duration;
      kinds.set(kind, k);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    return [...kinds].map(([kind, { n, ms }]) => `${n} ${kind} (${ms.toFixed(1)} ms)`).join(', ') || 'none';
  };
}

/**
 * `--replay`: DynamoDB answered from memory. The warm-up sends the real
 * requests and records each answer by command and input; the measured
 * operations get the recorded answer (a fresh copy, one event-loop turn
 * later) without the SDK or a socket, so what is measured is the GraphQL
 * layer alone: pipeline, plugins, resolvers, loaders, mapping, execution,
 * serialization. Requests not seen in the warm-up go to DynamoDB.
 */
function replayingClient(real: DynamoDBDocumentClient, realPath: ReadPath | undefined) {
  const recorded = new Map<string, string>();
  let replaying = false;
  const answer = async (key: string, send: () => Promise<unknown>) => {
    const known = replaying ? recorded.get(key) : undefined;
    if (known !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      return JSON.parse(known);
    }
    const output = await send();
    if (!replaying) recorded.set(key, JSON.stringify(output));
    return output;
  };
  const doc = Object.create(real) as DynamoDBDocumentClient;
  doc.send = ((command: { input: object }) =>
    answer(`${command.constructor.name} ${JSON.stringify(command.input)}`, () =>
      (real.send as (c: unknown) => Promise<unknown>)(command),
    )) as DynamoDBDocumentClient['send'];
  // The read path (dynamo/readPath.ts), which the operations' read ports send their reads on.
  const readPath =
    realPath &&
    ({
      send: (operation: Parameters<ReadPath['send']>[0], input: Record<string, unknown>, metrics: Parameters<ReadPath['send']>[2]) =>
        answer(`${operation} ${JSON.stringify(input)}`, () => realPath.send(operation, input, metrics)),
    } as unknown as ReadPath);
  return { doc, readPath, start: () => (replaying = true) };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
