import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ requestLimits: { maxRequests: 2000, maxInFlight: 32 } });
  await gw.put(demoItems());
});
afterAll(() => gw.stop());

describe('bombs refused before any DynamoDB request', () => {
  it('refuses the read bomb of empty pages (was 10,102 Queries at a cost of 10,101)', async () => {
    const bomb = `{ course(id: "A") { students(first: 100) { edges { node { courses(first: 100) { edges { node { students(first: 0) { totalCount } } } } } } } } }`;
    const { result, requests } = await gw.counted(bomb);
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0].message).toMatch(/^Query cost limit of 20000 exceeded, found 20101\./);
    expect(requests.requests).toBe(0);
  });

  it('refuses 30 aliased renames in one operation: at most one fan-out mutation per operation', async () => {
    const renames = Array.from({ length: 30 }, (_, i) => `r${i}: updateCourse(id: "A", input: { title: "T${i}" }) { id }`).join(' ');
    const { result, requests } = await gw.counted(`mutation { ${renames} }`);
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0].message).toMatch(/^At most 1 of updateStudent, updateCourse, deleteStudent, deleteCourse(, \w+)* per operation/);
    expect(requests.requests).toBe(0);
    expect((await gw.run(`{ course(id: "A") { title } }`)).data.course.title).not.toMatch(/^T\d+$/);
  });

  it('refuses a response-size bomb (29 aliases of cursor over 100 × 100 edges) by its field count', async () => {
    const cursors = Array.from({ length: 29 }, (_, i) => `c${i}: cursor`).join(' ');
    const { result, requests } = await gw.counted(
      `{ course(id: "A") { students(first: 100) { edges { node { courses(first: 100) { edges { ${cursors} } } } } } } }`,
    );
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0].message).toMatch(/^Response size limit of 50000 fields exceeded, found up to 290000\./);
    expect(requests.requests).toBe(0);
  });
});

describe('DynamoDB request caps per operation', () => {
  /** Every demo student of course A, each with 12 aliased connections: 1 + 1 + 4 × 12 Queries without a cap. */
  const wide = `{ course(id: "A") { students(first: 100) { edges { node { ${Array.from({ length: 12 }, (_, i) => `c${i}: courses(first: ${i + 1}) { edges { cursor } }`).join(' ')} } } } } }`;

  it('stops an operation at exactly its request cap with BAD_USER_INPUT and reason DYNAMODB_REQUEST_LIMIT', async () => {
    const capped = await testGateway({ requestLimits: { maxRequests: 10, maxInFlight: 4 } });
    try {
      await capped.put(demoItems());
      const uncapped = await gw.counted(wide);
      expect(uncapped.result.errors).toBeUndefined();
      expect(uncapped.requests.requests).toBeGreaterThan(10);

      const { result, requests } = await capped.counted(wide);
      expect(requests.requests).toBe(10);
      expect(new Set(codes(result))).toEqual(new Set(['BAD_USER_INPUT']));
      expect(result.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'DYNAMODB_REQUEST_LIMIT' });
      expect(result.errors![0].message).toMatch(/more than 10 DynamoDB requests/);
    } finally {
      await capped.stop();
    }
  });

  it('keeps at most the in-flight cap of requests of one operation outstanding, and still answers in full', async () => {
    const narrow = await testGateway({ requestLimits: { maxRequests: 2000, maxInFlight: 2 } });
    try {
      await narrow.put(demoItems());
      const free = await gw.counted(wide);
      const { result, requests } = await narrow.counted(wide);
      expect(result).toEqual(free.result);
      expect(requests.requests).toBe(free.requests.requests);
      expect(free.requests.maxConcurrency).toBeGreaterThan(2);
      expect(requests.maxConcurrency).toBe(2);
    } finally {
      await narrow.stop();
    }
  });
});
