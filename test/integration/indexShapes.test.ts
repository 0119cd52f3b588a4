/**
 * Two key shapes of one type in one index, chosen by what the item holds
 * (@indexed(when:)): an original repo is in GSI2 under its own name, a
 * fork under its parent's; a create writes the shape that holds, an update
 * that sets or clears the when field moves the item to the other shape in
 * the same UpdateItem, and a read of the index maps items back to Repo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const REPOS = `
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Repo @item(pk: "REPO#{id}", sk: "META")
  @indexed(index: "GSI2", pk: ["REPO#{owner}#{name}"], sk: ["REPO#{owner}#{name}"], when: "!parentName")
  @indexed(index: "GSI2", pk: ["FORK#{parentOwner}#{parentName}"], sk: ["FORK#{owner}"], when: "parentName") {
  id: ID!
  owner: String!
  name: String!
  parentOwner: String
  parentName: String
}
type RepoConnection { edges: [RepoEdge!]! pageInfo: PageInfo! totalCount: Int! }
type RepoEdge { cursor: String! node: Repo! }
input RepoInput { id: ID owner: String! name: String! parentOwner: String parentName: String }
input RepoUpdate { owner: String name: String parentOwner: String parentName: String }
type Query {
  repo(id: ID!): Repo @get
  originals(owner: String!, name: String!, first: Int, after: String, last: Int, before: String): RepoConnection! @query(index: "GSI2")
  "The second shape: its arguments name the fork partition."
  forks(parentOwner: String!, parentName: String!, first: Int, after: String, last: Int, before: String): RepoConnection! @query(index: "GSI2")
}
type Mutation {
  createRepo(input: RepoInput!): Repo! @create
  updateRepo(id: ID!, input: RepoUpdate!): Repo! @update
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(REPOS, 'repos.graphql') });
});
afterAll(async () => gw?.stop());

const create = `mutation($i: RepoInput!) { createRepo(input: $i) { id } }`;
const update = `mutation($id: ID!, $i: RepoUpdate!) { updateRepo(id: $id, input: $i) { id parentName } }`;

describe('several key shapes of one type in one index', () => {
  it('writes an original under its own name and a fork under its parent, each in one request', async () => {
    const original = await gw.counted(create, { i: { id: 'r1', owner: 'ada', name: 'engine' } });
    expect(original.result.errors).toBeUndefined();
    const fork = await gw.counted(create, { i: { id: 'r2', owner: 'bob', name: 'engine', parentOwner: 'ada', parentName: 'engine' } });
    expect(fork.result.errors).toBeUndefined();
    expect(original.requests.byOperation).toEqual(fork.requests.byOperation);
    expect(await gw.get('REPO#r1', 'META')).toMatchObject({ GSI2PK: 'REPO#ada#engine', GSI2SK: 'REPO#ada#engine' });
    expect(await gw.get('REPO#r2', 'META')).toMatchObject({ GSI2PK: 'FORK#ada#engine', GSI2SK: 'FORK#bob' });
  });

  it('reads the index through either shape, chosen by the arguments that name its partition, as Repo items, one Query each', async () => {
    const { result, requests } = await gw.counted(`{ originals(owner: "ada", name: "engine") { edges { node { id owner } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.originals.edges.map((e: any) => e.node.id)).toEqual(['r1']);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const forks = await gw.counted(`{ forks(parentOwner: "ada", parentName: "engine") { edges { node { id owner parentName } } } }`);
    expect(forks.result.errors).toBeUndefined();
    expect(forks.result.data.forks.edges.map((e: any) => e.node)).toEqual([{ id: 'r2', owner: 'bob', parentName: 'engine' }]);
    expect(forks.requests.byOperation).toEqual({ Query: 1 });
  });

  it('moves an item to the other shape when an update sets or clears the when field, in one UpdateItem', async () => {
    const detach = await gw.counted(update, { id: 'r2', i: { parentName: null, parentOwner: null, owner: 'bob', name: 'engine' } });
    expect(detach.result.errors).toBeUndefined();
    expect(detach.requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('REPO#r2', 'META')).toMatchObject({ GSI2PK: 'REPO#bob#engine', GSI2SK: 'REPO#bob#engine' });
    const refork = await gw.counted(update, { id: 'r2', i: { parentName: 'engine', parentOwner: 'ada', owner: 'bob' } });
    expect(refork.result.errors).toBeUndefined();
    expect(await gw.get('REPO#r2', 'META')).toMatchObject({ GSI2PK: 'FORK#ada#engine', GSI2SK: 'FORK#bob' });
  });

  it('refuses, before any request, an update of a shaped key that does not say which shape holds', async () => {
    const { result, requests } = await gw.counted(update, { id: 'r2', i: { parentOwner: 'eve' } });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toContain('input.parentName');
    expect(requests.byOperation).toEqual({});
  });
});
