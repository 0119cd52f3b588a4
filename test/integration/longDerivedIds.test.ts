/**
 * Items whose id is derived from key values long enough that the id is
 * over 128 characters (a repository named by two 60-character values, a
 * receipt with a 68-character SKU): created, read back by the id the
 * mutation returned, and deleted by their key's values; key values no key
 * can hold are refused before any request, naming the argument given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const SDL = `
type Repo @item(pk: "REPO#{owner}#{name}", sk: "META") { id: ID! owner: String! name: String! description: String }
input CreateRepoInput { owner: String! name: String! description: String }
type Query { repo(owner: String!, name: String!): Repo @get  repoById(id: ID!): Repo @get }
type Mutation {
  createRepo(input: CreateRepoInput!): Repo! @create
  deleteRepo(owner: String!, name: String!): ID! @delete(type: "Repo")
  deleteRepoById(id: ID!): ID! @delete(type: "Repo")
}
`;
const OWNER = 'o'.repeat(60);
const NAME = 'n'.repeat(60);
const TOO_LONG = 'x'.repeat(3000);
let gw: TestGateway;
let id: string;

beforeAll(async () => {
  gw = await testGateway({ model: buildModel(SDL, 'longIds.graphql') });
});
afterAll(() => gw?.stop());

describe('an item whose derived id is over 128 characters', () => {
  it('is created with one PutItem and read back by the id the mutation returned, and by its key values', async () => {
    const created = await gw.counted(`mutation($o: String!, $n: String!) { createRepo(input: { owner: $o, name: $n }) { id } }`, { o: OWNER, n: NAME });
    expect(created.result.errors).toBeUndefined();
    expect(created.requests.byOperation).toEqual({ PutItem: 1 });
    id = created.result.data.createRepo.id;
    expect(id.length).toBeGreaterThan(128);
    const byId = await gw.counted(`query($id: ID!) { repoById(id: $id) { id owner } }`, { id });
    expect(byId.result.errors).toBeUndefined();
    expect(byId.result.data.repoById).toEqual({ id, owner: OWNER });
    expect(byId.requests.byOperation).toEqual({ GetItem: 1 });
    const byKey = await gw.counted(`query($o: String!, $n: String!) { repo(owner: $o, name: $n) { id } }`, { o: OWNER, n: NAME });
    expect(byKey.result.data.repo).toEqual({ id });
  });

  it('is deleted by its key values with one DeleteItem, answering its id', async () => {
    const deleted = await gw.counted(`mutation($o: String!, $n: String!) { deleteRepo(owner: $o, name: $n) }`, { o: OWNER, n: NAME });
    expect(deleted.result.errors).toBeUndefined();
    expect(deleted.result.data.deleteRepo).toBe(id);
    expect(deleted.requests.byOperation).toEqual({ DeleteItem: 1 });
    expect(await gw.get(`REPO#${OWNER}#${NAME}`, 'META')).toBeUndefined();
  });

  it('is deleted by its id too', async () => {
    await gw.counted(`mutation($o: String!, $n: String!) { createRepo(input: { owner: $o, name: $n }) { id } }`, { o: OWNER, n: NAME });
    const deleted = await gw.counted(`mutation($id: ID!) { deleteRepoById(id: $id) }`, { id });
    expect(deleted.result.data).toEqual({ deleteRepoById: id });
    expect(deleted.requests.byOperation).toEqual({ DeleteItem: 1 });
  });
});

describe('a key value longer than any key holds', () => {
  it('is refused on @get and @delete before any request, naming the argument that holds it', async () => {
    for (const query of [
      `query($o: String!, $n: String!) { repo(owner: $o, name: $n) { id } }`,
      `mutation($o: String!, $n: String!) { deleteRepo(owner: $o, name: $n) }`,
    ]) {
      const { result, requests } = await gw.counted(query, { o: TOO_LONG, n: NAME });
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors![0]!.extensions!.argumentName).toBe('owner');
      expect(result.errors![0]!.message).toContain('owner');
      expect(requests.byOperation).toEqual({});
    }
  });

  it('is refused as an id of the type, naming the id argument, before any request', async () => {
    const { result, requests } = await gw.counted(`mutation($id: ID!) { deleteRepoById(id: $id) }`, { id: 'A'.repeat(5000) });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.extensions!.argumentName).toBe('id');
    expect(requests.byOperation).toEqual({});
  });
});
