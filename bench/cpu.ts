/**
 * Fixed work in one process, for whole-process CPU comparisons of two
 * builds or settings (e.g. with `/usr/bin/time -v`, or any tool that runs
 * two commands in turn and compares their CPU seconds):
 *
 *   npx tsx bench/cpu.ts --seed                                 # once: fills TABLE_NAME at DYNAMODB_ENDPOINT
 *   npx tsx bench/cpu.ts --case 'orders(first: 10)' --ops 800 [--direct]
 *   (environment: DYNAMODB_ENDPOINT, TABLE_NAME; with NODE_ENV=production also CURSOR_SECRET and AUTH_MODE=off)
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
 * Local runs elsewhere, so its CPU is not counted. Prints nothing but a
 * summary line on stderr; exits 1 if any operation failed.
 */
import { parseArgs } from 'node:util';
import { HeaderMap } from '@apollo/server';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/graphql/context.js';
import { metricsClient, OperationMetrics } from '../src/dynamo/metrics.js';
import { dynamoFromConfig } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { createGatewayParts } from '../src/transport/gatewayParts.js';
import { silentLogger } from '../src/logger.js';
import { buildDataset } from '../scripts/dataset.js';
import { writeItems } from '../scripts/seedTable.js';
import { CASES, SHAPE } from './cases.js';
import { directCases } from './direct.js';

async function main() {
  const { values } = parseArgs({
    options: {
      case: { type: 'string', default: 'course(id) { title students(first: 10) { id name } }' },
      ops: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '16' },
      direct: { type: 'boolean', default: false },
      'direct-reads': { type: 'string', default: 'sdk' },
      seed: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  const parts = createGatewayParts(config, { logger: silentLogger });
  const dataset = buildDataset(SHAPE);
  if (values.seed) {
    await ensureTable(parts.dynamo.raw, config.tableName);
    await writeItems(parts.dynamo.doc, config.tableName, dataset.items, { concurrency: 8 });
    parts.dynamo.raw.destroy();
    return;
  }
  const spec = CASES.find((c) => c.name.includes(values.case!));
  if (!spec) throw new Error(`no case matches ${values.case}`);
  const variables = spec.variables(dataset);
  const body = { query: spec.query, variables };
  const headers = new HeaderMap([['content-type', 'application/json']]);
  await parts.server.start();
  const direct = directCases[spec.direct]!;
  const directReads = values['direct-reads'] === 'lean' ? 'lean' : 'sdk';
  const directDynamo = dynamoFromConfig({ ...config, dynamoClient: { ...config.dynamoClient, readPath: directReads } });
  const directDoc = directDynamo.doc;

  const one = async (): Promise<boolean> => {
    if (values.direct) {
      const result = (await direct(metricsClient(directDoc, new OperationMetrics()), config.tableName, variables)) as { data?: unknown };
      return result.data !== undefined;
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

  const ops = Number(values.ops);
  let next = 0;
  let failed = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: Number(values.concurrency) }, async () => {
      while (next < ops) {
        next += 1;
        if (!(await one())) failed += 1;
      }
    }),
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage();
  console.error(
    `${values.direct ? 'direct' : 'gateway'} ${process.version} ${spec.name}: ${ops} ops in ${ms.toFixed(0)} ms, ` +
      `process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${failed} failed`,
  );
  await parts.server.stop();
  parts.dynamo.raw.destroy();
  directDynamo.raw.destroy();
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
