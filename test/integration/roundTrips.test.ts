/**
 * The read path at its minimum number of DynamoDB requests (docs/performance.md): each
 * canonical operation costs exactly what a careful hand-written client
 * would spend, in as few sequential waves, and answers exactly what the
 * naive resolver tree (no batching, no look-ahead) answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeaderMap } from '@apollo/server';
import type { Item } from '../../src/dynamo/batchGet.js';
import { createContext } from '../../src/graphql/context.js';
import { OperationMetrics } from '../../src/dynamo/metrics.js';
import { courseItem, customerItem, enrollmentItem, orderItem, partItem, productItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { DEFAULT_LIMITS } from '../../src/graphql/plugins/queryLimits.js';

const pad = (n: number) => String(n).padStart(3, '0');
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

/** Fixture: see each `describe` for the shapes it relies on. */
function fixture(): Item[] {
  const items: Item[] = [];
  // Customer c12: 12 orders; c14: 14 orders; c3: 3 orders; ghost: orders but no profile item.
  items.push(customerItem({ id: 'c12', name: 'Twelve', email: 'c12@example.com', orderCount: 12 }));
  for (let i = 0; i < 12; i++) items.push(orderItem({ customerId: 'c12', id: `o${pad(i)}`, placedAt: at(i), total: i, status: 'PLACED' }));
  items.push(customerItem({ id: 'c14', name: 'Fourteen', orderCount: 14 }));
  for (let i = 0; i < 14; i++) items.push(orderItem({ customerId: 'c14', id: `q${pad(i)}`, placedAt: at(i), total: i }));
  items.push(customerItem({ id: 'c3', name: 'Three', orderCount: 3 }));
  for (let i = 0; i < 3; i++) items.push(orderItem({ customerId: 'c3', id: `p${pad(i)}`, placedAt: at(i), total: 10 + i }));
  items.push(orderItem({ customerId: 'ghost', id: 'g000', placedAt: at(0), total: 1 }));

  // Courses k0..k9, students s000..s249. Student "ten" takes all 10 courses;
  // course kI also has students s(10I)..s(10I+8): 9 + "ten" = 10 each, 91 distinct students in all.
  const students = new Map<string, { name: string; courses: string[] }>();
  for (let i = 0; i < 250; i++) students.set(`s${pad(i)}`, { name: `Student ${i}`, courses: [] });
  students.set('ten', { name: 'Ten Courses', courses: [] });
  students.set('three', { name: 'Three Courses', courses: [] });
  const courses = new Map<string, { title: string; students: string[] }>();
  for (let k = 0; k < 10; k++) {
    const cid = `k${k}`;
    const members = [...Array.from({ length: 9 }, (_, j) => `s${pad(10 * k + j)}`), 'ten'];
    if (k < 3) members.push('three');
    courses.set(cid, { title: `Course ${k}`, students: members });
    for (const sid of members) students.get(sid)!.courses.push(cid);
  }
  for (const [id, s] of students) items.push(studentItem({ id, name: s.name, email: `${id}@example.com`, courseCount: s.courses.length }));
  for (const [id, c] of courses) {
    items.push(courseItem({ id, title: c.title, studentCount: c.students.length }));
    c.students.forEach((sid, i) =>
      items.push(enrollmentItem({ studentId: sid, courseId: id, enrolledAt: at(i), courseTitle: c.title, studentName: students.get(sid)!.name })),
    );
  }
  // An enrollment written by another program: no denormalized copies.
  items.push(studentItem({ id: 'bare', name: 'Bare', courseCount: 1 }));
  items.push({ PK: 'STUDENT#bare', SK: 'COURSE#k0', GSI1PK: 'COURSE#k0', GSI1SK: 'STUDENT#bare', enrolledAt: at(0) });
  // An item of an unknown kind between the children and the profile.
  items.push({ PK: 'STUDENT#three', SK: 'NOTE#1', text: 'not an enrollment' });

  // Product bike: 4 parts (PRODUCT sorts after PART#).
  items.push(productItem({ id: 'bike', name: 'Bicycle', partCount: 4 }));
  for (const p of ['bell', 'frame', 'saddle', 'wheel']) items.push(partItem({ productId: 'bike', id: p, name: p, quantity: 1 }));
  return items;
}

