/** Bad arguments are refused with BAD_USER_INPUT before any DynamoDB request. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoStudentsTwoCourses } from '../support/fixtures.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let cursorOfS1: string;
let cursorOfCourse: string;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(twoStudentsTwoCourses());
  const r = await gw.run(
    `{ student(id: "s1") { courses(first: 1) { pageInfo { endCursor } } } course(id: "a") { students(first: 1) { pageInfo { endCursor } } } }`,
  );
  cursorOfS1 = r.data.student.courses.pageInfo.endCursor;
  cursorOfCourse = r.data.course.students.pageInfo.endCursor;
});
afterAll(() => gw.stop());

async function refused(query: string) {
  const { result, requests } = await gw.counted(query);
  expect(codes(result)).toEqual(['BAD_USER_INPUT']);
  expect(requests.requests).toBe(0);
  return result.errors![0].message;
}

describe('page arguments', () => {
  it.each([
    ['first above 100', 'first: 101'],
    ['first below 0', 'first: -1'],
    ['last above 100', 'last: 101'],
    ['last below 0', 'last: -5'],
    ['first with last', 'first: 1, last: 1'],
  ])('rejects %s', async (_, args) => {
    const message = await refused(`{ course(id: "a") { students(${args}) { totalCount } } }`);
    expect(message).toMatch(/first|last/);
  });

  it('accepts the bounds 0 and 100', async () => {
    const result = await gw.run(`{ student(id: "s1") { a: courses(first: 0) { totalCount } b: courses(last: 100) { totalCount } } }`);
    expect(result.errors).toBeUndefined();
  });
});

describe('cursors', () => {
  it.each([
    ['a string that is not base64 JSON', '!!!'],
    ['an empty string', ''],
    ['hand-made base64 JSON of a key', Buffer.from(JSON.stringify({ PK: 'STUDENT#s1', SK: 'COURSE#a' })).toString('base64url')],
    ['a truncated cursor', 'TRUNCATED'],
    ['an oversized cursor', 'x'.repeat(5000)],
  ])('rejects %s', async (_, cursor) => {
    const c = cursor === 'TRUNCATED' ? cursorOfS1.slice(0, -6) : cursor;
    await refused(`{ student(id: "s1") { courses(after: ${JSON.stringify(c)}) { totalCount } } }`);
  });

  it('rejects a cursor issued for another student', async () => {
    const message = await refused(`{ student(id: "s2") { courses(after: "${cursorOfS1}") { totalCount } } }`);
    expect(message).toMatch(/another connection/);
  });

  it('rejects a cursor issued by another connection', async () => {
    await refused(`{ student(id: "s1") { courses(before: "${cursorOfCourse}") { totalCount } } }`);
  });

  it('accepts the cursor for the connection that issued it', async () => {
    const result = await gw.run(`{ student(id: "s1") { courses(after: "${cursorOfS1}") { edges { node { id } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student.courses.edges).toEqual([{ node: { id: 'b' } }]);
  });
});

describe('ids', () => {
  it.each([
    ['an empty id', ''],
    ['an id over 128 characters', 'x'.repeat(129)],
    ['an id containing #', 'a#b'],
  ])('rejects %s on every entity query', async (_, id) => {
    for (const field of ['student', 'course', 'customer', 'order', 'product']) {
      await refused(`{ ${field}(id: ${JSON.stringify(id)}) { id } }`);
    }
  });

  it('accepts an id of exactly 128 characters', async () => {
    const result = await gw.run(`{ student(id: "${'x'.repeat(128)}") { id } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student).toBeNull();
  });
});
