/**
 * The cache shape (scripts/cacheShape.ts) keys exactly the types whose id
 * repeats across parents, and the clients' adapters built on it
 * (clients/apolloClient.ts, clients/urqlClient.ts, clients/relay/dataId.ts)
 * give two such items two identities, or none when the result lacks their
 * parent. test/integration/clientCaches.test.ts runs the clients against a
 * gateway.
 */
import { describe, expect, it } from 'vitest';
import { gql, InMemoryCache } from '@apollo/client';
import { buildModel } from '../../src/declaration/buildModel.js';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../../src/declaration/loadModel.js';
import { cacheShapeOf, type CacheShape } from '../../scripts/cacheShape.js';
import { servedSchema } from '../../scripts/servedSchema.js';
import { typePoliciesOf } from '../../clients/apolloClient.js';
import { graphcacheOptions } from '../../clients/urqlClient.js';
import { relayDataId } from '../../clients/relay/dataId.js';

const shapeOf = (file: string) => {
  const model = loadModel(file);
  return cacheShapeOf(model, servedSchema(model));
};

const KINDS = `
"Top-level: its id alone."
type Guest @item(pk: "GUEST#{id}", sk: "META") { id: ID!  name: String!  prefs: Prefs }
"A map inside an item whose id is its own business: no identity of its own."
type Prefs { id: String  seat: String }
"A child: its id repeats across guests."
type Favourite @item(pk: "GUEST#{guest}", sk: "FAV#{id}") { id: ID!  guest: Guest! @parent  note: String }
"An inverted child: its id is claimed once, so it alone identifies the item."
type Visit @item(pk: "GUEST#{guest}", sk: "VISIT#{id}", inverted: true) { id: ID!  guest: Guest! @parent }
"A derived id: made from the whole key."
type Rating @item(pk: "GUEST#{guest}", sk: "RATING#{dish}") { id: ID!  guest: Guest! @parent  dish: String! }
"A key over a reference to a keyless type and a stored value."
type Note @item(pk: "DESK#{desk}", sk: "NOTE#{writtenAt}#{id}") { id: ID!  desk: Desk!  writtenAt: DateTime! @createdAt }
"Keyless: known by the ids that refer to it."
type Desk { id: ID! }
scalar DateTime
type Query { guest(id: ID!): Guest @get  desk(id: ID!): Desk @get }
`;

describe('the cache shape of a model', () => {
  const model = buildModel(KINDS, 'kinds.graphql');
  const shape = cacheShapeOf(model, servedSchema(model));

  it('keys a child and a type keyed by other values by every value of their key, the rest by id', () => {
    expect(shape.keys).toEqual({ Favourite: ['guest.id', 'id'], Note: ['desk.id', 'writtenAt', 'id'] });
  });

  it('keeps inside their parent the objects with no identity, a map with an id field among them, but not a keyless type', () => {
    expect(shape.embedded).toEqual(['Prefs']);
  });

  it("keys the default model's parts by product and id, and the examples' children by their parents", () => {
    expect(shapeOf(DEFAULT_SCHEMA_FILE).keys).toEqual({ Part: ['product.id', 'id'] });
    expect(shapeOf('examples/crm.graphql').keys).toEqual({ Order: ['user.id', 'id'], Contact: ['user.id', 'id'] });
    expect(shapeOf('examples/helpdesk.graphql').keys).toEqual({ Message: ['ticket.id', 'sentAt', 'id'], Watcher: ['ticket.id', 'id'] });
    expect(shapeOf('examples/library.graphql').keys).toEqual({ Copy: ['book.id', 'id'] });
  });

  it('lists connection fields with the arguments that pick another list', () => {
    expect(shapeOf(DEFAULT_SCHEMA_FILE).connections).toMatchObject({
      Customer: { orders: ['placedAfter', 'placedBefore', 'status'] },
      Query: { courses: ['titlePrefix'] },
    });
  });
});

const FAVOURITES: CacheShape = { keys: { Favourite: ['guest.id', 'id'] }, embedded: ['FavouriteConnection'], connections: {}, possibleTypes: {} };
const ana = { __typename: 'Guest', id: 'ana' };
const eva = { __typename: 'Guest', id: 'eva' };

describe("Apollo Client's cache from the shape", () => {
  it('identifies a favourite by its guest and id, and not at all without its guest', () => {
    const cache = new InMemoryCache({ typePolicies: typePoliciesOf(FAVOURITES) });
    expect(cache.identify({ __typename: 'Favourite', id: 'tasca', guest: ana })).toBe('Favourite:{"guest":{"id":"ana"},"id":"tasca"}');
    expect(cache.identify({ __typename: 'Favourite', id: 'tasca' })).toBeUndefined();
    expect(cache.identify({ __typename: 'Guest', id: 'ana' })).toBe('Guest:ana');
  });

  it('reads back two favourites of one id written under two guests, with or without the guest selected', () => {
    const cache = new InMemoryCache({ typePolicies: typePoliciesOf(FAVOURITES) });
    for (const withGuest of [true, false]) {
      const query = gql(`{ fans { __typename id note ${withGuest ? 'guest { __typename id }' : ''} } }`);
      const fans = [ana, eva].map((guest) => ({ __typename: 'Favourite', id: 'tasca', note: `${guest.id}'s`, ...(withGuest ? { guest } : {}) }));
      cache.writeQuery({ query, data: { fans } });
      expect(cache.readQuery({ query })).toEqual({ fans });
    }
  });
});

describe('Graphcache keys from the shape', () => {
  const { keys } = graphcacheOptions(FAVOURITES);

  it('keys a favourite by its guest and id, keeps it in its parent without its guest, and never keys an embedded type', () => {
    expect(keys.Favourite!({ __typename: 'Favourite', id: 'tasca', guest: ana })).toBe('["ana","tasca"]');
    expect(keys.Favourite!({ __typename: 'Favourite', id: 'tasca', guest: eva })).toBe('["eva","tasca"]');
    expect(keys.Favourite!({ __typename: 'Favourite', id: 'tasca' })).toBeNull();
    expect(keys.FavouriteConnection!({ __typename: 'FavouriteConnection' })).toBeNull();
  });
});

describe("Relay's getDataID from the shape", () => {
  const getDataID = relayDataId(FAVOURITES);

  it('takes the global id first, then the key of the shape, else Type:id; nothing for an object without identity', () => {
    expect(getDataID({ globalId: 'RmF2b3VyaXRl', id: 'tasca' }, 'Favourite')).toBe('RmF2b3VyaXRl');
    expect(getDataID({ id: 'tasca', guest: { id: 'ana' } }, 'Favourite')).toBe('Favourite:["ana","tasca"]');
    expect(getDataID({ id: 'tasca' }, 'Favourite')).toBeUndefined();
    expect(getDataID({ id: 'ana' }, 'Guest')).toBe('Guest:ana');
    expect(getDataID({}, 'FavouriteConnection')).toBeUndefined();
  });
});
