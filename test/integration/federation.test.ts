/**
 * examples/federation/shop.graphql served as an Apollo Federation 2
 * subgraph over HTTP, composed with @apollo/composition beside two
 * subgraphs written here with @apollo/subgraph (accounts: users; reviews:
 * reviews of products by users), and queried through @apollo/gateway
 * in-process: exact answers, the subgraph requests the gateway sends, and
 * the DynamoDB requests each costs the catalog, as its responses report them.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { compose, dynamoRequests, serviceSdl, startSubgraph, startSupergraph, type Subgraph } from '../support/federation.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/federation/shop.graphql', import.meta.url));

const USERS = [
  { id: 'u1', name: 'Ada' },
  { id: 'u2', name: 'Bo' },
];
const REVIEWS = [
  { id: 'r1', body: 'Sturdy', product: 'p1', author: 'u2' },
  { id: 'r2', body: 'Too heavy', product: 'p1', author: 'u1' },
  { id: 'r3', body: 'Fine', product: 'p2', author: 'u1' },
];

const ACCOUNTS = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type User @key(fields: "id") { id: ID! name: String! }
  type Query { users: [User!]! }
`;
const accountsResolvers = {
  Query: { users: () => USERS },
  User: { __resolveReference: (ref: { id: string }) => USERS.find((u) => u.id === ref.id) ?? null },
};

const REVIEWS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type Review { id: ID! body: String! author: User! product: Product! }
  type Product @key(fields: "id") { id: ID! reviews: [Review!]! }
  type User @key(fields: "id", resolvable: false) { id: ID! }
  type Query { topReviews: [Review!]! }
`;
const reviewsResolvers = {
  Query: { topReviews: () => REVIEWS },
  Review: { author: (r: { author: string }) => ({ id: r.author }), product: (r: { product: string }) => ({ id: r.product }) },
  Product: {
    __resolveReference: (ref: { id: string }) => ({ id: ref.id }),
    reviews: (p: { id: string }) => REVIEWS.filter((r) => r.product === p.id),
  },
};

let gw: TestGateway;
let catalogUrl: string;
let accounts: Subgraph;
let reviews: Subgraph;
let supergraph: Awaited<ReturnType<typeof startSupergraph>>;
let composed: Awaited<ReturnType<typeof compose>>;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  catalogUrl = await gw.listen();
  [accounts, reviews] = await Promise.all([startSubgraph('accounts', ACCOUNTS, accountsResolvers), startSubgraph('reviews', REVIEWS_SDL, reviewsResolvers)]);
  for (const [id, sku, name, price, seller] of [
    ['p1', 'DESK-1', 'Desk', 120, 'u1'],
    ['p2', 'LAMP-1', 'Lamp', 30, 'u2'],
    ['p3', 'CHAIR-1', 'Chair', 80, null],
  ] as const) {
    const result = await gw.run(`mutation($i: CreateProductInput!) { createProduct(input: $i) { id } }`, {
      i: { id, sku, name, price, cost: price / 2, seller },
    });
    expect(result.errors).toBeUndefined();
  }
  for (const [product, sku, color] of [
    ['p1', 'oak', 'brown'],
    ['p1', 'white', 'white'],
    ['p2', 'brass', 'gold'],
  ]) {
    expect((await gw.run(`mutation { addVariant(product: "${product}", input: { sku: "${sku}", color: "${color}" }) { id } }`)).errors).toBeUndefined();
  }
  composed = await compose([
    { name: 'catalog', url: catalogUrl },
    { name: 'accounts', url: accounts.url },
    { name: 'reviews', url: reviews.url },
  ]);
  expect(composed.errors).toBeUndefined();
  supergraph = await startSupergraph(composed.supergraphSdl!);
});
afterAll(async () => {
  await supergraph?.stop();
  await Promise.all([accounts?.stop(), reviews?.stop()]);
  await gw?.stop();
});

describe('the catalog composed into a supergraph', () => {
  it('answers _service with SDL that composes: its public types and federation directives, none of the storage ones', async () => {
    const sdl = await serviceSdl(catalogUrl);
    expect(sdl).toContain('extend schema @link(url: "https://specs.apollo.dev/federation/v2.7"');
    expect(sdl).toContain('type Product @key(fields: "id") @key(fields: "sku") {');
    expect(sdl).toContain('type Variant @key(fields: "product { id } sku") {');
    expect(sdl).toContain('type User @key(fields: "id", resolvable: false) {');
    expect(sdl).toContain('cost: Float @inaccessible');
    expect(sdl).toContain('type VariantConnection {');
    expect(sdl).toContain('type PageInfo @shareable {');
    for (const storage of ['@item', '@children', '@get', '@create', '@index', '@indexed']) expect(sdl).not.toContain(storage);
    expect(composed.supergraphSdl).toContain('join__type(graph: CATALOG, key: "id")');
  });

  it('joins a review list of another subgraph to its products, their variants and their authors', async () => {
    const { result, calls } = await supergraph.run(
      `{ topReviews { body author { name } product { name price variants(first: 5) { edges { node { sku color } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const desk = { name: 'Desk', price: 120, variants: { edges: [{ node: { sku: 'oak', color: 'brown' } }, { node: { sku: 'white', color: 'white' } }] } };
    const lamp = { name: 'Lamp', price: 30, variants: { edges: [{ node: { sku: 'brass', color: 'gold' } }] } };
    expect(result.data.topReviews).toEqual([
      { body: 'Sturdy', author: { name: 'Bo' }, product: desk },
      { body: 'Too heavy', author: { name: 'Ada' }, product: desk },
      { body: 'Fine', author: { name: 'Ada' }, product: lamp },
    ]);
    expect(calls.map((c) => c.subgraph).sort()).toEqual(['accounts', 'catalog', 'reviews']);
    // Two products in one BatchGetItem, each product's variants one Query.
    expect(dynamoRequests(calls, 'catalog')).toEqual({ BatchGetItem: 1, Query: 2 });
  });

  it("answers another subgraph's entity as its stub from the stored id, with no read for it", async () => {
    const { result, calls } = await supergraph.run(`{ product(id: "p1") { name seller { id name } reviews { body } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.product).toEqual({ name: 'Desk', seller: { id: 'u1', name: 'Ada' }, reviews: [{ body: 'Sturdy' }, { body: 'Too heavy' }] });
    expect(calls.map((c) => c.subgraph).sort()).toEqual(['accounts', 'catalog', 'reviews']);
    expect(dynamoRequests(calls, 'catalog')).toEqual({ GetItem: 1 });
  });
});
