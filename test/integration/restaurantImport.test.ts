/**
 * A newcomer's own table, imported: a NoSQL Workbench export of
 * restaurant reservations (4 restaurants, 8 tables, 6 guests, 18
 * reservations, 8 reviews, 8 favourites; slug ids such as `tasca-lx`; one
 * GSI overloaded by three types) goes through `npm run import`, and the
 * draft it writes is served as it is with its demo data: the model starts,
 * `npm run check` finds nothing on its own samples, and the design's access
 * patterns are answered with exact DynamoDB requests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { runCheck } from '../../src/migration/check.js';
import { demoItemsOf } from '../../src/transport/demoData.js';
import { main } from '../../scripts/import.js';
import { checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

const EXPORT = fileURLToPath(new URL('../fixtures/RestaurantReservations.json', import.meta.url));

type Connection<N> = { edges: { node: N }[] };
const nodes = <N>(c: Connection<N>): N[] => c.edges.map((e) => e.node);

describe('npm run import of a restaurant-reservations export with slug ids and an overloaded GSI', () => {
  let gw: TestGateway;
  let printed: string[];
  let sdl: string;
  beforeAll(async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'restaurants-')), 'restaurants.graphql');
    printed = [];
    const code = main([EXPORT, '--out', out], { out: (l) => printed.push(l), err: (l) => printed.push(l) });
    expect(code).toBe(0);
    sdl = readFileSync(out, 'utf8');
    gw = await testGateway({ model: buildModel(sdl, out) });
    await gw.put(demoItemsOf(out) as Item[]);
  });
  afterAll(() => gw?.stop());

  it('drafts one type per facet, no TODO, and says it passes the model check', () => {
    expect(printed[0]).toMatch(
      /restaurants\.graphql: 6 types \(Restaurant, Guest, DiningTable, Reservation, Review, Favourite\), 1 indexes \(GSI1\), 0 TODO comments; passes the model check$/,
    );
    expect(printed[1]).toMatch(/restaurants\.demo\.json: 52 sample items$/);
  });

  it('finds the ids in the slugs and declares the overloaded GSI as templates, a partition named by a reference read from the referred type', () => {
    expect(sdl).toContain('type Restaurant @item(pk: "REST#{id}", sk: "META") @indexed(index: "GSI1", pk: ["CITY#{city}"], sk: ["REST#{id}"]) {');
    expect(sdl).toContain('type DiningTable @item(pk: "REST#{restaurant}", sk: "TABLE#{id}") {');
    expect(sdl).toContain(
      'type Reservation @item(pk: "REST#{restaurant}", sk: "RES#{date}#{id}") @indexed(index: "GSI1", pk: ["GUEST#{guestId}"], sk: ["RES#{date}"]) {',
    );
    expect(sdl).toContain(
      'type Favourite @item(pk: "GUEST#{guest}", sk: "FAV#{id}") @indexed(index: "GSI1", pk: ["REST#{restaurantId}"], sk: ["FAV#{guest}"]) {',
    );
    expect(sdl).toContain('  favourites(first: Int, after: String, last: Int, before: String): FavouriteConnection! @query(index: "GSI1")');
    expect(sdl).not.toMatch(/^\s*# TODO|gateway keeps for itself/m);
  });

  it('passes npm run check on its own samples: every item of a type, every index key as its template gives it', async () => {
    const report = await runCheck(checkOptionsOf(gw));
    expect(report.found, JSON.stringify(report.findings)).toBe(0);
    expect(report.scanned).toBe((await gw.scan()).length);
  });

  it('a restaurant by its id: one GetItem', async () => {
    const { result, requests } = await gw.counted('{ restaurant(id: "tasca-lx") { id name city cuisine } }');
    expect(result).toEqual({ data: { restaurant: { id: 'tasca-lx', name: 'Tasca do Chico', city: 'lisbon', cuisine: 'fado' } } });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('the restaurants of a city: one Query of GSI1, by the restaurant id', async () => {
    const { result, requests } = await gw.counted('{ restaurantsByGsi1(city: "lisbon", first: 10) { edges { node { id name } } } }');
    expect(nodes(result.data.restaurantsByGsi1)).toEqual([
      { id: 'mar-azul', name: 'Mar Azul' },
      { id: 'tasca-lx', name: 'Tasca do Chico' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("a restaurant's tables and its reservations by date: one Query each (no field of the restaurant itself is read)", async () => {
    const { result, requests } = await gw.counted(`{ restaurant(id: "mar-azul") {
      diningTables(first: 10) { edges { node { id seats } } }
      reservations(first: 2) { edges { node { id date partySize guestId { id } } } pageInfo { hasNextPage } }
    } }`);
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.restaurant.diningTables)).toEqual([
      { id: 'terrace', seats: 4 },
      { id: 'window', seats: 2 },
    ]);
    expect(nodes(result.data.restaurant.reservations)).toEqual([
      { id: 'duarte-lunch', date: '2026-05-01T13:00', partySize: 3, guestId: { id: 'duarte-reis' } },
      { id: 'ana-seafood', date: '2026-05-03T20:00', partySize: 2, guestId: { id: 'ana-silva' } },
    ]);
    expect(result.data.restaurant.reservations.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it("a guest's reservations through GSI1, each with its restaurant's name: GetItem, one Query, one BatchGetItem", async () => {
    const { result, requests } = await gw.counted(
      '{ guest(id: "ana-silva") { name reservations(first: 10) { edges { node { date status restaurant { name } } } } } }',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.guest.name).toBe('Ana Silva');
    expect(nodes(result.data.guest.reservations)).toEqual([
      { date: '2026-05-01T19:30', status: 'confirmed', restaurant: { name: 'Tasca do Chico' } },
      { date: '2026-05-03T20:00', status: 'confirmed', restaurant: { name: 'Mar Azul' } },
      { date: '2026-05-05T12:00', status: 'confirmed', restaurant: { name: 'Horta' } },
      { date: '2026-05-15T19:00', status: 'pending', restaurant: { name: 'Tasca do Chico' } },
    ]);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
  });

  it("the many-to-many both ways: a guest's favourite restaurants, and a restaurant's fans through GSI1, names batched", async () => {
    const favourites = await gw.counted('{ guest(id: "ana-silva") { favourites(first: 10) { edges { node { id addedAt restaurantId { name } } } } } }');
    expect(nodes(favourites.result.data.guest.favourites)).toEqual([
      { id: 'horta-braga', addedAt: '2026-04-20', restaurantId: { name: 'Horta' } },
      { id: 'tasca-lx', addedAt: '2026-04-02', restaurantId: { name: 'Tasca do Chico' } },
    ]);
    expect(favourites.requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1 });
    const fans = await gw.counted('{ restaurant(id: "tasca-lx") { name favourites(first: 10) { edges { node { addedAt guest { id name } } } } } }');
    expect(fans.result.errors).toBeUndefined();
    expect(nodes(fans.result.data.restaurant.favourites)).toEqual([
      { addedAt: '2026-04-02', guest: { id: 'ana-silva', name: 'Ana Silva' } },
      { addedAt: '2026-04-05', guest: { id: 'bruno-costa', name: 'Bruno Costa' } },
      { addedAt: '2026-04-12', guest: { id: 'eva-matos', name: 'Eva Matos' } },
    ]);
    expect(fans.requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
  });

  it("a restaurant's reviews with their guests' names, and one reservation by its key: exact requests", async () => {
    const reviews = await gw.counted('{ restaurant(id: "horta-braga") { reviews(first: 10) { edges { node { rating comment guestId { name } } } } } }');
    expect(nodes(reviews.result.data.restaurant.reviews)).toEqual([
      { rating: 5, comment: 'Everything from the garden.', guestId: { name: 'Ana Silva' } },
      { rating: 4, comment: 'Quiet and kind.', guestId: { name: 'Filipe Sousa' } },
    ]);
    // The restaurant's reservations sort between it (META) and its reviews, without bound: the restaurant is read
    // beside the page (a GetItem at the same time), never through them.
    expect(reviews.requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
    const one = await gw.counted('{ reservation(restaurantId: "casa-porto", date: "2026-05-10T20:30", id: "duarte-derby") { status partySize tableId } }');
    expect(one.result).toEqual({ data: { reservation: { status: 'cancelled', partySize: 4, tableId: 'balcony' } } });
    expect(one.requests.byOperation).toEqual({ GetItem: 1 });
  });
});
