/**
 * Connections over an index whose one sort attribute holds a number itself
 * (an Int field stored under its own name, typed N): items come in number
 * order (2 before 10 before 100, which text order would break), cursors
 * keep the number, so paging is exact both ways, one Query a page, on a
 * root @query, a type field's @query and @children(index:) alike.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { TEST_CURSOR_SECRET, testGateway, type TestGateway } from '../support/gateway.js';

// Created out of order; text order would be -3, 10, 100, 1000, 2, 30.
const BOOKS: [string, number][] = [
  ['b100', 100],
  ['b2', 2],
  ['b1000', 1000],
  ['b10', 10],
  ['bm3', -3],
  ['b30', 30],
];
const IN_ORDER = ['bm3', 'b2', 'b10', 'b30', 'b100', 'b1000'];

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ schemaFile: fileURLToPath(new URL('../../examples/shelves.graphql', import.meta.url)) });
  for (const id of ['s1', 's2'])
    expect((await gw.run(`mutation($i: ShelfInput!) { addShelf(input: $i) { id } }`, { i: { id, name: id } })).errors).toBeUndefined();
  for (const [id, year] of BOOKS)
    expect((await gw.run(`mutation($i: BookInput!) { addBook(input: $i) { id } }`, { i: { id, shelf: 's1', year } })).errors).toBeUndefined();
  expect((await gw.run(`mutation($i: BookInput!) { addBook(input: $i) { id } }`, { i: { id: 'other', shelf: 's2', year: 5 } })).errors).toBeUndefined();
  expect((await gw.run(`mutation { addRack(input: { id: "r1" }) { id } }`)).errors).toBeUndefined();
  for (const [id, pos] of [
    ['p100', 100],
    ['p2', 2],
    ['p10', 10],
  ] as const) {
    expect((await gw.run(`mutation($i: SlotInput!) { addSlot(rack: "r1", input: $i) { id } }`, { i: { id, pos } })).errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((e) => e.node.id);

/** Every page read `first: 2` forward, then `last: 2` backward, each checked to be one Query (and `also`, the owner's read). */
async function pageBothWays(
  query: (args: string, info: string) => string,
  pick: (data: any) => any,
  also: Record<string, number> = {},
): Promise<{ forward: string[][]; backward: string[][] }> {
  const forward: string[][] = [];
  let after: string | null = null;
  for (;;) {
    const { result, requests }: { result: any; requests: any } = await gw.counted(query('first: 2, after: $c', 'pageInfo { hasNextPage endCursor }'), {
      c: after,
    });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ Query: 1, ...also });
    const connection = pick(result.data);
    forward.push(ids(connection));
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  const backward: string[][] = [];
  let before: string | null = null;
  for (;;) {
    const { result, requests }: { result: any; requests: any } = await gw.counted(query('last: 2, before: $c', 'pageInfo { hasPreviousPage startCursor }'), {
      c: before,
    });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ Query: 1, ...also });
    const connection = pick(result.data);
    backward.push(ids(connection));
    if (!connection.pageInfo.hasPreviousPage) break;
    before = connection.pageInfo.startCursor;
  }
  return { forward, backward };
}

