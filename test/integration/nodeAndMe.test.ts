/**
 * Relay's Global Object Identification and `me` against DynamoDB Local:
 * every item type's globalId finds the item again through node(id:), in one
 * GetItem batched with the operation's other item reads; node follows the
 * rules of the type's own root field; `me` reads the caller's own student
 * and customer from the token's claims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { courseItem, customerItem, enrollmentItem, orderItem, partItem, productItem, studentItem } from '../support/defaultItems.js';
import { formatGlobalId } from '../../src/plan/globalId.js';
import { codes, testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
let gw: TestGateway;
let open: TestGateway;
const tokens: Record<'signedIn' | 'ada' | 'acme' | 'both' | 'admin', string> = {} as never;

const fixture = () => [
  studentItem({ id: 'ada', name: 'Ada', email: 'ada@example.com', courseCount: 1 }),
  courseItem({ id: 'c1', title: 'Engines', studentCount: 1 }),
  enrollmentItem({ studentId: 'ada', courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: 'Ada' }),
  customerItem({ id: 'acme', name: 'Acme', email: 'buy@acme.example', orderCount: 1 }),
  customerItem({ id: 'globex', name: 'Globex', email: 'buy@globex.example', orderCount: 1 }),
  orderItem({ customerId: 'acme', id: 'o1', placedAt: '2026-02-01T00:00:00.000Z', total: 10, status: 'PLACED' }),
  orderItem({ customerId: 'globex', id: 'o2', placedAt: '2026-02-02T00:00:00.000Z', total: 20, status: 'PAID' }),
  productItem({ id: 'p1', name: 'Widget', partCount: 1 }),
  partItem({ productId: 'p1', id: 'pa1', name: 'Bolt', quantity: 4 }),
];

beforeAll(async () => {
  issuer = await startTestIssuer();
  [gw, open] = await Promise.all([testGateway({ auth: testAuthenticator(issuer).auth }), testGateway()]);
  await Promise.all([gw.put(fixture()), open.put(fixture())]);
  tokens.signedIn = await issuer.token({});
  tokens.ada = await issuer.token({ student_id: 'ada' });
  tokens.acme = await issuer.token({ customer_id: 'acme' });
  tokens.both = await issuer.token({ student_id: 'ada', customer_id: 'acme' });
  tokens.admin = await issuer.token({ groups: ['admin'] });
});

afterAll(async () => {
  await Promise.all([gw?.stop(), open?.stop()]);
  await issuer?.stop();
});

const gid = (...parts: string[]) => formatGlobalId(parts[0]!, parts.slice(1));
const NODE = `query($id: ID!) { node(id: $id) { __typename globalId ... on Student { id name } ... on Course { id title }
  ... on Customer { id name } ... on Order { id total status customer { id } } ... on Product { id name } ... on Part { id name product { id } } } }`;
const paths = (result: GqlResult) => (result.errors ?? []).map((e) => `${(e.path ?? []).join('.')}: ${e.extensions?.code}`);

describe('globalId and node(id:)', () => {
  it('gives every item type an opaque globalId that node(id:) reads back, its own id unchanged', async () => {
    const { result } = await open.counted(`{ student(id: "ada") { id globalId courses { edges { node { id globalId } } } }
      customer(id: "acme") { id globalId orders { edges { node { id globalId } } } }
      product(id: "p1") { id globalId parts { edges { node { id globalId } } } } }`);
    expect(result.errors).toBeUndefined();
    const d = result.data;
    expect(d.student.id).toBe('ada');
    const ids = [
      d.student.globalId,
      d.student.courses.edges[0].node.globalId,
      d.customer.globalId,
      d.customer.orders.edges[0].node.globalId,
      d.product.globalId,
      d.product.parts.edges[0].node.globalId,
    ];
    expect(ids).toEqual([
      gid('Student', 'ada'),
      gid('Course', 'c1'),
      gid('Customer', 'acme'),
      gid('Order', 'acme', 'o1'),
      gid('Product', 'p1'),
      gid('Part', 'p1', 'pa1'),
    ]);
    expect(ids.every((id) => /^[A-Za-z0-9_-]+$/.test(id))).toBe(true);
    expect(Buffer.from(ids[5]!, 'base64url').toString()).toBe('Part#p1#pa1');

    const expected = [
      { __typename: 'Student', id: 'ada', name: 'Ada' },
      { __typename: 'Course', id: 'c1', title: 'Engines' },
      { __typename: 'Customer', id: 'acme', name: 'Acme' },
      { __typename: 'Order', id: 'o1', total: 10, status: 'PLACED', customer: { id: 'acme' } },
      { __typename: 'Product', id: 'p1', name: 'Widget' },
      { __typename: 'Part', id: 'pa1', name: 'Bolt', product: { id: 'p1' } },
    ];
    for (const [i, id] of ids.entries()) {
      const { result: read, requests } = await open.counted(NODE, { id });
      expect(read.errors).toBeUndefined();
      expect(read.data.node).toEqual({ ...expected[i], globalId: id });
      expect(requests.summary()).toMatchObject({ requests: 1, byOperation: { GetItem: 1 } });
    }
  });

  it('batches node reads with the other item reads of the tick: three items, one BatchGetItem', async () => {
    const { result, requests } = await open.counted(
      `query($a: ID!, $b: ID!) { a: node(id: $a) { globalId } b: node(id: $b) { globalId } c: course(id: "c1") { title } }`,
      {
        a: gid('Student', 'ada'),
        b: gid('Part', 'p1', 'pa1'),
      },
    );
    expect(result.errors).toBeUndefined();
    expect(requests.summary()).toMatchObject({ requests: 1, byOperation: { BatchGetItem: 1 } });
  });

  it('answers null for a well-formed global id of an item that does not exist', async () => {
    const { result, requests } = await open.counted(NODE, { id: gid('Customer', 'nobody') });
    expect(result).toEqual({ data: { node: null } });
    expect(requests.requests).toBe(1);
  });

  it.each([
    ['not base64url', 'abc$'],
    ['an unknown type', gid('Invoice', 'x1')],
    ['a child type without its parent', gid('Part', 'pa1')],
    ['a top-level type with a parent', gid('Course', 'x', 'c1')],
    ['non-canonical base64', `${gid('Course', 'c1')}A`],
    ['an empty id', gid('Course', '')],
    ['a plain id', 'c1'],
    ['an over-long string', 'A'.repeat(401)],
  ])('refuses %s with BAD_USER_INPUT before any DynamoDB request', async (_, id) => {
    const { result, requests } = await open.counted(NODE, { id });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toMatch(/id is not a global id of this API \(pass the globalId of an item\)/);
    expect(requests.requests).toBe(0);
  });

  it("is weighed by the cost limit exactly as the type's own root field is", async () => {
    const orders = (inner: string) => `orders(first: 100) { edges { node { customer { ${inner} } } } }`;
    const deep = `query($id: ID!) { node(id: $id) { ... on Customer { ${orders(orders('id'))} } } }`;
    const { result, requests } = await open.counted(deep, { id: gid('Customer', 'acme') });
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0]!.message).toMatch(/Query cost limit of 20000 exceeded, found 20201\./);
    expect(requests.requests).toBe(0);
    const direct = await open.run(`{ customer(id: "acme") { ${orders(orders('id'))} } }`);
    expect(direct.errors![0]!.message).toMatch(/found 20201\./);
  });
});

describe("node(id:) follows the rules of the type's own root field", () => {
  it('lets anyone read a course or a part, and only signed-in callers a student', async () => {
    const course = await gw.run(NODE, { id: gid('Course', 'c1') });
    expect(course.data.node).toMatchObject({ __typename: 'Course', title: 'Engines' });
    const part = await gw.run(NODE, { id: gid('Part', 'p1', 'pa1') });
    expect(part.data.node).toMatchObject({ name: 'Bolt' });
    const anonymous = await gw.run(NODE, { id: gid('Student', 'ada') });
    expect(paths(anonymous)).toEqual(['node: FORBIDDEN']);
    expect(anonymous.data.node).toBeNull();
    const signedIn = await gw.run(NODE, { id: gid('Student', 'ada') }, tokens.signedIn);
    expect(signedIn.errors).toBeUndefined();
    expect(signedIn.data.node).toMatchObject({ name: 'Ada' });
  });

  it("refuses someone else's customer before reading it, and passes the customer themselves", async () => {
    const { result, requests } = await gw.counted(NODE, { id: gid('Customer', 'globex') }, tokens.acme);
    expect(paths(result)).toEqual(['node: FORBIDDEN']);
    expect(requests.requests).toBe(0);
    const own = await gw.run(NODE, { id: gid('Customer', 'acme') }, tokens.acme);
    expect(own.errors).toBeUndefined();
    expect(own.data.node).toMatchObject({ name: 'Acme' });
  });

  it('withholds an order of another customer once read, as order(id) does', async () => {
    const other = await gw.run(NODE, { id: gid('Order', 'globex', 'o2') }, tokens.acme);
    expect(paths(other)).toEqual(['node: FORBIDDEN']);
    expect(other.data.node).toBeNull();
    const own = await gw.run(NODE, { id: gid('Order', 'acme', 'o1') }, tokens.acme);
    expect(own.data.node).toMatchObject({ id: 'o1', total: 10 });
    const student = await gw.run(NODE, { id: gid('Order', 'acme', 'o1') }, tokens.ada);
    expect(paths(student)).toEqual(['node: FORBIDDEN']);
  });

  it('keeps the globalId as readable as the id: signed-in callers for students, the owner for customers', async () => {
    const result = await gw.run(`{ course(id: "c1") { globalId students { edges { node { globalId } } } } }`, undefined, tokens.signedIn);
    expect(result.errors).toBeUndefined();
    expect(result.data.course.students.edges[0].node.globalId).toBe(gid('Student', 'ada'));
    const anonymous = await gw.run(`{ course(id: "c1") { globalId } }`);
    expect(anonymous.data.course.globalId).toBe(gid('Course', 'c1'));
  });
});

const ME = `{ me { student { id name email } customer { id name orders { totalCount } } } }`;

describe('me', () => {
  it("reads the caller's own student and customer from the token's claims", async () => {
    const both = await gw.run(ME, undefined, tokens.both);
    expect(both.errors).toBeUndefined();
    expect(both.data.me).toEqual({
      student: { id: 'ada', name: 'Ada', email: 'ada@example.com' },
      customer: { id: 'acme', name: 'Acme', orders: { totalCount: 1 } },
    });
    const student = await gw.run(ME, undefined, tokens.ada);
    expect(student.data.me).toEqual({ student: { id: 'ada', name: 'Ada', email: 'ada@example.com' }, customer: null });
    expect(student.errors).toBeUndefined();
  });

  it('reads the customer and the first page of their orders in one Query (look-ahead)', async () => {
    const { result, requests } = await gw.counted(`{ me { customer { name orders(first: 5) { edges { node { id } } } } } }`, undefined, tokens.acme);
    expect(result.errors).toBeUndefined();
    expect(result.data.me.customer.orders.edges).toEqual([{ node: { id: 'o1' } }]);
    expect(requests.summary()).toMatchObject({ requests: 1, byOperation: { Query: 1 } });
  });

  it('answers null fields, and no request, for a token that names neither', async () => {
    const { result, requests } = await gw.counted(ME, undefined, tokens.signedIn);
    expect(result).toEqual({ data: { me: { student: null, customer: null } } });
    expect(requests.requests).toBe(0);
  });

  it('is refused to a caller without a token (FORBIDDEN, me null)', async () => {
    const result = await gw.run(ME);
    expect(paths(result)).toEqual(['me: FORBIDDEN']);
    expect(result.data.me).toBeNull();
  });

  it('answers null fields when authorization is off (no token names anyone)', async () => {
    expect(await open.run(ME)).toEqual({ data: { me: { student: null, customer: null } } });
  });
});
