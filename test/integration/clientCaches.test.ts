/**
 * Client caches never make two items one. A child type's id is unique only
 * within its parent (`Favourite @item(pk: "GUEST#{guest}", sk: "FAV#{id}")`,
 * the favourite named after its restaurant; the default model's parts,
 * whose ids repeat across products when given): Apollo Client's
 * InMemoryCache and urql's Graphcache, configured from the cache shape
 * `npm run schema` derives from the model (clients/apolloClient.ts,
 * clients/urqlClient.ts), answer exactly what the gateway answers over raw
 * HTTP, whether the result holds the parent's id or not. With the caches'
 * default keys (`__typename` and `id`) the same answers come back mixed:
 * what the configuration is for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { buildModel } from '../../src/declaration/buildModel.js';
import { cacheShapeOf, type CacheShape } from '../../scripts/cacheShape.js';
import { servedSchema } from '../../scripts/servedSchema.js';
import { gatewayCache } from '../../clients/apolloClient.js';
import { graphcacheOptions } from '../../clients/urqlClient.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';

const RESTAURANTS = `
type Guest @item(pk: "GUEST#{id}", sk: "META") {
  id: ID!
  name: String!
  favourites(first: Int, after: String, last: Int, before: String): FavouriteConnection! @children
}
type Restaurant @item(pk: "REST#{id}", sk: "META") {
  id: ID!
  name: String!
  fans(first: Int, after: String, last: Int, before: String): FavouriteConnection! @query(index: "GSI1")
}
"A guest's favourite restaurant, named after it: its id repeats across guests."
type Favourite @item(pk: "GUEST#{guest}", sk: "FAV#{id}") @indexed(index: "GSI1", pk: ["REST#{restaurant}"], sk: ["FAV#{guest}"]) {
  id: ID!
  guest: Guest! @parent
  restaurant: Restaurant!
  note: String
}
input CreateGuestInput { id: ID  name: String! }
input CreateRestaurantInput { id: ID  name: String! }
input AddFavouriteInput { id: ID  restaurant: ID!  note: String }
type Query {
  guest(id: ID!): Guest @get
  restaurant(id: ID!): Restaurant @get
}
type Mutation {
  createGuest(input: CreateGuestInput!): Guest! @create
  createRestaurant(input: CreateRestaurantInput!): Restaurant! @create
  addFavourite(guestId: ID!, input: AddFavouriteInput!): Favourite! @create(parent: "guestId")
}
`;

/** A restaurant's three fans, the parent's id in the result (normalised by guest and id) or not (kept in the list). */
const FANS_WITH_GUEST = `{ restaurant(id: "tasca") { id name fans(first: 10) { edges { node { id note guest { id name } } } } } }`;
const FANS = `{ restaurant(id: "tasca") { id fans(first: 10) { edges { node { id note } } } } }`;
const TWO_GUESTS = `{ ana: guest(id: "ana") { id favourites(first: 10) { edges { node { id note } } } } eva: guest(id: "eva") { id favourites(first: 10) { edges { node { id note } } } } }`;
/** The default model: parts "1" and "2" of two products. */
const PARTS = `{ bike: product(id: "bike") { id parts(first: 10) { edges { node { id name quantity } } } } cart: product(id: "cart") { id parts(first: 10) { edges { node { id name quantity product { id } } } } } }`;
const PARTS_WITH_PRODUCT = `{ cart: product(id: "cart") { id parts(first: 10) { edges { node { id name quantity product { id name } } } } } bike: product(id: "bike") { id parts(first: 10) { edges { node { id name quantity product { id name } } } } } }`;

type Fans = { restaurant: { fans: { edges: { node: { guest: { id: string } } }[] } } };

/** A result without the __typename fields the clients add. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== '__typename')
      .map(([k, v]) => [k, plain(v)]),
  );
}

/** Requests the clients sent: the second pass must answer some queries from the cache, or it tests nothing. */
let sent = 0;
const counting: typeof fetch = (input, init) => {
  sent++;
  return fetch(input, init);
};
const apollo = (url: string, cache: InMemoryCache) => new ApolloClient({ link: new HttpLink({ uri: url, fetch: counting }), cache });
const urql = (url: string, options: Parameters<typeof cacheExchange>[0]) =>
  new Client({ url, preferGetMethod: false, fetch: counting, exchanges: [cacheExchange(options), fetchExchange] });

/**
 * Each query through one client and one cache, in order, from the network; then each again as an
 * application asks (cache-first: from the cache when it holds the whole answer, else from the network).
 */
