/**
 * Budgets of DynamoDB requests are reserved before the work: executions
 * running side by side cannot each see the whole bucket. Ten heavy
 * queries of one caller at once (on one gateway, and over two gateways
 * sharing the caller's bucket in Redis), and one event over eight distinct
 * heavy subscriptions of one socket, are counted at the wire (a proxy in
 * front of DynamoDB Local): never more than the budget plus one
 * execution's cap. The buckets' clocks are held still, so nothing refills.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { courseItem, enrollmentItem, studentItem, catalogCounterItems } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { postFrom } from '../support/fromAddress.js';
import { startWireCounter, type WireCounter } from '../support/wireCounter.js';
import { startRedis, type RedisServer } from '../support/subscriptions.js';
import { CallerBuckets } from '../../src/graphql/plugins/callerBudget.js';
import { redisBuckets } from '../../src/graphql/plugins/redisBuckets.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { SocketBudget, SubscriptionEngine, type EventExecution, type Prepared } from '../../src/graphql/subscriptionEngine.js';
import { ChangeHub } from '../../src/subscriptions/hub.js';
import { memoryBus } from '../../src/subscriptions/bus.js';
import { EVERYONE } from '../../src/auth/identity.js';

/** The budget of every scenario, and one execution's cap on DynamoDB requests (MAX_DYNAMODB_REQUESTS). */
const BURST = 500;
const CAP = 600;
const LIMITS = { maxRequests: CAP, maxInFlight: 32 };
const STUDENTS = 20;

/** Course c1 with 20 students, each enrolled in 19 courses of its own: a three-level selection reads ~400 distinct pages. */
function heavyData(): Item[] {
  const items: Item[] = [courseItem({ id: 'c1', title: 'Engines', studentCount: STUDENTS })];
  for (let s = 0; s < STUDENTS; s++) {
    items.push(studentItem({ id: `s${s}`, name: `Ada ${s}`, courseCount: STUDENTS }));
    items.push(enrollmentItem({ studentId: `s${s}`, courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: `Ada ${s}` }));
    for (let k = 1; k < STUDENTS; k++) {
      const id = `c${s}_${k}`;
      items.push(courseItem({ id, title: `Course ${id}`, studentCount: 1 }));
      items.push(
        enrollmentItem({ studentId: `s${s}`, courseId: id, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: `Course ${id}`, studentName: `Ada ${s}` }),
      );
    }
  }
  return [...items, ...catalogCounterItems(items)];
}

const selection = (leaf: string) =>
  `students(first: 20) { edges { node { courses(first: 20) { edges { node { students(first: 20) { edges { node { ${leaf} } } } } } } } } }`;
const HEAVY_QUERY = `{ course(id: "c1") { ${selection('name')} } }`;
/** Eight selections alike but distinct (each its own execution). */
const HEAVY_SUBSCRIPTIONS = ['name', 'id', 'email', '__typename', 'name id', 'name email', 'id email', 'name id email'].map(
  (leaf) => `subscription { courseChanged(id: "c1") { ${selection(leaf)} } }`,
);

let wire: WireCounter;
beforeAll(async () => {
  wire = await startWireCounter(inject('dynamoEndpoint'));
});
afterAll(() => wire.stop());

