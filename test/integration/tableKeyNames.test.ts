/**
 * A table whose key attributes have other names than PK/SK: a copy of the
 * default model declaring `@table(pk: "pk", sk: "sk")` (and its GSI1/GSI2)
 * is served end to end against DynamoDB Local. Every item, key, condition
 * and bookkeeping record uses the declared names (no item carries PK or
 * SK), every behaviour is the default model's, and each operation sends
 * the same DynamoDB requests as on the default model.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { IDEMPOTENCY_PREFIX, LAYOUT_PK, STREAM_PREFIX } from '../../src/dynamo/keys.js';
import { describeLayout } from '../../src/dynamo/table.js';
import { runMigration } from '../../src/migration/migrate.js';
import { defaultModel } from '../support/model.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { reshardCourse } from '../support/writes.js';

const RENAMED_LAYOUT =
  'extend schema @table(pk: "pk", sk: "sk") @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"]) @index(name: "GSI2", pk: ["GSI2PK"], sk: ["GSI2SK"])\n';
const renamedModel = buildModel(RENAMED_LAYOUT + readFileSync(defaultModel.source, 'utf8'), 'renamed.graphql');

let gw: TestGateway;
let plain: TestGateway;
beforeAll(async () => {
  [gw, plain] = await Promise.all([testGateway({ model: renamedModel }), testGateway()]);
});
afterAll(async () => {
  await Promise.all([gw?.stop(), plain?.stop()]);
});

const ok = async (g: TestGateway, query: string, variables?: Record<string, unknown>) => {
  const result = await g.run(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data;
};

/** Every item of the table carries the declared keys and none of the default ones. */
async function expectDeclaredKeysOnly(g: TestGateway) {
  const items = await g.scan();
  expect(items.length).toBeGreaterThan(0);
  const wrong = items.filter((i) => typeof i.pk !== 'string' || typeof i.sk !== 'string' || 'PK' in i || 'SK' in i);
  expect(wrong).toEqual([]);
  return items;
}

