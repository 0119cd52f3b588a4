/**
 * Every mutation against DynamoDB Local, checked on the stored items (keys,
 * GSI1 keys, copies, counters), not only on the GraphQL answer; every error
 * path leaves the table exactly as it was.
 */
import { catalogKeys } from '../support/defaultItems.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTime } from 'ulid';
import { courseItem, customerItem, enrollmentItem, productItem, studentItem } from '../support/defaultItems.js';
import { codes, testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

const sorted = (items: Record<string, unknown>[]) => items.map((i) => JSON.stringify(i, Object.keys(i).sort())).sort();

/** Runs a failing mutation and checks the code it fails with and that not one item changed. */
async function failsLeavingTableAsItWas(query: string, variables: Record<string, unknown>, code: string) {
  await gw.settle(); // nothing of earlier tests still propagating
  const before = sorted(await gw.scan());
  const result: GqlResult = await gw.run(query, variables);
  expect(codes(result)).toEqual([code]);
  expect(sorted(await gw.scan())).toEqual(before);
  return result;
}

const CREATE_STUDENT = `mutation($input: CreateStudentInput!) { createStudent(input: $input) { id name email courses { totalCount } } }`;
const CREATE_COURSE = `mutation($input: CreateCourseInput!) { createCourse(input: $input) { id title students { totalCount } } }`;
const ENROLL = `mutation($s: ID!, $c: ID!) { enroll(studentId: $s, courseId: $c) { cursor enrolledAt node { id title students { totalCount } } } }`;
const UNENROLL = `mutation($s: ID!, $c: ID!) { unenroll(studentId: $s, courseId: $c) }`;

describe('createStudent and friends', () => {
  it('stores a student with the given id, trimmed name, email and a zero course counter', async () => {
    const result = await gw.run(CREATE_STUDENT, { input: { id: 'cs1', name: '  Ada  ', email: 'ada@example.com' } });
    expect(result.errors).toBeUndefined();
    expect(result.data.createStudent).toEqual({ id: 'cs1', name: 'Ada', email: 'ada@example.com', courses: { totalCount: 0 } });
    expect(await gw.get('STUDENT#cs1', 'PROFILE')).toEqual({
      PK: 'STUDENT#cs1',
      SK: 'PROFILE',
      ...catalogKeys('STUDENT', 'cs1', 'Ada'),
      name: 'Ada',
      email: 'ada@example.com',
      courseCount: 0,
    });
  });

  it('generates time-sortable ULIDs when no id is given', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await gw.run(CREATE_COURSE, { input: { title: `Generated ${i}` } });
      ids.push(result.data.createCourse.id);
    }
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(Math.abs(decodeTime(ids[0]) - Date.now())).toBeLessThan(60_000);
    expect(await gw.get(`COURSE#${ids[0]}`, 'PROFILE')).toEqual({
      PK: `COURSE#${ids[0]}`,
      SK: 'PROFILE',
      ...catalogKeys('COURSE', ids[0], 'Generated 0'),
      title: 'Generated 0',
      studentCount: 0,
    });
  });

  it('refuses an existing id with CONFLICT and leaves the existing item untouched', async () => {
    await gw.put([studentItem({ id: 'dup', name: 'Original', email: 'o@example.com', courseCount: 7 })]);
    await failsLeavingTableAsItWas(CREATE_STUDENT, { input: { id: 'dup', name: 'Impostor' } }, 'CONFLICT');
    expect((await gw.get('STUDENT#dup', 'PROFILE'))?.name).toBe('Original');
  });

  it.each([
    [{ name: '   ' }],
    [{ name: 'x'.repeat(201) }],
    [{ name: 'Bad id', id: 'a#b' }],
    [{ name: 'Bad id', id: '' }],
    [{ name: 'Bad email', email: 'not-an-email' }],
  ])('refuses invalid input %j with BAD_USER_INPUT and writes nothing', async (input) => {
    await failsLeavingTableAsItWas(CREATE_STUDENT, { input }, 'BAD_USER_INPUT');
  });

  it('creates customers and products with zero counters', async () => {
    const result = await gw.run(`mutation {
      createCustomer(input: { id: "cu1", name: "Acme" }) { id name email orders { totalCount } }
      createProduct(input: { id: "pr1", name: "Widget" }) { id name parts { totalCount } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      createCustomer: { id: 'cu1', name: 'Acme', email: null, orders: { totalCount: 0 } },
      createProduct: { id: 'pr1', name: 'Widget', parts: { totalCount: 0 } },
    });
    expect(await gw.get('CUSTOMER#cu1', 'PROFILE')).toEqual({ PK: 'CUSTOMER#cu1', SK: 'PROFILE', name: 'Acme', orderCount: 0 });
    expect(await gw.get('PRODUCT#pr1', 'PRODUCT')).toEqual({ PK: 'PRODUCT#pr1', SK: 'PRODUCT', name: 'Widget', partCount: 0 });
  });
});

describe('enroll and unenroll', () => {
  beforeAll(async () => {
    await gw.put([
      studentItem({ id: 'e1', name: 'Edda', courseCount: 0 }),
      studentItem({ id: 'e2', name: 'Emil', courseCount: 0 }),
      courseItem({ id: 'EC1', title: 'Ethics', studentCount: 0 }),
      // Written by another program: no counters at all.
      { PK: 'STUDENT#legacy', SK: 'PROFILE', name: 'Lee' },
      { PK: 'COURSE#LEGACY', SK: 'PROFILE', title: 'Old course' },
    ]);
  });

  it('writes the edge with GSI1 keys and copies and increments both counters in one transaction', async () => {
    const { result, requests } = await gw.counted(`mutation { enroll(studentId: "e1", courseId: "EC1") { cursor enrolledAt node { id title } } }`);
    expect(result.errors).toBeUndefined();
    const edge = result.data.enroll;
    expect(edge.node).toEqual({ id: 'EC1', title: 'Ethics' });
    expect(edge.enrolledAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await gw.get('STUDENT#e1', 'COURSE#EC1')).toEqual({
      PK: 'STUDENT#e1',
      SK: 'COURSE#EC1',
      GSI1PK: 'COURSE#EC1',
      GSI1SK: 'STUDENT#e1',
      enrolledAt: edge.enrolledAt,
      courseTitle: 'Ethics',
      studentName: 'Edda',
      courseShards: 1,
    });
    expect((await gw.get('STUDENT#e1', 'PROFILE'))?.courseCount).toBe(1);
    expect((await gw.get('COURSE#EC1', 'PROFILE'))?.studentCount).toBe(1);
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
  });

  it("returns a cursor that pages the student's courses after the new edge", async () => {
    await gw.put([courseItem({ id: 'EC0', title: 'Before' }), courseItem({ id: 'EC2', title: 'After' })]);
    const enrolled = await gw.run(ENROLL, { s: 'e2', c: 'EC1' });
    await gw.run(ENROLL, { s: 'e2', c: 'EC0' });
    await gw.run(ENROLL, { s: 'e2', c: 'EC2' });
    const page = await gw.run(`query($after: String) { student(id: "e2") { courses(first: 5, after: $after) { edges { node { id } } } } }`, {
      after: enrolled.data.enroll.cursor,
    });
    expect(page.errors).toBeUndefined();
    expect(page.data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['EC2']);
  });

  it('refuses a second enrollment with CONFLICT and changes nothing', async () => {
    await failsLeavingTableAsItWas(ENROLL, { s: 'e1', c: 'EC1' }, 'CONFLICT');
  });

  it('names the missing side with NOT_FOUND and changes nothing', async () => {
    const student = await failsLeavingTableAsItWas(ENROLL, { s: 'nobody', c: 'EC1' }, 'NOT_FOUND');
    expect(student.errors?.[0].message).toBe('Student nobody not found');
    const course = await failsLeavingTableAsItWas(ENROLL, { s: 'e1', c: 'NOWHERE' }, 'NOT_FOUND');
    expect(course.errors?.[0].message).toBe('Course NOWHERE not found');
    const both = await failsLeavingTableAsItWas(ENROLL, { s: 'nobody', c: 'NOWHERE' }, 'NOT_FOUND');
    expect(both.errors?.[0].message).toBe('Student nobody and Course NOWHERE not found');
  });

  it('refuses ids with "#" before touching DynamoDB', async () => {
    const { result, requests } = await gw.counted(ENROLL, { s: 'e#1', c: 'EC1' });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
  });

  it('never creates a counter an entity written by another program lacks', async () => {
    const result = await gw.run(ENROLL, { s: 'legacy', c: 'LEGACY' });
    expect(result.errors).toBeUndefined();
    expect(result.data.enroll.node.students.totalCount).toBe(1);
    expect(await gw.get('STUDENT#legacy', 'PROFILE')).toEqual({ PK: 'STUDENT#legacy', SK: 'PROFILE', name: 'Lee' });
    expect(await gw.get('COURSE#LEGACY', 'PROFILE')).toEqual({ PK: 'COURSE#LEGACY', SK: 'PROFILE', title: 'Old course' });
    expect(await gw.get('STUDENT#legacy', 'COURSE#LEGACY')).toMatchObject({ courseTitle: 'Old course', studentName: 'Lee' });
    const counted = await gw.run(`{ student(id: "legacy") { courses { totalCount } } }`);
    expect(counted.data.student.courses.totalCount).toBe(1);

    expect((await gw.run(UNENROLL, { s: 'legacy', c: 'LEGACY' })).data).toEqual({ unenroll: true });
    expect(await gw.get('STUDENT#legacy', 'PROFILE')).toEqual({ PK: 'STUDENT#legacy', SK: 'PROFILE', name: 'Lee' });
    expect(await gw.get('STUDENT#legacy', 'COURSE#LEGACY')).toBeUndefined();
  });

  it('unenroll deletes the edge and decrements both counters', async () => {
    await gw.put([studentItem({ id: 'u1', name: 'Una' }), courseItem({ id: 'UC', title: 'Unix' })]);
    await gw.run(ENROLL, { s: 'u1', c: 'UC' });
    const result = await gw.run(UNENROLL, { s: 'u1', c: 'UC' });
    expect(result).toEqual({ data: { unenroll: true } });
    expect(await gw.get('STUDENT#u1', 'COURSE#UC')).toBeUndefined();
    expect((await gw.get('STUDENT#u1', 'PROFILE'))?.courseCount).toBe(0);
    expect((await gw.get('COURSE#UC', 'PROFILE'))?.studentCount).toBe(0);
  });

  it('unenroll of a pair that is not enrolled is NOT_FOUND and changes nothing', async () => {
    const result = await failsLeavingTableAsItWas(UNENROLL, { s: 'u1', c: 'UC' }, 'NOT_FOUND');
    expect(result.errors?.[0].message).toBe('Student u1 is not enrolled in course UC');
    await failsLeavingTableAsItWas(UNENROLL, { s: 'ghost', c: 'UC' }, 'NOT_FOUND');
  });
});

describe('updateStudent and updateCourse', () => {
  beforeAll(async () => {
    await gw.put([
      studentItem({ id: 'r1', name: 'Rita', email: 'rita@example.com', courseCount: 2 }),
      courseItem({ id: 'RA', title: 'Rhetoric', studentCount: 1 }),
      courseItem({ id: 'RB', title: 'Rocketry', studentCount: 1 }),
      enrollmentItem({ studentId: 'r1', courseId: 'RA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Rhetoric', studentName: 'Rita' }),
      enrollmentItem({ studentId: 'r1', courseId: 'RB', enrolledAt: '2026-01-02T00:00:00.000Z', courseTitle: 'Rocketry', studentName: 'Rita' }),
    ]);
  });

  it('renames a student and every edge copy of the name; leaves email as it was', async () => {
    const result = await gw.run(`mutation { updateStudent(id: "r1", input: { name: "Rita L." }) { id name email } }`);
    expect(result.data.updateStudent).toEqual({ id: 'r1', name: 'Rita L.', email: 'rita@example.com' });
    await gw.settle(); // the copies follow through the table's stream
    expect(await gw.get('STUDENT#r1', 'PROFILE')).toMatchObject({ name: 'Rita L.', email: 'rita@example.com', courseCount: 2 });
    expect((await gw.get('STUDENT#r1', 'COURSE#RA'))?.studentName).toBe('Rita L.');
    expect((await gw.get('STUDENT#r1', 'COURSE#RB'))?.studentName).toBe('Rita L.');
    const seen = await gw.run(`{ course(id: "RA") { students { edges { node { name } } } } }`);
    expect(seen.data.course.students.edges).toEqual([{ node: { name: 'Rita L.' } }]);
  });

  it('clears the email when given null and keeps the name', async () => {
    const result = await gw.run(`mutation { updateStudent(id: "r1", input: { email: null }) { name email } }`);
    expect(result.data.updateStudent).toEqual({ name: 'Rita L.', email: null });
    const stored = await gw.get('STUDENT#r1', 'PROFILE');
    expect(stored).not.toHaveProperty('email');
    expect(stored?.name).toBe('Rita L.');
  });

  it('retitles a course and the copy on each of its edges, seen from the student side', async () => {
    const result = await gw.run(`mutation { updateCourse(id: "RA", input: { title: "Rhetoric II" }) { id title } }`);
    expect(result.data.updateCourse).toEqual({ id: 'RA', title: 'Rhetoric II' });
    await gw.settle();
    expect((await gw.get('COURSE#RA', 'PROFILE'))?.title).toBe('Rhetoric II');
    expect((await gw.get('STUDENT#r1', 'COURSE#RA'))?.courseTitle).toBe('Rhetoric II');
    expect((await gw.get('STUDENT#r1', 'COURSE#RB'))?.courseTitle).toBe('Rocketry');
  });

  it('a missing entity is NOT_FOUND and nothing is written', async () => {
    await failsLeavingTableAsItWas(`mutation { updateCourse(id: "NOPE", input: { title: "X" }) { id } }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(`mutation { updateStudent(id: "nope", input: { name: "X" }) { id } }`, {}, 'NOT_FOUND');
  });

  it('a blank title or a null name is BAD_USER_INPUT and nothing is written', async () => {
    await failsLeavingTableAsItWas(`mutation { updateCourse(id: "RA", input: { title: " " }) { id } }`, {}, 'BAD_USER_INPUT');
    await failsLeavingTableAsItWas(`mutation { updateStudent(id: "r1", input: { name: null }) { id } }`, {}, 'BAD_USER_INPUT');
  });
});

