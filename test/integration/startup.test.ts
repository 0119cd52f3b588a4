/**
 * Start-up and stopping as an operator meets them, through the real
 * commands: a setting that cannot work stops `npm start` with one line
 * naming it before any other start-up work; a table that goes missing is
 * told once; SIGTERM to the `npm start` process alone stops the gateway
 * and its embedded DynamoDB Local; `npm run start:compiled` runs on the
 * embedded DynamoDB Local too, and its Java never outlives the gateway.
 */
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { freePort } from '../../src/dynamo/local.js';
import { localEndpoint, postGraphQL, TEST_CURSOR_SECRET } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** npm start's start-up on a 2-core machine running the suite (the embedded DynamoDB Local's JVM most of it), stretched by the load (patience.ts). */
const START_TIMEOUT_MS = 150_000;

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm <args>` in the repository, with the gateway's settings cleared and `env` applied. */
function npm(args: string[], env: Record<string, string>): Run {
  const cleared = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => /^(DYNAMODB_|AWS_|TABLE_NAME$|PORT$|HOST$|NODE_ENV$|SCHEMA_FILE$|AUTH_|CURSOR_SECRET|OTEL_|REDIS_URL$)/.test(name))
      .map((name) => [name, '']),
  );
  const child = spawn('npm', args, { cwd: root, env: { ...process.env, ...cleared, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The lines a failed start-up printed that are not npm's own banner or runtime warnings. */
function failureLines(run: Run): string[] {
  return run
    .stderr()
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^npm (warn|notice)/.test(line));
}

/** Does anything accept TCP connections on 127.0.0.1:port? */
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

/** Processes (pid → command line) whose command line contains every one of `parts`. */
function processesWith(...parts: string[]): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (parts.every((part) => cmdline.includes(part))) found.set(Number(entry), cmdline);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The direct children of `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (Number(ppid) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

const alive = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

/** `expect`: the test's own (tests here run concurrently). */
async function ready(run: Run, expect: ExpectStatic): Promise<{ url: string; dynamoPort: number }> {
  await expect
    .poll(() => /gateway ready at (http[^"\s]+)/.test(run.stdout()) || run.child.exitCode !== null, { timeout: patience(START_TIMEOUT_MS), interval: 250 })
    .toBe(true);
  const url = /gateway ready at (http[^"\s]+)/.exec(run.stdout())?.[1];
  if (!url) throw new Error(`the gateway did not start:\n${run.stdout()}\n${run.stderr()}`);
  const dynamoPort = Number(/"endpoint":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(run.stdout())![1]);
  return { url, dynamoPort };
}

/** The embedded DynamoDB Local on a free port; patient requests, so a loaded machine's slow JVM does not fail start-up. */
const embedded = async () => ({
  PORT: String(await freePort()),
  HOST: '127.0.0.1',
  DYNAMODB_LOCAL_PORT: String(await freePort()),
  DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
  DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
  NODE_ENV: 'development',
});

// Each test here waits on processes of its own (own ports, own tables): the tests of a block run at once.
describe.concurrent('a setting that cannot work stops npm start with one line naming it, before any other start-up work', () => {
  let squatter: Server;
  let busyPort: number;
  beforeAll(async () => {
    busyPort = await freePort();
    squatter = createServer(() => {});
    await new Promise<void>((done) => squatter.listen(busyPort, '127.0.0.1', done));
  });
  afterAll(() => new Promise<void>((done) => squatter.close(() => done())));

  it(
    'an unreachable DYNAMODB_ENDPOINT',
    async ({ expect }) => {
      const endpoint = `http://127.0.0.1:${await freePort()}`;
      const run = npm(['start'], { DYNAMODB_ENDPOINT: endpoint, PORT: '0', HOST: '127.0.0.1', DYNAMODB_CONNECT_TIMEOUT_MS: '200', DYNAMODB_MAX_ATTEMPTS: '2' });
      expect(await run.exited).toBe(1);
      expect(failureLines(run)).toEqual([
        `configuration error: DYNAMODB_ENDPOINT ${endpoint} cannot be reached (ECONNREFUSED): start DynamoDB there (e.g. docker compose up dynamodb), fix the URL, or unset DYNAMODB_ENDPOINT for the embedded DynamoDB Local`,
      ]);
      // Refused before the rest of start-up: the settings' warnings and the table come later.
      expect(run.stdout()).not.toMatch(/CURSOR_SECRET is not set|table (created|exists)/);
    },
    patience(60_000),
  );

  it(
    'DYNAMODB_ENDPOINT=aws without a region',
    async ({ expect }) => {
      const home = mkdtempSync(join(tmpdir(), 'no-aws-profile-'));
      try {
        const run = npm(['start'], {
          DYNAMODB_ENDPOINT: 'aws',
          PORT: '0',
          HOST: '127.0.0.1',
          // No region anywhere the SDK looks: no variables, no profile files.
          HOME: home,
          AWS_CONFIG_FILE: join(home, 'config'),
          AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
          AWS_EC2_METADATA_DISABLED: 'true',
        });
        expect(await run.exited).toBe(1);
        expect(failureLines(run)).toEqual([
          'configuration error: DYNAMODB_ENDPOINT=aws needs a region: set AWS_REGION (e.g. AWS_REGION=eu-west-1), or a region in the AWS profile (AWS_PROFILE)',
        ]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    patience(60_000),
  );

  it(
    'a PORT in use, found before the embedded DynamoDB Local is started',
    async ({ expect }) => {
      const run = npm(['start'], { PORT: String(busyPort), HOST: '127.0.0.1', DYNAMODB_LOCAL_PORT: '0', NODE_ENV: 'development' });
      expect(await run.exited).toBe(1);
      expect(failureLines(run)).toEqual([
        `configuration error: PORT ${busyPort} on 127.0.0.1 is in use: stop what listens there, or set PORT to another port (0 picks a free one)`,
      ]);
      expect(run.stdout()).not.toMatch(/starting embedded DynamoDB Local/);
    },
    patience(60_000),
  );
});

describe('a table that goes missing', () => {
  it(
    'is logged once, as a configuration error naming the table and what to do; /health says table-missing',
    async () => {
      const lines: any[] = [];
      const logger = pino(
        { level: 'info', base: undefined },
        new Writable({
          write(chunk, _encoding, done) {
            for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
            done();
          },
        }),
      );
      const tableName = `t_${randomUUID().slice(0, 8)}`;
      const config = loadConfig({
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: tableName,
        PORT: '0',
        HOST: '127.0.0.1',
        CURSOR_SECRET: TEST_CURSOR_SECRET,
        HEALTH_CACHE_MS: '0',
        STREAM_WORKER: 'false',
        DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
      });
      const gateway = await startGateway(config, logger);
      const health = async () => {
        const res = await fetch(gateway.url.replace(/\/graphql$/, '/health'));
        return { status: res.status, body: await res.json() };
      };
      try {
        expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
        await gateway.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName }));

        for (let i = 0; i < 3; i++) {
          const res = await postGraphQL(gateway.url, { query: '{ student(id: "1") { name } }' });
          expect(res.status).toBe(200);
          expect(res.json.errors).toEqual([
            expect.objectContaining({
              message: "The gateway's table does not exist; try again once it has been created",
              extensions: expect.objectContaining({ code: 'UNAVAILABLE', reason: 'TABLE_MISSING' }),
            }),
          ]);
        }
        expect(await health()).toMatchObject({ status: 503, body: { status: 'table-missing' } });
        expect(await health()).toMatchObject({ status: 503, body: { status: 'table-missing' } });
        const told = lines.filter((l) => /does not exist/.test(l.msg));
        expect(told).toHaveLength(1);
        expect(told[0]).toMatchObject({ level: 50, table: tableName, setting: 'TABLE_NAME' });
        expect(told[0].msg).toBe(
          `configuration error: table ${tableName} does not exist at ${localEndpoint()}: create it (npm start creates it when it starts; on AWS deploy infra/table.yaml) or set TABLE_NAME to the table to serve`,
        );

        // Created again: /health is ok, the log says so, and a second loss is told again.
        await ensureTable(gateway.dynamo.raw, tableName);
        expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
        expect(lines.filter((l) => l.msg === `table ${tableName} exists again`)).toHaveLength(1);
        await gateway.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName }));
        expect(await health()).toMatchObject({ status: 503, body: { status: 'table-missing' } });
        expect(lines.filter((l) => /does not exist/.test(l.msg))).toHaveLength(2);
      } finally {
        await gateway.stop();
      }
    },
    patience(120_000),
  );
});

describe.concurrent('npm start and npm run start:compiled with the embedded DynamoDB Local', () => {
  it(
    'SIGTERM to the npm start process alone exits 0, stopping the gateway and its embedded DynamoDB Local, freeing both ports',
    async ({ expect }) => {
      const run = npm(['start'], await embedded());
      try {
        const { url, dynamoPort } = await ready(run, expect);
        const httpPort = Number(new URL(url).port);
        expect(run.stdout()).toMatch(/CURSOR_SECRET is not set: generated a random one/);
        expect((await fetch(url.replace(/\/graphql$/, '/health'))).status).toBe(200);
        expect(await listening(httpPort)).toBe(true);
        expect(await listening(dynamoPort)).toBe(true);
        expect(processesWith('LocalDynamoLauncher', `-port ${dynamoPort}`).size).toBe(1);
        const gateway = childrenOf(run.child.pid!);
        expect(gateway).toHaveLength(1);

        run.child.kill('SIGTERM'); // npm's pid only: not its process group
        expect(await run.exited).toBe(0);
        await expect.poll(() => gateway.filter((pid) => alive(pid)), { timeout: patience(30_000), interval: 250 }).toEqual([]);
        await expect
          .poll(async () => [await listening(httpPort), await listening(dynamoPort)], { timeout: patience(30_000), interval: 250 })
          .toEqual([false, false]);
        await expect.poll(() => processesWith('LocalDynamoLauncher', `-port ${dynamoPort}`).size, { timeout: patience(30_000), interval: 250 }).toBe(0);
        expect(run.stdout()).toMatch(/"signal":"SIGTERM".*draining requests and stopping/);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    },
    patience(START_TIMEOUT_MS + 60_000),
  );

  it(
    'npm start with a federated model serves it as a Federation 2 subgraph at /graphql, with its demo data',
    async ({ expect }) => {
      const run = npm(['start'], { ...(await embedded()), SCHEMA_FILE: 'examples/federation/products.graphql' });
      try {
        const { url } = await ready(run, expect);
        const sdl = await postGraphQL(url, { query: '{ _service { sdl } }' });
        expect(sdl.json.data._service.sdl, run.stdout()).toContain('type Product @custom @key(fields: "id")');
        const entities = await postGraphQL(url, {
          query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { sku dimensions { size } } ... on User { name } } }',
          variables: {
            r: [
              { __typename: 'Product', id: 'apollo-federation' },
              { __typename: 'User', email: 'support@apollographql.com' },
            ],
          },
        });
        expect(entities.json).toEqual({ data: { _entities: [{ sku: 'federation', dimensions: { size: 'small' } }, { name: 'Jane Smith' }] } });
      } finally {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    },
    START_TIMEOUT_MS + 60_000,
  );

  it(
    'npm run start:compiled without DYNAMODB_ENDPOINT serves the demo data from the embedded DynamoDB Local, whose Java does not outlive a killed gateway',
    async ({ expect }) => {
      const run = npm(['run', 'start:compiled'], await embedded());
      try {
        const { url, dynamoPort } = await ready(run, expect);
        const res = await postGraphQL(url, { query: '{ course(id: "A") { id } }' });
        expect(res.json, run.stdout()).toEqual({ data: { course: { id: 'A' } } });
        expect(processesWith('LocalDynamoLauncher', `-port ${dynamoPort}`).size, run.stdout()).toBe(1);

        // SIGKILL the gateway itself (npm's child): nothing runs its stop(), yet Java must go too.
        const gateway = childrenOf(run.child.pid!);
        expect(gateway, `npm's children: ${gateway.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8')).join(' | ')}`).toHaveLength(1);
        process.kill(gateway[0]!, 'SIGKILL');
        await run.exited;
        await expect.poll(() => processesWith('LocalDynamoLauncher', `-port ${dynamoPort}`).size, { timeout: patience(60_000), interval: 250 }).toBe(0);
        await expect.poll(() => listening(dynamoPort), { timeout: patience(30_000), interval: 250 }).toBe(false);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    },
    patience(START_TIMEOUT_MS + 120_000),
  );
});