describe('reservations before the work, HTTP', () => {
  let gw: TestGateway;
  let url: string;
  beforeAll(async () => {
    gw = await testGateway({ endpoint: wire.endpoint, requestLimits: LIMITS, callerBudget: { perSecond: 1, burst: BURST, now: () => 0 } });
    await gw.put(heavyData());
    url = await gw.listen();
  });
  afterAll(() => gw.stop());

  it('runs one heavy query alone in full', async () => {
    wire.reset();
    const alone = await postFrom(url, '127.0.0.20', HEAVY_QUERY);
    expect(alone.json.errors).toBeUndefined();
    // Heavy: within the cap and the burst, but one alone takes most of the burst.
    expect(wire.total()).toBeGreaterThan(BURST * 0.6);
    expect(wire.total()).toBeLessThanOrEqual(BURST);
  });

  it("keeps ten heavy queries of one caller at once within its budget plus one execution's cap", async () => {
    wire.reset();
    const answers = await Promise.all(Array.from({ length: 10 }, () => postFrom(url, '127.0.0.21', HEAVY_QUERY)));
    const sent = wire.total();
    process.stderr.write(`ten heavy queries side by side: ${sent} requests at the wire (${answers.map((a) => a.status).join(' ')})\n`);
    expect(sent).toBeLessThanOrEqual(BURST + CAP);
    // Those that found nothing to reserve were refused before any request.
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
  });

  it("keeps ten heavy queries of one caller over two gateways sharing its bucket in Redis within the budget plus one execution's cap", async () => {
    const redis: RedisServer = await startRedis();
    const prefix = `budget:reserved_${randomUUID().slice(0, 8)}:`;
    const parts: { gw: TestGateway; url: string; buckets: CallerBuckets }[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const buckets = new CallerBuckets({ perSecond: 1, burst: BURST, now: () => 0, shared: redisBuckets({ url: redis.url, prefix }) });
        const gw = await testGateway({ endpoint: wire.endpoint, requestLimits: LIMITS, callerBudget: buckets });
        parts.push({ gw, url: await gw.listen(), buckets });
        await gw.put(heavyData());
      }
      for (const { buckets } of parts) while (!buckets.shared!.ready) await new Promise((r) => setTimeout(r, 10));
      wire.reset();
      await Promise.all(Array.from({ length: 10 }, (_, i) => postFrom(parts[i % 2]!.url, '127.0.0.22', HEAVY_QUERY)));
      const sent = wire.total();
      process.stderr.write(`ten heavy queries over two gateways: ${sent} requests at the wire\n`);
      expect(sent).toBeLessThanOrEqual(BURST + CAP);
      expect(parts[0]!.buckets.fallbacks + parts[1]!.buckets.fallbacks).toBe(0);
    } finally {
      for (const { gw, buckets } of parts) {
        await gw.stop();
        await buckets.shared!.close();
      }
      await redis.stop();
    }
  });
});

describe('reservations before the work, subscriptions', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ endpoint: wire.endpoint });
    await gw.put(heavyData());
  });
  afterAll(() => gw.stop());

  /** Eight distinct heavy subscriptions started over `budgets` (in turn); one event, every stream iterated at once, as graphql-ws does. */
  async function oneEvent(budgets: SocketBudget[]) {
    const { schema, declared } = gatewaySchema(gw.model, undefined);
    const hub = new ChangeHub(memoryBus());
    const executions: EventExecution[] = [];
    const engine = new SubscriptionEngine({ schema, declared, hub, deps: gw.deps, prod: false, requestLimits: LIMITS, onExecuted: (e) => executions.push(e) });
    const streams = [];
    for (const [i, query] of HEAVY_SUBSCRIPTIONS.entries()) {
      const prepared = engine.prepare({ query }, EVERYONE);
      if (Array.isArray(prepared)) throw new Error(prepared.map((e) => e.message).join('; '));
      streams.push(await engine.start(prepared as Prepared, EVERYONE, () => {}, budgets[i % budgets.length]));
    }
    wire.reset();
    hub.receive({
      topic: 'Course#c1',
      item: 'c1',
      seq: String(10n ** 30n),
      kind: 'UPDATED',
      image: courseItem({ id: 'c1', title: 'Engines', studentCount: STUDENTS }),
    });
    await Promise.all(streams.map((s) => s.next()));
    for (const s of streams) await s.return(undefined);
    expect(executions).toHaveLength(8);
    return { sent: wire.total(), each: executions.map((e) => e.dynamodb.requests) };
  }

  it("keeps one event over eight distinct heavy subscriptions of one socket within the socket's budget plus one execution's cap", async () => {
    const { sent, each } = await oneEvent([new SocketBudget(Infinity, Infinity, { perSecond: 1, burst: BURST }, () => 0)]);
    process.stderr.write(`one event over eight heavy subscriptions of one socket: ${sent} requests at the wire (${each.join(' ')})\n`);
    expect(sent).toBeLessThanOrEqual(BURST + CAP);
  });

  it("keeps one event over heavy subscriptions on eight sockets of one caller within the caller's budget plus one execution's cap", async () => {
    const callers = new CallerBuckets({ perSecond: 1, burst: BURST, now: () => 0 });
    const sockets = Array.from({ length: 8 }, () => {
      const socket = new SocketBudget(Infinity, Infinity, { perSecond: 1, burst: 100_000 }, () => 0);
      socket.callerIs(callers, { identity: EVERYONE, clientAddress: '127.0.0.23' });
      return socket;
    });
    const { sent, each } = await oneEvent(sockets);
    process.stderr.write(`one event over heavy subscriptions on eight sockets of one caller: ${sent} requests at the wire (${each.join(' ')})\n`);
    expect(sent).toBeLessThanOrEqual(BURST + CAP);
  });
});
