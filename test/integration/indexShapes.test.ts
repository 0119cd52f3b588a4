/**
 * Two key shapes of one type in one index, chosen by what the item holds
 * (@indexed(when:)): an original repo is in GSI2 under its own name, a
 * fork under its parent's; a create writes the shape that holds, an update
 * that sets or clears the when field moves the item to the other shape in
 * the same UpdateItem, and a read of the index maps items back to Repo.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ schemaFile: fileURLToPath(new URL('../../examples/repos.graphql', import.meta.url)) });
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
