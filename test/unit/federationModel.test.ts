/**
 * A model linking Apollo Federation 2: read at start-up (Federation's
 * directives under the model's names, the entities and how each key finds
 * one), refused one line per key or directive the gateway cannot serve,
 * checked by Apollo's subgraph rules, and printed as the SDL `_service`
 * answers.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { subgraphSdl } from '../../src/federation/sdl.js';
import { checkSubgraph } from '../../src/federation/validate.js';
import { problemsOf } from '../support/problems.js';

const read = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/federation/${name}`, import.meta.url)), 'utf8');
const SHOP = read('shop.graphql');
const PRODUCTS = read('products.graphql');

const lookups = (sdl: string) =>
  Object.fromEntries(
    [...buildModel(sdl, 'm.graphql').federation!.entities.values()].map((e) => [
      e.name,
      e.keys.map((k) => [k.fields, k.lookup?.kind === 'index' ? `index ${k.lookup.index}` : (k.lookup?.kind ?? 'none')]),
    ]),
  );

describe('a federated model', () => {
  it('finds each entity by the key its representations give: its id, its table key, an index, or (keyless) nothing to read', () => {
    expect(lookups(SHOP)).toEqual({
      Product: [
        ['id', 'id'],
        ['sku', 'index bySku'],
      ],
      Variant: [['product { id } sku', 'key']],
      User: [['id', 'none']],
    });
    expect(lookups(PRODUCTS)).toEqual({
      Product: [
        ['id', 'id'],
        ['sku package', 'index bySkuPackage'],
        ['sku variation { id }', 'index bySkuVariation'],
      ],
      DeprecatedProduct: [['sku package', 'key']],
      ProductResearch: [['study { caseNumber }', 'key']],
      User: [['email', 'key']],
      Inventory: [['id', 'id']],
    });
    const keyless = SHOP.replace('type User @key(fields: "id", resolvable: false)', 'type User @key(fields: "id")');
    expect(lookups(keyless).User).toEqual([['id', 'representation']]);
  });

  it("uses Federation's directives under the names it imports them by, or federation__<name>", () => {
    const renamed = SHOP.replace('import: ["@key",', 'import: [{ name: "@key", as: "@entity" },')
      .replaceAll('@key(', '@entity(')
      .replace('@tag(name: "public")', '@federation__tag(name: "public")')
      .replace('"@tag", ', '');
    expect(lookups(renamed).Product).toEqual([
      ['id', 'id'],
      ['sku', 'index bySku'],
    ]);
    const sdl = subgraphSdl(buildModel(renamed, 'm.graphql'));
    expect(sdl).toContain('type Product @entity(fields: "id") @entity(fields: "sku") {');
    expect(sdl).toContain('color: String @federation__tag(name: "public")');
  });

  it("prints _service's SDL: the model as written without the storage directives, PageInfo @shareable, extensions kept", () => {
    const sdl = subgraphSdl(buildModel(PRODUCTS, 'p.graphql'));
    expect(sdl).not.toMatch(/@(item|get|indexed|index|attribute)\b/);
    expect(sdl).toContain('extend type User @key(fields: "email") {');
    expect(sdl).toContain('extend type Query {');
    expect(sdl).toContain('research: [ProductResearch!]!\n');
    expect(sdl).toMatch(
      /^extend schema @link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.3"[^\n]*\) @link\(url: "https:\/\/myspecs\.dev\/myCustomDirective\/v1\.0", import: \["@custom"\]\) @composeDirective\(name: "@custom"\)\n/,
    );
    expect(subgraphSdl(buildModel(SHOP, 's.graphql'))).toContain('type PageInfo @shareable {');
  });

  it("passes Apollo's subgraph rules, as npm start checks them", async () => {
    await expect(checkSubgraph(buildModel(SHOP, 's.graphql'))).resolves.toBeUndefined();
    await expect(checkSubgraph(buildModel(PRODUCTS, 'p.graphql'))).resolves.toBeUndefined();
  });
});

describe('what a federated model cannot have', () => {
  it.each([
    [
      'a key no read finds',
      ['@key(fields: "sku")', '@key(fields: "name")'],
      'Product @key(fields: "name"): a Product is found by its table key "id", by "id", or by the key of an index: "sku" (bySku); key it so, or make the key resolvable: false',
    ],
    [
      'a child by its id alone',
      ['@item(pk: "P#{product}", sk: "V#{sku}") @key(fields: "product { id } sku")', '@item(pk: "P#{product}", sk: "V#{id}") @key(fields: "id")'],
      'Variant @key(fields: "id"): a Variant is found with its parent\'s id too (its key holds {product}): key it by "id product { id }", or make it inverted: true',
    ],
    [
      'a reference key field without its id',
      ['@key(fields: "product { id } sku")', '@key(fields: "product sku")'],
      'Variant @key(fields: "product sku"): Variant.product is a reference: select what makes its id, product { id }',
    ],
    [
      'a nested selection that makes no id',
      ['@key(fields: "product { id } sku")', '@key(fields: "product { name } sku")'],
      'Variant @key(fields: "product { name } sku"): { name } does not make an id of Product: select { id }',
    ],
    [
      'a keyless type found by another field',
      ['type User @key(fields: "id", resolvable: false) {\n  id: ID!', 'type User @key(fields: "name") {\n  id: ID!\n  name: String'],
      'User @key(fields: "name"): User is keyless (an id and no @item): it is found by "id" alone',
    ],
    [
      'a value type with a resolvable key',
      [
        'type User @key(fields: "id", resolvable: false) {\n  id: ID!\n}',
        'type User @key(fields: "id", resolvable: false) {\n  id: ID!\n}\ntype Stub @key(fields: "email") {\n  email: ID!\n}',
      ],
      'Stub @key(fields: "email"): Stub has no @item and no id: the gateway has nothing to find it by; make the key resolvable: false (another subgraph\'s entity, stored here as a value)',
    ],
    ['a key that does not parse', ['@key(fields: "sku")', '@key(fields: "sku {")'], 'Product @key(fields: "sku {"): does not parse: Expected Name, found "}".'],
  ])('%s: refused with one line', (_, [from, to], line) => {
    expect(SHOP).toContain(from);
    const problems = problemsOf(SHOP.replace(from!, to!));
    expect(problems).toContain(line);
    // A keyless type's other field is refused for itself too.
    expect(problems.filter((p) => p !== line && !p.startsWith('User.name'))).toEqual([]);
  });

  it("refuses @key on an interface and @fromContext, and keeps a map type's Federation directives", () => {
    const sdl = `${SHOP.replace('"@override"]', '"@override", "@fromContext"]').replace('federation/v2.7', 'federation/v2.8')}
      interface Priced @key(fields: "id") { id: ID! }
      type Query2 { x(a: String @fromContext(field: "$c { a }")): Int }`;
    expect(problemsOf(sdl)).toEqual([
      'Priced @key: is on an interface: the gateway serves an entity interface of the supergraph as an object type with @federation__interfaceObject (Federation v2.3)',
      '@fromContext: is not served: an argument is taken from the request, not from a context set by a parent type',
    ]);
  });

  it('refuses a link to a version the Apollo tools do not know, and imports the linked version lacks', () => {
    expect(problemsOf(SHOP.replace('federation/v2.7', 'federation/v3.0'))).toEqual([
      'schema @link(url): "https://specs.apollo.dev/federation/v3.0": the gateway serves Federation 2, versions v2.0 to v2.14',
    ]);
    expect(problemsOf(SHOP.replace('federation/v2.7', 'federation/v2.0').replace('"@key",', '"@key", "@interfaceObject",'))).toEqual([
      'schema @link(import): @interfaceObject is not part of Federation v2.0 (it came in v2.3)',
    ]);
  });

  it("names Federation's directives in a model that links no Federation, and still refuses @link on a mutation", () => {
    const unlinked = SHOP.replace(/extend schema\n  @link\([^)]*\)\n/, 'extend schema\n');
    expect(problemsOf(unlinked)).toContain(
      'Product: @key is Apollo Federation\'s: link Federation 2 with extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])',
    );
    const retired = SHOP.replace('@create(parent: "product")', '@link(edges: "Product.variants", from: "product", to: "sku")');
    expect(problemsOf(retired)).toEqual(['Mutation.addVariant: @link is gone: use @addEdge(edges:, from:, to:, phrase:)']);
  });

  it("refuses at start-up, one line each, what Apollo's subgraph rules refuse", async () => {
    const model = buildModel(
      SHOP.replace(
        'type User @key(fields: "id", resolvable: false) {\n  id: ID!\n}',
        'type User @key(fields: "id", resolvable: false) {\n  id: ID!\n}\ntype Other @key(fields: "id") @item(pk: "O#{id}", sk: "o") { id: ID!  a: Int  b: Int @requires(fields: "a") }',
      ),
      's.graphql',
    );
    await expect(checkSubgraph(model)).rejects.toThrow(
      /Federation: On field "Other\.b", for @requires\(fields: "a"\): field "Other\.a" should not be part of a @requires since it is already provided by this subgraph \(it is not marked @external\)$/,
    );
  });
});