describe('placeOrder and addPart', () => {
  beforeAll(async () => {
    await gw.put([
      customerItem({ id: 'oc', name: 'Orla', orderCount: 0 }),
      productItem({ id: 'pp', name: 'Pump', partCount: 0 }),
      { PK: 'CUSTOMER#legacyc', SK: 'PROFILE', name: 'No counter' },
    ]);
  });

  it('puts the order in the customer collection with its GSI1 keys and increments orderCount', async () => {
    const result = await gw.run(`mutation { placeOrder(customerId: "oc", input: { id: "o1", total: 12.5, status: PLACED }) {
      id total status placedAt customer { id name orders { totalCount } } } }`);
    expect(result.errors).toBeUndefined();
    const order = result.data.placeOrder;
    expect(order).toMatchObject({ id: 'o1', total: 12.5, status: 'PLACED', customer: { id: 'oc', name: 'Orla', orders: { totalCount: 1 } } });
    expect(await gw.get('CUSTOMER#oc', 'ORDER#o1')).toEqual({
      PK: 'CUSTOMER#oc',
      SK: 'ORDER#o1',
      GSI1PK: 'ORDER#o1',
      GSI1SK: 'CUSTOMER#oc',
      GSI2PK: 'ORDERS#oc',
      GSI2SK: `${order.placedAt}#o1`,
      placedAt: order.placedAt,
      total: 12.5,
      status: 'PLACED',
    });
    expect((await gw.get('CUSTOMER#oc', 'PROFILE'))?.orderCount).toBe(1);
    const found = await gw.run(`{ order(id: "o1") { id customer { id } } }`);
    expect(found.data.order).toEqual({ id: 'o1', customer: { id: 'oc' } });
  });

  it("generated order ids list the customer's orders oldest first", async () => {
    for (const total of [1, 2, 3]) await gw.run(`mutation($t: Float!) { placeOrder(customerId: "oc", input: { total: $t }) { id } }`, { t: total });
    const result = await gw.run(`{ customer(id: "oc") { orders(first: 10) { totalCount edges { node { total } } } } }`);
    expect(result.data.customer.orders.totalCount).toBe(4);
    expect(result.data.customer.orders.edges.map((e: any) => e.node.total).slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('does not create orderCount on a customer that lacks it', async () => {
    const result = await gw.run(`mutation { placeOrder(customerId: "legacyc", input: { total: 1 }) { id } }`);
    expect(result.errors).toBeUndefined();
    expect(await gw.get('CUSTOMER#legacyc', 'PROFILE')).toEqual({ PK: 'CUSTOMER#legacyc', SK: 'PROFILE', name: 'No counter' });
  });

  it('an existing order id is CONFLICT, also under another customer; a missing customer NOT_FOUND; a negative total BAD_USER_INPUT', async () => {
    const q = `mutation($c: ID!, $input: PlaceOrderInput!) { placeOrder(customerId: $c, input: $input) { id } }`;
    await failsLeavingTableAsItWas(q, { c: 'oc', input: { id: 'o1', total: 1 } }, 'CONFLICT');
    await failsLeavingTableAsItWas(q, { c: 'legacyc', input: { id: 'o1', total: 1 } }, 'CONFLICT');
    await failsLeavingTableAsItWas(q, { c: 'missing', input: { total: 1 } }, 'NOT_FOUND');
    await failsLeavingTableAsItWas(q, { c: 'oc', input: { total: -1 } }, 'BAD_USER_INPUT');
  });

  it('gives an explicit order id to one customer only, even when two customers place it at the same moment', async () => {
    await gw.put([customerItem({ id: 'race1', name: 'R1', orderCount: 0 }), customerItem({ id: 'race2', name: 'R2', orderCount: 0 })]);
    const q = `mutation($c: ID!, $id: ID!) { placeOrder(customerId: $c, input: { id: $id, total: 1 }) { id } }`;
    for (let round = 0; round < 5; round++) {
      const id = `race-order-${round}`;
      const [a, b] = await Promise.all([gw.run(q, { c: 'race1', id }), gw.run(q, { c: 'race2', id })]);
      // Exactly one placed it; the other is CONFLICT.
      expect([a, b].filter((r) => !r.errors).length).toBe(1);
      expect([a, b].flatMap((r) => (r.errors ?? []).map((e) => e.extensions?.code))).toEqual(['CONFLICT']);
      const owners = (await gw.scan()).filter((i) => i.SK === `ORDER#${id}`).map((i) => i.PK);
      expect(owners).toHaveLength(1);
      expect(await gw.get(`ORDERID#${id}`, 'ORDER_ID')).toEqual({
        PK: `ORDERID#${id}`,
        SK: 'ORDER_ID',
        customerId: String(owners[0]).slice('CUSTOMER#'.length),
      });
    }
    const counts = await Promise.all(['race1', 'race2'].map(async (c) => (await gw.get(`CUSTOMER#${c}`, 'PROFILE'))?.orderCount));
    expect(counts[0]! + counts[1]!).toBe(5);
  });

  it('adds a part to the product collection and increments partCount', async () => {
    const result = await gw.run(`mutation { addPart(productId: "pp", input: { id: "valve", name: "Valve", quantity: 2 }) {
      id name quantity product { id parts { totalCount } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.addPart).toEqual({ id: 'valve', name: 'Valve', quantity: 2, product: { id: 'pp', parts: { totalCount: 1 } } });
    expect(await gw.get('PRODUCT#pp', 'PART#valve')).toEqual({ PK: 'PRODUCT#pp', SK: 'PART#valve', name: 'Valve', quantity: 2 });
    expect((await gw.get('PRODUCT#pp', 'PRODUCT'))?.partCount).toBe(1);
  });

  it('concurrent orders and parts each count exactly once', async () => {
    await gw.put([customerItem({ id: 'busy', name: 'Busy', orderCount: 0 }), productItem({ id: 'kit', name: 'Kit', partCount: 0 })]);
    const results = await Promise.all([
      ...Array.from({ length: 25 }, (_, i) => gw.run(`mutation { placeOrder(customerId: "busy", input: { total: ${i} }) { id } }`)),
      ...Array.from({ length: 25 }, (_, i) => gw.run(`mutation { addPart(productId: "kit", input: { name: "p${i}", quantity: ${i} }) { id } }`)),
    ]);
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    const items = await gw.scan();
    expect(items.filter((i) => i.PK === 'CUSTOMER#busy' && String(i.SK).startsWith('ORDER#'))).toHaveLength(25);
    expect(items.filter((i) => i.PK === 'PRODUCT#kit' && String(i.SK).startsWith('PART#'))).toHaveLength(25);
    expect((await gw.get('CUSTOMER#busy', 'PROFILE'))?.orderCount).toBe(25);
    expect((await gw.get('PRODUCT#kit', 'PRODUCT'))?.partCount).toBe(25);
  });

  it('addPart errors: existing part CONFLICT, missing product NOT_FOUND, negative quantity BAD_USER_INPUT', async () => {
    const q = `mutation($p: ID!, $input: AddPartInput!) { addPart(productId: $p, input: $input) { id } }`;
    await failsLeavingTableAsItWas(q, { p: 'pp', input: { id: 'valve', name: 'Other', quantity: 1 } }, 'CONFLICT');
    await failsLeavingTableAsItWas(q, { p: 'none', input: { name: 'X', quantity: 1 } }, 'NOT_FOUND');
    await failsLeavingTableAsItWas(q, { p: 'pp', input: { name: 'X', quantity: -1 } }, 'BAD_USER_INPUT');
  });
});

describe('deleteStudent and deleteCourse', () => {
  beforeAll(async () => {
    await gw.put([
      studentItem({ id: 'd1', name: 'Dora', courseCount: 2 }),
      studentItem({ id: 'd2', name: 'Dan', courseCount: 1 }),
      courseItem({ id: 'DA', title: 'Dance', studentCount: 2 }),
      courseItem({ id: 'DB', title: 'Drawing', studentCount: 1 }),
      enrollmentItem({ studentId: 'd1', courseId: 'DA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Dance', studentName: 'Dora' }),
      enrollmentItem({ studentId: 'd1', courseId: 'DB', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Drawing', studentName: 'Dora' }),
      enrollmentItem({ studentId: 'd2', courseId: 'DA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Dance', studentName: 'Dan' }),
    ]);
  });

  it('deleteStudent removes the student and its edges and decrements each course', async () => {
    const result = await gw.run(`mutation { deleteStudent(id: "d1") }`);
    expect(result).toEqual({ data: { deleteStudent: 'd1' } });
    await gw.settle(); // the cascade finishes through the table's stream
    const left = (await gw.scan()).filter((i) => String(i.PK).startsWith('STUDENT#d1'));
    expect(left).toEqual([]);
    expect((await gw.get('COURSE#DA', 'PROFILE'))?.studentCount).toBe(1);
    expect((await gw.get('COURSE#DB', 'PROFILE'))?.studentCount).toBe(0);
    const course = await gw.run(`{ course(id: "DA") { students { totalCount edges { node { id } } } } }`);
    expect(course.data.course.students).toEqual({ totalCount: 1, edges: [{ node: { id: 'd2' } }] });
  });

  it('deleteCourse removes the course and its edges and decrements each student', async () => {
    const result = await gw.run(`mutation { deleteCourse(id: "DA") }`);
    expect(result).toEqual({ data: { deleteCourse: 'DA' } });
    await gw.settle();
    expect(await gw.get('COURSE#DA', 'PROFILE')).toBeUndefined();
    expect(await gw.get('STUDENT#d2', 'COURSE#DA')).toBeUndefined();
    expect((await gw.get('STUDENT#d2', 'PROFILE'))?.courseCount).toBe(0);
  });

  it('deleting what does not exist is NOT_FOUND and changes nothing', async () => {
    await failsLeavingTableAsItWas(`mutation { deleteStudent(id: "d1") }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(`mutation { deleteCourse(id: "DA") }`, {}, 'NOT_FOUND');
  });

  it('cleans up edges left behind by a student that is already gone', async () => {
    await gw.put([enrollmentItem({ studentId: 'orphan', courseId: 'DB', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Drawing', studentName: 'O' })]);
    await gw.put([courseItem({ id: 'DB', title: 'Drawing', studentCount: 1 })]);
    const result = await gw.run(`mutation { deleteStudent(id: "orphan") }`);
    expect(result).toEqual({ data: { deleteStudent: 'orphan' } });
    expect(await gw.get('STUDENT#orphan', 'COURSE#DB')).toBeUndefined();
    expect((await gw.get('COURSE#DB', 'PROFILE'))?.studentCount).toBe(0);
  });
});

describe('several mutations in one operation', () => {
  it('each mutation field sees what the fields before it wrote', async () => {
    await gw.put([courseItem({ id: 'MO', title: 'Multi', studentCount: 0 })]);
    const result = await gw.run(`mutation {
      s: createStudent(input: { id: "mo1", name: "Mo" }) { id }
      e: enroll(studentId: "mo1", courseId: "MO") { node { id } }
      r: updateStudent(id: "mo1", input: { name: "Mona" }) { name courses { totalCount edges { node { title } } } }
      u: unenroll(studentId: "mo1", courseId: "MO")
      after: createCustomer(input: { id: "mo-c", name: "After" }) { id }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.r).toEqual({ name: 'Mona', courses: { totalCount: 1, edges: [{ node: { title: 'Multi' } }] } });
    expect(result.data.u).toBe(true);
    // A second rename or delete in the same operation is refused (one fan-out mutation per operation): its own request.
    const after = await gw.run(`mutation { after: updateCourse(id: "MO", input: { title: "Multi II" }) { title students { totalCount } } }`);
    expect(after.data.after).toEqual({ title: 'Multi II', students: { totalCount: 0 } });
  });
});

describe('DynamoDB requests per mutation', () => {
  beforeAll(async () => {
    await gw.put([
      studentItem({ id: 'q1', name: 'Quinn', courseCount: 2 }),
      studentItem({ id: 'q2', name: 'Quade', courseCount: 1 }),
      courseItem({ id: 'QA', title: 'Quantum', studentCount: 2 }),
      courseItem({ id: 'QB', title: 'Quilting', studentCount: 1 }),
      enrollmentItem({ studentId: 'q1', courseId: 'QA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quantum', studentName: 'Quinn' }),
      enrollmentItem({ studentId: 'q2', courseId: 'QA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quantum', studentName: 'Quade' }),
      enrollmentItem({ studentId: 'q1', courseId: 'QB', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quilting', studentName: 'Quinn' }),
      customerItem({ id: 'qc', name: 'Quincy', orderCount: 0 }),
    ]);
  });

  it('creating a student is one transaction: the conditional put and its catalog counter', async () => {
    const { requests } = await gw.counted(`mutation { createStudent(input: { id: "q9", name: "Q" }) { id name } }`);
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
  });

  it('creating a customer is one conditional PutItem', async () => {
    const { requests } = await gw.counted(`mutation { createCustomer(input: { id: "qc9", name: "Q" }) { id name } }`);
    expect(requests.byOperation).toEqual({ PutItem: 1 });
  });

  it('placeOrder without an id is one transaction (the customer is not read first)', async () => {
    const { requests } = await gw.counted(`mutation { placeOrder(customerId: "qc", input: { total: 3 }) { id } }`);
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
  });

  it('a course rename is one GetItem and one UpdateItem, however many edges (the copies follow by stream)', async () => {
    const { result, requests } = await gw.counted(`mutation { updateCourse(id: "QA", input: { title: "Quantum II" }) { title } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
  });

  it('an update without a new name writes the entity alone', async () => {
    const { requests } = await gw.counted(`mutation { updateStudent(id: "q2", input: { email: "q@example.com" }) { email } }`);
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
  });

  it('a student delete is one UpdateItem that marks it (the cascade follows by stream)', async () => {
    const { result, requests } = await gw.counted(`mutation { deleteStudent(id: "q1") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
  });

  describe('on a table without a stream (fan-out inside the request)', () => {
    let legacy: TestGateway;
    beforeAll(async () => {
      legacy = await testGateway({ fanOut: 'inRequest' });
      await legacy.put([
        studentItem({ id: 'q1', name: 'Quinn', courseCount: 2 }),
        courseItem({ id: 'QA', title: 'Quantum', studentCount: 2 }),
        courseItem({ id: 'QB', title: 'Quilting', studentCount: 1 }),
        enrollmentItem({ studentId: 'q1', courseId: 'QA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quantum', studentName: 'Quinn' }),
        enrollmentItem({ studentId: 'q2', courseId: 'QA', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quantum', studentName: 'Quade' }),
        enrollmentItem({ studentId: 'q1', courseId: 'QB', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Quilting', studentName: 'Quinn' }),
      ]);
    });
    afterAll(() => legacy.stop());

    it('a course rename over 2 edges: entity read, entity and edges read, one transaction, one check of copies and entity', async () => {
      const { result, requests } = await legacy.counted(`mutation { updateCourse(id: "QA", input: { title: "Quantum II" }) { title } }`);
      expect(result.errors).toBeUndefined();
      expect(requests.byOperation).toEqual({ GetItem: 3, Query: 2, TransactWriteItems: 1 });
      expect((await legacy.get('STUDENT#q2', 'COURSE#QA'))?.courseTitle).toBe('Quantum II');
    });

    it('a rename to the current title writes nothing when every copy already has it', async () => {
      const { requests } = await legacy.counted(`mutation { updateCourse(id: "QA", input: { title: "Quantum II" }) { title } }`);
      expect(requests.byOperation).toEqual({ GetItem: 2, Query: 1 });
    });

    it('a student delete over 2 edges: read, mark, one page, other sides read, one transaction per edge, final check, delete with its catalog counter', async () => {
      const { result, requests } = await legacy.counted(`mutation { deleteStudent(id: "q1") }`);
      expect(result.errors).toBeUndefined();
      expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, Query: 2, BatchGetItem: 1, TransactWriteItems: 3 });
      expect((await legacy.scan()).filter((i) => i.PK === 'STUDENT#q1')).toEqual([]);
    });
  });
});
