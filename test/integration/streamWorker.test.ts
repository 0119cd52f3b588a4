/**
 * The stream processor as processes: `npm run stream-worker` killed with
 * SIGKILL in the middle of a fan-out and started again finishes the job
 * from its checkpoint; the gateway started by `npm start` runs its own
 * processor against a local endpoint and reports it in `/health` details,
 * and on a table without a stream keeps the in-request fan-out and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { tableDefinition } from '../../src/dynamo/table.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { localEndpoint, postGraphQL, testGateway, TEST_CURSOR_SECRET, type TestGateway } from '../support/gateway.js';
import { patience, until } from '../support/patience.js';

const root = join(import.meta.dirname, '..', '..');
const EDGES = 60;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

function worker(tableName: string, env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/streamWorker.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      LOG_LEVEL: 'info',
      STREAM_POLL_MS: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return { child, output: () => out };
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

const renamed = async (courseId: string, title: string) =>
  (
    await gw.dynamo.doc.send(
      new QueryCommand({
        TableName: gw.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        FilterExpression: 'courseTitle = :t',
        ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':t': title },
        Select: 'COUNT',
      }),
    )
  ).Count ?? 0;

describe('npm run stream-worker', () => {
  it(
    'killed with SIGKILL in the middle of a rename and started again, finishes every copy',
    async () => {
      const students = Array.from({ length: EDGES }, (_, i) => `w${String(i).padStart(3, '0')}`);
      await gw.put([
        courseItem({ id: 'W', title: 'Old', studentCount: EDGES }),
        ...students.map((id) => studentItem({ id, name: id, courseCount: 1 })),
        ...students.map((id) => enrollmentItem({ studentId: id, courseId: 'W', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: id })),
      ]);
      // The seed's own records are handled first (and checkpointed), so the workers below start at the rename.
      await gw.settle();
      await gw.stopWorker();
      await gw.run(`mutation { updateCourse(id: "W", input: { title: "New" }) { id } }`);

      // One edge write at a time, so the kill lands in the middle of the fan-out.
      const first = worker(gw.tableName, { STREAM_CONCURRENCY: '1' });
      // Looked at often, so the kill lands well before the last of the edges.
      await until(async () => (await renamed('W', 'New')) >= 10, 'ten edges renamed', 60_000, 20);
      first.child.kill('SIGKILL');
      expect(await exited(first.child)).toEqual({ code: null, signal: 'SIGKILL' });
      const half = await renamed('W', 'New');
      expect(half).toBeGreaterThanOrEqual(10);
      expect(half).toBeLessThan(EDGES);

      const second = worker(gw.tableName);
      await until(
        async () => (await renamed('W', 'New')) === EDGES && !('propagatingSince' in ((await gw.get('COURSE#W', 'PROFILE')) ?? {})),
        'every edge renamed',
        60_000,
        100,
      );
      second.child.kill('SIGTERM');
      expect((await exited(second.child)).code).toBe(0);
      expect(second.output()).toContain('stream worker stopping');
      expect((await gw.scan()).filter((i) => i.SK === 'COURSE#W')).toHaveLength(EDGES);
    },
    patience(120_000),
  );
});

describe('the gateway process and its stream processor', () => {
  const config = (tableName: string) =>
    loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      PORT: '0',
      HOST: '127.0.0.1',
      TABLE_NAME: tableName,
      CURSOR_SECRET: TEST_CURSOR_SECRET,
      LOG_LEVEL: 'silent',
      STREAM_POLL_MS: '100',
    });

  it('runs its own processor on a local endpoint and reports mode, counts and lag in /health details', async () => {
    const gateway = await startGateway(config(`t_${randomUUID().slice(0, 8)}`), silentLogger);
    try {
      await postGraphQL(gateway.url, { query: 'mutation { createCourse(input: { id: "H", title: "Old" }) { id } }' });
      await postGraphQL(gateway.url, { query: 'mutation { updateCourse(id: "H", input: { title: "New" }) { id } }' });
      await gateway.stream.reader!.caughtUp();
      const res = await fetch(gateway.url.replace(/\/graphql$/, '/health'));
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ status: 'ok', details: { table: { lacks: [] }, stream: { mode: 'stream', running: true, failed: 0, lagMs: 0 } } });
      expect(body.details.stream.processed).toBeGreaterThanOrEqual(2);
    } finally {
      await gateway.stop();
    }
  });

  it('on a table without a stream keeps the in-request fan-out and says so in /health details', async () => {
    const tableName = `t_${randomUUID().slice(0, 8)}`;
    const { StreamSpecification: _, ...withoutStream } = tableDefinition(tableName);
    await gw.dynamo.raw.send(new CreateTableCommand(withoutStream));
    const lines: string[] = [];
    const gateway = await startGateway(config(tableName), pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }));
    try {
      expect(lines.filter((l) => /no stream/.test(l)).length).toBeGreaterThan(0);
      await gateway.stream.stop();
      await postGraphQL(gateway.url, { query: 'mutation { createStudent(input: { id: "s", name: "S" }) { id } }' });
      await postGraphQL(gateway.url, { query: 'mutation { createCourse(input: { id: "N", title: "Old" }) { id } }' });
      await postGraphQL(gateway.url, { query: 'mutation { enroll(studentId: "s", courseId: "N") { cursor } }' });
      const renamedNow = await postGraphQL(gateway.url, {
        query: 'mutation { updateCourse(id: "N", input: { title: "New" }) { propagating } }',
      });
      expect(renamedNow.json).toEqual({ data: { updateCourse: { propagating: false } } });
      const seen = await postGraphQL(gateway.url, { query: '{ student(id: "s") { courses { edges { node { title } } } } }' });
      expect(seen.json.data.student.courses.edges).toEqual([{ node: { title: 'New' } }]);
      const body = (await (await fetch(gateway.url.replace(/\/graphql$/, '/health'))).json()) as any;
      expect(body.details.stream).toMatchObject({ mode: 'inRequest', running: false });
      expect(body.details.table.lacks.join(' ')).toMatch(/no stream/);
    } finally {
      await gateway.stop();
      await gw.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
    }
  });
});