describe('a table keyed on pk/sk', () => {
  it('is created with the declared keys and its layout record under them', async () => {
    expect(gw.plan.table).toMatchObject({ pk: 'pk', sk: 'sk' });
    const layout = await describeLayout(gw.dynamo.raw, gw.tableName, undefined, gw.plan.table);
    expect(layout).toMatchObject({ needsMigration: false, itemsVersion: 2, contradictions: [] });
    expect(await gw.get(LAYOUT_PK, 'MIGRATION')).toMatchObject({ pk: LAYOUT_PK, sk: 'MIGRATION', layoutVersion: 2 });
  });

  it('creates, reads, updates and deletes a top-level item and a child', async () => {
    await ok(gw, 'mutation { createStudent(input: { id: "s1", name: "Ada", email: "ada@example.com" }) { id } }');
    expect(await gw.get('STUDENT#s1', 'PROFILE')).toMatchObject({ pk: 'STUDENT#s1', sk: 'PROFILE', name: 'Ada', courseCount: 0 });
    expect(await ok(gw, '{ student(id: "s1") { id name email } }')).toEqual({ student: { id: 's1', name: 'Ada', email: 'ada@example.com' } });
    expect(await ok(gw, 'mutation { updateStudent(id: "s1", input: { name: "Ada L." }) { name } }')).toEqual({ updateStudent: { name: 'Ada L.' } });
    const again = await gw.run('mutation { createStudent(input: { id: "s1", name: "Twice" }) { id } }');
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');

    await ok(gw, 'mutation { createCustomer(input: { id: "c1", name: "Cy" }) { id } }');
    await ok(gw, 'mutation { placeOrder(customerId: "c1", input: { id: "o1", total: 12.5 }) { id } }');
    expect(await gw.get('CUSTOMER#c1', 'ORDER#o1')).toMatchObject({ pk: 'CUSTOMER#c1', sk: 'ORDER#o1', GSI1PK: 'ORDER#o1', GSI1SK: 'CUSTOMER#c1' });
    // An inverted child is found by its id alone (GSI1), and updated and deleted without its parent's id.
    expect(await ok(gw, '{ order(id: "o1") { id total customer { id orders(first: 5) { totalCount } } } }')).toEqual({
      order: { id: 'o1', total: 12.5, customer: { id: 'c1', orders: { totalCount: 1 } } },
    });
    expect(await ok(gw, 'mutation { updateOrder(id: "o1", input: { status: PAID }) { status } }')).toEqual({ updateOrder: { status: 'PAID' } });
    expect(await ok(gw, 'mutation { deleteOrder(id: "o1") }')).toEqual({ deleteOrder: 'o1' });
    expect(await gw.get('CUSTOMER#c1', 'ORDER#o1')).toBeUndefined();
    expect((await gw.get('CUSTOMER#c1', 'PROFILE'))?.orderCount).toBe(0);

    await ok(gw, 'mutation { createProduct(input: { id: "p1", name: "Bike" }) { id } }');
    await ok(gw, 'mutation { addPart(productId: "p1", input: { id: "w", name: "Wheel", quantity: 2 }) { id } }');
    expect(await ok(gw, '{ product(id: "p1") { parts(first: 5) { totalCount edges { node { id quantity } } } } }')).toEqual({
      product: { parts: { totalCount: 1, edges: [{ node: { id: 'w', quantity: 2 } }] } },
    });
    expect(await ok(gw, 'mutation { deletePart(productId: "p1", id: "w") }')).toEqual({ deletePart: 'w' });
    expect((await gw.get('PRODUCT#p1', 'PRODUCT'))?.partCount).toBe(0);
    await expectDeclaredKeysOnly(gw);
  });

  it('pages children both ways', async () => {
    await ok(gw, 'mutation { createCustomer(input: { id: "c2", name: "Pager" }) { id } }');
    for (const id of ['a', 'b', 'c', 'd', 'e']) await ok(gw, `mutation { placeOrder(customerId: "c2", input: { id: "${id}", total: 1 }) { id } }`);
    const page = `query($first: Int, $after: String, $last: Int, $before: String) {
      customer(id: "c2") { orders(first: $first, after: $after, last: $last, before: $before) {
        totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const ids = (d: any) => d.customer.orders.edges.map((e: any) => e.node.id);
    const first = await ok(gw, page, { first: 2 });
    expect(ids(first)).toEqual(['a', 'b']);
    expect(first.customer.orders).toMatchObject({ totalCount: 5, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    const second = await ok(gw, page, { first: 2, after: first.customer.orders.pageInfo.endCursor });
    expect(ids(second)).toEqual(['c', 'd']);
    const back = await ok(gw, page, { last: 2, before: second.customer.orders.pageInfo.endCursor });
    expect(ids(back)).toEqual(['b', 'c']);
    expect(back.customer.orders.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const last = await ok(gw, page, { last: 2 });
    expect(ids(last)).toEqual(['d', 'e']);
  });

  it('enrolls and unenrolls: edges in both directions, counters and copies', async () => {
    await ok(gw, 'mutation { createCourse(input: { id: "k1", title: "Knots" }) { id } }');
    await ok(gw, 'mutation { createStudent(input: { id: "s2", name: "Bo" }) { id } }');
    const enrolled = await ok(gw, 'mutation { enroll(studentId: "s2", courseId: "k1") { cursor node { id title } } }');
    expect(enrolled.enroll).toMatchObject({ node: { id: 'k1', title: 'Knots' } });
    expect(await gw.get('STUDENT#s2', 'COURSE#k1')).toMatchObject({
      pk: 'STUDENT#s2',
      sk: 'COURSE#k1',
      GSI1PK: 'COURSE#k1',
      GSI1SK: 'STUDENT#s2',
      courseTitle: 'Knots',
      studentName: 'Bo',
    });
    // The mutation's cursor pages on from the new edge.
    const after = await ok(gw, `{ student(id: "s2") { courses(first: 5, after: "${enrolled.enroll.cursor}") { edges { node { id } } } } }`);
    expect(after.student.courses.edges).toEqual([]);
    expect(await ok(gw, '{ student(id: "s2") { courses(first: 5) { totalCount edges { node { id title } } } } }')).toEqual({
      student: { courses: { totalCount: 1, edges: [{ node: { id: 'k1', title: 'Knots' } }] } },
    });
    expect(await ok(gw, '{ course(id: "k1") { students(first: 5) { totalCount edges { node { id name } } } } }')).toEqual({
      course: { students: { totalCount: 1, edges: [{ node: { id: 's2', name: 'Bo' } }] } },
    });
    const twice = await gw.run('mutation { enroll(studentId: "s2", courseId: "k1") { node { id } } }');
    expect(twice.errors?.[0]?.extensions?.code).toBe('CONFLICT');

    expect(await ok(gw, 'mutation { unenroll(studentId: "s2", courseId: "k1") }')).toEqual({ unenroll: true });
    expect(await gw.get('STUDENT#s2', 'COURSE#k1')).toBeUndefined();
    expect((await gw.get('STUDENT#s2', 'PROFILE'))?.courseCount).toBe(0);
    expect((await gw.get('COURSE#k1', 'PROFILE'))?.studentCount).toBe(0);
    const gone = await gw.run('mutation { unenroll(studentId: "s2", courseId: "k1") }');
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('brings a rename to the edge copies through the stream, and cascades a delete', async () => {
    await ok(gw, 'mutation { createCourse(input: { id: "k2", title: "Old title" }) { id } }');
    for (const s of ['r1', 'r2', 'r3']) {
      await ok(gw, `mutation { createStudent(input: { id: "${s}", name: "${s}" }) { id } }`);
      await ok(gw, `mutation { enroll(studentId: "${s}", courseId: "k2") { node { id } } }`);
    }
    await ok(gw, 'mutation { updateCourse(id: "k2", input: { title: "New title" }) { title } }');
    await gw.settle();
    for (const s of ['r1', 'r2', 'r3']) expect((await gw.get(`STUDENT#${s}`, 'COURSE#k2'))?.courseTitle).toBe('New title');
    expect((await gw.get('COURSE#k2', 'PROFILE'))?.propagatingSince).toBeUndefined();
    expect(await ok(gw, '{ student(id: "r1") { courses(first: 5) { edges { node { title } } } } }')).toEqual({
      student: { courses: { edges: [{ node: { title: 'New title' } }] } },
    });

    expect(await ok(gw, 'mutation { deleteCourse(id: "k2") }')).toEqual({ deleteCourse: 'k2' });
    await gw.settle();
    expect(await gw.get('COURSE#k2', 'PROFILE')).toBeUndefined();
    for (const s of ['r1', 'r2', 'r3']) {
      expect(await gw.get(`STUDENT#${s}`, 'COURSE#k2')).toBeUndefined();
      expect((await gw.get(`STUDENT#${s}`, 'PROFILE'))?.courseCount).toBe(0);
    }
    // The stream reader's checkpoints are items of the same table, under its key attributes.
    const items = await expectDeclaredKeysOnly(gw);
    expect(items.some((i) => String(i.pk).startsWith(STREAM_PREFIX) && String(i.sk).startsWith('SHARD#'))).toBe(true);
  });

  it('lists a catalog', async () => {
    for (const [id, title] of [
      ['t1', 'Zoology'],
      ['t2', 'Algebra'],
      ['t3', 'Algorithms'],
    ]) {
      await ok(gw, `mutation { createCourse(input: { id: "${id}", title: "${title}" }) { id } }`);
    }
    const all = await ok(gw, '{ courses(first: 50) { totalCount edges { node { title } } } }');
    const titles = all.courses.edges.map((e: any) => e.node.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(titles).toEqual(expect.arrayContaining(['Zoology', 'Algebra', 'Algorithms']));
    expect(all.courses.totalCount).toBe(titles.length);
    const first = await ok(gw, '{ courses(first: 1, titlePrefix: "alg") { totalCount edges { node { title } } pageInfo { endCursor } } }');
    expect(first.courses.edges).toEqual([{ node: { title: 'Algebra' } }]);
    const next = await ok(gw, `{ courses(first: 5, titlePrefix: "alg", after: "${first.courses.pageInfo.endCursor}") { edges { node { title } } } }`);
    expect(next.courses.edges).toEqual([{ node: { title: 'Algorithms' } }]);
  });

  it('shards a course: edges in its shards, counts in counter items under the declared keys', async () => {
    await ok(gw, 'mutation { createCourse(input: { id: "big", title: "Big", shards: 4 }) { id } }');
    const students = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
    for (const s of students) {
      await ok(gw, `mutation { createStudent(input: { id: "${s}", name: "Student ${s}" }) { id } }`);
      await ok(gw, `mutation { enroll(studentId: "${s}", courseId: "big") { node { id } } }`);
    }
    for (let k = 0; k < 4; k++) expect(await gw.get(`COURSE#big#${k}`, 'COUNTER')).toMatchObject({ pk: `COURSE#big#${k}`, sk: 'COUNTER' });
    const read = await ok(gw, '{ course(id: "big") { students(first: 3) { totalCount edges { node { id name } } pageInfo { endCursor hasNextPage } } } }');
    expect(read.course.students.totalCount).toBe(6);
    expect(read.course.students.edges.map((e: any) => e.node.id)).toEqual(['u1', 'u2', 'u3']);
    const rest = await ok(
      gw,
      `{ course(id: "big") { students(first: 5, after: "${read.course.students.pageInfo.endCursor}") { edges { node { id } } pageInfo { hasNextPage } } } }`,
    );
    expect(rest.course.students.edges.map((e: any) => e.node.id)).toEqual(['u4', 'u5', 'u6']);
    expect(await ok(gw, 'mutation { unenroll(studentId: "u3", courseId: "big") }')).toEqual({ unenroll: true });
    expect((await ok(gw, '{ course(id: "big") { students(first: 0) { totalCount } } }')).course.students.totalCount).toBe(5);
    // The cascade of a sharded course removes its counter items too.
    await ok(gw, 'mutation { deleteCourse(id: "big") }');
    await gw.settle();
    for (let k = 0; k < 4; k++) expect(await gw.get(`COURSE#big#${k}`, 'COUNTER')).toBeUndefined();
  });

  it('reshards a course: edges moved and counted under the declared keys', async () => {
    await ok(gw, 'mutation { createCourse(input: { id: "grow", title: "Grow" }) { id } }');
    const students = ['g1', 'g2', 'g3', 'g4', 'g5'];
    for (const s of students) {
      await ok(gw, `mutation { createStudent(input: { id: "${s}", name: "${s}" }) { id } }`);
      await ok(gw, `mutation { enroll(studentId: "${s}", courseId: "grow") { node { id } } }`);
    }
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    const pace = { graceMs: 0, settleMs: 0, batchSize: 2, pauseMs: 0 };
    for (const n of [4, 1]) {
      expect(await reshardCourse(store, 'grow', n, pace)).toMatchObject({ to: n });
      const read = await ok(gw, '{ course(id: "grow") { students(first: 10) { totalCount edges { node { id } } } } }');
      expect(read.course.students).toEqual({ totalCount: 5, edges: students.map((id) => ({ node: { id } })) });
      const items = await expectDeclaredKeysOnly(gw);
      const counters = items.filter((i) => String(i.pk).startsWith('COURSE#grow#'));
      expect(counters).toHaveLength(n === 1 ? 0 : n);
      expect(items.find((i) => i.pk === 'COURSE#grow' && i.sk === 'PROFILE')).toMatchObject({ shards: n });
      for (const s of students) expect((await gw.get(`STUDENT#${s}`, 'COURSE#grow'))?.courseShards).toBe(n);
    }
  });

  it('keeps idempotency records under the declared keys', async () => {
    const url = await gw.listen();
    const post = async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'renamed-1' },
        body: JSON.stringify({ query: 'mutation { placeOrder(customerId: "c1", input: { total: 3 }) { id } }' }),
      });
      return { replayed: response.headers.get('idempotent-replayed'), json: (await response.json()) as any };
    };
    const first = await post();
    expect(first.json.errors).toBeUndefined();
    const retry = await post();
    expect(retry).toEqual({ replayed: 'true', json: first.json });
    const records = (await gw.scan()).filter((i) => String(i.pk).startsWith(IDEMPOTENCY_PREFIX));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ sk: 'RECORD', state: 'COMPLETE' });
  });

  it('finds nothing to migrate, its run bookkeeping under the declared keys', async () => {
    const options = {
      raw: gw.dynamo.raw,
      doc: gw.dynamo.doc,
      tableName: gw.tableName,
      plan: gw.plan,
      segments: 2,
      writeUnitsPerSecond: 100_000,
      indexSettleMs: 0,
    };
    expect(await runMigration({ ...options, dryRun: true })).toMatchObject({ changed: 0, skipped: 0 });
    const result = await runMigration(options);
    expect(result).toMatchObject({ changed: 0, skipped: 0, addedIndexes: [] });
    expect(result.scanned).toBeGreaterThan(0);
    expect(await gw.get(LAYOUT_PK, 'MIGRATION')).toMatchObject({ layoutVersion: 2, completedAt: expect.any(String) });
    await expectDeclaredKeysOnly(gw);
  });

  it('migrates items another program wrote under the declared keys', async () => {
    // The stream processor would bring the new edge's copies up to date itself: the migration is to find them.
    await gw.stopWorker();
    await gw.put([
      { pk: 'STUDENT#legacy', sk: 'PROFILE', name: 'Legacy' },
      { pk: 'STUDENT#legacy', sk: 'COURSE#k1', enrolledAt: '2026-01-01T00:00:00.000Z' },
    ]);
    const result = await runMigration({
      raw: gw.dynamo.raw,
      doc: gw.dynamo.doc,
      tableName: gw.tableName,
      plan: gw.plan,
      segments: 2,
      writeUnitsPerSecond: 100_000,
      indexSettleMs: 0,
    });
    expect(result.byKind).toMatchObject({ 'enter-catalog': 1, 'index-keys': 1, 'edge-copy': 2, 'edge-shards': 1, counter: 1 });
    expect(await gw.get('STUDENT#legacy', 'COURSE#k1')).toMatchObject({
      GSI1PK: 'COURSE#k1',
      GSI1SK: 'STUDENT#legacy',
      courseTitle: 'Knots',
      studentName: 'Legacy',
      courseShards: 1,
    });
    expect(await gw.get('STUDENT#legacy', 'PROFILE')).toMatchObject({ courseCount: 1, GSI2PK: expect.any(String) });
    expect(await ok(gw, '{ student(id: "legacy") { courses(first: 5) { totalCount edges { node { id title } } } } }')).toEqual({
      student: { courses: { totalCount: 1, edges: [{ node: { id: 'k1', title: 'Knots' } }] } },
    });
    expect(
      (await runMigration({ raw: gw.dynamo.raw, doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan, segments: 2, writeUnitsPerSecond: 100_000 }))
        .changed,
    ).toBe(0);
    await expectDeclaredKeysOnly(gw);
  });
});

