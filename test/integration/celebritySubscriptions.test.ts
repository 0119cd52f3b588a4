/**
 * The subscriptions of examples/celebrities.graphql end to end, as `npm
 * start` serves that file: a celebrity's followers, written in the shard of
 * each fan, and the celebrity itself reach their subscribers from the
 * table's stream. "Once each" is checked with a fence: a later change is
 * awaited, and everything before it has arrived.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { localEndpoint, postGraphQL } from '../support/gateway.js';
import { AUDIENCE, startTestIssuer, type TestIssuer } from '../support/oidc.js';
import { untilOpen, wsClient, type WsClient } from '../support/subscriptions.js';

const tableName = `celebs_${randomUUID().slice(0, 8)}`;
let issuer: TestIssuer;
let gateway: Gateway;
let url: string;
const tokens: Record<string, string> = {};
const clients: WsClient[] = [];

const connect = (token?: string) => {
  const c = wsClient(url, token);
  clients.push(c);
  return c;
};

const gql = async (query: string, token = tokens.admin!) => {
  const { json } = await postGraphQL(url, { query }, { authorization: `Bearer ${token}` });
  expect(json.errors).toBeUndefined();
  return json.data;
};

beforeAll(async () => {
  issuer = await startTestIssuer();
  gateway = await startGateway(
    loadConfig({
      SCHEMA_FILE: fileURLToPath(new URL('../../examples/celebrities.graphql', import.meta.url)),
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: issuer.url,
      AUTH_AUDIENCE: AUDIENCE,
      STREAM_POLL_MS: '20',
      LOG_LEVEL: 'silent',
    }),
    silentLogger,
  );
  url = gateway.url;
  tokens.admin = await issuer.token({ groups: ['admin'] });
  tokens.f1 = await issuer.token({ fan_id: 'f1' });
  tokens.f2 = await issuer.token({ fan_id: 'f2' });
  await gql('mutation { createCelebrity(input: { id: "ada", name: "Ada Lovelace", shards: 16 }) { id } }');
  for (const id of ['f1', 'f2']) await gql(`mutation { createFan(input: { id: "${id}", name: "Fan ${id}" }) { id } }`);
  await gateway.stream.reader!.caughtUp();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose().catch(() => {})));
  await untilOpen(url, { connections: 0, subscriptions: 0 });
});

afterAll(async () => {
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
  await issuer?.stop();
});

describe("the celebrities example's subscriptions", () => {
  it("delivers each follow and unfollow, written in the fan's shard, to the celebrity's followers once each, in order", async () => {
    const c = connect(tokens.f1);
    const w = c.watch('subscription { celebrityFollowersChanged(celebrityId: "ada") { kind fanId edge { node { id } } } }');
    await untilOpen(url, { subscriptions: 1 });
    await gql('mutation { follow(fanId: "f1", celebrityId: "ada") { followedAt } }', tokens.f1);
    await gql('mutation { follow(fanId: "f2", celebrityId: "ada") { followedAt } }', tokens.f2);
    await gql('mutation { unfollow(fanId: "f1", celebrityId: "ada") }', tokens.f1);
    await gql('mutation { follow(fanId: "f1", celebrityId: "ada") { followedAt } }', tokens.f1); // the fence
    const messages = await w.untilCount(4);
    expect(messages.map((m) => m.data.celebrityFollowersChanged)).toEqual([
      { kind: 'ADDED', fanId: 'f1', edge: { node: { id: 'f1' } } },
      { kind: 'ADDED', fanId: 'f2', edge: { node: { id: 'f2' } } },
      { kind: 'REMOVED', fanId: 'f1', edge: null },
      { kind: 'ADDED', fanId: 'f1', edge: { node: { id: 'f1' } } },
    ]);
  });

  it('delivers a change of the celebrity to an anonymous subscriber, as anyone may read a celebrity', async () => {
    const c = connect();
    const w = c.watch('subscription { celebrityChanged(id: "ada") { id name } }');
    await untilOpen(url, { subscriptions: 1 });
    await gateway.dynamo.doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: 'CELEB#ada', SK: 'PROFILE' },
        UpdateExpression: 'SET #n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'Ada King' },
      }),
    );
    const [message] = await w.untilCount(1);
    expect(message!.data).toEqual({ celebrityChanged: { id: 'ada', name: 'Ada King' } });
  });
});
