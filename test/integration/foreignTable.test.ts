/**
 * A table filled by another program in the table layout (docs/table.md), without the
 * attributes the gateway maintains (counters, denormalized copies), reads
 * correctly: counts come from COUNT Queries, nodes from their entity items.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  // Written by hand, exactly as docs/table.md lays items out, minus gateway-maintained attributes.
  await gw.put([
    { PK: 'STUDENT#x1', SK: 'PROFILE', name: 'Xena' },
    { PK: 'STUDENT#x2', SK: 'PROFILE', name: 'Yuri', email: 'yuri@example.com' },
    { PK: 'COURSE#k1', SK: 'PROFILE', title: 'Kinematics' },
    { PK: 'COURSE#k2', SK: 'PROFILE', title: 'Knots' },
    { PK: 'STUDENT#x1', SK: 'COURSE#k1', GSI1PK: 'COURSE#k1', GSI1SK: 'STUDENT#x1', enrolledAt: '2026-02-01T10:00:00Z' },
    { PK: 'STUDENT#x1', SK: 'COURSE#k2', GSI1PK: 'COURSE#k2', GSI1SK: 'STUDENT#x1', enrolledAt: '2026-02-02T10:00:00Z' },
    { PK: 'STUDENT#x2', SK: 'COURSE#k1', GSI1PK: 'COURSE#k1', GSI1SK: 'STUDENT#x2', enrolledAt: '2026-02-03T10:00:00Z' },
    { PK: 'CUSTOMER#z', SK: 'PROFILE', name: 'Zed' },
    { PK: 'CUSTOMER#z', SK: 'ORDER#o1', GSI1PK: 'ORDER#o1', GSI1SK: 'CUSTOMER#z', placedAt: '2026-02-04T10:00:00Z', total: 12 },
    { PK: 'PRODUCT#q', SK: 'PRODUCT', name: 'Quill' },
    { PK: 'PRODUCT#q', SK: 'PART#nib', name: 'Nib', quantity: 1 },
    { PK: 'PRODUCT#q', SK: 'PART#barrel', name: 'Barrel', quantity: 1 },
  ]);
});
afterAll(() => gw.stop());

describe('a table written by another program', () => {
  it('reads edge nodes from their entity items when the edges carry no copies', async () => {
    const { result, requests } = await gw.counted(`{
      student(id: "x1") { name email courses { edges { enrolledAt node { id title } } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student).toEqual({
      name: 'Xena',
      email: null,
      courses: {
        edges: [
          { enrolledAt: '2026-02-01T10:00:00Z', node: { id: 'k1', title: 'Kinematics' } },
          { enrolledAt: '2026-02-02T10:00:00Z', node: { id: 'k2', title: 'Knots' } },
        ],
      },
    });
    // Student item and edges in one Query (look-ahead), then both course items in one batch.
    expect(requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1 });
  });

  it('reads student nodes of a course through GSI1 and their entity items', async () => {
    const result = await gw.run(`{ course(id: "k1") { title students { edges { node { id name email } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.course.students.edges.map((e: any) => e.node)).toEqual([
      { id: 'x1', name: 'Xena', email: null },
      { id: 'x2', name: 'Yuri', email: 'yuri@example.com' },
    ]);
  });

  it('counts with a COUNT Query when a counter is missing, only when totalCount is selected', async () => {
    const withCount = await gw.counted(`{ course(id: "k1") { students(first: 1) { totalCount } } }`);
    expect(withCount.result.data.course.students.totalCount).toBe(2);
    const countQueries = withCount.requests.byOperation.Query;
    const withoutCount = await gw.counted(`{ course(id: "k1") { students(first: 1) { edges { cursor } } } }`);
    expect(withoutCount.requests.byOperation.Query).toBe(countQueries - 1);

    const result = await gw.run(`{
      student(id: "x1") { courses { totalCount } }
      customer(id: "z") { orders { totalCount edges { node { id total status } } } }
      product(id: "q") { parts { totalCount edges { node { id name } } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student.courses.totalCount).toBe(2);
    expect(result.data.customer.orders).toEqual({ totalCount: 1, edges: [{ node: { id: 'o1', total: 12, status: null } }] });
    expect(result.data.product.parts.totalCount).toBe(2);
    expect(result.data.product.parts.edges.map((e: any) => e.node.id)).toEqual(['barrel', 'nib']);
  });

  it('uses the maintained counter when it is present, without a COUNT Query', async () => {
    await gw.put([{ PK: 'COURSE#k2', SK: 'PROFILE', title: 'Knots', studentCount: 1 }]);
    const { result, requests } = await gw.counted(`{ course(id: "k2") { students { totalCount } } }`);
    expect(result.data.course.students.totalCount).toBe(1);
    expect(requests.byOperation.Query ?? 0).toBe(1); // the page itself only
  });
});

describe('absent entities', () => {
  it('answers null for every absent entity', async () => {
    const result = await gw.run(`{
      student(id: "nobody") { id } course(id: "nothing") { id } customer(id: "none") { id }
      order(id: "never") { id } product(id: "void") { id }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ student: null, course: null, customer: null, order: null, product: null });
  });
});

describe('short pages from DynamoDB', () => {
  it('keeps querying when DynamoDB stops a page at 1 MB, so the page is full and exact', async () => {
    const big = 'x'.repeat(300_000);
    await gw.put([
      { PK: 'PRODUCT#heavy', SK: 'PRODUCT', name: 'Heavy', partCount: 5 },
      ...[1, 2, 3, 4, 5].map((i) => ({ PK: 'PRODUCT#heavy', SK: `PART#${i}`, name: `Part ${i}`, quantity: i, blob: big })),
    ]);
    const { result, requests } = await gw.counted(`{ product(id: "heavy") { parts(first: 4) { pageInfo { hasNextPage } edges { node { id } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.product.parts.edges.map((e: any) => e.node.id)).toEqual(['1', '2', '3', '4']);
    expect(result.data.product.parts.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation.Query).toBeGreaterThan(1); // the 1 MB cap cut the first Query short
  });
});
