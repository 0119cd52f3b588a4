/**
 * A cost limit that counts work, per caller: a token bucket of DynamoDB
 * requests keyed by the client's address (or the verified subject),
 * shared by the caller's operations. Ordinary nested queries run, padding
 * changes nothing; a caller whose bucket is empty is refused with
 * RATE_LIMITED, HTTP 429 and Retry-After before any DynamoDB request,
 * while other callers are served. The bucket's clock is held still, so the
 * counts are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseItem, enrollmentItem, studentItem, catalogCounterItems } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { captureLogger } from '../support/oidc.js';
import { postFrom as postFromAddress } from '../support/fromAddress.js';

let gw: TestGateway;
let url: string;
let now = 0;
const log = captureLogger();
const BURST = 40;

beforeAll(async () => {
  gw = await testGateway({ callerBudget: { perSecond: 10, burst: BURST, now: () => now }, logger: log.logger });
  const items: Item[] = [];
  for (let c = 0; c < 5; c++) items.push(courseItem({ id: `c${c}`, title: `Course ${c}`, studentCount: 3 }));
  for (let s = 0; s < 3; s++) {
    items.push(studentItem({ id: `s${s}`, name: `Ada ${s}`, courseCount: 5 }));
    for (let c = 0; c < 5; c++)
      items.push(
        enrollmentItem({ studentId: `s${s}`, courseId: `c${c}`, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: `Course ${c}`, studentName: `Ada ${s}` }),
      );
  }
  await gw.put([...items, ...catalogCounterItems(items)]);
  url = await gw.listen();
});
afterAll(() => gw.stop());

/** Three levels of small pages, as a new user writes them. */
const ORDINARY =
  '{ students(first: 3) { edges { node { courses(first: 5) { edges { node { students(first: 3) { edges { node { email courses(first: 1) { edges { node { title } } } } } } } } } } } } }';

const postFrom = (from: string, query: string) => postFromAddress(url, from, query);

const requestsOf = () => log.lines.filter((l) => l.msg === 'graphql operation').map((l) => l.dynamodb.requests as number);

describe('a budget of DynamoDB requests per caller', () => {
  let each = 0;

  it('runs an ordinary three-level nested query, and padding it with a comment changes nothing', async () => {
    log.lines.length = 0;
    const plain = await postFrom('127.0.0.2', ORDINARY);
    const padded = await postFrom('127.0.0.3', `# ${'padding '.repeat(25)}\n${ORDINARY}`);
    expect(plain.status).toBe(200);
    expect(plain.json.errors).toBeUndefined();
    expect(plain.json.data.students.edges).toHaveLength(3);
    expect(padded.json).toEqual(plain.json);
    const [a, b] = requestsOf();
    expect(a).toBeGreaterThan(0);
    expect(b).toBe(a);
    each = a!;
  });

  it('caps a caller at its bucket, then refuses it with 429 RATE_LIMITED and Retry-After before any DynamoDB request, serving others', async () => {
    log.lines.length = 0;
    const from = '127.0.0.4';
    const full = Math.floor(BURST / each);
    for (let i = 0; i < full; i++) expect((await postFrom(from, ORDINARY)).json.errors).toBeUndefined();
    // What is left does not hold a whole query: it stops at the bucket.
    const capped = await postFrom(from, ORDINARY);
    if (BURST % each > 0) {
      expect(capped.status).toBe(200);
      expect(capped.json.errors.map((e: any) => e.extensions.reason)).toContain('DYNAMODB_REQUEST_LIMIT');
      expect(capped.json.errors[0].message).toMatch(/CALLER_DYNAMODB_REQUESTS_PER_SECOND/);
    }
    const refused = BURST % each > 0 ? await postFrom(from, ORDINARY) : capped;
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('1');
    expect(refused.json.errors).toHaveLength(1);
    expect(refused.json.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(refused.json.data).toBeUndefined();
    // Exactly the burst was spent, and the refusal sent nothing.
    const spent = requestsOf();
    expect(spent.reduce((a, b) => a + b, 0)).toBe(BURST);
    expect(spent.at(-1)).toBe(0);
    // Another caller is served meanwhile.
    expect((await postFrom('127.0.0.5', ORDINARY)).json.errors).toBeUndefined();
    // A second refills ten requests: the caller is served again.
    now += 1000 * Math.ceil(each / 10);
    const again = await postFrom(from, ORDINARY);
    expect(again.status).toBe(200);
    expect(again.json.errors).toBeUndefined();
  });
});
