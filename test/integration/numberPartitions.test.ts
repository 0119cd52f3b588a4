/**
 * A root @query over an index whose partition attribute holds a number
 * itself (an Int or Float field stored under its own name, typed N): the
 * table is created with the attribute N, a created item lands in the index
 * with its number, the read names the partition by the argument's number,
 * and cursors carry the number's position, so page 2 starts where page 1
 * ended, both ways. Every page is one Query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { buildModel } from '../../src/declaration/buildModel.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { TEST_CURSOR_SECRET, testGateway, type TestGateway } from '../support/gateway.js';

const SHELVES = `
extend schema
  @index(name: "byShelf", pk: ["shelfKey", "row"], sk: ["title"])
  @index(name: "byWeight", pk: ["weight"], sk: ["title"])
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Book @item(pk: "BOOK#{id}", sk: "META")
  @indexed(index: "byShelf", pk: ["S#{shelf}", "{row}"], sk: ["{title}"])
  @indexed(index: "byWeight") {
  id: ID!
  title: String!
  shelf: String!
  row: Int!
  weight: Float
}
type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! totalCount: Int! }
type BookEdge { cursor: String! node: Book! }
input ShelveInput { id: ID title: String! shelf: String! row: Int! weight: Float }
type Query {
  book(id: ID!): Book @get
  shelved(shelf: String!, row: Int!, first: Int, after: String, last: Int, before: String): BookConnection! @query(index: "byShelf")
  weighing(weight: Float!, first: Int, after: String, last: Int, before: String): BookConnection! @query(index: "byWeight")
}
type Mutation { shelve(input: ShelveInput!): Book! @create }
`;

const ROW_ONE = ['t01', 't02', 't03', 't04', 't05', 't06', 't07'];

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(SHELVES, 'shelves.graphql') });
  const shelve = async (id: string, shelf: string, row: number, weight: number | null) => {
    const created = await gw.run(`mutation($i: ShelveInput!) { shelve(input: $i) { id } }`, { i: { id, title: `title ${id}`, shelf, row, weight } });
    expect(created.errors).toBeUndefined();
  };
  // Created out of order: the index orders them by title.
  for (const id of [...ROW_ONE].reverse()) await shelve(id, 'a', 1, id <= 't03' ? 2.5 : null);
  await shelve('t08', 'a', 2, 2.5);
  await shelve('t09', 'a', 11, 0.5);
  await shelve('t10', 'b', 1, null);
});
afterAll(() => gw?.stop());

const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((e) => e.node.id);
const titles = (list: string[]) => list.map((id) => ({ node: { id, title: `title ${id}` } }));

describe('an index whose partition attribute holds an Int itself', () => {
  it('creates the attribute as N and writes the number into the index at create', async () => {
    const table = await gw.dynamo.raw.send(new DescribeTableCommand({ TableName: gw.tableName }));
    const types = Object.fromEntries((table.Table?.AttributeDefinitions ?? []).map((d) => [d.AttributeName, d.AttributeType]));
    expect(types).toMatchObject({ shelfKey: 'S', row: 'N', weight: 'N', title: 'S' });
    expect(await gw.get('BOOK#t08', 'META')).toMatchObject({ shelfKey: 'S#a', row: 2, weight: 2.5 });
  });

  it('pages a @query whose index partition is an Int attribute, both ways, exactly, one Query a page', async () => {
    const forward: string[][] = [];
    let after: string | null = null;
    for (;;) {
      const { result, requests }: { result: any; requests: any } = await gw.counted(
        `query($after: String) { shelved(shelf: "a", row: 1, first: 2, after: $after) { edges { node { id title } } pageInfo { hasNextPage endCursor } } }`,
        { after },
      );
      expect(result.errors).toBeUndefined();
      expect(requests.byOperation).toEqual({ Query: 1 });
      forward.push(ids(result.data.shelved));
      expect(result.data.shelved.edges).toEqual(titles(forward[forward.length - 1]!));
      if (!result.data.shelved.pageInfo.hasNextPage) break;
      after = result.data.shelved.pageInfo.endCursor;
    }
    expect(forward).toEqual([['t01', 't02'], ['t03', 't04'], ['t05', 't06'], ['t07']]);

    const backward: string[][] = [];
    let before: string | null = null;
    for (;;) {
      const { result, requests }: { result: any; requests: any } = await gw.counted(
        `query($before: String) { shelved(shelf: "a", row: 1, last: 2, before: $before) { edges { node { id title } } pageInfo { hasPreviousPage startCursor } } }`,
        { before },
      );
      expect(result.errors).toBeUndefined();
      expect(requests.byOperation).toEqual({ Query: 1 });
      backward.push(ids(result.data.shelved));
      if (!result.data.shelved.pageInfo.hasPreviousPage) break;
      before = result.data.shelved.pageInfo.startCursor;
    }
    expect(backward).toEqual([['t06', 't07'], ['t04', 't05'], ['t02', 't03'], ['t01']]);
  });

  it('reads between two cursors of the partition (after and before), dropping the bound item, in one Query', async () => {
    const page = await gw.run(`{ shelved(shelf: "a", row: 1, first: 7) { edges { cursor node { id } } } }`);
    const cursors = page.data.shelved.edges.map((e: { cursor: string }) => e.cursor);
    const { result, requests } = await gw.counted(
      `query($a: String, $b: String) { shelved(shelf: "a", row: 1, first: 10, after: $a, before: $b) { edges { node { id } } } }`,
      { a: cursors[1], b: cursors[5] },
    );
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.shelved)).toEqual(['t03', 't04', 't05']);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads only the partition of that number and shelf (2 and 11 are other partitions, not text prefixes)', async () => {
    const { result, requests } = await gw.counted(
      `{ two: shelved(shelf: "a", row: 2, first: 5) { edges { node { id } } } eleven: shelved(shelf: "a", row: 11, first: 5) { edges { node { id } } } other: shelved(shelf: "b", row: 1, first: 5) { edges { node { id } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect([ids(result.data.two), ids(result.data.eleven), ids(result.data.other)]).toEqual([['t08'], ['t09'], ['t10']]);
    expect(requests.byOperation).toEqual({ Query: 3 });
  });

  it('counts the partition for totalCount', async () => {
    const { result, requests } = await gw.counted(`{ shelved(shelf: "a", row: 1, first: 0) { totalCount } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.shelved.totalCount).toBe(7);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("refuses a cursor of one row for another with the contract's cursor error, before any request", async () => {
    const first = await gw.run(`{ shelved(shelf: "a", row: 1, first: 1) { pageInfo { endCursor } } }`);
    const cursor = first.data.shelved.pageInfo.endCursor as string;
    const { result, requests } = await gw.counted(`query($c: String) { shelved(shelf: "a", row: 2, first: 1, after: $c) { edges { node { id } } } }`, {
      c: cursor,
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toContain('is not a valid cursor for Query.shelved');
    expect(requests.requests).toBe(0);
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}${cursor.slice(-1)}`;
    const refused = await gw.run(`query($c: String) { shelved(shelf: "a", row: 1, first: 1, after: $c) { edges { node { id } } } }`, { c: tampered });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a signed cursor of the partition whose number attribute is not a number, before any request', async () => {
    const codec = createCursorCodec({ current: TEST_CURSOR_SECRET });
    const first = await gw.run(`{ shelved(shelf: "a", row: 1, first: 1) { pageInfo { endCursor } } }`);
    const opened = codec.open(first.data.shelved.pageInfo.endCursor);
    if (!('payload' in opened)) throw new Error(opened.error);
    const payload = JSON.parse(opened.payload);
    expect(payload.k.row).toBe('1');
    const forged = codec.seal(JSON.stringify({ ...payload, k: { ...payload.k, row: 'x' } }));
    const { result, requests } = await gw.counted(`query($c: String) { shelved(shelf: "a", row: 1, first: 1, after: $c) { edges { node { id } } } }`, {
      c: forged,
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toContain('malformed key');
    expect(requests.requests).toBe(0);
  });
});

describe('an index whose partition attribute is a Float itself', () => {
  it('pages the books of one weight both ways, one Query a page, and leaves out books without one', async () => {
    const first = await gw.counted(`{ weighing(weight: 2.5, first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`);
    expect(first.result.errors).toBeUndefined();
    expect(ids(first.result.data.weighing)).toEqual(['t01', 't02']);
    expect(first.requests.byOperation).toEqual({ Query: 1 });
    const next = await gw.counted(
      `query($c: String) { weighing(weight: 2.5, first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage startCursor } } }`,
      {
        c: first.result.data.weighing.pageInfo.endCursor,
      },
    );
    expect(ids(next.result.data.weighing)).toEqual(['t03', 't08']);
    expect(next.result.data.weighing.pageInfo.hasNextPage).toBe(false);
    expect(next.requests.byOperation).toEqual({ Query: 1 });
    const back = await gw.counted(`query($c: String) { weighing(weight: 2.5, last: 2, before: $c) { edges { node { id } } pageInfo { hasPreviousPage } } }`, {
      c: next.result.data.weighing.pageInfo.startCursor,
    });
    expect(ids(back.result.data.weighing)).toEqual(['t01', 't02']);
    expect(back.result.data.weighing.pageInfo.hasPreviousPage).toBe(false);
    expect(back.requests.byOperation).toEqual({ Query: 1 });
  });
});