async function throughApollo(client: ApolloClient, queries: string[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  sent = 0;
  for (const query of queries) answers.push(plain((await client.query({ query: gql(query), fetchPolicy: 'network-only' })).data));
  for (const query of queries) answers.push(plain((await client.query({ query: gql(query), fetchPolicy: 'cache-first' })).data));
  client.stop();
  // The second pass answers from the cache: fewer requests than queries asked.
  expect(sent).toBeLessThan(2 * queries.length);
  return answers;
}

async function throughUrql(client: Client, queries: string[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  sent = 0;
  for (const query of queries) {
    const result = await client.query(query, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(result.error).toBeUndefined();
    answers.push(plain(result.data));
  }
  for (const query of queries) answers.push(plain((await client.query(query, {}, { requestPolicy: 'cache-first' }).toPromise()).data));
  // The second pass answers from the cache: fewer requests than queries asked.
  expect(sent).toBeLessThan(2 * queries.length);
  return answers;
}

async function raw(url: string, queries: string[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const query of queries) {
    const { json } = await postGraphQL(url, { query });
    expect(json.errors).toBeUndefined();
    answers.push(json.data);
  }
  return [...answers, ...answers];
}

describe("a child type whose ids repeat across parents (a restaurant's fans)", () => {
  let gw: TestGateway;
  let url: string;
  let shape: CacheShape;
  const queries = [FANS_WITH_GUEST, FANS, TWO_GUESTS];

  beforeAll(async () => {
    const model = buildModel(RESTAURANTS, 'restaurants.graphql');
    shape = cacheShapeOf(model, servedSchema(model));
    gw = await testGateway({ model });
    const writes = [
      'mutation { createRestaurant(input: { id: "tasca", name: "Tasca do Chico" }) { id } }',
      'mutation { createRestaurant(input: { id: "horta", name: "Horta" }) { id } }',
      ...['ana', 'bruno', 'eva'].map((id) => `mutation { createGuest(input: { id: "${id}", name: "${id.toUpperCase()}" }) { id } }`),
      ...['ana', 'bruno', 'eva'].map(
        (guest) => `mutation { addFavourite(guestId: "${guest}", input: { id: "tasca", restaurant: "tasca", note: "${guest} likes it" }) { id } }`,
      ),
      'mutation { addFavourite(guestId: "ana", input: { id: "horta", restaurant: "horta", note: "ana, the garden" }) { id } }',
    ];
    for (const write of writes) expect((await gw.run(write)).errors).toBeUndefined();
    url = await gw.listen();
  });
  afterAll(() => gw?.stop());

  it("is keyed by its parent's id and its own in the derived cache shape", () => {
    expect(shape.keys).toEqual({ Favourite: ['guest.id', 'id'] });
    expect(shape.embedded).toEqual(['FavouriteConnection', 'FavouriteEdge', 'PageInfo']);
  });

  it('answers three different fans over raw HTTP', async () => {
    const [fans] = (await raw(url, [FANS_WITH_GUEST])) as Fans[];
    expect(fans!.restaurant.fans.edges.map((e) => e.node.guest.id)).toEqual(['ana', 'bruno', 'eva']);
  });

  it("comes back from Apollo Client's cache exactly as the gateway answered, with and without the parent in the result", async () => {
    expect(await throughApollo(apollo(url, gatewayCache(shape)), queries)).toEqual(await raw(url, queries));
  });

  it("comes back from urql's Graphcache exactly as the gateway answered, with and without the parent in the result", async () => {
    expect(await throughUrql(urql(url, graphcacheOptions(shape)), queries)).toEqual(await raw(url, queries));
  });

  it('comes back mixed from both caches keyed by __typename and id alone: one fan three times', async () => {
    const expected = await raw(url, queries);
    const [byApollo] = (await throughApollo(apollo(url, new InMemoryCache()), [FANS_WITH_GUEST])) as Fans[];
    const [byUrql] = (await throughUrql(urql(url, {}), [FANS_WITH_GUEST])) as Fans[];
    for (const mixed of [byApollo!, byUrql!]) {
      expect(mixed).not.toEqual(expected[0]);
      expect(new Set(mixed.restaurant.fans.edges.map((e) => e.node.guest.id)).size).toBe(1);
    }
  });
});

describe("the default model's parts, whose ids repeat across products", () => {
  let gw: TestGateway;
  let url: string;
  const queries = [PARTS, PARTS_WITH_PRODUCT];

  beforeAll(async () => {
    gw = await testGateway();
    const writes = [
      'mutation { createProduct(input: { id: "bike", name: "Bike" }) { id } }',
      'mutation { createProduct(input: { id: "cart", name: "Cart" }) { id } }',
      'mutation { addPart(productId: "bike", input: { id: "1", name: "wheel", quantity: 2 }) { id } }',
      'mutation { addPart(productId: "bike", input: { id: "2", name: "saddle", quantity: 1 }) { id } }',
      'mutation { addPart(productId: "cart", input: { id: "1", name: "axle", quantity: 1 }) { id } }',
      'mutation { addPart(productId: "cart", input: { id: "2", name: "handle", quantity: 1 }) { id } }',
    ];
    for (const write of writes) expect((await gw.run(write)).errors).toBeUndefined();
    url = await gw.listen();
  });
  afterAll(() => gw?.stop());

  it("come back from Apollo Client's cache (the setup of clients/apolloClient.ts) exactly as the gateway answered", async () => {
    expect(await throughApollo(apollo(url, gatewayCache()), queries)).toEqual(await raw(url, queries));
  });

  it("come back from urql's Graphcache (the setup of clients/urqlClient.ts) exactly as the gateway answered", async () => {
    const { cacheShape } = await import('../../clients/api/cacheShape.js');
    expect(await throughUrql(urql(url, graphcacheOptions(cacheShape)), queries)).toEqual(await raw(url, queries));
  });

  it('come back mixed from caches keyed by __typename and id alone', async () => {
    const expected = await raw(url, queries);
    expect(await throughApollo(apollo(url, new InMemoryCache()), queries)).not.toEqual(expected);
    expect(await throughUrql(urql(url, {}), queries)).not.toEqual(expected);
  });
});
