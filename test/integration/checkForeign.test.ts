/**
 * What other programs write, as `npm run check` and the read path take it:
 * a counter past 2^53 and a number of 38 digits (reported, never a crash,
 * with the gateway's client and the check's own); a key value holding the
 * separator (read past by lists, reported as such, and no evidence for a
 * counter repair); an edge whose index key points into another partition
 * (neither partition's counter repaired from it); a key date that is no
 * time (not served as a DateTime, reported).
 */
import { fileURLToPath } from 'node:url';
import { DeleteCommand, NumberValue, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMain } from '../../scripts/check.js';
import { runCheck, type CheckOptions, type CheckReport } from '../../src/migration/check.js';
import { numberSafeDoc } from '../../src/migration/foreignValues.js';
import { localEndpoint, checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let options: CheckOptions;
async function ok<T = any>(query: string): Promise<T> {
  const result = await gw.run<T>(query);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}
/** Sets attributes of one item as another program would. */
const set = (g: TestGateway, key: Record<string, unknown>, values: Record<string, unknown>) =>
  g.dynamo.doc.send(
    new UpdateCommand({
      TableName: g.tableName,
      Key: key,
      UpdateExpression: `SET ${Object.keys(values)
        .map((_, i) => `#a${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((k, i) => [`#a${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((v, i) => [`:v${i}`, v])),
    }),
  );
const counts = (report: CheckReport) =>
  Object.fromEntries(
    Object.entries(report.findings)
      .filter(([, f]) => f.count > 0)
      .map(([k, f]) => [k, f.count]),
  );

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { ...process.env, TABLE_NAME: gw.tableName, DYNAMODB_ENDPOINT: localEndpoint() };
  const code = await checkMain(args, { env, stdout: (line) => out.push(line), stderr: { write: (text: string) => err.push(text) } });
  return { code, out: out.join('\n'), err: err.join('') };
}

beforeAll(async () => {
  gw = await testGateway({ fanOut: 'inRequest' });
  options = checkOptionsOf(gw);
  for (const s of ['s1', 's2', 's3']) await ok(`mutation { createStudent(input: { id: "${s}", name: "Student ${s}" }) { id } }`);
  for (const c of ['c1', 'c2']) await ok(`mutation { createCourse(input: { id: "${c}", title: "Course ${c}" }) { id } }`);
  await ok(`mutation { enroll(studentId: "s1", courseId: "c1") { enrolledAt } }`);
  await ok(`mutation { enroll(studentId: "s2", courseId: "c2") { enrolledAt } }`);
  await ok(`mutation { createCustomer(input: { id: "cu1", name: "Buyer" }) { id } }`);
  await ok(`mutation { placeOrder(customerId: "cu1", input: { id: "o1", total: 5 }) { id } }`);
  expect((await runCheck(options)).found).toBe(0);
});
afterAll(() => gw?.stop());

describe('numbers of any size', () => {
  it('a counter past 2^53 is reported (the gateway client reads it as a BigInt), never a crash; --repair counts it', async () => {
    await set(gw, { PK: 'STUDENT#s3', SK: 'PROFILE' }, { courseCount: 9007199254740993n });
    const report = await runCheck(options);
    expect(counts(report)).toEqual({ wrongCounters: 1 });
    expect(report.findings.wrongCounters.samples).toEqual([
      { key: { PK: 'STUDENT#s3', SK: 'PROFILE' }, detail: 'courseCount is 9007199254740993, Student.courses counts 0' },
    ]);
    expect(() => JSON.stringify(report)).not.toThrow();
  });

  it('the command reads a 38-digit number as it is and reports it with the counter; --repair counts the counter', async () => {
    await set(gw, { PK: 'CUSTOMER#cu1', SK: 'ORDER#o1' }, { total: NumberValue.from('12345678901234567890.5') });
    const found = await cli(['--json']);
    expect(found.code, found.err).toBe(1);
    const report = JSON.parse(found.out) as CheckReport;
    expect(counts(report)).toEqual({ wrongCounters: 1, badValues: 1 });
    expect(report.findings.badValues.samples).toEqual([
      { key: { PK: 'CUSTOMER#cu1', SK: 'ORDER#o1' }, detail: 'Order: total is 12345678901234567890.5: more digits than a JavaScript number holds' },
    ]);

    // The check's own client, as the command makes it.
    const repaired = await runCheck({ ...options, doc: numberSafeDoc(gw.dynamo.raw), repair: true });
    expect(repaired.repaired.counters).toBe(1);
    expect((await gw.get('STUDENT#s3', 'PROFILE'))?.courseCount).toBe(0);
    await set(gw, { PK: 'CUSTOMER#cu1', SK: 'ORDER#o1' }, { total: 5 });
    expect((await runCheck(options)).found).toBe(0);
  });
});

