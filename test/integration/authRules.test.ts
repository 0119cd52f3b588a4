/**
 * The authorization rules (src/auth/rules.ts) as each kind of caller meets
 * them: anonymous, signed in without claims, a student, a customer, an
 * administrator. Tokens come from a local OIDC issuer on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, customerItem, enrollmentItem, orderItem, partItem, productItem, studentItem } from '../support/defaultItems.js';
import { codes, testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
let gw: TestGateway;
let off: TestGateway;
const tokens: Record<'signedIn' | 'ada' | 'bob' | 'acme' | 'admin', string> = {} as never;

const fixture = () => [
  studentItem({ id: 'ada', name: 'Ada', email: 'ada@example.com', courseCount: 1 }),
  studentItem({ id: 'bob', name: 'Bob', email: 'bob@example.com', courseCount: 1 }),
  courseItem({ id: 'c1', title: 'Engines', studentCount: 2 }),
  courseItem({ id: 'c2', title: 'Looms', studentCount: 0 }),
  enrollmentItem({ studentId: 'ada', courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: 'Ada' }),
  enrollmentItem({ studentId: 'bob', courseId: 'c1', enrolledAt: '2026-01-02T00:00:00.000Z', courseTitle: 'Engines', studentName: 'Bob' }),
  customerItem({ id: 'acme', name: 'Acme', email: 'buy@acme.example', orderCount: 1 }),
  customerItem({ id: 'globex', name: 'Globex', email: 'buy@globex.example', orderCount: 1 }),
  orderItem({ customerId: 'acme', id: 'o1', placedAt: '2026-02-01T00:00:00.000Z', total: 10, status: 'PLACED' }),
  orderItem({ customerId: 'globex', id: 'o2', placedAt: '2026-02-02T00:00:00.000Z', total: 20, status: 'PLACED' }),
  productItem({ id: 'p1', name: 'Widget', partCount: 1 }),
  partItem({ productId: 'p1', id: 'pa1', name: 'Bolt', quantity: 4 }),
];

beforeAll(async () => {
  issuer = await startTestIssuer();
  [gw, off] = await Promise.all([testGateway({ auth: testAuthenticator(issuer).auth }), testGateway()]);
  await Promise.all([gw.put(fixture()), off.put(fixture())]);
  tokens.signedIn = await issuer.token({});
  tokens.ada = await issuer.token({ student_id: 'ada' });
  tokens.bob = await issuer.token({ student_id: 'bob' });
  tokens.acme = await issuer.token({ customer_id: 'acme' });
  tokens.admin = await issuer.token({ groups: ['admin'] });
});

afterAll(async () => {
  await Promise.all([gw?.stop(), off?.stop()]);
  await issuer?.stop();
});

/** The errors of a result as `path: code`. */
const denials = (result: GqlResult) => (result.errors ?? []).map((e) => `${(e.path ?? []).join('.')}: ${e.extensions?.code}`);

const CATALOG = `{ course(id: "c1") { id title } product(id: "p1") { name parts { edges { node { name quantity product { name } } } } } }`;
const ROSTER = `{ course(id: "c1") { title students { totalCount edges { enrolledAt node { id name email } } } } }`;
const STUDENT = `query($id: ID!) { student(id: $id) { id name email courses { edges { enrolledAt node { title } } } } }`;
const CUSTOMER = `query($id: ID!) { customer(id: $id) { name email orders { edges { node { id total customer { name } } } } } }`;
const ORDER = `query($id: ID!) { order(id: $id) { id total customer { id name email } } }`;

