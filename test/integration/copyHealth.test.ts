/**
 * `/health` details report copies pending and stale (`details.copies`):
 * records the gateway's stream processor holds while its writes are
 * throttled, then the dead letter it keeps; a stale copy and a wrong
 * counter written straight into the table, found by `npm run check`,
 * shown on /health, repaired, and shown as 0 again; another instance
 * (stream read elsewhere) sees the same. Each /health call costs a fixed,
 * small number of DynamoDB requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { checkMain } from '../../scripts/check.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEAD_LETTER_CAP } from '../../src/migration/copyHealth.js';
import { catalogCounterItems, courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { localEndpoint, postGraphQL, TEST_CURSOR_SECRET } from '../support/gateway.js';

const AT = '2026-01-01T00:00:00.000Z';
const tableName = `t_${randomUUID().slice(0, 8)}`;
let gateway: Gateway;

const SETTINGS = {
  DYNAMODB_ENDPOINT: localEndpoint(),
  PORT: '0',
  HOST: '127.0.0.1',
  TABLE_NAME: tableName,
  CURSOR_SECRET: TEST_CURSOR_SECRET,
  LOG_LEVEL: 'silent',
  STREAM_POLL_MS: '100',
  // Every call reads afresh: the test watches the figures change from one call to the next.
  HEALTH_CACHE_MS: '0',
  // Two attempts a long pause apart: the record is held (pending) long enough to be seen, then dead-lettered.
  STREAM_MAX_ATTEMPTS: '2',
  STREAM_RETRY_DELAY_MS: '1500',
};

beforeAll(async () => {
  gateway = await startGateway(loadConfig(SETTINGS), silentLogger);
});
afterAll(() => gateway?.stop());

const health = async () => (await (await fetch(gateway.url.replace(/\/graphql$/, '/health'))).json()) as any;
const copies = async () => (await health()).details.copies;

/** The DynamoDB requests the gateway's own client sends while `fn` runs, by operation. */
async function requestsDuring(fn: () => Promise<unknown>, queries: Record<string, unknown>[] = []): Promise<string[]> {
  const seen: string[] = [];
  const name = `countRequests${randomUUID().slice(0, 8)}`;
  gateway.dynamo.raw.middlewareStack.add(
    (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
      seen.push(String(context.commandName).replace(/Command$/, ''));
      if (context.commandName === 'QueryCommand') queries.push(args.input);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    gateway.dynamo.raw.middlewareStack.remove(name);
  }
  return seen.sort();
}

async function check(args: string[]) {
  const out: string[] = [];
  const env = { ...process.env, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: localEndpoint() };
  const code = await checkMain(['--json', ...args], { env, stdout: (line) => out.push(line), stderr: { write: () => true } });
  return { code, report: JSON.parse(out.join('')) };
}

describe('copies pending and dead letters in /health details', () => {
  it('shows the record a throttled processor holds, then the dead letter it keeps', async () => {
    const items = [
      courseItem({ id: 'T1', title: 'Old', studentCount: 1 }),
      studentItem({ id: 't1', name: 'T one', courseCount: 1 }),
      enrollmentItem({ studentId: 't1', courseId: 'T1', enrolledAt: AT, courseTitle: 'Old', studentName: 'T one' }),
    ];
    await batchPut(gateway.dynamo.doc, tableName, [...items, ...catalogCounterItems(items)]);
    await gateway.stream.reader!.caughtUp();
    expect(await copies()).toEqual({ pending: 0, deadLetters: 0, deadLettersCapped: false, check: null, stale: null });

    // The processor's own writes throttled past every retry; the gateway's (the rename itself) are not.
    const removeFaults = injectFaults(gateway.stream.client!, ({ operation }) =>
      operation === 'UpdateItem' || operation === 'TransactWriteItems' ? dynamoFault('ThrottlingException') : null,
    );
    try {
      const renamed = await postGraphQL(gateway.url, { query: 'mutation { updateCourse(id: "T1", input: { title: "New" }) { id } }' });
      expect(renamed.json.errors).toBeUndefined();
      await expect.poll(async () => (await copies()).pending, { timeout: 30_000, interval: 25 }).toBe(1);
      expect((await copies()).deadLetters).toBe(0);
      await expect.poll(async () => (await copies()).deadLetters, { timeout: 60_000, interval: 50 }).toBe(1);
      const body = await health();
      expect(body.details.copies).toMatchObject({ pending: 0, deadLetters: 1, deadLettersCapped: false });
      expect(body.details.stream).toMatchObject({ failed: 1, pending: 0 });
    } finally {
      removeFaults();
    }
  }, 120_000);
});

describe('stale copies and counters in /health details, from npm run check', () => {
  it('shows what the check found, and 0 once it repaired them', async () => {
    for (const query of [
      'mutation { createCourse(input: { id: "S1", title: "Current" }) { id } }',
      'mutation { createStudent(input: { id: "s1", name: "S one" }) { id } }',
      'mutation { enroll(studentId: "s1", courseId: "S1") { cursor } }',
    ]) {
      expect((await postGraphQL(gateway.url, { query })).json.errors).toBeUndefined();
    }
    // Nothing reads the stream from here on: what is planted stays as written.
    await gateway.stream.stop();
    const plant = (Key: Record<string, string>, set: string, value: unknown) =>
      gateway.dynamo.doc.send(
        new UpdateCommand({ TableName: tableName, Key, UpdateExpression: `SET ${set} = :v`, ExpressionAttributeValues: { ':v': value } }),
      );
    await plant({ PK: 'STUDENT#s1', SK: 'COURSE#S1' }, 'courseTitle', 'Stale');
    await plant({ PK: 'STUDENT#s1', SK: 'PROFILE' }, 'courseCount', 3);

    // A plain check writes nothing: /health shows no check until one is recorded.
    const plain = await check([]);
    expect(plain.code).toBe(1);
    expect((await copies()).check).toBeNull();
    const found = await check(['--record']);
    expect(found.code).toBe(1);
    expect(found.report.findings.staleCopies.count).toBe(1);
    expect(found.report.findings.wrongCounters.count).toBe(1);
    const before = await copies();
    expect(before.stale).toEqual({ copies: 1, counters: 1 });
    expect(before.check).toEqual({ at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), repair: false, scanned: found.report.scanned });

    const repaired = await check(['--repair']);
    expect(repaired.report.repaired).toMatchObject({ copies: 1, counters: 1 });
    const after = await copies();
    expect(after.stale).toEqual({ copies: 0, counters: 0 });
    expect(after.check).toMatchObject({ repair: true });
    expect(Date.parse(after.check.at)).toBeGreaterThanOrEqual(Date.parse(before.check.at));
    expect((await check([])).report.findings.staleCopies.count).toBe(0);
  }, 120_000);

  it('costs one GetItem and one bounded COUNT Query for the copies, beside the table checks, however many dead letters wait', async () => {
    const label = gateway.stream.reader!.streamLabel;
    const letters = Array.from({ length: 150 }, (_, i) => ({ PK: `STREAM#${label}`, SK: `FAILED#${String(i).padStart(4, '0')}`, record: '{}' }));
    await batchPut(gateway.dynamo.doc, tableName, letters);
    expect(await copies()).toMatchObject({ deadLetters: DEAD_LETTER_CAP, deadLettersCapped: true });
    const queries: Record<string, unknown>[] = [];
    const requests = await requestsDuring(() => health(), queries);
    // The verdict's and the layout's DescribeTable, time to live, the layout record; then the check's summary and the dead letters.
    expect(requests).toEqual(['DescribeTable', 'DescribeTable', 'DescribeTimeToLive', 'GetItem', 'GetItem', 'Query']);
    expect(queries).toEqual([expect.objectContaining({ Select: 'COUNT', Limit: DEAD_LETTER_CAP + 1 })]);
    expect(await requestsDuring(() => health())).toHaveLength(6);
  });

  it('on another instance, whose stream another consumer reads, shows the same dead letters, check and stale figures, and no pending count', async () => {
    const other = await startGateway(loadConfig({ ...SETTINGS, STREAM_WORKER: '0' }), silentLogger);
    try {
      const body = (await (await fetch(other.url.replace(/\/graphql$/, '/health'))).json()) as any;
      expect(body.details.stream.mode).toBe('external');
      expect(body.details.copies).toEqual({ ...(await copies()), pending: null });
      expect(body.details.copies).toMatchObject({ deadLetters: DEAD_LETTER_CAP, deadLettersCapped: true, stale: { copies: 0, counters: 0 } });
    } finally {
      await other.stop();
    }
  });
});