describe('a key value holding the separator', () => {
  it('is read past by lists, reported as such, and no evidence for the counter of its collection', async () => {
    await gw.put([{ PK: 'CUSTOMER#cu1', SK: 'ORDER#o#9', GSI1PK: 'ORDER#o#9', GSI1SK: 'CUSTOMER#cu1', placedAt: '2026-01-01T00:00:00.000Z', total: 1 }]);
    // No id holds '#': the order cannot be served, so the list reads past it (its counter, kept by the gateway, says 1).
    const data = await ok(`{ customer(id: "cu1") { orders(first: 5) { totalCount edges { node { id } } } } }`);
    expect(data.customer.orders).toEqual({ totalCount: 1, edges: [{ node: { id: 'o1' } }] });

    const report = await runCheck({ ...options, repair: true });
    expect(counts(report)).toEqual({ keysWithSeparator: 1, wrongCounters: 1 });
    expect(report.findings.keysWithSeparator.samples).toEqual([
      {
        key: { PK: 'CUSTOMER#cu1', SK: 'ORDER#o#9' },
        detail: `Order but for '#' in {id} "o#9": ids and key values never hold '#', so lists and lookups read past it`,
      },
    ]);
    // A count of the orders takes the item in: not written.
    expect(report.repaired.counters).toBe(0);
    expect(report.withheld).toEqual({
      count: 1,
      samples: [
        {
          key: { PK: 'CUSTOMER#cu1', SK: 'PROFILE' },
          detail: expect.stringContaining(
            'not repaired: the collection holds {"PK":"CUSTOMER#cu1","SK":"ORDER#o#9"}, which this check flags (keysWithSeparator)',
          ),
        },
      ],
    });
    expect((await gw.get('CUSTOMER#cu1', 'PROFILE'))?.orderCount).toBe(1);
    await gw.dynamo.doc.send(new DeleteCommand({ TableName: gw.tableName, Key: { PK: 'CUSTOMER#cu1', SK: 'ORDER#o#9' } }));
  });
});

describe('an edge whose index key points into another partition', () => {
  it("repairs neither partition's counter from it, wherever the Scan meets it", async () => {
    // s2's enrollment in c2 indexed under c1: c1 lists two students, c2 none.
    await set(gw, { PK: 'STUDENT#s2', SK: 'COURSE#c2' }, { GSI1PK: 'COURSE#c1' });
    for (const pageSize of [1, 100]) {
      const report = await runCheck({ ...options, repair: true, pageSize });
      expect(report.findings.wrongIndexKeys.count).toBe(1);
      expect(report.findings.wrongCounters.samples.map((s) => s.detail).sort()).toEqual([
        'studentCount is 1, Course.students counts 0',
        'studentCount is 1, Course.students counts 2',
      ]);
      expect(report.repaired.counters).toBe(0);
      expect(report.withheld.samples.map((s) => s.key).sort((a, b) => String(a.PK).localeCompare(String(b.PK)))).toEqual([
        { PK: 'COURSE#c1', SK: 'PROFILE' },
        { PK: 'COURSE#c2', SK: 'PROFILE' },
      ]);
    }
    expect(await gw.get('COURSE#c1', 'PROFILE')).toMatchObject({ studentCount: 1 });
    expect(await gw.get('COURSE#c2', 'PROFILE')).toMatchObject({ studentCount: 1 });
  });
});

describe('a key date that is no time', () => {
  const HELPDESK = fileURLToPath(new URL('../../examples/helpdesk.graphql', import.meta.url));
  let desk: TestGateway;
  beforeAll(async () => {
    desk = await testGateway({ schemaFile: HELPDESK, fanOut: 'inRequest' });
  });
  afterAll(() => desk?.stop());

  it('is not served as a DateTime, and the check reports it', async () => {
    const open = await desk.run(`mutation { openTicket(input: { id: "t1", subject: "Printer", status: OPEN, priority: LOW, customer: "k1" }) { id } }`);
    expect(open.errors).toBeUndefined();
    expect((await desk.run(`mutation { postMessage(ticket: "t1", input: { id: "m1", body: "It jams", author: "k1" }) { id } }`)).errors).toBeUndefined();
    await desk.put([{ pk: 'T#t1', sk: 'msg#notadate#m9', body: 'From elsewhere', author: 'k1' }]);
    await set(desk, { pk: 'T#t1', sk: 'meta' }, { messageCount: 2 });

    const read = await desk.run(`{ ticket(id: "t1") { messages(first: 5) { edges { node { id sentAt } } } } }`);
    expect(JSON.stringify(read.data)).not.toContain('notadate');
    expect(read.errors?.map((e) => e.message)).toEqual(['DateTime cannot represent "notadate": the stored value is no ISO-8601 time']);

    const report = await runCheck({
      raw: desk.dynamo.raw,
      doc: desk.dynamo.doc,
      tableName: desk.tableName,
      plan: desk.plan,
      segments: 1,
      readUnitsPerSecond: 100_000,
      indexSettleMs: 0,
    });
    expect(counts(report)).toEqual({ badValues: 1 });
    expect(report.findings.badValues.samples).toEqual([
      { key: { pk: 'T#t1', sk: 'msg#notadate#m9' }, detail: 'Message: sentAt (in the key) is "notadate": not an ISO-8601 time' },
    ]);
  });
});
