/**
 * DynamoDB work matches what a query's text can ask for: a nested
 * totalCount reads the counter of the item in hand, a page of 0 sends no
 * Query, prefix counts are priced, and no query sends more than one
 * request per 10 bytes of its text, unless one page it names needs more
 * (a catalog page: a Query per GSI2 shard; a page of a course with 64 write
 * shards: up to 3 × 64).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildASTSchema, parse, type OperationDefinitionNode } from 'graphql';
import { catalogCounterItems, courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { DEFAULT_LIMITS, operationCost } from '../../src/graphql/plugins/queryLimits.js';
import { CATALOG_SHARDS } from '../../src/dynamo/keys.js';
import { pageFloor } from '../../src/graphql/plugins/requestBudget.js';
import { compilePlan } from '../../src/plan/plan.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const { typeDefs } = loadModel();

let gw: TestGateway;

function fixture(): Item[] {
  const items: Item[] = [];
  for (let c = 0; c < 3; c++) items.push(courseItem({ id: `c${c}`, title: `Course ${c}`, studentCount: 100 }));
  for (let s = 0; s < 100; s++) {
    items.push(studentItem({ id: `s${s}`, name: `Ada ${s}`, courseCount: 3 }));
    for (let c = 0; c < 3; c++) {
      items.push(
        enrollmentItem({ studentId: `s${s}`, courseId: `c${c}`, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: `Course ${c}`, studentName: `Ada ${s}` }),
      );
    }
  }
  return [...items, ...catalogCounterItems(items)];
}

beforeAll(async () => {
  // The rule is off unless set (the per-caller budget replaced it); this file tests it set as it was.
  gw = await testGateway({ limits: { ...DEFAULT_LIMITS, queryBytesPerRequest: 10 } });
  await gw.put(fixture());
});
afterAll(() => gw.stop());

const perByte = (requests: number, query: string) => requests / Buffer.byteLength(query);
const aliased = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('nested totalCount', () => {
  it('reads the counter of the item in hand: 12 aliases over 100 students send only the catalog page', async () => {
    const query = aliased(12, 'students(first: 100, namePrefix: "Ada") { edges { node { courses(first: 0) { totalCount } } } }');
    expect(Buffer.byteLength(query)).toBeGreaterThan(1000);
    const { result, requests } = await gw.counted(query);
    expect(result.errors).toBeUndefined();
    expect(result.data.a11.edges).toHaveLength(100);
    expect(result.data.a11.edges.every((e: any) => e.node.courses.totalCount === 3)).toBe(true);
    const { requests: listOnly } = await gw.counted('{ students(first: 100, namePrefix: "Ada") { edges { node { id } } } }');
    expect(requests.requests).toBe(listOnly.requests); // the aliases are one read; the counts cost nothing more
    expect(perByte(requests.requests, query)).toBeLessThanOrEqual(0.1);
  });

  it("sends a page of 0's Query only when its pageInfo is asked for", async () => {
    const roster = (inner: string) => `{ course(id: "c0") { students(first: 5) { edges { node { id courses(first: 0) { ${inner} } } } } } }`;
    const { requests: plain } = await gw.counted('{ course(id: "c0") { students(first: 5) { edges { node { id } } } } }');
    const { result: counted, requests: count } = await gw.counted(roster('totalCount'));
    const { result, requests: withInfo } = await gw.counted(roster('totalCount pageInfo { hasNextPage }'));
    expect(counted.data.course.students.edges.map((e: any) => e.node.courses.totalCount)).toEqual([3, 3, 3, 3, 3]);
    expect(result.data.course.students.edges[0].node.courses).toEqual({ totalCount: 3, pageInfo: { hasNextPage: true } });
    // The counts need the student items (one BatchGetItem), not their pages; hasNextPage needs each page's Query.
    expect(count.byOperation).toEqual({ ...plain.byOperation, BatchGetItem: 1 });
    expect(withInfo.byOperation).toEqual({ ...count.byOperation, Query: (count.byOperation.Query ?? 0) + 5 });
  });
});

describe('pricing', () => {
  const schema = buildASTSchema(typeDefs);
  const cost = (query: string) => operationCost(schema, parse(query).definitions[0] as OperationDefinitionNode, () => undefined, undefined);

  it('prices the Select: COUNT of a prefix search on every GSI2 shard', () => {
    const list = cost('{ students(first: 0, namePrefix: "Ada") { edges { cursor } } }');
    expect(cost('{ students(first: 0, namePrefix: "Ada") { totalCount } }')).toBe(list + CATALOG_SHARDS);
    // Without a prefix the count is the catalog's counters: nothing more.
    expect(cost('{ students(first: 0) { totalCount } }')).toBe(cost('{ students(first: 0) { edges { cursor } } }'));
  });

  it('prices the Select: COUNT of orders narrowed by date or status', () => {
    const plain = cost('{ customer(id: "1") { orders(status: PLACED) { edges { cursor } } } }');
    expect(cost('{ customer(id: "1") { orders(status: PLACED) { totalCount edges { cursor } } } }')).toBe(plain + 1);
  });
});

describe('requests per byte of query text', () => {
  const plan = compilePlan(loadModel());
  const schema = buildASTSchema(typeDefs);
  const floorOf = (query: string) => pageFloor(plan, schema, parse(query));
  const budgetOf = (query: string) => Math.max(floorOf(query), Math.floor(Buffer.byteLength(query) / 10));

  it('stops a short query that would send a Query per item of a large page at one request per 10 bytes', async () => {
    const pages = ['first: 1', 'last: 1', 'first: 2'].map((args, i) => `p${i}: courses(${args}) { edges { node { id } } }`).join(' ');
    const query = `{ students(first: 100) { edges { node { ${pages} } } } }`;
    const { result, requests } = await gw.counted(query);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'DYNAMODB_REQUEST_LIMIT' });
    expect(requests.requests).toBe(Math.floor(Buffer.byteLength(query) / 10));
    expect(perByte(requests.requests, query)).toBeLessThanOrEqual(0.1);
  });

  it('lets a short query read one whole page of what it names: a catalog page is a Query per GSI2 shard', async () => {
    const query = '{ students(first: 5) { edges { node { id } } } }';
    expect(floorOf(query)).toBe(2 * CATALOG_SHARDS + 1);
    expect(Math.floor(Buffer.byteLength(query) / 10)).toBeLessThan(CATALOG_SHARDS);
    const { result, requests } = await gw.counted(query);
    expect(result.errors).toBeUndefined();
    expect(requests.requests).toBeLessThanOrEqual(floorOf(query));
  });

  it('gives a page of a write-sharded relation what its widest layout needs, and a plain page 3', () => {
    expect(floorOf('{ course(id: "c0") { students(first: 5) { edges { node { id } } } } }')).toBe(3 * 64 + 2);
    expect(floorOf('{ student(id: "s0") { courses(first: 5) { edges { node { id } } } } }')).toBe(3);
  });

  it.each([
    ['nested pages', '{ courses(first: 3) { edges { node { students(first: 100) { edges { node { courses(first: 3) { edges { node { id } } } } } } } } } }'],
    ['aliased lists', aliased(30, 'students(first: 100) { edges { node { id } } }')],
    ['aliased prefix counts', aliased(30, 'students(first: 0, namePrefix: "Ada") { totalCount }')],
    ['aliased entity pages', aliased(30, 'student(id: "s1") { courses(first: 100) { edges { node { students(first: 100) { edges { node { id } } } } } } }')],
    [
      'distinct prefixes',
      `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: students(first: 100, namePrefix: "Ada ${i}") { totalCount edges { node { id } } }`).join(' ')} }`,
    ],
  ])('%s: at most one request per 10 bytes, or what its widest page needs', async (_, query) => {
    const { requests } = await gw.counted(query);
    expect(requests.requests).toBeLessThanOrEqual(budgetOf(query));
  });

  it('holds the 1,060-byte query of 12 aliased catalog pages with nested counts to 0.1 requests per byte', async () => {
    const query = aliased(12, 'students(first: 100, namePrefix: "Ada") { edges { node { courses(first: 1) { edges { cursor } } } } }');
    const { requests } = await gw.counted(query);
    expect(requests.requests).toBeLessThanOrEqual(Math.floor(Buffer.byteLength(query) / 10));
  });
});
