/**
 * Customer.orders by date range and status, against DynamoDB Local: the
 * range is a key condition on GSI2 (one Query for an unfiltered page),
 * status filters fill their pages whatever the selectivity, the read budget
 * cuts a page short only visibly (extensions.shortPages) and resumably, and
 * bad ranges or foreign cursors cost no DynamoDB request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerItem, orderItem } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const HOUR = 3_600_000;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * HOUR).toISOString();
const N = 300;

/** Customer "mix": 300 orders an hour apart, 1 in 100 PAID, the rest PLACED; ids do not follow the dates. */
const mix = Array.from({ length: N }, (_, i) => ({ id: `o${String((i * 7919) % 1000).padStart(3, '0')}-${i}`, i, status: i % 100 === 42 ? 'PAID' : 'PLACED' }));

beforeAll(async () => {
  gw = await testGateway();
  const items: Item[] = [customerItem({ id: 'mix', name: 'Mix', orderCount: N }), customerItem({ id: 'paid', name: 'Paid', orderCount: 40 })];
  for (const o of mix) items.push(orderItem({ customerId: 'mix', id: o.id, placedAt: at(o.i), total: o.i, status: o.status }));
  for (let i = 0; i < 40; i++) items.push(orderItem({ customerId: 'paid', id: `p${i}`, placedAt: at(i), total: i, status: 'PAID' }));
  await gw.put(items);
});
afterAll(() => gw.stop());