describe('a connection over an index whose sort attribute holds an Int itself', () => {
  it('creates the sort attribute as N and writes the number into the index at create', async () => {
    const table = await gw.dynamo.raw.send(new DescribeTableCommand({ TableName: gw.tableName }));
    const types = Object.fromEntries((table.Table?.AttributeDefinitions ?? []).map((d) => [d.AttributeName, d.AttributeType]));
    expect(types).toMatchObject({ shelf: 'S', year: 'N' });
    expect(await gw.get('BOOK#b10', 'META')).toMatchObject({ shelf: 's1', year: 10 });
  });

  it('pages a connection over a numeric sort key in number order, both ways, one Query a page', async () => {
    const { forward, backward } = await pageBothWays(
      (a, info) => `query($c: String) { byYear(shelf: "s1", ${a}) { edges { node { id year } } ${info} } }`,
      (d) => d.byYear,
    );
    expect(forward).toEqual([
      ['bm3', 'b2'],
      ['b10', 'b30'],
      ['b100', 'b1000'],
    ]);
    expect(backward).toEqual([
      ['b100', 'b1000'],
      ['b10', 'b30'],
      ['bm3', 'b2'],
    ]);
  });

  it('pages the same order under a type field @query, and the reverse order DESCENDING', async () => {
    const { forward, backward } = await pageBothWays(
      (a, info) => `query($c: String) { shelf(id: "s1") { books(${a}) { edges { node { id } } ${info} } } }`,
      (d) => d.shelf.books,
      { GetItem: 1 },
    );
    expect(forward.flat()).toEqual(IN_ORDER);
    expect(backward.reverse().flat()).toEqual(IN_ORDER);
    const latest = await pageBothWays(
      (a, info) => `query($c: String) { latest(shelf: "s1", ${a}) { edges { node { id } } ${info} } }`,
      (d) => d.latest,
    );
    expect(latest.forward.flat()).toEqual([...IN_ORDER].reverse());
    expect(latest.backward.reverse().flat()).toEqual([...IN_ORDER].reverse());
  });

  it('pages @children(index:) over a number sort key in number order, both ways, and counts them by the counter', async () => {
    const { forward, backward } = await pageBothWays(
      (a, info) => `query($c: String) { rack(id: "r1") { slots(${a}) { edges { node { id pos } } ${info} } } }`,
      (d) => d.rack.slots,
      { GetItem: 1 },
    );
    expect(forward).toEqual([['p2', 'p10'], ['p100']]);
    expect(backward).toEqual([['p10', 'p100'], ['p2']]);
    const counted = await gw.run(`{ rack(id: "r1") { slots(first: 0) { totalCount } } }`);
    expect(counted.data.rack.slots.totalCount).toBe(3);
  });

  it('reads between two cursors (after and before), dropping the bound item, in one Query, and answers the flags', async () => {
    const all = await gw.run(`{ byYear(shelf: "s1", first: 6) { edges { cursor node { id } } } }`);
    const cursors = all.data.byYear.edges.map((e: { cursor: string }) => e.cursor);
    const { result, requests } = await gw.counted(
      `query($a: String, $b: String) { byYear(shelf: "s1", first: 10, after: $a, before: $b) { edges { node { id } } } }`,
      { a: cursors[0], b: cursors[4] },
    );
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.byYear)).toEqual(['b2', 'b10', 'b30']);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const flags = await gw.counted(
      `query($a: String) { byYear(shelf: "s1", first: 1, after: $a) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }`,
      { a: cursors[1] },
    );
    expect(ids(flags.result.data.byYear)).toEqual(['b10']);
    expect(flags.result.data.byYear.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: true });
    expect(flags.requests.byOperation).toEqual({ Query: 2 });
  });

  it('refuses a signed cursor whose sort number is not a number, before any request', async () => {
    const codec = createCursorCodec({ current: TEST_CURSOR_SECRET });
    const first = await gw.run(`{ byYear(shelf: "s1", first: 1) { pageInfo { endCursor } } }`);
    const opened = codec.open(first.data.byYear.pageInfo.endCursor);
    if (!('payload' in opened)) throw new Error(opened.error);
    const payload = JSON.parse(opened.payload);
    expect(payload.k.year).toBe('-3');
    const forged = codec.seal(JSON.stringify({ ...payload, k: { ...payload.k, year: 'x' } }));
    const { result, requests } = await gw.counted(`query($c: String) { byYear(shelf: "s1", first: 1, after: $c) { edges { node { id } } } }`, { c: forged });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toContain('malformed key');
    expect(requests.requests).toBe(0);
  });

  it('counts the partition for totalCount, and reads only its own shelf', async () => {
    const { result, requests } = await gw.counted(
      `{ byYear(shelf: "s1", first: 0) { totalCount } other: byYear(shelf: "s2", first: 5) { edges { node { id year } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.byYear.totalCount).toBe(6);
    expect(result.data.other.edges).toEqual([{ node: { id: 'other', year: 5 } }]);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });
});
