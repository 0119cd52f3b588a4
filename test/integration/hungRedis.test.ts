/**
 * A hung Redis (SIGSTOP: its connections stay open, nothing is answered)
 * under the shared per-caller budget is found out once, by the first
 * command that times out, and then skipped until it answers again (a
 * circuit breaker): the requests after the first are served from the
 * instance's own buckets without sending Redis anything. Counted at
 * Redis itself (INFO commandstats), once it runs again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { courseItem } from '../support/defaultItems.js';
import { CallerBuckets } from '../../src/graphql/plugins/callerBudget.js';
import { redisBuckets } from '../../src/graphql/plugins/redisBuckets.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { postFrom } from '../support/fromAddress.js';
import { startRedis, type RedisServer } from '../support/subscriptions.js';
import { until as waitUntil } from '../support/patience.js';

let redis: RedisServer;
let admin: Redis;
let gw: TestGateway;
let url: string;
let buckets: CallerBuckets;

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  buckets = new CallerBuckets({
    perSecond: 100,
    burst: 1000,
    shared: redisBuckets({ url: redis.url, prefix: `budget:hung_${randomUUID().slice(0, 8)}:`, probeMs: 200 }),
  });
  gw = await testGateway({ callerBudget: buckets });
  await gw.put([courseItem({ id: 'c1', title: 'Engines' })]);
  url = await gw.listen();
  while (!buckets.shared!.ready) await new Promise((r) => setTimeout(r, 10));
});

afterAll(async () => {
  await gw?.stop();
  await buckets?.shared!.close();
  admin?.disconnect();
  await redis?.stop();
});

const QUERY = '{ course(id: "c1") { title } }';

/** Bucket scripts Redis has run since its statistics were reset. */
async function scriptsRun(): Promise<number> {
  const stats = String(await admin.info('commandstats'));
  return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

async function until(check: () => boolean) {
  await waitUntil(check, 'the condition', 20_000);
  expect(check()).toBe(true);
}

describe('a hung Redis under the shared caller budget', () => {
  it('is found out by one timed-out command, then skipped until it answers, and used again after', async () => {
    // The bucket script loaded and in use.
    expect((await postFrom(url, '127.0.0.30', QUERY)).json).toEqual({ data: { course: { title: 'Engines' } } });
    await admin.config('RESETSTAT');
    process.kill(redis.pid, 'SIGSTOP');
    const took: number[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const answer = await postFrom(url, '127.0.0.30', QUERY);
        took.push(Math.round(performance.now() - started));
        expect(answer.status).toBe(200);
        expect(answer.json).toEqual({ data: { course: { title: 'Engines' } } });
      }
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    process.stderr.write(`hung Redis: five requests took ${took.join(', ')} ms\n`);
    expect(buckets.fallbacks).toBeGreaterThanOrEqual(5);
    // The probe is answered once Redis runs again: by then Redis has handled everything sent on that connection.
    await until(() => buckets.shared!.ready);
    // One bucket script reached Redis while it hung (the first request's, which timed out), not one or two per request.
    expect(await scriptsRun()).toBe(1);
    const fallbacks = buckets.fallbacks;
    expect((await postFrom(url, '127.0.0.30', QUERY)).status).toBe(200);
    expect(buckets.fallbacks).toBe(fallbacks);
    expect(await scriptsRun()).toBeGreaterThan(1);
  });
});