const PAGE = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id placedAt status } }`;

async function page(customer: string, args: string, budgetGw = gw) {
  // Under a tiny budget totalCount would be refused: leave it out there.
  const fields = budgetGw === gw ? PAGE : PAGE.replace('totalCount ', '');
  const { result, requests } = await budgetGw.counted(`{ customer(id: "${customer}") { orders(${args}) { ${fields} } } }`);
  expect(result.errors).toBeUndefined();
  return { conn: result.data.customer.orders, requests, extensions: result.extensions };
}

/** Every page of a filtered list, forward or backward; checks pages are full while more remain. */
async function walk(customer: string, filter: string, size: number, forward: boolean, budgetGw = gw) {
  const seen: string[] = [];
  const short: unknown[] = [];
  const pages: { length: number; declaredShort: boolean }[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 1000; n++) {
    const paging: string = forward ? `first: ${size}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${size}${cursor ? `, before: "${cursor}"` : ''}`;
    const { conn, extensions } = await page(customer, `${paging}, ${filter}`, budgetGw);
    const ids = conn.edges.map((e: any) => e.node.id);
    const more = forward ? conn.pageInfo.hasNextPage : conn.pageInfo.hasPreviousPage;
    const shortPages = (extensions as any)?.shortPages ?? [];
    short.push(...shortPages);
    pages.push({ length: ids.length, declaredShort: shortPages.length > 0 });
    if (forward) seen.push(...ids);
    else seen.unshift(...ids);
    if (!more) {
      // Every page but the last is full, unless it says it was cut short.
      const full = pages.slice(0, -1).filter((p) => !p.declaredShort);
      expect(full.map((p) => p.length)).toEqual(full.map(() => size));
      return { seen, short };
    }
    cursor = forward ? conn.pageInfo.endCursor : conn.pageInfo.startCursor;
  }
  throw new Error('did not finish');
}

const idsWhere = (pred: (o: (typeof mix)[number]) => boolean) =>
  mix
    .filter(pred)
    .sort((a, b) => a.i - b.i)
    .map((o) => o.id);

describe('orders in a date range', () => {
  it('answers a page with one Query on the date index, ordered by placedAt', async () => {
    const { conn, requests } = await page('mix', `first: 10, placedAfter: "${at(100)}", placedBefore: "${at(150)}"`);
    expect(conn.edges.map((e: any) => e.node.id)).toEqual(idsWhere((o) => o.i >= 100 && o.i < 110));
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 2 }); // the customer; the page; totalCount's Select: COUNT
  });

  it('includes placedAfter and excludes placedBefore, forward and backward', async () => {
    const range = `placedAfter: "${at(10)}", placedBefore: "${at(35)}"`;
    const expected = idsWhere((o) => o.i >= 10 && o.i < 35);
    expect((await walk('mix', range, 7, true)).seen).toEqual(expected);
    expect((await walk('mix', range, 7, false)).seen).toEqual(expected);
    expect((await page('mix', `first: 1, ${range}`)).conn.totalCount).toBe(25);
  });

  it('accepts an open range on either side', async () => {
    expect((await walk('mix', `placedAfter: "${at(290)}"`, 4, true)).seen).toEqual(idsWhere((o) => o.i >= 290));
    expect((await walk('mix', `placedBefore: "${at(5)}"`, 4, false)).seen).toEqual(idsWhere((o) => o.i < 5));
  });
});

describe('orders filtered by status fill their pages', () => {
  it('matching everything: full pages, one Query each', async () => {
    const { conn, requests } = await page('paid', `first: 20, status: PAID`);
    expect(conn.edges).toHaveLength(20);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.totalCount).toBe(40);
    expect(requests.byOperation.Query).toBe(2); // the page and the count
    const { seen } = await walk('paid', `status: PAID`, 20, true);
    expect(seen).toHaveLength(40);
  });

  it('matching 1 in 100: pages still full, hasNextPage exact', async () => {
    const { conn } = await page('mix', `first: 2, status: PAID`);
    expect(conn.edges.map((e: any) => e.node.id)).toEqual(idsWhere((o) => o.status === 'PAID').slice(0, 2));
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.totalCount).toBe(3);
    const rest = await page('mix', `first: 2, after: "${conn.pageInfo.endCursor}", status: PAID`);
    expect(rest.conn.edges).toHaveLength(1);
    expect(rest.conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect((await walk('mix', `status: PAID`, 2, false)).seen).toEqual(idsWhere((o) => o.status === 'PAID'));
  });

  it('matching nothing: an empty page with hasNextPage false, not a short page', async () => {
    const { conn, extensions } = await page('mix', `first: 5, status: CANCELLED`);
    expect(conn.edges).toEqual([]);
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false, endCursor: null });
    expect((extensions as any)?.shortPages).toBeUndefined();
  });

  it('combines a date range and a status', async () => {
    const range = `placedAfter: "${at(30)}", placedBefore: "${at(250)}"`;
    const expected = idsWhere((o) => o.i >= 30 && o.i < 250 && o.status === 'PLACED');
    expect((await walk('mix', `${range}, status: PLACED`, 50, true)).seen).toEqual(expected);
  });
});

describe('the read budget of a filtered page', () => {
  let small: TestGateway;
  beforeAll(async () => {
    small = await testGateway({ pageReadBudget: 1 });
    const items: Item[] = [customerItem({ id: 'mix', name: 'Mix', orderCount: N })];
    for (const o of mix) items.push(orderItem({ customerId: 'mix', id: o.id, placedAt: at(o.i), total: o.i, status: o.status }));
    await small.put(items);
  });
  afterAll(() => small.stop());

  it('returns a short page that says so, and resuming from endCursor finds every match once', async () => {
    const first = await small.counted(
      `{ customer(id: "mix") { orders(first: 3, status: PAID) { pageInfo { hasNextPage endCursor } edges { node { id } } } } }`,
    );
    expect(first.result.errors).toBeUndefined();
    const shortPages = (first.result.extensions as any)?.shortPages;
    expect(shortPages).toEqual([
      { path: ['customer', 'orders'], reason: 'READ_BUDGET', consumedReadUnits: expect.any(Number), evaluatedItems: expect.any(Number) },
    ]);
    expect(shortPages[0].evaluatedItems).toBeLessThan(N);
    expect(first.result.data.customer.orders.pageInfo).toMatchObject({ hasNextPage: true, endCursor: expect.any(String) });
    const { seen, short } = await walk('mix', `status: PAID`, 3, true, small);
    expect(seen).toEqual(idsWhere((o) => o.status === 'PAID'));
    expect(short.length).toBeGreaterThan(1);
  });

  it('refuses a totalCount that would read past the budget', async () => {
    const { result } = await small.counted(`{ customer(id: "mix") { orders(first: 1, status: PAID) { totalCount } } }`);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('argument and cursor checks of the order filters', () => {
  const refused = async (query: string) => {
    const { result, requests } = await gw.counted(query);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
    return result;
  };

  it('refuses an inverted or empty date range before any DynamoDB request', async () => {
    await refused(`{ customer(id: "mix") { orders(placedAfter: "${at(5)}", placedBefore: "${at(4)}") { edges { cursor } } } }`);
    await refused(`{ customer(id: "mix") { orders(placedAfter: "${at(5)}", placedBefore: "${at(5)}") { edges { cursor } } } }`);
  });

  it('refuses a status that is no OrderStatus value, or given as a string, in validation (before any DynamoDB request)', async () => {
    for (const status of ['""', '"PAID"', 'LOST']) {
      const { result, requests } = await gw.counted(`{ customer(id: "mix") { orders(status: ${status}) { edges { cursor } } } }`);
      expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(requests.requests).toBe(0);
    }
  });

  it('refuses a cursor issued under other filter arguments, or without them', async () => {
    const { conn } = await page('mix', `first: 1, status: PLACED`);
    const cursor = conn.pageInfo.endCursor;
    const result = await refused(`{ customer(id: "mix") { orders(first: 1, after: "${cursor}", status: PAID) { edges { cursor } } } }`);
    expect(result.errors![0].message).toMatch(/other arguments/);
    await refused(`{ customer(id: "mix") { orders(first: 1, after: "${cursor}") { edges { cursor } } } }`);
    await refused(`{ customer(id: "mix") { orders(first: 1, after: "${cursor}", status: PLACED, placedAfter: "${at(1)}") { edges { cursor } } } }`);
  });

  it('prices a status-filtered page at ten times its size', async () => {
    const { result } = await gw.counted(
      `{ customer(id: "mix") { orders(first: 100, status: PAID) { edges { node { customer { orders(first: 100) { edges { cursor } } } } } } } }`,
    );
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});
