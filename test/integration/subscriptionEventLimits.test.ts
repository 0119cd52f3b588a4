/**
 * Every execution of a subscription event runs under an HTTP operation's
 * limits: the DynamoDB request cap and in-flight cap per execution, the
 * response byte limit (estimated at subscribe, measured per result), and
 * the DynamoDB requests events may cause per socket and second (a token
 * bucket, its clock held still here so the counts are exact).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLError } from 'graphql';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { SocketBudget, SubscriptionEngine, type EventExecution, type Prepared } from '../../src/graphql/subscriptionEngine.js';
import { DEFAULT_LIMITS } from '../../src/graphql/plugins/queryLimits.js';
import { ChangeHub } from '../../src/subscriptions/hub.js';
import { memoryBus } from '../../src/subscriptions/bus.js';
import { EVERYONE } from '../../src/auth/identity.js';
import { CallerBuckets } from '../../src/graphql/plugins/callerBudget.js';
import type { Item } from '../../src/dynamo/batchGet.js';

let gw: TestGateway;
const COURSE = courseItem({ id: 'c1', title: 'Engines', studentCount: 5 });
beforeAll(async () => {
  gw = await testGateway();
  const items: Item[] = [COURSE];
  for (let i = 1; i <= 5; i++) {
    items.push(studentItem({ id: `s${i}`, name: `Student ${i}`, courseCount: 1 }));
    items.push(
      enrollmentItem({ studentId: `s${i}`, courseId: 'c1', enrolledAt: '2026-02-01T10:00:00.000Z', courseTitle: 'Engines', studentName: `Student ${i}` }),
    );
  }
  await gw.put(items);
});
afterAll(() => gw.stop());

/** Nested pages: the students of the course, their courses, their students, read from the table for each event. */
const NESTED =
  'subscription { courseChanged(id: "c1") { students(first: 10) { edges { node { email courses(first: 10) { edges { node { students(first: 10) { edges { node { email } } } } } } } } } } }';

function engineWith(options: Partial<ConstructorParameters<typeof SubscriptionEngine>[0]> = {}) {
  const { schema, declared } = gatewaySchema(gw.model, undefined);
  const hub = new ChangeHub(memoryBus());
  const executions: EventExecution[] = [];
  const engine = new SubscriptionEngine({ schema, declared, hub, deps: gw.deps, prod: false, onExecuted: (e) => executions.push(e), ...options });
  let seq = 10n ** 30n;
  const event = (title = 'Engines') => hub.receive({ topic: 'Course#c1', item: 'c1', seq: String(++seq), kind: 'UPDATED', image: { ...COURSE, title } });
  const start = async (query: string, budget?: SocketBudget) => {
    const prepared = engine.prepare({ query }, EVERYONE);
    if (Array.isArray(prepared)) throw new Error(prepared.map((e) => e.message).join('; '));
    return engine.start(prepared as Prepared, EVERYONE, () => {}, budget);
  };
  return { engine, executions, event, start };
}

const reasons = (result: { errors?: readonly unknown[] }) => ((result.errors ?? []) as GraphQLError[]).map((e) => e.extensions?.reason ?? e.extensions?.code);

let unbounded = 0;

