/**
 * The Apollo Federation subgraph compatibility suite's checks, replicated
 * against examples/federation/products.graphql with its demo data: each
 * check's queries and assertions as the suite makes them, against the
 * products subgraph directly or through a supergraph of it and the suite's
 * `users` and `inventory` subgraphs (@apollo/gateway standing in for the
 * router the suite's CLI downloads). Required: introspection (`_service`),
 * `@key` (single), `@link`. The others are optional in the suite; every one
 * passes here (docs/federation.md lists them).
 */
import { fileURLToPath } from 'node:url';
import { stripIgnoredCharacters } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { compose, serviceSdl, startSubgraph, startSupergraph, type Subgraph } from '../support/federation.js';
import { INVENTORY_SUBGRAPH, schemaDifferences, USERS_SUBGRAPH } from '../support/federationCompat.js';
import { demoItemsOf } from '../../src/transport/demoData.js';
import { layoutProblems } from '../support/layoutCheck.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/federation/products.graphql', import.meta.url));

let gw: TestGateway;
let productsUrl: string;
let users: Subgraph;
let inventory: Subgraph;
let router: Awaited<ReturnType<typeof startSupergraph>>;
let sdl: string;
let normalized: string;

/** A request to the products subgraph over HTTP, as the suite sends it. */
const products = async (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  (await postGraphQL(productsUrl, { query, variables }, { accept: 'application/json', ...headers })).json;
// As a router's response arrives: JSON (a key whose value is undefined is no key).
const routed = async (query: string, variables?: Record<string, unknown>) => JSON.parse(JSON.stringify((await router.run(query, variables)).result));

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  await gw.put(demoItemsOf(SCHEMA_FILE)!);
  productsUrl = await gw.listen();
  [users, inventory] = await Promise.all([
    startSubgraph('users', USERS_SUBGRAPH.typeDefs, USERS_SUBGRAPH.resolvers),
    startSubgraph('inventory', INVENTORY_SUBGRAPH.typeDefs, INVENTORY_SUBGRAPH.resolvers),
  ]);
  const composed = await compose([
    { name: 'products', url: productsUrl },
    { name: 'users', url: users.url },
    { name: 'inventory', url: inventory.url },
  ]);
  expect(composed.errors).toBeUndefined();
  router = await startSupergraph(composed.supergraphSdl!);
  sdl = await serviceSdl(productsUrl);
  normalized = stripIgnoredCharacters(sdl);
});
afterAll(async () => {
  await router?.stop();
  await Promise.all([users?.stop(), inventory?.stop()]);
  await gw?.stop();
});

describe('the products example', () => {
  it('holds its demo data in the layout the gateway itself writes', () => {
    expect(layoutProblems(gw.plan, demoItemsOf(SCHEMA_FILE)!)).toEqual([]);
  });
});

describe('introspection (required)', () => {
  it("answers _service with the reference schema's types, fields and arguments", () => {
    expect(sdl).toContain('type Query');
    expect(schemaDifferences(sdl)).toEqual([]);
  });
});

describe('@key single (required)', () => {
  it('applies single field @key on User', () => {
    expect(normalized).toMatch(/type User(@extends|@federation__extends)?(@key|@federation__key)\(fields:"email"( resolvable:true)?\)/);
  });
  it('resolves single field @key on User', async () => {
    const resp = await products(`query ($representations: [_Any!]!) { _entities(representations: $representations) { ...on User { email name } } }`, {
      representations: [{ __typename: 'User', email: 'support@apollographql.com' }],
    });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { _entities: [{ email: 'support@apollographql.com', name: 'Jane Smith' }] } });
  });
});

describe('@key multiple', () => {
  it('applies multiple field @key on DeprecatedProduct', () => {
    expect(normalized).toMatch(/type DeprecatedProduct(@key|@federation__key)\(fields:"sku package"/);
  });
  it('resolves multiple field @key on DeprecatedProduct', async () => {
    const resp = await products(
      `query ($representations: [_Any!]!) { _entities(representations: $representations) { ...on DeprecatedProduct { sku package reason } } }`,
      {
        representations: [{ __typename: 'DeprecatedProduct', sku: 'apollo-federation-v1', package: '@apollo/federation-v1' }],
      },
    );
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({
      data: { _entities: [{ sku: 'apollo-federation-v1', package: '@apollo/federation-v1', reason: 'Migrate to Federation V2' }] },
    });
  });
});

describe('@key composite', () => {
  it('applies composite object @key on ProductResearch', () => {
    expect(normalized).toMatch(/type ProductResearch(@key|@federation__key)\(fields:"study { caseNumber }"/);
  });
  it('resolves composite object @key on ProductResearch', async () => {
    const resp = await products(
      `query ($representations: [_Any!]!) { _entities(representations: $representations) { ...on ProductResearch { study { caseNumber description } } } }`,
      {
        representations: [{ __typename: 'ProductResearch', study: { caseNumber: '1234' } }],
      },
    );
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { _entities: [{ study: { caseNumber: '1234', description: 'Federation Study' } }] } });
  });
});

