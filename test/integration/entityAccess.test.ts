/**
 * The authorization rules apply to `_entities` as to any read: a
 * representation is read as its type's own root field reads it (that
 * field's rule, checked before the read), and the entity's fields keep
 * their own rules. What a caller cannot read through `member(id:)` or
 * `invoice(id:)` they cannot read through a representation either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

const SDL = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
type Member @item(pk: "M#{id}", sk: "meta", claim: "member_id") @key(fields: "id") @access(rule: ANYONE) {
  id: ID!
  name: String!
  email: String @access(rule: OWNER, of: "Member", field: "id")
}
type Invoice @item(pk: "I#{id}", sk: "meta") @key(fields: "id") @access(rule: ANYONE) { id: ID!  total: Float! }
type Note @item(pk: "N#{id}", sk: "meta") @key(fields: "id") @access(rule: ANYONE) { id: ID!  text: String! }
type Query {
  member(id: ID!): Member @get @access(rule: ANYONE)
  invoice(id: ID!): Invoice @get @access(rule: SIGNED_IN)
  note(id: ID!): Note @get @access(rule: OWNER, of: "Member", argument: "id")
}
`;
const model = buildModel(SDL, 'access.graphql');
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Member { id name email } ... on Invoice { total } ... on Note { text } } }`;

let issuer: TestIssuer;
let gw: TestGateway;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  issuer = await startTestIssuer();
  gw = await testGateway({ model, auth: testAuthenticator(issuer, {}, model).auth });
  tokens.signedIn = await issuer.token({});
  tokens.m1 = await issuer.token({ member_id: 'm1' });
  await gw.put([
    { PK: 'M#m1', SK: 'meta', name: 'Mia', email: 'mia@example.com' },
    { PK: 'I#i1', SK: 'meta', total: 12.5 },
    { PK: 'N#m1', SK: 'meta', text: 'mine' },
    { PK: 'N#m2', SK: 'meta', text: 'theirs' },
  ]);
});
afterAll(async () => {
  await gw?.stop();
  await issuer?.stop();
});

const reps = [
  { __typename: 'Member', id: 'm1' },
  { __typename: 'Invoice', id: 'i1' },
  { __typename: 'Note', id: 'm1' },
  { __typename: 'Note', id: 'm2' },
];

describe('_entities under the rules', () => {
  it('refuses an anonymous caller what the root fields refuse, before reading it, and keeps field rules', async () => {
    const direct = await gw.run(`{ invoice(id: "i1") { total } note(id: "m1") { text } }`);
    expect(codes(direct)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    const { result, requests } = await gw.counted(ENTITIES, { r: reps });
    expect(result.data._entities).toEqual([{ id: 'm1', name: 'Mia', email: null }, null, null, null]);
    // Errors in path order (those refused before any read come first in the response).
    expect(result.errors!.map((e) => [e.path, e.extensions?.code]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [['_entities', 0, 'email'], 'FORBIDDEN'],
      [['_entities', 1], 'FORBIDDEN'],
      [['_entities', 2], 'FORBIDDEN'],
      [['_entities', 3], 'FORBIDDEN'],
    ]);
    // Only the member was read.
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('lets a signed-in caller read the invoice, and an owner their own note and email only', async () => {
    const { result, requests } = await gw.counted(ENTITIES, { r: reps }, tokens.m1);
    expect(result.data._entities).toEqual([{ id: 'm1', name: 'Mia', email: 'mia@example.com' }, { total: 12.5 }, { text: 'mine' }, null]);
    expect(result.errors!.map((e) => [e.path, e.extensions?.code])).toEqual([[['_entities', 3], 'FORBIDDEN']]);
    expect(requests.byOperation).toEqual({ BatchGetItem: 1 });
    const other = await gw.run(ENTITIES, { r: reps.slice(0, 2) }, tokens.signedIn);
    expect(other.data._entities).toEqual([{ id: 'm1', name: 'Mia', email: null }, { total: 12.5 }]);
  });
});
