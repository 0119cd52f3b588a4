/**
 * What is worked out once per document (argument checks, cost, look-ahead)
 * must still follow each request's variables: the same operation sent again
 * with other values is checked, weighed and read ahead for those values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoStudentsTwoCourses } from '../support/fixtures.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let cursorOfS1: string;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(twoStudentsTwoCourses());
  const r = await gw.run(`{ student(id: "s1") { courses(first: 1) { pageInfo { endCursor } } } }`);
  cursorOfS1 = r.data.student.courses.pageInfo.endCursor;
});
afterAll(() => gw.stop());

async function outcome(query: string, variables?: Record<string, unknown>) {
  const { result, requests } = await gw.counted(query, variables);
  return { codes: codes(result), requests: requests.requests, byOperation: requests.summary().byOperation };
}

const passed = expect.objectContaining({ codes: [] });
const refused = (code: string) => ({ codes: [code], requests: 0, byOperation: {} });

describe('argument checks of a repeated operation', () => {
  const BY_ID = 'query ($id: ID!) { student(id: $id) { name } }';

  it('refuses a bad id in a variable after the same operation passed with a good one, and passes a good one again', async () => {
    expect(await outcome(BY_ID, { id: 's1' })).toEqual(passed);
    expect(await outcome(BY_ID, { id: 'a#b' })).toEqual(refused('BAD_USER_INPUT'));
    expect(await outcome(BY_ID, { id: 's2' })).toEqual(passed);
  });

  it('refuses a literal bad id every time the operation is sent', async () => {
    for (let i = 0; i < 3; i++) expect(await outcome('{ student(id: "a#b") { name } }')).toEqual(refused('BAD_USER_INPUT'));
  });

  it("refuses a cursor sent in a variable once the parent's id in another variable no longer matches it", async () => {
    const query = 'query ($id: ID!, $after: String) { student(id: $id) { courses(first: 1, after: $after) { edges { node { id } } } } }';
    expect(await outcome(query, { id: 's1', after: cursorOfS1 })).toEqual(passed);
    expect(await outcome(query, { id: 's2', after: cursorOfS1 })).toEqual(refused('BAD_USER_INPUT'));
    expect(await outcome(query, { id: 's1', after: cursorOfS1 })).toEqual(passed);
  });

  it("refuses a literal cursor inside a field whose id comes from a variable, for another parent's id", async () => {
    const query = `query ($id: ID!) { student(id: $id) { courses(first: 1, after: ${JSON.stringify(cursorOfS1)}) { edges { node { id } } } } }`;
    expect(await outcome(query, { id: 's1' })).toEqual(passed);
    expect(await outcome(query, { id: 's2' })).toEqual(refused('BAD_USER_INPUT'));
  });
});

describe('cost of a repeated operation', () => {
  const NESTED =
    'query ($n: Int) { student(id: "s1") { courses(first: $n) { edges { node { students(first: $n) { edges { node { courses(first: $n) { totalCount } } } } } } } } }';

  it('weighs page sizes from variables on every request', async () => {
    expect(await outcome(NESTED, { n: 2 })).toEqual(passed);
    expect(await outcome(NESTED, { n: 100 })).toEqual(refused('GRAPHQL_VALIDATION_FAILED'));
    expect(await outcome(NESTED, { n: 2 })).toEqual(passed);
  });

  it('refuses an operation over the cost limit every time it is sent', async () => {
    const query = NESTED.replace('query ($n: Int) ', '').replaceAll('$n', '100');
    for (let i = 0; i < 3; i++) expect(await outcome(query)).toEqual(refused('GRAPHQL_VALIDATION_FAILED'));
  });
});

describe('look-ahead of a repeated operation', () => {
  it('reads ahead only while @include selects the connection', async () => {
    const query = 'query ($with: Boolean!) { student(id: "s1") { name courses(first: 10) @include(if: $with) { edges { node { id } } } } }';
    // Selected: the student and its page in one Query; not selected: the student alone.
    expect(await outcome(query, { with: true })).toMatchObject({ codes: [], byOperation: { Query: 1 } });
    expect(await outcome(query, { with: false })).toMatchObject({ codes: [], byOperation: { GetItem: 1 } });
    expect(await outcome(query, { with: true })).toMatchObject({ codes: [], byOperation: { Query: 1 } });
  });

  it('reads ahead with the page size of each request', async () => {
    const query = 'query ($n: Int) { student(id: "s1") { name courses(first: $n) { edges { node { id } } } } }';
    for (const [n, edges] of [
      [1, 1],
      [2, 2],
      [1, 1],
    ] as const) {
      const { result, requests } = await gw.counted(query, { n });
      expect(result.data.student.courses.edges).toHaveLength(edges);
      expect(requests.summary().byOperation).toEqual({ Query: 1 });
    }
  });
});
