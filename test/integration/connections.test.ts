/**
 * Every connection paged forward and backward at several page sizes against
 * DynamoDB Local: each edge exactly once, in ascending order, with exact
 * hasNextPage/hasPreviousPage and no empty trailing page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, customerItem, enrollmentItem, orderItem, partItem, productItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const N = 6;
const ids = Array.from({ length: N }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  const items = [
    studentItem({ id: 's1', name: 'Student One', courseCount: N }),
    studentItem({ id: 's2', name: 'Student Two', courseCount: 1 }),
    courseItem({ id: 'hub', title: 'Hub', studentCount: N }),
    customerItem({ id: 'cu1', name: 'Customer', orderCount: N }),
    productItem({ id: 'p1', name: 'Product', partCount: N }),
    enrollmentItem({ studentId: 's2', courseId: 'c01', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Course c01', studentName: 'Student Two' }),
  ];
  ids.forEach((id, i) => {
    const at = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    items.push(courseItem({ id, title: `Course ${id}`, studentCount: 1 }));
    items.push(enrollmentItem({ studentId: 's1', courseId: id, enrolledAt: at, courseTitle: `Course ${id}`, studentName: 'Student One' }));
    items.push(studentItem({ id: `st${id}`, name: `Student ${id}`, courseCount: 1 }));
    items.push(enrollmentItem({ studentId: `st${id}`, courseId: 'hub', enrolledAt: at, courseTitle: 'Hub', studentName: `Student ${id}` }));
    items.push(orderItem({ customerId: 'cu1', id: `o${id}`, placedAt: at, total: i + 0.5, status: 'PLACED' }));
    items.push(partItem({ productId: 'p1', id: `pt${id}`, name: `Part ${id}`, quantity: i }));
  });
  await gw.put(items);
});
afterAll(() => gw.stop());

interface Case {
  name: string;
  expected: string[];
  query: (args: string) => string;
  pick: (data: any) => any;
}

const args = (a: string) => (a ? `(${a})` : '');
const PAGE = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } }`;
const cases: Case[] = [
  {
    name: 'Student.courses (base table)',
    expected: ids,
    query: (a) => `{ student(id: "s1") { courses${args(a)} { ${PAGE} } } }`,
    pick: (d) => d.student.courses,
  },
  {
    name: 'Course.students (GSI1)',
    expected: ids.map((id) => `st${id}`),
    query: (a) => `{ course(id: "hub") { students${args(a)} { ${PAGE} } } }`,
    pick: (d) => d.course.students,
  },
  {
    name: 'Customer.orders',
    expected: ids.map((id) => `o${id}`),
    query: (a) => `{ customer(id: "cu1") { orders${args(a)} { ${PAGE} } } }`,
    pick: (d) => d.customer.orders,
  },
  {
    name: 'Product.parts',
    expected: ids.map((id) => `pt${id}`),
    query: (a) => `{ product(id: "p1") { parts${args(a)} { ${PAGE} } } }`,
    pick: (d) => d.product.parts,
  },
];

async function page(c: Case, args: string) {
  const result = await gw.run(c.query(args));
  expect(result.errors).toBeUndefined();
  return c.pick(result.data);
}

describe.each(cases)('$name', (c) => {
  it.each([1, 2, 3, 4, 6, 10])('pages forward with first: %i, every edge exactly once', async (size) => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const conn: any = await page(c, `first: ${size}${after ? `, after: "${after}"` : ''}`);
      pages += 1;
      expect(conn.totalCount).toBe(N);
      expect(conn.edges.length).toBeGreaterThan(0); // never an empty trailing page
      expect(conn.pageInfo.hasPreviousPage).toBe(after !== null);
      expect(conn.pageInfo.startCursor).toBe(conn.edges[0].cursor);
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1).cursor);
      seen.push(...conn.edges.map((e: any) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(c.expected);
    expect(pages).toBe(Math.ceil(N / size));
  });

  it.each([1, 2, 3, 4, 6, 10])('pages backward with last: %i, edges ascending within each page', async (size) => {
    const pagesSeen: string[][] = [];
    let before: string | null = null;
    for (;;) {
      const conn: any = await page(c, `last: ${size}${before ? `, before: "${before}"` : ''}`);
      expect(conn.edges.length).toBeGreaterThan(0);
      expect(conn.pageInfo.hasNextPage).toBe(before !== null);
      pagesSeen.unshift(conn.edges.map((e: any) => e.node.id));
      if (!conn.pageInfo.hasPreviousPage) break;
      before = conn.pageInfo.startCursor;
    }
    expect(pagesSeen.flat()).toEqual(c.expected);
    expect(pagesSeen.length).toBe(Math.ceil(N / size));
  });

  it('answers an empty page after the last edge with hasPreviousPage true and hasNextPage false', async () => {
    const all: any = await page(c, `first: ${N}`);
    expect(all.pageInfo.hasNextPage).toBe(false);
    const beyond: any = await page(c, `first: 5, after: "${all.pageInfo.endCursor}"`);
    expect(beyond.edges).toEqual([]);
    expect(beyond.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });
  });

  it('bounds a forward page by a before cursor and a backward page by an after cursor', async () => {
    const all: any = await page(c, `first: ${N}`);
    const cursors = all.edges.map((e: any) => e.cursor);
    const between: any = await page(c, `first: 10, after: "${cursors[0]}", before: "${cursors[4]}"`);
    expect(between.edges.map((e: any) => e.node.id)).toEqual(c.expected.slice(1, 4));
    expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const tail: any = await page(c, `last: 2, after: "${cursors[1]}"`);
    expect(tail.edges.map((e: any) => e.node.id)).toEqual(c.expected.slice(4));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const head: any = await page(c, `last: 10, after: "${cursors[3]}", before: "${cursors[5]}"`);
    expect(head.edges.map((e: any) => e.node.id)).toEqual(c.expected.slice(4, 5));
  });

  it('answers first: 0 with no edges and hasNextPage true', async () => {
    const conn: any = await page(c, 'first: 0');
    expect(conn.edges).toEqual([]);
    expect(conn.pageInfo.hasNextPage).toBe(true);
  });

  it('defaults to a page of 20', async () => {
    const conn: any = await page(c, '');
    expect(conn.edges.map((e: any) => e.node.id)).toEqual(c.expected);
    expect(conn.pageInfo.hasNextPage).toBe(false);
  });
});

describe('both directions of the adjacency list', () => {
  it('shows an enrollment from the student side (base table) and from the course side (GSI1)', async () => {
    const result = await gw.run(`{
      student(id: "s2") { courses { edges { enrolledAt node { id title } } } }
      course(id: "c01") { students { totalCount edges { enrolledAt node { id name } } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student.courses.edges).toEqual([{ enrolledAt: '2026-01-01T00:00:00.000Z', node: { id: 'c01', title: 'Course c01' } }]);
    expect(result.data.course.students.edges.map((e: any) => e.node)).toEqual([
      { id: 's1', name: 'Student One' },
      { id: 's2', name: 'Student Two' },
    ]);
  });

  it('reads titles from the edge copies without reading the course items', async () => {
    const { result, requests } = await gw.counted(`{ student(id: "s1") { courses(first: 3) { edges { node { id title } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student.courses.edges.map((e: any) => e.node.title)).toEqual(['Course c01', 'Course c02', 'Course c03']);
    // The student item (one BatchGetItem) and one Query: no per-course reads.
    expect(requests.byOperation.Query).toBe(1);
    expect(requests.byOperation.BatchGetItem ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('order(id)', () => {
  it('finds an order through GSI1 and walks back to its customer', async () => {
    const result = await gw.run(`{ order(id: "oc03") { id placedAt total status customer { id name } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.order).toEqual({
      id: 'oc03',
      placedAt: '2026-01-03T00:00:00.000Z',
      total: 2.5,
      status: 'PLACED',
      customer: { id: 'cu1', name: 'Customer' },
    });
  });
});