describe('an anonymous caller', () => {
  it('reads courses, products and parts', async () => {
    const { result, requests } = await gw.counted(CATALOG);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      course: { id: 'c1', title: 'Engines' },
      product: { name: 'Widget', parts: { edges: [{ node: { name: 'Bolt', quantity: 4, product: { name: 'Widget' } } }] } },
    });
    expect(requests.requests).toBe((await off.counted(CATALOG)).requests.requests);
  });

  it('is refused students, without reading them', async () => {
    const { result, requests } = await gw.counted(STUDENT, { id: 'ada' });
    expect(result.data).toEqual({ student: null });
    expect(denials(result)).toEqual(['student: FORBIDDEN']);
    expect(result.errors![0]!.extensions!.rule).toBe('signed-in callers');
    expect(requests.requests).toBe(0);
  });

  it('is refused a roster; the non-null connection nulls its course, and the roster is never read', async () => {
    const { result, requests } = await gw.counted(ROSTER);
    expect(result.data).toEqual({ course: null });
    expect(denials(result)).toEqual(['course.students: FORBIDDEN']);
    expect(requests.requests).toBe(1); // the course item only: no Query on GSI1
  });

  it('is refused customers and orders before any read', async () => {
    const customer = await gw.counted(CUSTOMER, { id: 'acme' });
    const order = await gw.counted(ORDER, { id: 'o1' });
    expect([customer.result.data, order.result.data]).toEqual([{ customer: null }, { order: null }]);
    expect([...denials(customer.result), ...denials(order.result)]).toEqual(['customer: FORBIDDEN', 'order: FORBIDDEN']);
    expect(customer.requests.requests + order.requests.requests).toBe(0);
  });

  it('gets UNAUTHENTICATED for any mutation, which writes nothing and sends no DynamoDB request', async () => {
    const before = await gw.scan();
    for (const mutation of [
      `mutation { createCourse(input: { id: "c9", title: "Nine" }) { id } }`,
      `mutation { enroll(studentId: "ada", courseId: "c2") { enrolledAt } }`,
      `mutation { updateStudent(id: "ada", input: { name: "Eve" }) { name } }`,
      `mutation { placeOrder(customerId: "acme", input: { total: 1 }) { id } }`,
      `mutation { deleteCourse(id: "c1") }`,
    ]) {
      const { result, requests } = await gw.counted(mutation);
      expect(result.data).toBeNull();
      expect(codes(result)).toEqual(['UNAUTHENTICATED']);
      expect(requests.requests).toBe(0);
    }
    expect(await gw.scan()).toEqual(before);
  });
});

describe('a signed-in caller without student, customer or admin claims', () => {
  it('reads student names and enrollments both ways, with enrolledAt, but no email', async () => {
    const { result } = await gw.counted(ROSTER, undefined, tokens.signedIn);
    expect(result.data).toEqual({
      course: {
        title: 'Engines',
        students: {
          totalCount: 2,
          edges: [
            { enrolledAt: '2026-01-01T00:00:00.000Z', node: { id: 'ada', name: 'Ada', email: null } },
            { enrolledAt: '2026-01-02T00:00:00.000Z', node: { id: 'bob', name: 'Bob', email: null } },
          ],
        },
      },
    });
    expect(denials(result)).toEqual(['course.students.edges.0.node.email: FORBIDDEN', 'course.students.edges.1.node.email: FORBIDDEN']);
    const student = await gw.run(STUDENT, { id: 'bob' }, tokens.signedIn);
    expect(student.data.student).toMatchObject({ name: 'Bob', email: null, courses: { edges: [{ node: { title: 'Engines' } }] } });
  });

  it('is FORBIDDEN to write, even for a student id it might guess', async () => {
    const { result, requests } = await gw.counted(`mutation { enroll(studentId: "ada", courseId: "c2") { enrolledAt } }`, undefined, tokens.signedIn);
    expect(codes(result)).toEqual(['FORBIDDEN']);
    expect(requests.requests).toBe(0);
  });

  it('is refused customers and orders', async () => {
    expect(codes(await gw.run(CUSTOMER, { id: 'acme' }, tokens.signedIn))).toEqual(['FORBIDDEN']);
    const order = await gw.counted(ORDER, { id: 'o1' }, tokens.signedIn);
    expect(codes(order.result)).toEqual(['FORBIDDEN']);
    expect(order.requests.requests).toBe(0);
  });
});

