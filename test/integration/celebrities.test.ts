/**
 * examples/celebrities.graphql served from its file, rules on: a
 * celebrity's followers write-sharded up to the model's own maximum (16, a
 * create asking for more refused before any request), catalogs of
 * celebrities and fans searched by the start of a name, and the access
 * rules declared beside the fields (anyone, signed in, the owner, an
 * administrator). Its subscriptions are celebritySubscriptions.test.ts's.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { shardOf } from '../support/model.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

const model = loadModel(fileURLToPath(new URL('../../examples/celebrities.graphql', import.meta.url)));
const FANS = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];

let issuer: TestIssuer;
let gw: TestGateway;
const tokens: Record<string, string> = {};

async function ok<T = any>(query: string, token = tokens.admin) {
  const result = await gw.run<T>(query, undefined, token);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  gw = await testGateway({ model, auth: testAuthenticator(issuer, {}, model).auth });
  tokens.admin = await issuer.token({ groups: ['admin'] });
  tokens.signedIn = await issuer.token({});
  for (const id of FANS) tokens[id] = await issuer.token({ fan_id: id });
  for (const [id, name] of [
    ['ada', 'Ada Lovelace'],
    ['alan', 'Alan Turing'],
    ['grace', 'Grace Hopper'],
  ])
    await ok(`mutation { createCelebrity(input: { id: "${id}", name: "${name}", shards: 16 }) { id } }`);
  for (const id of FANS) await ok(`mutation { createFan(input: { id: "${id}", name: "Fan ${id}", email: "${id}@example.com" }) { id } }`);
});
afterAll(async () => {
  await gw?.stop();
  await issuer?.stop();
});

describe("a celebrity's write-sharded followers", () => {
  it('refuses a celebrity asking for more shards than the model allows (16) as BAD_USER_INPUT, before any request', async () => {
    const { result, requests } = await gw.counted(
      `mutation { createCelebrity(input: { id: "big", name: "Too Big", shards: 17 }) { id } }`,
      undefined,
      tokens.admin,
    );
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0]!.message).toContain('16');
    expect(requests.byOperation).toEqual({});
    expect(await gw.get('CELEB#big', 'PROFILE')).toBeUndefined();
  });

  it("spreads the followers over the celebrity's 16 shards and counts every one exactly", async () => {
    for (const fan of FANS) await ok(`mutation { follow(fanId: "${fan}", celebrityId: "ada") { node { id } } }`, tokens[fan]);
    for (const fan of FANS) expect(await gw.get(`FAN#${fan}`, 'CELEB#ada')).toMatchObject({ GSI1PK: `CELEB#ada#${shardOf(fan, 16)}`, GSI1SK: `FAN#${fan}` });
    const { result, requests } = await gw.counted(
      `{ celebrity(id: "ada") { followers(first: 10) { totalCount edges { node { id } } } } }`,
      undefined,
      tokens.admin,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.celebrity.followers.totalCount).toBe(FANS.length);
    expect(result.data.celebrity.followers.edges.map((e: any) => e.node.id)).toEqual(FANS);
    // Wave 1: the celebrity and, speculatively, its unsharded partition; wave 2: its 16 shard partitions and their 16 counters in one BatchGetItem.
    expect(requests.summary()).toMatchObject({ requests: 19, byOperation: { GetItem: 1, Query: 17, BatchGetItem: 1 }, waves: 2 });
  });
});

describe('the catalogs', () => {
  it('lists celebrities by name to anyone, narrowed by the start of the name, without case', async () => {
    const all = await gw.counted(`{ celebrities(first: 10) { totalCount edges { node { name } } } }`);
    expect(all.result.errors).toBeUndefined();
    expect(all.result.data.celebrities).toEqual({
      totalCount: 3,
      edges: [{ node: { name: 'Ada Lovelace' } }, { node: { name: 'Alan Turing' } }, { node: { name: 'Grace Hopper' } }],
    });
    // The catalog's 8 shard partitions, and their 8 counters in one BatchGetItem.
    expect(all.requests.summary()).toMatchObject({ requests: 9, byOperation: { Query: 8, BatchGetItem: 1 } });
    const a = (await gw.run(`{ celebrities(first: 10, namePrefix: "a") { edges { node { id } } } }`)).data;
    expect(a.celebrities.edges.map((e: any) => e.node.id)).toEqual(['ada', 'alan']);
  });

  it('lists fans by name prefix to a signed-in caller only', async () => {
    expect(codes(await gw.run(`{ fans(first: 10) { edges { node { id } } } }`))).toEqual(['FORBIDDEN']);
    const data = await ok(`{ fans(first: 2, namePrefix: "fan f") { totalCount edges { node { id name } } } }`, tokens.signedIn);
    expect(data.fans.edges).toEqual([{ node: { id: 'f1', name: 'Fan f1' } }, { node: { id: 'f2', name: 'Fan f2' } }]);
  });
});

describe('the access rules', () => {
  it("lets a fan follow as themselves only, and read their own email but not another fan's", async () => {
    expect(codes(await gw.run(`mutation { follow(fanId: "f2", celebrityId: "alan") { node { id } } }`, undefined, tokens.f1))).toEqual(['FORBIDDEN']);
    expect(await gw.get('FAN#f2', 'CELEB#alan')).toBeUndefined();
    await ok(`mutation { follow(fanId: "f1", celebrityId: "alan") { node { id } } }`, tokens.f1);
    const own = await gw.run(`{ fan(id: "f1") { name email } }`, undefined, tokens.f1);
    expect(own).toEqual({ data: { fan: { name: 'Fan f1', email: 'f1@example.com' } } });
    const other = await gw.run(`{ fan(id: "f2") { name email } }`, undefined, tokens.f1);
    expect(other.data).toEqual({ fan: { name: 'Fan f2', email: null } });
    expect(codes(other)).toEqual(['FORBIDDEN']);
  });

  it('refuses an anonymous caller a fan and every write, and a fan a create, while anyone reads a celebrity', async () => {
    expect(codes(await gw.run(`{ fan(id: "f1") { name } }`))).toEqual(['FORBIDDEN']);
    expect(codes(await gw.run(`mutation { createCelebrity(input: { name: "Anon" }) { id } }`))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gw.run(`mutation { createCelebrity(input: { name: "Fan made" }) { id } }`, undefined, tokens.f1))).toEqual(['FORBIDDEN']);
    expect((await gw.run(`{ celebrity(id: "grace") { name } }`)).data).toEqual({ celebrity: { name: 'Grace Hopper' } });
  });
});