describe('the same operations on the default model and on pk/sk', () => {
  /** Each operation, run on both gateways in the same order over the same data. */
  const operations = [
    'mutation { createStudent(input: { id: "m1", name: "Mo" }) { id name } }',
    'mutation { createStudent(input: { id: "m2", name: "Mia" }) { id } }',
    'mutation { createCourse(input: { id: "mc", title: "Maps" }) { id } }',
    'mutation { createCourse(input: { id: "ms", title: "Sharded maps", shards: 4 }) { id } }',
    'mutation { enroll(studentId: "m1", courseId: "mc") { node { id title } } }',
    'mutation { enroll(studentId: "m2", courseId: "mc") { node { id } } }',
    'mutation { enroll(studentId: "m1", courseId: "ms") { node { id } } }',
    '{ student(id: "m1") { name courses(first: 5) { totalCount edges { node { id title } } } } }',
    '{ course(id: "mc") { title students(first: 5) { totalCount edges { node { id name } } pageInfo { hasNextPage } } } }',
    '{ course(id: "ms") { students(first: 5) { totalCount edges { node { id name } } } } }',
    '{ student(id: "m1") { courses(first: 5) { edges { node { id students(first: 5) { totalCount edges { node { name } } } } } } } }',
    'mutation { updateStudent(id: "m1", input: { name: "Moe" }) { name } }',
    'mutation { createCustomer(input: { id: "mcu", name: "Cu" }) { id } }',
    'mutation { placeOrder(customerId: "mcu", input: { id: "mo", total: 2 }) { id } }',
    '{ order(id: "mo") { id customer { name } } }',
    '{ customer(id: "mcu") { orders(last: 5) { totalCount edges { node { id } } } } }',
    '{ courses(first: 5, titlePrefix: "map") { totalCount edges { node { title } } } }',
    'mutation { unenroll(studentId: "m2", courseId: "mc") }',
    'mutation { deleteOrder(id: "mo") }',
    'mutation { deleteStudent(id: "m2") }',
  ];

  it('sends the same DynamoDB requests', async () => {
    for (const query of operations) {
      const [a, b] = [await plain.counted(query), await gw.counted(query)];
      expect(a.result.errors, query).toBeUndefined();
      expect(b.result, query).toEqual(a.result);
      expect(b.requests.byOperation, query).toEqual(a.requests.byOperation);
    }
    await expectDeclaredKeysOnly(gw);
  });
});