describe('each event execution under the per-operation limits', () => {
  it('measures what one event of the nested selection sends without caps', async () => {
    const { executions, event, start } = engineWith();
    const stream = await start(NESTED);
    event();
    const { value } = await stream.next();
    expect(value.errors).toBeUndefined();
    await stream.return(undefined);
    unbounded = executions[0]!.dynamodb.requests;
    expect(unbounded).toBeGreaterThan(4);
  });

  it('stops an event execution at MAX_DYNAMODB_REQUESTS, as an HTTP operation', async () => {
    const cap = unbounded - 3;
    const { executions, event, start } = engineWith({ requestLimits: { maxRequests: cap, maxInFlight: 32 } });
    const stream = await start(NESTED);
    event();
    const { value } = await stream.next();
    expect(reasons(value)).toContain('DYNAMODB_REQUEST_LIMIT');
    expect(executions[0]!.dynamodb.requests).toBe(cap);
    await stream.return(undefined);
  });

  it('holds an event execution to MAX_DYNAMODB_IN_FLIGHT calls at once', async () => {
    const { executions, event, start } = engineWith({ requestLimits: { maxRequests: 2000, maxInFlight: 1 } });
    const stream = await start(NESTED);
    event();
    const { value } = await stream.next();
    expect(value.errors).toBeUndefined();
    expect(executions[0]!.dynamodb.maxConcurrency).toBe(1);
    expect(executions[0]!.dynamodb.requests).toBe(unbounded);
    await stream.return(undefined);
  });

  it('refuses at subscribe a selection whose full pages pass MAX_RESPONSE_BYTES, and replaces a result measured over it', async () => {
    const { engine, event, start } = engineWith({ limits: { ...DEFAULT_LIMITS, maxResponseBytes: 2000 } });
    const refused = engine.prepare({ query: 'subscription { courseChanged(id: "c1") { students(first: 100) { edges { cursor } } } }' }, EVERYONE);
    expect(Array.isArray(refused)).toBe(true);
    expect((refused as GraphQLError[])[0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((refused as GraphQLError[])[0]!.message).toMatch(/Response byte limit of 2000 exceeded/);
    const stream = await start('subscription { courseChanged(id: "c1") { title } }');
    event('x'.repeat(5000));
    const { value } = await stream.next();
    expect(value.data).toBeNull();
    expect(value.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', reason: 'RESPONSE_TOO_LARGE', limit: 2000 }) }),
    ]);
    await stream.return(undefined);
  });
});

describe('the DynamoDB requests events cause, per socket and second', () => {
  it('lets a socket send at most its burst, then what a second refills', async () => {
    let now = 0;
    const burst = unbounded + Math.floor(unbounded / 2);
    const budget = new SocketBudget(Infinity, Infinity, { perSecond: unbounded, burst }, () => now);
    const { executions, event, start } = engineWith();
    const stream = await start(NESTED, budget);
    const results = [];
    for (let i = 0; i < 3; i++) {
      event(`Engines ${i}`);
      results.push((await stream.next()).value);
    }
    // The first in full; the second stops at what is left; the third may send nothing.
    expect(executions.map((e) => e.dynamodb.requests)).toEqual([unbounded, burst - unbounded, 0]);
    expect(results.map(reasons)).toEqual([[], expect.arrayContaining(['DYNAMODB_REQUEST_LIMIT']), expect.arrayContaining(['DYNAMODB_REQUEST_LIMIT'])]);
    expect(results[2].errors[0].message).toMatch(/WS_DYNAMODB_REQUESTS_PER_SECOND/);
    // A second later, one full execution's worth is back.
    now += 1000;
    event('Engines 3');
    const after = (await stream.next()).value;
    expect(after.errors).toBeUndefined();
    expect(executions.at(-1)!.dynamodb.requests).toBe(unbounded);
    await stream.return(undefined);
  });

  it('runs one execution for subscribers with the same selection and visibility, paid by one socket', async () => {
    const { executions, event, start } = engineWith();
    const a = await start(NESTED, new SocketBudget(Infinity, Infinity));
    const b = await start(NESTED, new SocketBudget(Infinity, Infinity));
    event();
    const [ra, rb] = await Promise.all([a.next(), b.next()]);
    expect(ra.value).toEqual(rb.value);
    expect(executions).toHaveLength(1);
    await a.return(undefined);
    await b.return(undefined);
  });

  it("draws event executions from the caller's bucket, the one its HTTP operations use", async () => {
    const buckets = new CallerBuckets({ perSecond: 1, burst: unbounded + 2, now: () => 0 });
    const budget = new SocketBudget(Infinity, Infinity);
    budget.callerIs(buckets, { identity: EVERYONE, clientAddress: '127.0.0.9' });
    const { executions, event, start } = engineWith();
    const stream = await start(NESTED, budget);
    event('Engines A');
    expect((await stream.next()).value.errors).toBeUndefined();
    event('Engines B');
    const capped = (await stream.next()).value;
    expect(reasons(capped)).toContain('DYNAMODB_REQUEST_LIMIT');
    expect(capped.errors[0].message).toMatch(/CALLER_DYNAMODB_REQUESTS_PER_SECOND/);
    expect(executions.map((e) => e.dynamodb.requests)).toEqual([unbounded, 2]);
    // Nothing left for the caller's next HTTP operation either.
    expect(buckets.available('addr:127.0.0.9')).toBe(0);
    await stream.return(undefined);
  });
});