describe('a student', () => {
  it('reads their own email, and only theirs, with forbidden fields next to allowed ones in one operation', async () => {
    const { result } = await gw.counted(
      `{ me: student(id: "ada") { name email } other: student(id: "bob") { name email }
         course(id: "c1") { title students { edges { node { id email } } } } }`,
      undefined,
      tokens.ada,
    );
    expect(result.data).toEqual({
      me: { name: 'Ada', email: 'ada@example.com' },
      other: { name: 'Bob', email: null },
      course: { title: 'Engines', students: { edges: [{ node: { id: 'ada', email: 'ada@example.com' } }, { node: { id: 'bob', email: null } }] } },
    });
    expect(denials(result)).toEqual(['other.email: FORBIDDEN', 'course.students.edges.1.node.email: FORBIDDEN']);
  });

  it('enrolls and unenrolls themselves, and may not enroll another student: nothing written, no request', async () => {
    const enrollBob = await gw.counted(`mutation { enroll(studentId: "bob", courseId: "c2") { enrolledAt } }`, undefined, tokens.ada);
    expect(enrollBob.result.data).toBeNull();
    expect(codes(enrollBob.result)).toEqual(['FORBIDDEN']);
    expect(enrollBob.requests.requests).toBe(0);
    expect(await gw.get('STUDENT#bob', 'COURSE#c2')).toBeUndefined();
    const unenrollBob = await gw.counted(`mutation { unenroll(studentId: "bob", courseId: "c1") }`, undefined, tokens.ada);
    expect(codes(unenrollBob.result)).toEqual(['FORBIDDEN']);
    expect(await gw.get('STUDENT#bob', 'COURSE#c1')).toBeDefined();

    const enrolled = await gw.run(`mutation { enroll(studentId: "ada", courseId: "c2") { node { title } } }`, undefined, tokens.ada);
    expect(enrolled).toEqual({ data: { enroll: { node: { title: 'Looms' } } } });
    expect(await gw.run(`mutation { unenroll(studentId: "ada", courseId: "c2") }`, undefined, tokens.ada)).toEqual({ data: { unenroll: true } });
  });

  it('cannot smuggle a refused mutation after an allowed one: the operation stops before its first write', async () => {
    const mixed = await gw.counted(
      `mutation($other: ID!) { mine: enroll(studentId: "ada", courseId: "c2") { enrolledAt } ...Other }
       fragment Other on Mutation { theirs: enroll(studentId: $other, courseId: "c2") { enrolledAt } }`,
      { other: 'bob' },
      tokens.ada,
    );
    expect(mixed.result.data).toBeNull();
    expect(denials(mixed.result)).toEqual(['mine: FORBIDDEN']);
    expect(mixed.result.errors![0]!.message).toMatch(/Not allowed to run enroll: .*nothing in this operation was run/);
    expect(mixed.requests.requests).toBe(0);
    expect(await gw.get('STUDENT#ada', 'COURSE#c2')).toBeUndefined();
    expect(await gw.get('STUDENT#bob', 'COURSE#c2')).toBeUndefined();
    // Skipped fields are not part of the operation.
    const skipped = await gw.run(
      `mutation { mine: enroll(studentId: "ada", courseId: "c2") { node { id } } theirs: unenroll(studentId: "bob", courseId: "c1") @skip(if: true) }`,
      undefined,
      tokens.ada,
    );
    expect(skipped).toEqual({ data: { mine: { node: { id: 'c2' } } } });
    expect(await gw.run(`mutation { unenroll(studentId: "ada", courseId: "c2") }`, undefined, tokens.ada)).toEqual({ data: { unenroll: true } });
  });

  it('updates themselves only', async () => {
    const other = await gw.counted(`mutation { updateStudent(id: "bob", input: { name: "Mallory" }) { name } }`, undefined, tokens.ada);
    expect(codes(other.result)).toEqual(['FORBIDDEN']);
    expect(other.requests.requests).toBe(0);
    expect((await gw.get('STUDENT#bob', 'PROFILE'))!.name).toBe('Bob');
    const self = await gw.run(`mutation { updateStudent(id: "ada", input: { email: "ada@new.example" }) { name email } }`, undefined, tokens.ada);
    expect(self).toEqual({ data: { updateStudent: { name: 'Ada', email: 'ada@new.example' } } });
    await gw.run(`mutation { updateStudent(id: "ada", input: { email: "ada@example.com" }) { id } }`, undefined, tokens.ada);
  });

  it('may not create, delete or rename courses, nor read customers', async () => {
    for (const mutation of [
      `mutation { createCourse(input: { title: "X" }) { id } }`,
      `mutation { deleteStudent(id: "bob") }`,
      `mutation { updateCourse(id: "c1", input: { title: "Y" }) { id } }`,
    ]) {
      expect(codes(await gw.run(mutation, undefined, tokens.bob))).toEqual(['FORBIDDEN']);
    }
    expect(codes(await gw.run(CUSTOMER, { id: 'acme' }, tokens.ada))).toEqual(['FORBIDDEN']);
  });
});

