/**
 * The per-caller budget of DynamoDB requests shared across instances: two
 * gateways keep their callers' buckets in one redis-server, so a caller
 * that spreads its operations over both spends one burst, not one per
 * instance, and is then refused by either with 429 RATE_LIMITED and
 * Retry-After before any request. While Redis cannot answer, each instance
 * serves from its own buckets. The buckets' clock is held still, so the
 * counts are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { courseItem, enrollmentItem, studentItem, catalogCounterItems } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { CallerBuckets } from '../../src/graphql/plugins/callerBudget.js';
import { redisBuckets } from '../../src/graphql/plugins/redisBuckets.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { captureLogger } from '../support/oidc.js';
import { postFrom } from '../support/fromAddress.js';
import { startRedis, type RedisServer } from '../support/subscriptions.js';

const BURST = 40;
let now = 0;
let redis: RedisServer;
const log = captureLogger();
const gateways: { gw: TestGateway; url: string; buckets: CallerBuckets }[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: 'budget-password-0123456789' });
  // One deployment: the same key prefix on both instances.
  const prefix = `budget:shared_${randomUUID().slice(0, 8)}:`;
  const items: Item[] = [courseItem({ id: 'c1', title: 'Engines', studentCount: 3 })];
  for (let s = 0; s < 3; s++) {
    items.push(studentItem({ id: `s${s}`, name: `Ada ${s}`, courseCount: 1 }));
    items.push(enrollmentItem({ studentId: `s${s}`, courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: `Ada ${s}` }));
  }
  for (let i = 0; i < 2; i++) {
    const buckets = new CallerBuckets({ perSecond: 10, burst: BURST, now: () => now, shared: redisBuckets({ url: redis.url, prefix }) });
    const gw = await testGateway({ callerBudget: buckets, logger: log.logger });
    await gw.put([...items, ...catalogCounterItems(items)]);
    gateways.push({ gw, url: await gw.listen(), buckets });
  }
  for (const { buckets } of gateways) while (!buckets.shared!.ready) await new Promise((r) => setTimeout(r, 10));
});

afterAll(async () => {
  for (const { gw, buckets } of gateways) {
    await gw.stop();
    await buckets.shared!.close();
  }
  await redis?.stop();
});

const QUERY = '{ course(id: "c1") { title students(first: 3) { edges { node { name courses(first: 1) { edges { node { title } } } } } } } }';
const requestsOf = () => log.lines.filter((l) => l.msg === 'graphql operation').map((l) => l.dynamodb.requests as number);

describe('a per-caller budget shared by instances through Redis', () => {
  it('spends one burst for a caller spread over two gateways, then refuses it on both before any request', async () => {
    const [a, b] = gateways;
    log.lines.length = 0;
    const from = '127.0.0.6';
    const first = await postFrom(a!.url, from, QUERY);
    expect(first.json.errors).toBeUndefined();
    const each = requestsOf()[0]!;
    expect(each).toBeGreaterThan(0);
    // Alternating instances, the caller gets the whole queries one burst holds, no more.
    let served = 1;
    for (let i = 1; i < Math.floor(BURST / each); i++) {
      const answer = await postFrom(gateways[i % 2]!.url, from, QUERY);
      expect(answer.json.errors).toBeUndefined();
      served++;
    }
    expect(served).toBe(Math.floor(BURST / each));
    // Then whatever is left is spent (a capped operation), and both instances refuse it.
    if (BURST % each > 0) {
      const capped = await postFrom(b!.url, from, QUERY);
      expect(capped.json.errors.map((e: any) => e.extensions.reason)).toContain('DYNAMODB_REQUEST_LIMIT');
      expect(capped.json.errors[0].message).toMatch(/across instances/);
    }
    for (const { url } of [a!, b!]) {
      const refused = await postFrom(url, from, QUERY);
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe('1');
      expect(refused.json.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    }
    const spent = requestsOf();
    expect(spent.reduce((x, y) => x + y, 0)).toBe(BURST);
    expect(spent.slice(-2)).toEqual([0, 0]);
    // Another caller has its own bucket; time refills the first one's, on either instance.
    expect((await postFrom(b!.url, '127.0.0.7', QUERY)).json.errors).toBeUndefined();
    now += 1000 * Math.ceil(each / 10);
    expect((await postFrom(b!.url, from, QUERY)).json.errors).toBeUndefined();
    expect(a!.buckets.fallbacks + b!.buckets.fallbacks).toBe(0);
  });

  it("serves from each instance's own buckets while Redis cannot answer", async () => {
    const [a] = gateways;
    await redis.stop();
    while (a!.buckets.shared!.ready) await new Promise((r) => setTimeout(r, 10));
    const from = '127.0.0.8';
    log.lines.length = 0;
    const answer = await postFrom(a!.url, from, QUERY);
    expect(answer.status).toBe(200);
    expect(answer.json.errors).toBeUndefined();
    const each = requestsOf()[0]!;
    for (let i = 1; i < Math.floor(BURST / each); i++) expect((await postFrom(a!.url, from, QUERY)).json.errors).toBeUndefined();
    if (BURST % each > 0) await postFrom(a!.url, from, QUERY);
    expect((await postFrom(a!.url, from, QUERY)).status).toBe(429);
    expect(a!.buckets.fallbacks).toBeGreaterThan(0);
  });
});
