/**
 * `npm run soak`: does any per-request state grow with what clients send?
 *
 * Serves the gateway (production settings, the real HTTP handler and Apollo
 * server) on 127.0.0.1 against a stub DynamoDB that answers every request
 * with "no item", then sends N requests (default 50,000; `--requests n`),
 * each a distinct document (a unique comment plus `--padding` bytes of comment, default 1,000) with
 * distinct variables, all of which pass every check. Prints the heap after a
 * warm-up and at the end, both after a full garbage collection.
 *
 * A cache keyed by client input that is not bounded in bytes shows here as
 * growth proportional to N. No DynamoDB and no network beyond 127.0.0.1.
 */
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/graphql/context.js';
import { createServer } from '../src/graphql/server.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { createHttpHandler } from '../src/transport/httpHandler.js';
import { createHttpListener } from '../src/transport/httpServer.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const total = arg('requests', 50_000);
const concurrency = arg('concurrency', 32);
const warmup = Math.min(2000, Math.floor(total / 10));

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc (npm run soak does)');
  process.exit(1);
}
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function main() {
  // Production settings from the environment (limits included); what the soak needs is set when absent.
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    AUTH_MODE: process.env.AUTH_MODE || 'off',
    CURSOR_SECRET: process.env.CURSOR_SECRET || randomBytes(32).toString('base64url'),
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
  });
  // Every GetItem/BatchGetItem finds nothing: the gateway does all its own work, DynamoDB none.
  const doc = { send: async () => ({ Responses: {}, Items: [] }) } as unknown as DynamoDBDocumentClient;
  const model = loadModel(config.schemaFile);
  const deps = { doc, tableName: 'Soak', cursors: createCursorCodec({ current: config.security.cursorSecret }), plan: compilePlan(model) };
  const apollo = createServer({ prod: true, limits: { ...config.security, ...config.operationLimits }, model });
  await apollo.start();
  const http = createHttpListener(
    createHttpHandler(apollo, {
      corsOrigins: undefined,
      maxBodyBytes: config.security.maxBodyBytes,
      health: async () => true,
      context: async (metrics) => createContext(deps, metrics),
      requestLimits: config.operationLimits,
    }),
    config.http,
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;

  const padding = `# ${'p'.repeat(arg('padding', 1000))}\n`;
  let failures = 0;
  let resent = 0;
  const send = async (i: number) => {
    const query = `# request ${i}\n${padding}query Soak${i % 7}($id: ID!, $other: ID!) { student(id: $id) { name } course(id: $other) { title } }`;
    const variables = { id: `s-${i}-${'v'.repeat(100)}`, other: `c-${i}` };
    const request = () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    // A kept-alive socket the server closed just as it was reused: send again once (counted).
    const response = await request().catch(() => ((resent += 1), request()));
    const body = (await response.json()) as { errors?: unknown[] };
    if (response.status !== 200 || body.errors) failures += 1;
    if (i > 0 && i % 10_000 === 0) console.error(`${i} requests, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
  };
  const run = async (from: number, to: number) => {
    let next = from;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < to) await send(next++);
      }),
    );
  };

  await run(0, warmup);
  const before = heapMb();
  const started = Date.now();
  await run(warmup, total);
  const seconds = (Date.now() - started) / 1000;
  const after = heapMb();
  console.log(
    JSON.stringify(
      {
        requests: total,
        distinctDocuments: total,
        bytesPerDocument: padding.length + 120,
        failures,
        resent,
        heapAfterWarmupMb: Math.round(before * 10) / 10,
        heapAfterMb: Math.round(after * 10) / 10,
        growthMb: Math.round((after - before) * 10) / 10,
        rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
        seconds: Math.round(seconds * 10) / 10,
      },
      null,
      2,
    ),
  );
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await apollo.stop();
  if (failures) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