describe('repeatable @key', () => {
  it('applies repeatable @key directive on Product', () => {
    expect(normalized).toMatch(/type Product.*(@key|@federation__key)\(fields:"id"( resolvable:true)?\).*\{/);
    expect(normalized).toMatch(/type Product.*(@key|@federation__key)\(fields:"sku package"( resolvable:true)?\).*variation/);
    expect(normalized).toMatch(/type Product.*(@key|@federation__key)\(fields:"sku variation { id }"( resolvable:true)?\).*\{/);
  });
  it('resolves multiple @key directives on Product', async () => {
    const resp = await products(`query ($representations: [_Any!]!) { _entities(representations: $representations) { ...on Product { id sku } } }`, {
      representations: [
        { __typename: 'Product', id: 'apollo-federation' },
        { __typename: 'Product', sku: 'federation', package: '@apollo/federation' },
        { __typename: 'Product', sku: 'studio', variation: { id: 'platform' } },
      ],
    });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({
      data: {
        _entities: [
          { id: 'apollo-federation', sku: 'federation' },
          { id: 'apollo-federation', sku: 'federation' },
          { id: 'apollo-studio', sku: 'studio' },
        ],
      },
    });
  });
});

describe('@requires', () => {
  it('should return @requires directives in _service sdl', () => {
    expect(normalized).toMatch(/averageProductsCreatedPerYear:Int(@requires|@federation__requires)\(fields:"totalProductsCreated yearsOfEmployment"\)/);
  });
  it('should return field with computed values from @requires field set', async () => {
    const resp = await routed(`query ($id: ID!) { product(id: $id) { createdBy { averageProductsCreatedPerYear email } } }`, { id: 'apollo-federation' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { product: { createdBy: { averageProductsCreatedPerYear: expect.any(Number), email: 'support@apollographql.com' } } } });
  });
});

describe('@external values in representations', () => {
  it("are the entity's values of its @external fields, beside what the model stores", async () => {
    const resp = await products(
      `query ($r: [_Any!]!) { _entities(representations: $r) { ...on User { email totalProductsCreated yearsOfEmployment averageProductsCreatedPerYear } } }`,
      {
        r: [
          { __typename: 'User', email: 'support@apollographql.com', totalProductsCreated: 10, yearsOfEmployment: 10 },
          { __typename: 'User', email: 'support@apollographql.com' },
        ],
      },
    );
    expect(resp).toEqual({
      data: {
        _entities: [
          { email: 'support@apollographql.com', totalProductsCreated: 10, yearsOfEmployment: 10, averageProductsCreatedPerYear: 134 },
          { email: 'support@apollographql.com', totalProductsCreated: 1337, yearsOfEmployment: 10, averageProductsCreatedPerYear: 134 },
        ],
      },
    });
  });
});

describe('@provides', () => {
  it('should return @provides directives in _service sdl', () => {
    expect(normalized).toMatch(/createdBy:User(@provides|@federation__provides)\(fields:"totalProductsCreated"\)/);
  });
  it('should return locally computed @provides field', async () => {
    const resp = await products(`query ($id: ID!) { product(id: $id) { createdBy { email totalProductsCreated } } }`, { id: 'apollo-federation' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { product: { createdBy: { email: 'support@apollographql.com', totalProductsCreated: expect.any(Number) } } } });
    expect(resp.data.product.createdBy.totalProductsCreated).not.toEqual(4);
  });
});

describe('ftv1', () => {
  it('answers a trace when the router asks for one', async () => {
    const resp = await products(`query { __typename }`, undefined, { 'apollo-federation-include-trace': 'ftv1' });
    expect(resp).toEqual({ data: { __typename: 'Query' }, extensions: { ftv1: expect.any(String) } });
  });
});

describe('@link (required)', () => {
  it('links one Federation spec, v2.0 to v2.7, importing only Federation names', () => {
    expect(sdl).toContain('@link');
    const links = normalized.match(/@link\(([\s\S]+?)\)/g) ?? [];
    const federation = links.filter((l) => /url:"https:\/\/specs\.apollo\.dev\/federation\/v(.+?)"/.test(l));
    expect(federation).toHaveLength(1);
    expect(/federation\/v(.+?)"/.exec(federation[0]!)![1]).toMatch(/2\.0|2\.1|2\.2|2\.3|2\.4|2\.5|2\.6|2\.7/);
    const expected = [
      '@authenticated',
      '@composeDirective',
      '@extends',
      '@external',
      '@inaccessible',
      '@interfaceObject',
      '@key',
      '@override',
      '@policy',
      '@provides',
      '@requires',
      '@requiresScopes',
      '@shareable',
      '@tag',
      'FieldSet',
      'Scope',
      'Policy',
    ];
    const imports = /import:\[(.+?)\]/
      .exec(federation[0]!)![1]!
      .split(' ')
      .map((i) => i.replaceAll('"', ''));
    for (const imported of imports) expect(expected).toContain(imported);
  });
});

describe('@shareable', () => {
  it('should return @shareable directives in _service sdl', () => {
    expect(normalized).toMatch(/type ProductDimension(@shareable|@federation__shareable)/);
  });
  it('should be able to resolve @shareable ProductDimension types', async () => {
    const resp = await routed(`query GetProduct($id: ID!) { product(id: $id) { dimensions { size weight } } }`, { id: 'apollo-federation' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { product: { dimensions: { size: 'small', weight: 1 } } } });
  });
});

describe('@tag', () => {
  it('prints @tag as imported', () => {
    expect(normalized).not.toContain('@federation__tag');
    expect(normalized).toContain('@tag(name:"internal")');
  });
});

describe('@override', () => {
  it('should return @override directives in _service sdl', () => {
    expect(normalized).toMatch(/(@override|@federation__override)\(from:"users"\)/);
  });
  it('should return overridden user name', async () => {
    const resp = await routed(`query GetProduct($id: ID!) { product(id: $id) { createdBy { name } } }`, { id: 'apollo-federation' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { product: { createdBy: { name: 'Jane Smith' } } } });
  });
});

describe('@inaccessible', () => {
  it('should return @inaccessible directives in _service sdl', () => {
    expect(normalized).not.toContain('@federation__inaccessible');
    expect(normalized).toContain('unit:String@inaccessible');
  });
  it('should be able to query @inaccessible fields via the products schema directly', async () => {
    const resp = await products(`query GetProduct($id: ID!) { product(id: $id) { dimensions { unit } } }`, { id: 'apollo-federation' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { product: { dimensions: { unit: 'kg' } } } });
  });
});

describe('@composeDirective', () => {
  it('links the custom directive, composes it on the schema, defines it and applies it to Product', () => {
    const custom = (normalized.match(/@link\(([\s\S]+?)\)/g) ?? []).filter((l) => l.includes('https://myspecs.dev/myCustomDirective/v'));
    expect(custom).toHaveLength(1);
    expect(
      /import:\[(.+?)\]/
        .exec(custom[0]!)![1]!
        .split(' ')
        .map((i) => i.replaceAll('"', '')),
    ).toEqual(['@custom']);
    expect(normalized).toMatch(/schema.*(@composeDirective|@federation__composeDirective)\(name:.*"@custom"\)/);
    expect(normalized).toMatch(/directive.*@custom on OBJECT/);
    expect(normalized).toMatch(/type Product.*@custom.*\{/);
  });
});

describe('@interfaceObject', () => {
  it('verifies schema contains entity type marked as @interfaceObject', () => {
    expect(normalized).toMatch(/type Inventory.*(@interfaceObject|@federation__interfaceObject)/);
    expect(normalized).toMatch(/type Inventory.*(@key|@federation__key)\(fields:"id"( resolvable:true)?\)/);
  });
  it('verifies @interfaceObject entity returns new fields', async () => {
    const resp = await routed(`query ($id: ID!) { inventory(id: $id) { deprecatedProducts { sku reason } } }`, { id: 'apollo-oss' });
    expect(resp).not.toHaveProperty('errors');
    expect(resp).toMatchObject({ data: { inventory: { deprecatedProducts: [{ sku: 'apollo-federation-v1', reason: 'Migrate to Federation V2' }] } } });
  });
});
