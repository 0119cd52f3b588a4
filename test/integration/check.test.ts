/**
 * `npm run check` reads a table against the declaration: nothing on a
 * table laid out as the gateway writes it; each planted mismatch (an item
 * of no type, a missing required attribute, a wrong GSI1 key, a stale edge
 * copy, a wrong counter, missing GSI1 keys) found with its count and sample
 * key; --repair fixes the copy, the counter and the keys; a run stopped
 * midway resumes from its state file; the CLI's exit codes, --json and
 * bad input; written @indexed keys checked and repaired on a model that
 * declares them.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../src/dynamo/batchGet.js';
import { FINDING_KINDS, runCheck, type CheckOptions, type CheckReport } from '../../src/migration/check.js';
import { checkMain } from '../../scripts/check.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import {
  catalogCounterItems,
  catalogCounterKey,
  catalogKeys,
  catalogShardOf,
  courseItem,
  courseKey,
  customerItem,
  enrollmentItem,
  orderItem,
  partItem,
  productItem,
  studentItem,
  studentKey,
} from '../support/defaultItems.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';

const AT = '2026-01-01T00:00:00.000Z';

/** Four students, three courses, four enrollments, a customer with two orders, a product with two parts: counters and copies right. */
function cleanItems(): Item[] {
  const students = [
    { id: 's1', courses: ['c1', 'c2'] },
    { id: 's2', courses: ['c1'] },
    { id: 's3', courses: ['c3'] },
    { id: 's4', courses: [] as string[] },
  ];
  const title = (c: string) => `Course ${c}`;
  const items: Item[] = [];
  for (const s of students) {
    items.push(studentItem({ id: s.id, name: `Student ${s.id}`, courseCount: s.courses.length }));
    for (const c of s.courses)
      items.push(enrollmentItem({ studentId: s.id, courseId: c, enrolledAt: AT, courseTitle: title(c), studentName: `Student ${s.id}` }));
  }
  for (const c of ['c1', 'c2', 'c3']) {
    items.push(courseItem({ id: c, title: title(c), studentCount: students.filter((s) => s.courses.includes(c)).length }));
  }
  items.push(customerItem({ id: 'cu1', name: 'Buyer', orderCount: 2 }));
  items.push(orderItem({ customerId: 'cu1', id: 'o1', placedAt: AT, total: 1 }));
  items.push(orderItem({ customerId: 'cu1', id: 'o2', placedAt: AT, total: 2 }));
  items.push(productItem({ id: 'p1', name: 'Widget', partCount: 2 }));
  items.push(partItem({ productId: 'p1', id: 'x1', name: 'Bolt', quantity: 4 }));
  items.push(partItem({ productId: 'p1', id: 'x2', name: 'Nut', quantity: 4 }));
  return [...items, ...catalogCounterItems(items)];
}

function withoutGsi1(item: Item): Item {
  const { GSI1PK: _pk, GSI1SK: _sk, ...rest } = item;
  return rest;
}

let gw: TestGateway;
let options: CheckOptions;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  gw = await testGateway();
  options = {
    raw: gw.dynamo.raw,
    doc: gw.dynamo.doc,
    tableName: gw.tableName,
    plan: gw.plan,
    segments: 2,
    readUnitsPerSecond: 100_000,
    pageSize: 7,
    indexSettleMs: 0,
  };
  env = { ...process.env, TABLE_NAME: gw.tableName, DYNAMODB_ENDPOINT: localEndpoint() };
  await gw.put(cleanItems());
});
afterAll(() => gw.stop());

/** Every finding kind at 0. */
const NONE = Object.fromEntries(FINDING_KINDS.map((k) => [k, 0]));
const counts = (report: CheckReport) => Object.fromEntries(Object.entries(report.findings).map(([k, f]) => [k, f.count]));

/** The CLI with its output captured. */
async function cli(args: string[], environment = env) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await checkMain(args, { env: environment, stdout: (line) => out.push(line), stderr: { write: (text: string) => err.push(text) } });
  return { code, out: out.join('\n'), err: err.join('') };
}

