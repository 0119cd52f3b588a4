/**
 * Idempotency-Key against what a hostile or unlucky caller does: refused
 * mutations leave no record, a response counted in UTF-8 bytes that is too
 * large for one item never makes a retry run the mutation again, and a
 * replay goes only to a caller the rules see as the first did.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, customerItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { IDEMPOTENCY_PREFIX } from '../../src/dynamo/keys.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { injectFaults } from '../support/faults.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
let gw: TestGateway; // AUTH_MODE=oidc
let off: TestGateway; // AUTH_MODE=off
let url: string;
let offUrl: string;
let removeSpy: (() => void) | undefined;
afterEach(() => {
  removeSpy?.();
  removeSpy = undefined;
});

/** Names from a wide range of CJK characters: 3 UTF-8 bytes each, gzip saves little. */
function randomName(length: number, seed: number): string {
  let x = seed >>> 0; // mulberry32
  let name = '';
  for (let i = 0; i < length; i++) {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = Math.imul(x ^ (x >>> 15), x | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    name += String.fromCodePoint(0x4e00 + (((t ^ (t >>> 14)) >>> 0) % 20000));
  }
  return name;
}

/** A course whose roster of 100 students has long multi-byte names (written as another program would). */
function bigRoster(courseId: string, name: (i: number) => string) {
  const items: Record<string, unknown>[] = [courseItem({ id: courseId, title: 'Big', studentCount: 100 })];
  for (let i = 0; i < 100; i++) {
    const id = `${courseId}-s${String(i).padStart(3, '0')}`;
    items.push(studentItem({ id, name: name(i), courseCount: 1 }));
    items.push(enrollmentItem({ studentId: id, courseId, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Big', studentName: name(i) }));
  }
  return items;
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  [gw, off] = await Promise.all([testGateway({ auth: testAuthenticator(issuer).auth }), testGateway()]);
  const base = [
    studentItem({ id: 'ada', name: 'Ada', email: 'ada@example.com', courseCount: 0 }),
    courseItem({ id: 'c1', title: 'Engines', studentCount: 0 }),
    customerItem({ id: 'acme', name: 'Acme', email: 'buy@acme.example', orderCount: 0 }),
    customerItem({ id: 'globex', name: 'Globex', email: 'buy@globex.example', orderCount: 0 }),
  ];
  await Promise.all([
    gw.put(base),
    off.put([...base, ...bigRoster('plain', () => '名前'.repeat(1000)), ...bigRoster('noisy', (i) => randomName(2600, i + 1))] as never),
  ]);
  [url, offUrl] = await Promise.all([gw.listen(), off.listen()]);
});
afterAll(async () => {
  await Promise.all([gw?.stop(), off?.stop()]);
  await issuer?.stop();
});

async function post(to: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(to, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
}
const records = async (g: TestGateway) => (await g.scan()).filter((i) => String(i.PK).startsWith(IDEMPOTENCY_PREFIX));
const orders = async (g: TestGateway, customer: string) => (await g.scan()).filter((i) => i.PK === `CUSTOMER#${customer}` && String(i.SK).startsWith('ORDER#'));

/** Counts every DynamoDB request the gateway sends from now on. */
function spy(g: TestGateway): string[] {
  const seen: string[] = [];
  removeSpy = injectFaults(g.dynamo, ({ operation }) => {
    seen.push(operation);
    return null;
  });
  return seen;
}

const PLACE = (customer: string) => `mutation { placeOrder(customerId: "${customer}", input: { total: 5 }) { id customer { email } } }`;

describe('a refused mutation with an Idempotency-Key', () => {
  it('sends no DynamoDB request and leaves no record when the caller is anonymous', async () => {
    const sent = spy(gw);
    const answer = await post(url, PLACE('acme'), { 'idempotency-key': 'anon-1' });
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(sent).toEqual([]);
    expect(await records(gw)).toEqual([]);
  });

  it('sends no DynamoDB request and leaves no record when the rules refuse the signed-in caller', async () => {
    const token = await issuer.token({ customer_id: 'globex' }, { subject: 'g-user' });
    const sent = spy(gw);
    const answer = await post(url, PLACE('acme'), { 'idempotency-key': 'other-1', authorization: `Bearer ${token}` });
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(sent).toEqual([]);
    expect(await records(gw)).toEqual([]);
  });

  it('leaves no record when its arguments are refused or it finds nothing to change', async () => {
    const blank = await post(offUrl, 'mutation { createStudent(input: { name: "   " }) { id } }', { 'idempotency-key': 'blank-1' });
    expect(JSON.parse(blank.text).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const missing = await post(offUrl, 'mutation { updateStudent(id: "nobody", input: { name: "X" }) { id } }', { 'idempotency-key': 'missing-1' });
    expect(JSON.parse(missing.text).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await records(off)).toEqual([]);
  });
});

describe('a replay', () => {
  it('is refused to a token with the same subject but other claims, and runs nothing', async () => {
    const first = await issuer.token({ customer_id: 'acme' }, { subject: 'shared-sub' });
    const placed = await post(url, PLACE('acme'), { 'idempotency-key': 'claims-1', authorization: `Bearer ${first}` });
    expect(placed.status).toBe(200);
    expect(placed.text).toContain('buy@acme.example');

    // Same subject, another customer: the rules refuse it before the record is even looked up.
    const otherCustomer = await issuer.token({ customer_id: 'globex' }, { subject: 'shared-sub' });
    const refused = await post(url, PLACE('acme'), { 'idempotency-key': 'claims-1', authorization: `Bearer ${otherCustomer}` });
    expect(refused.text).not.toContain('buy@acme.example');
    expect(JSON.parse(refused.text).errors[0].extensions.code).toBe('FORBIDDEN');

    // Same subject, now an administrator (the rules allow it): the stored answer is not handed over.
    const admin = await issuer.token({ customer_id: 'globex', groups: ['admin'] }, { subject: 'shared-sub' });
    const changed = await post(url, PLACE('acme'), { 'idempotency-key': 'claims-1', authorization: `Bearer ${admin}` });
    expect(changed.status).toBe(403);
    expect(changed.replayed).toBeNull();
    expect(JSON.parse(changed.text).errors).toEqual([{ message: expect.any(String), extensions: { code: 'FORBIDDEN', reason: 'IDEMPOTENCY_CALLER_CHANGED' } }]);
    expect(await orders(gw, 'acme')).toHaveLength(1);

    const again = await post(url, PLACE('acme'), { 'idempotency-key': 'claims-1', authorization: `Bearer ${first}` });
    expect(again).toEqual({ status: 200, replayed: 'true', text: placed.text });
  });
});

const ENROLL = (course: string) => `mutation { enroll(studentId: "ada", courseId: "${course}") { node { students(first: 100) { edges { node { name } } } } } }`;

describe('a response larger in UTF-8 bytes than one item holds', () => {
  it('is kept gzipped and replayed as it was', async () => {
    const first = await post(offUrl, ENROLL('plain'), { 'idempotency-key': 'plain-1' });
    expect(first.status).toBe(200);
    expect(first.text.length).toBeLessThan(350_000);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(400_000);
    const [record] = (await records(off)).filter((r) => r.state === 'COMPLETE' && r.responseGzip);
    expect(record).toBeDefined();
    const retry = await post(offUrl, ENROLL('plain'), { 'idempotency-key': 'plain-1' });
    expect(retry).toEqual({ status: 200, replayed: 'true', text: first.text });
  });

  it('that even gzipped is too large: the retry is told the mutation ran, and it never runs twice', async () => {
    const first = await post(offUrl, ENROLL('noisy'), { 'idempotency-key': 'noisy-1' });
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(500_000);
    const sent = spy(off);
    const retry = await post(offUrl, ENROLL('noisy'), { 'idempotency-key': 'noisy-1' });
    expect(retry.replayed).toBe('true');
    expect(JSON.parse(retry.text).errors[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(JSON.parse(retry.text).errors[0].message).toMatch(/ran once/);
    expect(sent).toEqual(['GetItem']); // the record's look-up: nothing of the mutation
    const edges = (await off.scan()).filter((i) => i.PK === 'STUDENT#ada' && i.SK === 'COURSE#noisy');
    expect(edges).toHaveLength(1);
  });
});