describe('a customer', () => {
  it('reads their own customer with email and orders', async () => {
    const { result } = await gw.counted(CUSTOMER, { id: 'acme' }, tokens.acme);
    expect(result).toEqual({
      data: { customer: { name: 'Acme', email: 'buy@acme.example', orders: { edges: [{ node: { id: 'o1', total: 10, customer: { name: 'Acme' } } }] } } },
    });
    expect(await gw.run(ORDER, { id: 'o1' }, tokens.acme)).toEqual({
      data: { order: { id: 'o1', total: 10, customer: { id: 'acme', name: 'Acme', email: 'buy@acme.example' } } },
    });
  });

  it('may not read another customer, without a read', async () => {
    const { result, requests } = await gw.counted(CUSTOMER, { id: 'globex' }, tokens.acme);
    expect(result.data).toEqual({ customer: null });
    expect(denials(result)).toEqual(['customer: FORBIDDEN']);
    expect(requests.requests).toBe(0);
  });

  it("may not reach another customer's order through order(id): null and FORBIDDEN", async () => {
    const { result, requests } = await gw.counted(ORDER, { id: 'o2' }, tokens.acme);
    expect(result.data).toEqual({ order: null });
    expect(denials(result)).toEqual(['order: FORBIDDEN']);
    expect(JSON.stringify(result)).not.toContain('globex');
    expect(requests.requests).toBe(1); // the order had to be read to learn whose it is
    expect(await gw.run(ORDER, { id: 'nope' }, tokens.acme)).toEqual({ data: { order: null } });
  });

  it('places orders for themselves only', async () => {
    const other = await gw.counted(`mutation { placeOrder(customerId: "globex", input: { id: "o3", total: 5 }) { id } }`, undefined, tokens.acme);
    expect(codes(other.result)).toEqual(['FORBIDDEN']);
    expect(other.requests.requests).toBe(0);
    expect(await gw.get('CUSTOMER#globex', 'ORDER#o3')).toBeUndefined();
    const own = await gw.run(
      `mutation { placeOrder(customerId: "acme", input: { id: "o4", total: 5 }) { id total customer { name } } }`,
      undefined,
      tokens.acme,
    );
    expect(own).toEqual({ data: { placeOrder: { id: 'o4', total: 5, customer: { name: 'Acme' } } } });
  });

  it('reads student names like every signed-in caller, but not their email', async () => {
    const { result } = await gw.counted(STUDENT, { id: 'ada' }, tokens.acme);
    expect(result.data.student).toMatchObject({ id: 'ada', name: 'Ada', email: null });
    expect(denials(result)).toEqual(['student.email: FORBIDDEN']);
  });
});

describe('an administrator', () => {
  it('reads everything', async () => {
    for (const [query, variables] of [[ROSTER], [STUDENT, { id: 'bob' }], [CUSTOMER, { id: 'globex' }], [ORDER, { id: 'o2' }]] as const) {
      const result = await gw.run(query, variables as Record<string, unknown> | undefined, tokens.admin);
      expect(result.errors).toBeUndefined();
      expect(result).toEqual(await off.run(query, variables as Record<string, unknown> | undefined));
    }
  });

  it('writes everything', async () => {
    const result = await gw.run(
      `mutation { a: createCourse(input: { id: "c7", title: "Seven" }) { id } b: enroll(studentId: "bob", courseId: "c7") { node { title } }
                  c: updateCourse(id: "c7", input: { title: "Seventh" }) { title } }`,
      undefined,
      tokens.admin,
    );
    expect(result).toEqual({ data: { a: { id: 'c7' }, b: { node: { title: 'Seven' } }, c: { title: 'Seventh' } } });
    // One rename or delete per operation (each may write every edge): the delete is its own request.
    expect(await gw.run(`mutation { d: deleteCourse(id: "c7") }`, undefined, tokens.admin)).toEqual({ data: { d: 'c7' } });
  });
});

describe('checking rules', () => {
  it('adds no DynamoDB request: an allowed operation costs exactly what it costs with AUTH_MODE=off', async () => {
    const cases: Array<[string, Record<string, unknown> | undefined, string]> = [
      [CATALOG, undefined, tokens.ada],
      [CATALOG, undefined, tokens.admin],
      [ROSTER, undefined, tokens.admin],
      [STUDENT, { id: 'ada' }, tokens.ada],
      [CUSTOMER, { id: 'acme' }, tokens.acme],
      [ORDER, { id: 'o1' }, tokens.acme],
      [`{ student(id: "ada") { courses(last: 1) { edges { node { title } } } } }`, undefined, tokens.ada],
    ];
    for (const [query, variables, token] of cases) {
      const ruled = await gw.counted(query, variables, token);
      const plain = await off.counted(query, variables);
      expect(ruled.requests.summary(), query).toEqual(plain.requests.summary());
    }
  });

  it('saves the reads a denied field would have needed', async () => {
    // Without rules each email needs the student item (edges carry names only): a BatchGetItem. Denied, it is never read.
    const ruled = await gw.counted(ROSTER, undefined, tokens.signedIn);
    const plain = await off.counted(ROSTER);
    expect(plain.requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
    expect(ruled.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const bob = await gw.counted(STUDENT, { id: 'bob' }, tokens.ada);
    expect(bob.requests.summary()).toEqual((await off.counted(STUDENT, { id: 'bob' })).requests.summary());
  });
});
