/**
 * A many-to-many kept as one item per relationship in the guest's partition
 * (`GUEST#<guest>` / `FAV#<restaurant>`) and read back from the restaurant's
 * end through an overloaded GSI1 (`REST#<restaurant>` / `GUEST#<guest>`,
 * written on the same item, not the table's keys swapped): both sides are
 * @edges connections whose nodes are the other end, with the edge's fields,
 * one Query a page plus one BatchGetItem for the nodes' fields. Links,
 * unlinks, counters and the cascade of a deleted end are counted exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { buildModel } from '../../src/declaration/buildModel.js';
import { runCheck } from '../../src/migration/check.js';
import { codes, checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

const PAGE = 'first: Int, after: String, last: Int, before: String';
const MODEL = `
extend schema @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Guest @item(pk: "GUEST#{id}", sk: "PROFILE") {
  id: ID!
  name: String!
  favourites(${PAGE}): FavouriteConnection! @edges(pk: "GUEST#{id}", sk: "FAV#{restaurant}", counter: "favouriteCount")
}
type Restaurant @item(pk: "REST#{id}", sk: "PROFILE") {
  id: ID!
  name: String!
  fans(${PAGE}): FanConnection! @edges(inverseOf: "favourites", index: "GSI1", pk: "REST#{id}", sk: "GUEST#{guest}", counter: "fanCount")
}
type FavouriteConnection { edges: [FavouriteEdge!]! pageInfo: PageInfo! totalCount: Int! }
type FavouriteEdge { cursor: String! note: String addedAt: DateTime! @createdAt node: Restaurant! }
type FanConnection { edges: [FanEdge!]! pageInfo: PageInfo! totalCount: Int! }
type FanEdge { cursor: String! note: String addedAt: DateTime! @createdAt node: Guest! }
input GuestInput { id: ID name: String! }
input RestaurantInput { id: ID name: String! }
type Query {
  guest(id: ID!): Guest @get
  restaurant(id: ID!): Restaurant @get
}
type Mutation {
  createGuest(input: GuestInput!): Guest! @create
  createRestaurant(input: RestaurantInput!): Restaurant! @create
  deleteRestaurant(id: ID!): ID! @delete(type: "Restaurant")
  favourite(guestId: ID!, restaurantId: ID!, note: String): FavouriteEdge! @addEdge(edges: "Guest.favourites", from: "guestId", to: "restaurantId")
  unfavourite(guestId: ID!, restaurantId: ID!): Boolean! @removeEdge(edges: "Guest.favourites", from: "guestId", to: "restaurantId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  // Cascades in the request, so their requests are counted here.
  gw = await testGateway({ model: buildModel(MODEL, 'favourites.graphql'), fanOut: 'inRequest' });
  for (const [id, name] of [
    ['g1', 'Ada'],
    ['g2', 'Bob'],
    ['g3', 'Cy'],
    ['g4', 'Di'],
  ])
    expect((await gw.run(`mutation($i: GuestInput!) { createGuest(input: $i) { id } }`, { i: { id, name } })).errors).toBeUndefined();
  for (const [id, name] of [
    ['r1', 'Noma'],
    ['r2', 'Geranium'],
  ])
    expect((await gw.run(`mutation($i: RestaurantInput!) { createRestaurant(input: $i) { id } }`, { i: { id, name } })).errors).toBeUndefined();
});
afterAll(() => gw?.stop());

const favourite = (guestId: string, restaurantId: string, note: string) =>
  gw.counted(`mutation($g: ID!, $r: ID!, $n: String) { favourite(guestId: $g, restaurantId: $r, note: $n) { note node { id name } } }`, {
    g: guestId,
    r: restaurantId,
    n: note,
  });
type Page = {
  totalCount: number;
  edges: { note: string; node: { id: string; name: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string };
};

describe('an inverse side read through its own key in an overloaded index', () => {
  it('links a guest to a restaurant with one item carrying both keys, in one transaction with both counters', async () => {
    const { result, requests } = await favourite('g1', 'r1', 'tasting menu');
    expect(result.errors).toBeUndefined();
    expect(result.data.favourite).toEqual({ note: 'tasting menu', node: { id: 'r1', name: 'Noma' } });
    // Both ends read (they must exist), then the edge and the two counters.
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('GUEST#g1', 'FAV#r1')).toMatchObject({ GSI1PK: 'REST#r1', GSI1SK: 'GUEST#g1', note: 'tasting menu' });
    expect(await gw.get('GUEST#g1', 'PROFILE')).toMatchObject({ favouriteCount: 1 });
    expect(await gw.get('REST#r1', 'PROFILE')).toMatchObject({ fanCount: 1 });
    for (const [g, r] of [
      ['g2', 'r1'],
      ['g3', 'r1'],
      ['g1', 'r2'],
    ])
      expect((await favourite(g, r, `${g} likes ${r}`)).result.errors).toBeUndefined();
    const again = await favourite('g2', 'r1', 'twice');
    expect(codes(again.result)).toEqual(['CONFLICT']);
  });

  it("lists a restaurant's 3 fans as guests with the edge fields: one Query for the page, one BatchGetItem for the guests", async () => {
    const { result, requests } = await gw.counted(
      `{ restaurant(id: "r1") { name fans(first: 10) { totalCount edges { note node { id name } } pageInfo { hasNextPage } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const fans = result.data.restaurant.fans as Page;
    expect(fans.edges.map((e) => [e.node.id, e.node.name, e.note])).toEqual([
      ['g1', 'Ada', 'tasting menu'],
      ['g2', 'Bob', 'g2 likes r1'],
      ['g3', 'Cy', 'g3 likes r1'],
    ]);
    expect(fans.totalCount).toBe(3);
    expect(fans.pageInfo.hasNextPage).toBe(false);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
  });

  it('pages the fans both ways, one Query a page, and reads ids alone without the BatchGetItem', async () => {
    const first = await gw.counted(`{ restaurant(id: "r1") { fans(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } } }`);
    const page = first.result.data.restaurant.fans as Page;
    expect(page.edges.map((e) => e.node.id)).toEqual(['g1', 'g2']);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const rest = await gw.counted(
      `query($c: String) { restaurant(id: "r1") { fans(first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage } } } }`,
      {
        c: page.pageInfo.endCursor,
      },
    );
    expect((rest.result.data.restaurant.fans as Page).edges.map((e) => e.node.id)).toEqual(['g3']);
    expect(rest.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const back = await gw.counted(`{ restaurant(id: "r1") { fans(last: 2) { edges { node { id } } pageInfo { hasPreviousPage } } } }`);
    expect((back.result.data.restaurant.fans as Page).edges.map((e) => e.node.id)).toEqual(['g2', 'g3']);
    expect(back.result.data.restaurant.fans.pageInfo.hasPreviousPage).toBe(true);
    expect(back.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("lists a guest's favourites as restaurants from the guest's partition, with the edge fields", async () => {
    const { result, requests } = await gw.counted(`{ guest(id: "g1") { favourites(first: 10) { totalCount edges { note node { id name } } } } }`);
    expect(result.errors).toBeUndefined();
    expect((result.data.guest.favourites as Page).edges.map((e) => [e.node.id, e.node.name, e.note])).toEqual([
      ['r1', 'Noma', 'tasting menu'],
      ['r2', 'Geranium', 'g1 likes r2'],
    ]);
    expect(result.data.guest.favourites.totalCount).toBe(2);
    // The guest's own item sorts beside its edges: it and the page are one Query.
    expect(requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1 });
  });

  it('unlinks with one transaction, the fan gone from the index read and the counters kept', async () => {
    const { result, requests } = await gw.counted(`mutation { unfavourite(guestId: "g2", restaurantId: "r1") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    const fans = await gw.run(`{ restaurant(id: "r1") { fans(first: 10) { totalCount edges { node { id } } } } }`);
    expect((fans.data.restaurant.fans as Page).edges.map((e) => e.node.id)).toEqual(['g1', 'g3']);
    expect(fans.data.restaurant.fans.totalCount).toBe(2);
    expect(await gw.get('GUEST#g2', 'PROFILE')).toMatchObject({ favouriteCount: 0 });
  });

  it("deletes a restaurant with its fans' edges, found through the index, each guest's counter kept", async () => {
    const { result, requests } = await gw.counted(`mutation { deleteRestaurant(id: "r1") }`);
    expect(result.errors).toBeUndefined();
    // As for edges read through GSI1: the read and the mark; the index page, the guests read (one batch), each of the 2 edges
    // in a transaction with its guest's counter, the read finding the index partition empty; the restaurant.
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, Query: 2, BatchGetItem: 1, TransactWriteItems: 3 });
    expect(await gw.get('GUEST#g1', 'FAV#r1')).toBeUndefined();
    expect(await gw.get('GUEST#g3', 'FAV#r1')).toBeUndefined();
    expect(await gw.get('GUEST#g1', 'PROFILE')).toMatchObject({ favouriteCount: 1 });
    expect(await gw.get('GUEST#g3', 'PROFILE')).toMatchObject({ favouriteCount: 0 });
    const left = await gw.run(`{ guest(id: "g1") { favourites(first: 10) { edges { node { id } } } } }`);
    expect((left.data.guest.favourites as Page).edges.map((e) => e.node.id)).toEqual(['r2']);
  });
});

describe('npm run check over such edges', () => {
  it('finds none wrong as the gateway wrote them, and an edge whose index key is missing or names another restaurant', async () => {
    const options = checkOptionsOf(gw);
    expect((await runCheck(options)).found).toBe(0);
    expect((await favourite('g4', 'r2', 'late')).result.errors).toBeUndefined();
    const edit = (sk: string, expression: string, values?: Record<string, unknown>) =>
      gw.dynamo.doc.send(
        new UpdateCommand({
          TableName: gw.tableName,
          Key: { PK: sk.split('|')[0], SK: sk.split('|')[1] },
          UpdateExpression: expression,
          ExpressionAttributeValues: values,
        }),
      );
    await edit('GUEST#g1|FAV#r2', 'REMOVE GSI1PK');
    await edit('GUEST#g4|FAV#r2', 'SET GSI1SK = :v', { ':v': 'GUEST#g9' });
    const report = await runCheck(options);
    expect(report.findings.missingIndexKeys.count).toBe(1);
    expect(report.findings.missingIndexKeys.samples[0]).toMatchObject({ key: { PK: 'GUEST#g1', SK: 'FAV#r2' } });
    expect(report.findings.wrongIndexKeys.count).toBe(1);
    expect(report.findings.wrongIndexKeys.samples[0]).toMatchObject({ key: { PK: 'GUEST#g4', SK: 'FAV#r2' } });
  });
});