describe('npm run check', () => {
  it('reports nothing on a table laid out as the gateway writes it, and writes nothing', async () => {
    const before = await gw.scan();
    const report = await runCheck(options);
    expect(report.found, JSON.stringify(report.findings)).toBe(0);
    expect(report.scanned).toBe(before.length);
    expect(await gw.scan()).toEqual(before);
    const { code } = await cli([]);
    expect(code).toBe(0);
    // The command too: a plain check writes no summary item (a read-only role runs it).
    expect(await gw.scan()).toEqual(before);
  });

  it('finds each planted mismatch with its count and sample key, and writes nothing', async () => {
    await gw.put([
      { PK: 'JUNK#1', SK: 'WHATEVER', note: 'no type has this key' },
      // A student without its required name.
      { ...studentKey('s9'), courseCount: 0 },
      // Order o1 without its GSI1 keys (an inverted type: findable alone through GSI1).
      withoutGsi1(orderItem({ customerId: 'cu1', id: 'o1', placedAt: AT, total: 1 })),
      // Order o2 indexed under a key its template does not give.
      { ...orderItem({ customerId: 'cu1', id: 'o2', placedAt: AT, total: 2 }), GSI1PK: 'ORDER#elsewhere' },
      // The course renamed (version 2); the edge's copy still the old title at version 1.
      { ...courseItem({ id: 'c1', title: 'Course c1, renamed', studentCount: 2 }), titleVersion: 2 },
      enrollmentItem({ studentId: 's1', courseId: 'c1', enrolledAt: AT, courseTitle: 'Course c1', courseTitleVersion: 1, studentName: 'Student s1' }),
      // The rename reached the other edge.
      enrollmentItem({ studentId: 's2', courseId: 'c1', enrolledAt: AT, courseTitle: 'Course c1, renamed', courseTitleVersion: 2, studentName: 'Student s2' }),
      // s2 takes one course, its counter says five.
      studentItem({ id: 's2', name: 'Student s2', courseCount: 5 }),
      // The course catalog's shard of c3 counts seven entries more than it holds.
      {
        ...catalogCounterKey('COURSE', catalogShardOf('c3')),
        count: 7 + cleanItems().filter((i) => i.GSI2PK === catalogKeys('COURSE', 'c3', 'x').GSI2PK).length,
      },
    ]);
    const before = await gw.scan();
    const report = await runCheck(options);
    expect(counts(report)).toEqual({ ...NONE, unmatched: 1, missingAttributes: 1, missingIndexKeys: 1, wrongIndexKeys: 1, staleCopies: 1, wrongCounters: 2 });
    expect(report.found).toBe(7);
    expect(report.findings.unmatched.samples[0]!.key).toEqual({ PK: 'JUNK#1', SK: 'WHATEVER' });
    expect(report.findings.missingAttributes.samples[0]).toMatchObject({ key: studentKey('s9'), detail: expect.stringContaining('name') });
    expect(report.findings.missingIndexKeys.samples[0]).toMatchObject({
      key: { PK: 'CUSTOMER#cu1', SK: 'ORDER#o1' },
      detail: expect.stringContaining('GSI1PK'),
    });
    expect(report.findings.wrongIndexKeys.samples[0]).toMatchObject({ key: { PK: 'CUSTOMER#cu1', SK: 'ORDER#o2' }, detail: expect.stringContaining('GSI1PK') });
    expect(report.findings.staleCopies.samples[0]).toMatchObject({
      key: { PK: studentKey('s1').PK, SK: courseKey('c1').PK },
      detail: expect.stringContaining('courseTitle'),
    });
    expect(report.findings.wrongCounters.samples).toEqual(
      expect.arrayContaining([
        { key: studentKey('s2'), detail: expect.stringContaining('courseCount is 5') },
        { key: catalogCounterKey('COURSE', catalogShardOf('c3')), detail: expect.stringContaining('courses shard') },
      ]),
    );
    expect(report.repaired).toEqual({ copies: 0, counters: 0, indexKeys: 0, marks: 0 });
    expect(await gw.scan()).toEqual(before);
  });

  it('exits 1 with one JSON report under --json', async () => {
    const { code, out, err } = await cli(['--json']);
    expect(code).toBe(1);
    const report = JSON.parse(out) as CheckReport;
    expect(report.found).toBe(7);
    expect(report.findings.staleCopies.count).toBe(1);
    expect(err).toContain('check');
  });

  it('resumes from its state file after a stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-'));
    const state = join(dir, 'state.json');
    await expect(
      runCheck({
        ...options,
        statePath: state,
        afterCheckpoint: () => {
          throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    expect(existsSync(state)).toBe(true);
    const resumed = await runCheck({ ...options, statePath: state });
    expect(resumed.resumed).toBe(true);
    expect(resumed.found).toBe(7);
    expect(resumed.scanned).toBe((await gw.scan()).length);
    // Finished: the state goes, the next run starts over.
    expect(existsSync(state)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('--repair fixes the copy, the counter and the missing index keys with conditional writes; a second check finds none of them', async () => {
    const repaired = await runCheck({ ...options, repair: true });
    expect(repaired.repaired).toEqual({ copies: 1, counters: 2, indexKeys: 1, marks: 0 });
    expect(await gw.get('CUSTOMER#cu1', 'ORDER#o1')).toMatchObject({ GSI1PK: 'ORDER#o1', GSI1SK: 'CUSTOMER#cu1' });
    const edge = await gw.get(studentKey('s1').PK, courseKey('c1').PK);
    expect(edge).toMatchObject({ courseTitle: 'Course c1, renamed', courseTitleVersion: 2 });
    expect((await gw.get(studentKey('s2').PK, 'PROFILE'))?.courseCount).toBe(1);
    const after = await runCheck(options);
    expect(counts(after)).toEqual({ ...NONE, unmatched: 1, missingAttributes: 1, wrongIndexKeys: 1 });
  });

  it('a missing table is one line on stderr and exit code 2', async () => {
    const { code, out, err } = await cli(['--json'], { ...env, TABLE_NAME: 'no_such_table_for_check' });
    expect(code).toBe(2);
    expect(out).toBe('');
    const lines = err
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('checking table'));
    expect(lines).toEqual([expect.stringContaining('no_such_table_for_check does not exist')]);
  });

  it('a table whose keys contradict the model is one line on stderr and exit code 2', async () => {
    const name = `${gw.tableName}_other`;
    await gw.dynamo.raw.send(
      new CreateTableCommand({
        TableName: name,
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    try {
      const { code, out, err } = await cli([], { ...env, TABLE_NAME: name });
      expect(code).toBe(2);
      expect(out).toBe('');
      const lines = err
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('checking table'));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`${name} contradicts the model: the table is keyed on pk id`))]);
    } finally {
      await gw.dynamo.raw.send(new DeleteTableCommand({ TableName: name })).catch(() => {});
    }
  });
});

/** A model whose items carry written @indexed keys: a message in its ticket's index under `m#<sentAt>#<id>`. */
const HELPDESK = `
extend schema
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byTicket", pk: ["ticketKey"], sk: ["sentKey"])
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Ticket @item(pk: "TICKET#{id}", sk: "META") {
  id: ID!
  subject: String!
  messages(first: Int, after: String, last: Int, before: String): MessageConnection! @query(index: "byTicket")
  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @children(counter: "noteCount")
}
type Message @item(pk: "MSG#{id}", sk: "T#{ticket}") @indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentAt}#{id}"]) {
  id: ID!
  body: String!
  sentAt: String!
  ticket: Ticket! @parent
}
type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! totalCount: Int! }
type MessageEdge { cursor: String! node: Message! }
type Note @item(pk: "TICKET#{ticket}#notes", sk: "NOTE#{id}") { id: ID! text: String! ticket: Ticket! @parent }
type NoteConnection { edges: [NoteEdge!]! pageInfo: PageInfo! totalCount: Int! }
type NoteEdge { cursor: String! node: Note! }
input OpenTicketInput { id: ID subject: String! }
input PostMessageInput { id: ID body: String! sentAt: String! }
input AddNoteInput { id: ID text: String! }
type Query { ticket(id: ID!): Ticket @get }
type Mutation {
  openTicket(input: OpenTicketInput!): Ticket! @create
  postMessage(ticketId: ID!, input: PostMessageInput!): Message! @create(parent: "ticketId")
  addNote(ticketId: ID!, input: AddNoteInput!): Note! @create(parent: "ticketId")
}
`;

describe('npm run check on written @indexed keys', () => {
  let desk: TestGateway;
  let deskOptions: CheckOptions;
  beforeAll(async () => {
    desk = await testGateway({ model: buildModel(HELPDESK, 'helpdesk.graphql') });
    deskOptions = { ...options, raw: desk.dynamo.raw, doc: desk.dynamo.doc, tableName: desk.tableName, plan: desk.plan };
    for (const write of [
      'openTicket(input: { id: "t1", subject: "Printer" }) { id }',
      'postMessage(ticketId: "t1", input: { id: "m1", body: "one", sentAt: "2026-03-01T10:00:00Z" }) { id }',
      'postMessage(ticketId: "t1", input: { id: "m2", body: "two", sentAt: "2026-03-02T10:00:00Z" }) { id }',
      'addNote(ticketId: "t1", input: { id: "n1", text: "call back" }) { id }',
    ]) {
      const result = await desk.run(`mutation { ${write} }`);
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    }
  });
  afterAll(() => desk.stop());

  it('finds nothing on what the gateway wrote; a wrong and a missing written key after planting; --repair adds the missing one', async () => {
    expect((await runCheck(deskOptions)).found).toBe(0);
    const m1 = (await desk.get('MSG#m1', 'T#t1'))!;
    const m2 = (await desk.get('MSG#m2', 'T#t1'))!;
    expect(m1.sentKey).toBe('m#2026-03-01T10:00:00Z#m1');
    const { ticketKey: _t, sentKey: _s, ...m2Bare } = m2;
    await desk.put([{ ...m1, sentKey: 'm#1999#m1' }, m2Bare]);
    const report = await runCheck(deskOptions);
    expect(counts(report)).toMatchObject({ missingIndexKeys: 1, wrongIndexKeys: 1 });
    expect(report.found).toBe(2);
    expect(report.findings.wrongIndexKeys.samples[0]).toMatchObject({
      key: { PK: 'MSG#m1', SK: 'T#t1' },
      detail: expect.stringContaining('m#2026-03-01T10:00:00Z#m1'),
    });
    expect(report.findings.missingIndexKeys.samples[0]).toMatchObject({ key: { PK: 'MSG#m2', SK: 'T#t1' } });
    const repaired = await runCheck({ ...deskOptions, repair: true });
    expect(repaired.repaired.indexKeys).toBe(1);
    expect(await desk.get('MSG#m2', 'T#t1')).toMatchObject({ ticketKey: 'T#t1', sentKey: 'm#2026-03-02T10:00:00Z#m2' });
    expect(counts(await runCheck(deskOptions))).toMatchObject({ missingIndexKeys: 0, wrongIndexKeys: 1 });
  });
});
