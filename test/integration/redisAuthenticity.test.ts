/**
 * Redis as a carrier, not an authority: with REDIS_EVENT_SECRET set, the
 * events a gateway's processor publishes are signed, and a gateway drops
 * (and counts) any message that does not verify: a forged event with a
 * huge sequence number, one signed with another secret, one replayed onto
 * another channel, a genuine one replayed a minute later. The next genuine
 * event is still delivered, in order. Redis runs with a password, as
 * docker-compose.yml runs it, and carries no field only some subscribers
 * may read (a student's email, a customer's email and orders, on an
 * object's topic and on a connection's): the subscriber allowed them
 * still receives them, read from the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { signedMessage } from '../../src/subscriptions/redisBus.js';
import { courseItem, customerItem, orderItem, studentItem } from '../support/defaultItems.js';
import { localEndpoint } from '../support/gateway.js';
import { liveDetails, startRedis, untilOpen, wsClient, type RedisServer, type WsClient } from '../support/subscriptions.js';
import { until } from '../support/patience.js';

const SECRET = 'redis-event-secret-0123456789abcdefghijklmnop';
const tableName = `redisauth_${randomUUID().slice(0, 8)}`;
const channel = `changes:${tableName}:Course#c1`;
let redis: RedisServer;
let publisher: Redis;
let gateway: Gateway;
let client: WsClient;

beforeAll(async () => {
  redis = await startRedis({ password: 'compose-like-password-0123456789' });
  publisher = new Redis(redis.url);
  gateway = await startGateway(
    loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      STREAM_POLL_MS: '100',
      LOG_LEVEL: 'silent',
      REDIS_URL: redis.url,
      REDIS_EVENT_SECRET: SECRET,
    }),
    silentLogger,
  );
  await batchPut(gateway.dynamo.doc, tableName, [
    courseItem({ id: 'c1', title: 'Engines' }),
    studentItem({ id: 's1', name: 'Ada', email: 'ada@example.com' }),
    customerItem({ id: 'cu1', name: 'Grace', email: 'grace@example.com' }),
  ]);
  await gateway.stream.reader!.caughtUp();
});

afterAll(async () => {
  await client?.dispose().catch(() => {});
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
  publisher?.disconnect();
  await redis?.stop();
});

const retitle = (title: string) =>
  gateway.dynamo.doc.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: 'COURSE#c1', SK: 'PROFILE' },
      UpdateExpression: 'SET title = :t',
      ExpressionAttributeValues: { ':t': title },
    }),
  );

describe('events on Redis authenticated with REDIS_EVENT_SECRET', () => {
  it('refuses to start in production with REDIS_URL and no REDIS_EVENT_SECRET', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', AUTH_MODE: 'off', CURSOR_SECRET: SECRET, REDIS_URL: redis.url }),
    ).toThrow(/REDIS_EVENT_SECRET is required/);
  });

  it("keeps the callers' budgets of DynamoDB requests in the same Redis, one bucket per caller for every instance", async () => {
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ course(id: "c1") { title } }' }),
    });
    expect(((await res.json()) as any).data.course.title).toBe('Engines');
    expect(await publisher.keys(`budget:${tableName}:*`)).toEqual([`budget:${tableName}:addr:127.0.0.1`]);
    expect(Number(await publisher.hget(`budget:${tableName}:addr:127.0.0.1`, 't'))).toBeLessThan(10_000);
  });

  it('drops forged, foreign-signed and misdirected messages, counts them, and still delivers the next genuine event', async () => {
    const url = gateway.url;
    client = wsClient(url);
    const w = client.watch('subscription { courseChanged(id: "c1") { title } }');
    await untilOpen(url, { subscriptions: 1 });
    const before = (await liveDetails(url)).rejected;

    const forged = JSON.stringify({
      topic: 'Course#c1',
      item: 'c1',
      seq: '9'.repeat(40),
      kind: 'UPDATED',
      image: { PK: 'COURSE#c1', SK: 'PROFILE', id: 'c1', title: 'Forged' },
    });
    // Unsigned, signed with another secret, and signed for another channel then sent here.
    expect(await publisher.publish(channel, forged)).toBe(1);
    expect(await publisher.publish(channel, signedMessage('another-secret-0123456789abcdefghijklmno', channel, forged))).toBe(1);
    expect(await publisher.publish(channel, signedMessage(SECRET, `changes:${tableName}:Course#c2`, forged))).toBe(1);
    // A message in order behind them: the genuine event, published by the gateway's own processor.
    await retitle('Engines II');
    const [message] = await w.untilCount(1);
    expect(message!.data).toEqual({ courseChanged: { title: 'Engines II' } });
    expect(w.messages.every((m) => m.data.courseChanged.title !== 'Forged')).toBe(true);
    expect((await liveDetails(url)).rejected - before).toBe(3);
  });

  it('drops a genuine message replayed, whether at once (its sequence number was delivered) or after a minute (too old), and delivers the next', async () => {
    const url = gateway.url;
    const captured: string[] = [];
    const listener = new Redis(redis.url);
    await listener.subscribe(channel);
    listener.on('message', (_channel: string, message: string) => captured.push(message));
    const c = wsClient(url);
    const w = c.watch('subscription { courseChanged(id: "c1") { title } }');
    await untilOpen(url, { subscriptions: 2 });
    await retitle('Engines III');
    await w.untilCount(1);
    const genuine = captured.at(-1)!;
    const json = genuine.slice(genuine.indexOf('.', genuine.indexOf('.') + 1) + 1);
    const before = await liveDetails(url);
    // The same bytes again, and the same event signed as sent two minutes ago with a sequence number far ahead
    // (each received by the gateway and by this test's listener).
    expect(await publisher.publish(channel, genuine)).toBe(2);
    const ahead = JSON.stringify({ ...JSON.parse(json), seq: '9'.repeat(40) });
    expect(await publisher.publish(channel, signedMessage(SECRET, channel, ahead, Date.now() - 120_000))).toBe(2);
    await retitle('Engines IV');
    await w.untilCount(2);
    expect(w.messages.map((m) => m.data.courseChanged.title)).toEqual(['Engines III', 'Engines IV']);
    const after = await liveDetails(url);
    expect(after.rejected - before.rejected).toBe(1);
    expect(after.duplicates - before.duplicates).toBe(1);
    await c.dispose();
    listener.disconnect();
  });

  it("keeps a student's email out of what Redis carries, and still delivers it to a subscriber allowed to read it", async () => {
    const url = gateway.url;
    const carried: string[] = [];
    const listener = new Redis(redis.url);
    await listener.subscribe(`changes:${tableName}:Student#s1`);
    listener.on('message', (_channel: string, message: string) => carried.push(message));
    const c = wsClient(url);
    const w = c.watch('subscription { studentChanged(id: "s1") { name email } }');
    await untilOpen(url, { subscriptions: 2 });
    await gateway.dynamo.doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: 'STUDENT#s1', SK: 'PROFILE' },
        UpdateExpression: 'SET email = :e',
        ExpressionAttributeValues: { ':e': 'ada@new.example.com' },
      }),
    );
    for (let n = 1; !w.messages.some((m) => m.data?.studentChanged?.email === 'ada@new.example.com'); n++) await w.untilCount(n);
    expect(w.messages.at(-1)!.data).toEqual({ studentChanged: { name: 'Ada', email: 'ada@new.example.com' } });
    expect(carried.length).toBeGreaterThan(0);
    for (const message of carried) {
      expect(message).not.toContain('example.com');
      const event = JSON.parse(message.slice(message.indexOf('.', message.indexOf('.') + 1) + 1));
      expect(event.partial).toBe(true);
      expect(event.image.name).toBe('Ada');
      expect(event.image.email).toBeUndefined();
    }
    await c.dispose();
    listener.disconnect();
  });

  it("keeps a customer's email and orders out of what Redis carries, on the customer's topic and its orders' connection, and still delivers them", async () => {
    const url = gateway.url;
    const carried: string[] = [];
    const listener = new Redis(redis.url);
    await listener.subscribe(`changes:${tableName}:Customer#cu1`, `changes:${tableName}:Customer.orders#cu1`);
    listener.on('message', (_channel: string, message: string) => carried.push(message));
    const c = wsClient(url);
    const customer = c.watch('subscription { customerOrdersChanged(customerId: "cu1") { kind orderId order { total status } } }');
    await untilOpen(url, { subscriptions: 2 });
    await gateway.dynamo.doc.send(
      new PutCommand({
        TableName: tableName,
        Item: orderItem({ customerId: 'cu1', id: 'o1', placedAt: '2026-01-01T00:00:00.000Z', total: 4217.5, status: 'PAID' }),
      }),
    );
    await gateway.dynamo.doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: 'CUSTOMER#cu1', SK: 'PROFILE' },
        UpdateExpression: 'SET email = :e, orderCount = :n',
        ExpressionAttributeValues: { ':e': 'grace@new.example.com', ':n': 1 },
      }),
    );
    const [message] = await customer.untilCount(1);
    expect(message!.data).toEqual({ customerOrdersChanged: { kind: 'ADDED', orderId: 'o1', order: { total: 4217.5, status: 'PAID' } } });
    await until(
      () => carried.length >= 2,
      () => `two messages carried (have ${carried.length})`,
      5000,
      25,
    );
    expect(carried.length).toBe(2);
    for (const m of carried) {
      expect(m).not.toContain('example.com');
      expect(m).not.toContain('4217.5');
      expect(m).not.toContain('PAID');
      const event = JSON.parse(m.slice(m.indexOf('.', m.indexOf('.') + 1) + 1));
      expect(event.partial).toBe(true);
      expect(event.image.email).toBeUndefined();
      expect(event.image.name).toBeUndefined();
      expect(event.image.orderCount).toBeUndefined();
    }
    await c.dispose();
    listener.disconnect();
  });
});
