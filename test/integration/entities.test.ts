/**
 * `_entities(representations:)` of examples/federation/shop.graphql, asked
 * as a router asks it: entities through the request's loaders (ceil(N/100)
 * BatchGetItem for N representations), answers in representation order,
 * null for a missing item, a key of a declared index one Query per distinct
 * representation, bad representations refused one by one at their index
 * with no request for them, and representations counted by the query
 * limits and the request cap like any read.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/federation/shop.graphql', import.meta.url));
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Product { id sku name } ... on Variant { id sku color product { id } } } }`;

let gw: TestGateway;
const bulk = (n: number) => `b${String(n).padStart(3, '0')}`;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  const items: Record<string, unknown>[] = [];
  for (let n = 1; n <= 150; n++) items.push({ PK: `P#${bulk(n)}`, SK: 'meta', sku: `B-${n}`, name: `Bulk ${n}`, price: n });
  items.push({ PK: 'P#p1', SK: 'meta', sku: 'DESK-1', name: 'Desk', price: 120, seller: 'u1' });
  items.push({ PK: 'P#p1', SK: 'V#oak', sku: 'oak', color: 'brown' }, { PK: 'P#p1', SK: 'V#white', sku: 'white', color: 'white' });
  await gw.put(items);
});
afterAll(() => gw?.stop());

const product = (id: string) => ({ __typename: 'Product', id });

describe('entities by their table key', () => {
  it('reads 150 representations of one type with exactly 2 BatchGetItem, in representation order', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => bulk(150 - i));
    const { result, requests } = await gw.counted(ENTITIES, { r: ids.map(product) });
    expect(result.errors).toBeUndefined();
    expect(result.data._entities.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(result.data._entities[0]).toEqual({ __typename: 'Product', id: 'b150', sku: 'B-150', name: 'Bulk 150' });
    expect(requests.byOperation).toEqual({ BatchGetItem: 2 });
  });

  it('answers null for a missing item and reads one representation with one GetItem', async () => {
    const both = await gw.counted(ENTITIES, { r: [product('nope'), product('p1')] });
    expect(both.result).toEqual({ data: { _entities: [null, { __typename: 'Product', id: 'p1', sku: 'DESK-1', name: 'Desk' }] } });
    expect(both.requests.byOperation).toEqual({ BatchGetItem: 1 });
    const one = await gw.counted(ENTITIES, { r: [product('p1')] });
    expect(one.requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('reads the same representation once', async () => {
    const { result, requests } = await gw.counted(ENTITIES, { r: [product('p1'), product('p1'), product('p1')] });
    expect(result.data._entities).toHaveLength(3);
    expect(new Set(result.data._entities.map((e: { id: string }) => e.id))).toEqual(new Set(['p1']));
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('finds a variant by its product and sku (a nested key field) in the same batch as products', async () => {
    const reps = [
      { __typename: 'Variant', product: { id: 'p1' }, sku: 'white' },
      product('b001'),
      { __typename: 'Variant', product: { id: 'p1' }, sku: 'none' },
    ];
    const { result, requests } = await gw.counted(ENTITIES, { r: reps });
    expect(result.errors).toBeUndefined();
    expect(result.data._entities).toEqual([
      { __typename: 'Variant', id: expect.any(String), sku: 'white', color: 'white', product: { id: 'p1' } },
      { __typename: 'Product', id: 'b001', sku: 'B-1', name: 'Bulk 1' },
      null,
    ]);
    expect(requests.byOperation).toEqual({ BatchGetItem: 1 });
    // The id it answers finds it again, alone.
    const again = await gw.counted(ENTITIES, { r: [{ __typename: 'Variant', id: result.data._entities[0].id }] });
    expect(again.result.errors?.[0]?.message).toMatch(/lacks the fields of a key of Variant: "product \{ id \} sku"/);
  });
});

describe('entities by the key of a declared index', () => {
  it('reads a product by its sku with one Query per distinct representation, null when none holds it', async () => {
    const reps = [
      { __typename: 'Product', sku: 'DESK-1' },
      { __typename: 'Product', sku: 'B-7' },
      { __typename: 'Product', sku: 'DESK-1' },
      { __typename: 'Product', sku: 'NONE' },
    ];
    const { result, requests } = await gw.counted(ENTITIES, { r: reps });
    expect(result.errors).toBeUndefined();
    expect(result.data._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual(['p1', 'b007', 'p1', null]);
    expect(requests.byOperation).toEqual({ Query: 3 });
  });
});

describe('bad representations', () => {
  it('are refused one by one at their index, cost no request, and leave the others answered', async () => {
    const reps = [
      product('p1'),
      { id: 'p1' },
      { __typename: 'Nope', id: 'p1' },
      { __typename: 'Product' },
      { __typename: 'Product', id: { no: 1 } },
      { __typename: 'Product', id: 'a#b' },
      { __typename: 'User', id: 'u1' },
      { __typename: 'Variant', product: 'p1', sku: 'oak' },
      'text',
      product('b002'),
    ];
    const { result, requests } = await gw.counted(ENTITIES, { r: reps });
    expect(result.data._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual(['p1', null, null, null, null, null, null, null, null, 'b002']);
    const errors = result.errors!.map((e) => [e.path, e.extensions?.code, e.message]);
    expect(errors).toEqual([
      [['_entities', 1], 'BAD_USER_INPUT', 'representations[1]: has no __typename'],
      [['_entities', 2], 'BAD_USER_INPUT', 'representations[2]: __typename "Nope" is no entity of this subgraph'],
      [['_entities', 3], 'BAD_USER_INPUT', 'representations[3]: lacks the fields of a key of Product: "id" or "sku"'],
      [['_entities', 4], 'BAD_USER_INPUT', 'representations[4]: id must be an ID'],
      [['_entities', 5], 'BAD_USER_INPUT', 'representations[5]: id must not contain "#"'],
      [['_entities', 6], 'BAD_USER_INPUT', 'representations[6]: User is found by no key here (its @key is resolvable: false)'],
      [['_entities', 7], 'BAD_USER_INPUT', 'representations[7]: lacks the fields of a key of Variant: "product { id } sku"'],
      [['_entities', 8], 'BAD_USER_INPUT', 'representations[8]: is not an object'],
    ]);
    // The two good ones, in one batch.
    expect(requests.byOperation).toEqual({ BatchGetItem: 1 });
  });

  it('refuses a key value of the wrong kind inside a nested key field', async () => {
    const { result, requests } = await gw.counted(ENTITIES, {
      r: [
        { __typename: 'Variant', product: { id: 7.5 }, sku: 'oak' },
        { __typename: 'Variant', product: { id: 'p1' }, sku: 42 },
      ],
    });
    expect(result.errors!.map((e) => e.message)).toEqual(['representations[0]: product.id must be an ID', 'representations[1]: sku must be a String']);
    expect(requests.requests).toBe(0);
  });
});

describe('many representations', () => {
  it('count in the query cost like any entity read: a page of 5 variants under each of 10,000 (6 each) is refused before any request', async () => {
    const reps = Array.from({ length: 10_000 }, (_, i) => product(`x${i}`));
    const { result, requests } = await gw.counted(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { variants(first: 5) { edges { node { sku } } } } } }`,
      { r: reps },
    );
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0]!.message).toMatch(/Query cost limit of 20000 exceeded, found 60000/);
    expect(requests.requests).toBe(0);
  });

  it('are read 100 to a BatchGetItem, and stop at the request cap like any read', async () => {
    const reps = Array.from({ length: 10_000 }, (_, i) => product(`x${i}`));
    const plain = await gw.counted(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id } } }`, { r: reps });
    expect(plain.result.errors).toBeUndefined();
    expect(plain.result.data._entities).toHaveLength(10_000);
    expect(plain.requests.byOperation).toEqual({ BatchGetItem: 100 });
    const capped = await testGateway({ schemaFile: SCHEMA_FILE, requestLimits: { maxRequests: 10, maxInFlight: 4 } });
    try {
      const stopped = await capped.counted(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id } } }`, { r: reps });
      expect(new Set(stopped.result.errors!.map((e) => e.extensions?.reason))).toEqual(new Set(['DYNAMODB_REQUEST_LIMIT']));
      expect(stopped.requests.requests).toBe(10);
    } finally {
      await capped.stop();
    }
  });
});
