/**
 * The response byte limit (MAX_RESPONSE_BYTES, default 1,000,000): refused
 * before any DynamoDB request when full pages could not fit, measured after
 * execution otherwise; and identical errors sent once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCounterItems, courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { DEFAULTS } from '../../src/config.js';
import { MIN_CURSOR_BYTES } from '../../src/graphql/plugins/responseSize.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

let gw: TestGateway;
let issuer: TestIssuer;
let signedIn: string;

/**
 * 16 courses; 100 students, every one in course c0, with names 24 KB long (a table another program
 * wrote). c0's page of students is what every test reads; the other courses only fill a page of courses.
 */
function fixture(): Item[] {
  const items: Item[] = [];
  const longName = (i: number) => `Student ${i} `.padEnd(12_000, 'é');
  for (let s = 0; s < 100; s++) items.push(studentItem({ id: `s${s}`, name: longName(s), email: `s${s}@example.com`, courseCount: 1 }));
  for (let c = 0; c < 16; c++) items.push(courseItem({ id: `c${c}`, title: `Course ${c}`, studentCount: c === 0 ? 100 : 0 }));
  for (let s = 0; s < 100; s++) {
    items.push(
      enrollmentItem({ studentId: `s${s}`, courseId: 'c0', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Course 0', studentName: longName(s) }),
    );
  }
  return [...items, ...catalogCounterItems(items)];
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  gw = await testGateway({ auth: testAuthenticator(issuer).auth });
  await gw.put(fixture());
  signedIn = await issuer.token({});
});
afterAll(async () => {
  await gw?.stop();
  await issuer?.stop();
});

const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');

describe('the response byte limit', () => {
  it('is at most 1 MB by default', () => {
    expect(DEFAULTS.operationLimits.maxResponseBytes).toBeLessThanOrEqual(1_000_000);
  });

  it('refuses 30 aliased cursors under nested pages before any DynamoDB request', async () => {
    const query = `{ courses(first: 16) { edges { node { students(first: 100) { edges { ${aliases(30, 'cursor')} } } } } } }`;
    expect(query.length).toBeLessThan(500);
    const { result, requests } = await gw.counted(query, undefined, signedIn);
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors?.[0]?.message).toMatch(/Response byte limit of 1000000 exceeded/);
    expect(requests.requests).toBe(0);
  });

  it('weighs the same operation again for each page size its variables give', async () => {
    const query = `query ($n: Int) { courses(first: 16) { edges { node { students(first: $n) { edges { ${aliases(30, 'cursor')} } } } } } }`;
    const small = await gw.counted(query, { n: 1 }, signedIn);
    expect(small.result.errors).toBeUndefined();
    expect(small.result.data.courses.edges).toHaveLength(16);
    const large = await gw.counted(query, { n: 100 }, signedIn);
    expect(large.result.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(large.requests.requests).toBe(0);
    const again = await gw.counted(query, { n: 1 }, signedIn);
    expect(again.result.errors).toBeUndefined();
  });

  it('answers a response that turns out larger (long stored names) with one RESPONSE_TOO_LARGE error', async () => {
    const { result } = await gw.counted('{ courses(first: 1) { edges { node { students(first: 100) { edges { node { name } } } } } } }', undefined, signedIn);
    expect(result.data).toBeNull();
    expect(result.errors).toEqual([
      {
        message: expect.stringMatching(/exceeds the response byte limit of 1000000/),
        extensions: { code: 'BAD_USER_INPUT', reason: 'RESPONSE_TOO_LARGE', bytes: expect.any(Number), limit: 1_000_000 },
      },
    ]);
    expect(result.errors![0]!.extensions!.bytes).toBeGreaterThan(2_000_000);
  });

  it('lets the same query through when it fits', async () => {
    const { result } = await gw.counted(
      '{ courses(first: 1) { edges { cursor node { students(first: 10) { edges { cursor node { id } } } } } } }',
      undefined,
      signedIn,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.courses.edges[0].node.students.edges).toHaveLength(10);
    // The estimate's least cursor is no longer than the cursors issued.
    const cursors = [result.data.courses.edges[0].cursor, ...result.data.courses.edges[0].node.students.edges.map((e: any) => e.cursor)];
    for (const cursor of cursors) expect(cursor.length).toBeGreaterThanOrEqual(MIN_CURSOR_BYTES);
  });
});

describe('identical errors', () => {
  it('are sent ten times with their paths, the tenth saying how many more there were', async () => {
    const query = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: course(id: "c0") { students(first: 100) { edges { node { email } } } }`).join(' ')} }`;
    const { result } = await gw.counted(query, undefined, signedIn);
    expect(result.errors).toHaveLength(10);
    expect(result.errors![9]).toMatchObject({ extensions: { code: 'FORBIDDEN', repeated: 2990 } });
    expect(result.errors!.slice(0, 9).every((e) => e.extensions?.repeated === undefined)).toBe(true);
    expect(result.errors![0]!.path).toEqual(['a0', 'students', 'edges', 0, 'node', 'email']);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(400_000);
  });
});