let gw: TestGateway;
let naive: TestGateway;
beforeAll(async () => {
  // Room for the 250-alias batching case below; the served defaults (30 aliases, 2000 tokens) refuse it.
  const limits = { ...DEFAULT_LIMITS, maxAliases: 300, maxTokens: 5000 };
  [gw, naive] = await Promise.all([testGateway({ limits }), testGateway({ naive: true, limits })]);
  const items = fixture();
  await Promise.all([gw.put(items), naive.put(items)]);
});
afterAll(async () => {
  await Promise.all([gw?.stop(), naive?.stop()]);
});

/** Runs on both gateways: the answers must be equal; returns the optimised one's result and figures. */
async function measured(query: string, variables?: Record<string, unknown>) {
  const [fast, slow] = await Promise.all([gw.counted(query, variables), naive.counted(query, variables)]);
  expect(fast.result.errors).toBeUndefined();
  expect(fast.result).toEqual(slow.result);
  return { data: fast.result.data, metrics: fast.requests.summary(), naive: slow.requests.summary() };
}

const ORDER_PAGE = `edges { cursor node { id total } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount`;

describe('one-to-many collections read with their parent', () => {
  it('reads a customer and its newest orders with one descending Query', async () => {
    const { data, metrics } = await measured(`{ customer(id: "c12") { name orders(last: 10) { ${ORDER_PAGE} } } }`);
    expect(metrics).toMatchObject({ requests: 1, byOperation: { Query: 1 }, waves: 1 });
    expect(data.customer.name).toBe('Twelve');
    expect(data.customer.orders.edges.map((e: any) => e.node.id)).toEqual(Array.from({ length: 10 }, (_, i) => `o${pad(i + 2)}`));
    expect(data.customer.orders.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(data.customer.orders.totalCount).toBe(12);
  });

  it('pages on from a look-ahead page with its cursors', async () => {
    const first = await measured(`{ customer(id: "c12") { name orders(last: 10) { ${ORDER_PAGE} } } }`);
    const { data } = await measured(`query ($c: String) { customer(id: "c12") { orders(last: 10, before: $c) { ${ORDER_PAGE} } } }`, {
      c: first.data.customer.orders.pageInfo.startCursor,
    });
    expect(data.customer.orders.edges.map((e: any) => e.node.id)).toEqual(['o000', 'o001']);
    expect(data.customer.orders.pageInfo).toMatchObject({ hasPreviousPage: false });
  });

  it('reads a customer whose orders fit the page with one ascending Query', async () => {
    const { data, metrics } = await measured(`{ customer(id: "c3") { name email orders(first: 10) { ${ORDER_PAGE} } } }`);
    expect(metrics).toMatchObject({ requests: 1, byOperation: { Query: 1 } });
    expect(data.customer).toMatchObject({ name: 'Three', email: null });
    expect(data.customer.orders.edges).toHaveLength(3);
    expect(data.customer.orders.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('reaches the profile of a customer with a few orders more than the page in the same ascending Query', async () => {
    const { data, metrics } = await measured(`{ customer(id: "c12") { name orders(first: 10) { ${ORDER_PAGE} } } }`);
    expect(metrics).toMatchObject({ requests: 1, byOperation: { Query: 1 }, waves: 1, consumedCapacity: 0.5 });
    expect(data.customer.name).toBe('Twelve');
    expect(data.customer.orders.edges.map((e: any) => e.node.id)).toEqual(Array.from({ length: 10 }, (_, i) => `o${pad(i)}`));
    expect(data.customer.orders.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await measured(`query ($c: String) { customer(id: "c12") { orders(first: 10, after: $c) { ${ORDER_PAGE} } } }`, {
      c: data.customer.orders.pageInfo.endCursor,
    });
    expect(next.data.customer.orders.edges.map((e: any) => e.node.id)).toEqual(['o010', 'o011']);
    expect(next.data.customer.orders.pageInfo.hasNextPage).toBe(false);
  });

  it('needs a second request for the customer when even the over-read Query does not reach its profile', async () => {
    const { data, metrics } = await measured(`{ customer(id: "c14") { name orders(first: 10) { ${ORDER_PAGE} } } }`);
    expect(metrics).toMatchObject({ requests: 2, byOperation: { Query: 1, GetItem: 1 }, waves: 2 });
    expect(data.customer.name).toBe('Fourteen');
    expect(data.customer.orders.edges.map((e: any) => e.node.id)).toEqual(Array.from({ length: 10 }, (_, i) => `q${pad(i)}`));
    expect(data.customer.orders.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(data.customer.orders.totalCount).toBe(14);
  });

  it('answers null for a customer without a profile item even when stray orders exist, in one Query', async () => {
    for (const args of ['first: 10', 'last: 10']) {
      const { data, metrics } = await measured(`{ customer(id: "ghost") { name orders(${args}) { totalCount } } }`);
      expect(data.customer).toBeNull();
      expect(metrics.requests).toBe(1);
    }
  });

  it('reads a product and its parts with one Query either way', async () => {
    for (const args of ['first: 10', 'last: 2']) {
      const { data, metrics } = await measured(
        `{ product(id: "bike") { name parts(${args}) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } totalCount } } }`,
      );
      expect(metrics.requests).toBe(1);
      expect(data.product.parts.totalCount).toBe(4);
    }
  });
});

describe('many-to-many connections', () => {
  it('reads a student and all its courses, titled from the edge copies, with one Query', async () => {
    const { data, metrics } = await measured(`{ student(id: "ten") { name courses(first: 10) { edges { node { id title } } } } }`);
    expect(metrics).toMatchObject({ requests: 1, byOperation: { Query: 1 } });
    expect(data.student.courses.edges.map((e: any) => e.node.title)).toEqual(Array.from({ length: 10 }, (_, k) => `Course ${k}`));
  });

  it('skips items of other kinds in the student partition', async () => {
    const { data, metrics } = await measured(
      `{ student(id: "three") { name courses(first: 3) { edges { node { id } } pageInfo { hasNextPage } totalCount } } }`,
    );
    expect(metrics.requests).toBe(1);
    expect(data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['k0', 'k1', 'k2']);
    expect(data.student.courses.pageInfo.hasNextPage).toBe(false);
  });

  it('reads a course and its students page concurrently', async () => {
    const { data, metrics, naive: slow } = await measured(`{ course(id: "k1") { title students(first: 10) { edges { node { id name } } } } }`);
    expect(metrics).toMatchObject({ requests: 2, byOperation: { GetItem: 1, Query: 1 }, waves: 1, maxConcurrency: 2 });
    expect(slow.waves).toBe(2);
    expect(data.course.students.edges).toHaveLength(10);
  });

  it('adds one BatchGetItem for the students when they need more than the edge copies hold', async () => {
    const { metrics } = await measured(`{ course(id: "k1") { title students(first: 10) { edges { node { id name email } } } } }`);
    expect(metrics).toMatchObject({ requests: 3, byOperation: { GetItem: 1, Query: 1, BatchGetItem: 1 }, waves: 2 });
  });

  it('reads a nested page of pages in three waves: 1 Query, then 10 Queries, then the students, never the course items', async () => {
    const {
      data,
      metrics,
      naive: slow,
    } = await measured(`{ student(id: "ten") { courses(first: 10) { edges { node { title
      students(first: 10) { edges { node { name email } } } } } } } }`);
    // Each edge carries its course's shard count: the course items are not read for their layouts.
    expect(metrics).toMatchObject({ requests: 12, byOperation: { Query: 11, BatchGetItem: 1 }, waves: 3, maxConcurrency: 10 });
    expect(data.student.courses.edges.flatMap((e: any) => e.node.students.edges)).toHaveLength(100);
    // Naive: student, its courses, 10 pages, one read per student node (two for k0's "bare", which has no name copy).
    expect(slow.requests).toBe(1 + 1 + 10 + 101);
    expect(slow.waves).toBeGreaterThanOrEqual(4);
  });

  it('reads the course of an edge without a denormalized title', async () => {
    const { data, metrics } = await measured(`{ student(id: "bare") { courses { edges { node { title } } } } }`);
    expect(data.student.courses.edges[0].node.title).toBe('Course 0');
    expect(metrics).toMatchObject({ requests: 2, byOperation: { Query: 1, GetItem: 1 } });
  });
});

describe('look-ahead reads the selection as graphql-js executes it', () => {
  it('follows fragments and variables to the connection', async () => {
    const { data, metrics } = await measured(
      `query ($n: Int) { student(id: "ten") { ...S } } fragment S on Student { name ... on Student { courses(first: $n) { totalCount } } }`,
      { n: 10 },
    );
    expect(data.student.courses.totalCount).toBe(10);
    expect(metrics.byOperation).toEqual({ Query: 1 });
  });

  it('does not read a connection that @skip leaves out', async () => {
    const { metrics } = await measured(`{ student(id: "ten") { name courses(first: 10) @skip(if: true) { totalCount } } }`);
    expect(metrics.byOperation).toEqual({ GetItem: 1 });
  });

  it('leaves bad connection arguments to the connection resolver and reads nothing', async () => {
    const { result, requests } = await gw.counted(`{ student(id: "ten") { name courses(first: 500) { totalCount } } }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(requests.requests).toBe(0);
  });
});

describe('entities by id', () => {
  it('reads 30 aliased students with one BatchGetItem', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => `a${i}: student(id: "s${pad(i)}") { name }`).join(' ');
    const { data, metrics } = await measured(`{ ${fields} }`);
    expect(metrics.byOperation).toEqual({ BatchGetItem: 1 });
    expect(data.a29.name).toBe('Student 29');
  });

  it('reads 250 distinct entities with three BatchGetItem calls of at most 100 keys', async () => {
    const fields = Array.from({ length: 250 }, (_, i) => `a${i}: student(id: "s${pad(i)}") { id }`).join(' ');
    // Not compared with naive mode: 250 single-key requests at once overrun DynamoDB Local's connection timeout.
    const { result, requests } = await gw.counted(`{ ${fields} }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.a249.id).toBe('s249');
    expect(requests.summary()).toMatchObject({ requests: 3, byOperation: { BatchGetItem: 3 }, waves: 1 });
  });

  it('answers null for an absent student in one request', async () => {
    const { data, metrics } = await measured(`{ student(id: "nobody") { name courses(first: 5) { totalCount } } }`);
    expect(data.student).toBeNull();
    expect(metrics.requests).toBe(1);
  });
});

describe('the figures reach the client on request', () => {
  async function execute(headers: [string, string][]) {
    const metrics = new OperationMetrics();
    const http = { method: 'POST', headers: new HeaderMap(headers), search: '', body: {} };
    const response = await gw.server.executeOperation(
      { query: `{ student(id: "ten") { name courses(first: 10) { edges { node { id } } } } }`, http },
      { contextValue: createContext(gw.deps, metrics) },
    );
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return response.body.singleResult;
  }

  it('adds requests and consumed capacity to extensions when the header asks for them', async () => {
    const result = await execute([['x-dynamodb-metrics', '1']]);
    expect(result.extensions?.dynamodb).toMatchObject({ requests: 1, byOperation: { Query: 1 }, waves: 1 });
    expect((result.extensions?.dynamodb as { consumedCapacity: number }).consumedCapacity).toBeGreaterThan(0);
  });

  it('leaves extensions alone without the header', async () => {
    const result = await execute([]);
    expect(result.extensions?.dynamodb).toBeUndefined();
  });
});
