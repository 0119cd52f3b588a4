import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { codes, postGraphQL, testGateway, TEST_CURSOR_SECRET, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(demoItems());
});
afterAll(() => gw.stop());

const COURSES = `query($id: ID!, $after: String, $before: String, $first: Int, $last: Int) {
  student(id: $id) { courses(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

async function courseCursors(studentId: string): Promise<string[]> {
  const result = await gw.run(COURSES, { id: studentId });
  expect(result.errors).toBeUndefined();
  return result.data.student.courses.edges.map((e: any) => e.cursor);
}

/** Asks student 1's courses after `cursor`; expects BAD_USER_INPUT and no DynamoDB request at all. */
async function refusedWithoutRequests(cursor: string, argument: 'after' | 'before' = 'after') {
  const { result, requests } = await gw.counted(COURSES, { id: '1', [argument]: cursor });
  expect(codes(result)).toEqual(['BAD_USER_INPUT']);
  expect(requests.requests).toBe(0);
  return result.errors![0].message;
}

describe('signed cursors', () => {
  it('verifies and decodes each cursor once per request, though the argument check, look-ahead and the resolver all use it', async () => {
    const [, second] = await courseCursors('1');
    const codec = gw.deps.cursors;
    let opened = 0;
    gw.deps.cursors = { seal: (payload) => codec.seal(payload), open: (token) => (opened++, codec.open(token)) };
    try {
      const result = await gw.run(COURSES, { id: '1', first: 1, after: second });
      expect(result.errors).toBeUndefined();
      expect(result.data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['C']);
      expect(opened).toBe(1);
    } finally {
      gw.deps.cursors = codec;
    }
  });

  it('pages forward with endCursor as after and backward with startCursor as before', async () => {
    const first = await gw.run(COURSES, { id: '1', first: 1 });
    const page = first.data.student.courses;
    expect(page.edges.map((e: any) => e.node.id)).toEqual(['A']);
    const next = await gw.run(COURSES, { id: '1', first: 2, after: page.pageInfo.endCursor });
    expect(next.data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['B', 'C']);
    const back = await gw.run(COURSES, { id: '1', last: 1, before: next.data.student.courses.pageInfo.startCursor });
    expect(back.data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['A']);
  });

  it('refuses a cursor with one character flipped, before any DynamoDB request', async () => {
    const [cursor] = await courseCursors('1');
    for (const i of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const flipped = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
      await refusedWithoutRequests(flipped);
    }
  });

  it('refuses a truncated cursor, before any DynamoDB request', async () => {
    const [cursor] = await courseCursors('1');
    await refusedWithoutRequests(cursor.slice(0, -3));
    await refusedWithoutRequests(cursor.slice(0, 10), 'before');
  });

  it("refuses another student's cursor for the same connection, before any DynamoDB request", async () => {
    const [cursorOfStudent2] = await courseCursors('2');
    expect(await refusedWithoutRequests(cursorOfStudent2)).toMatch(/issued by another connection/);
  });

  it("refuses another student's cursor deep in a query, where the parent comes from data, before that connection's Query", async () => {
    const [cursorOfStudent2] = await courseCursors('2');
    const { result, requests } = await gw.counted(
      `query($after: String) { course(id: "B") { students { edges { node { id courses(after: $after) { totalCount } } } } } }`,
      { after: cursorOfStudent2 },
    );
    // Course B has students 1 and 3: the cursor belongs to neither (the first refusal nulls the non-null chain up to course).
    expect(result.data).toEqual({ course: null });
    expect(new Set(codes(result))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(result.errors!.every((e) => /issued by another connection/.test(e.message))).toBe(true);
    // The course and its students were read; no Student.courses Query was sent with a foreign start key.
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("refuses another connection's cursor (Course.students used on Student.courses), before any DynamoDB request", async () => {
    const result = await gw.run(`{ course(id: "A") { students { edges { cursor } } } }`);
    const foreign = result.data.course.students.edges[0].cursor;
    expect(await refusedWithoutRequests(foreign)).toMatch(/issued by another connection/);
  });

  it('refuses a hand-made base64 JSON start key, before any DynamoDB request', async () => {
    const handMade = Buffer.from(JSON.stringify({ v: 2, c: 'Student.courses', p: 'STUDENT#1', i: 'table', k: { PK: 'STUDENT#1', SK: 'COURSE#A' } })).toString(
      'base64url',
    );
    await refusedWithoutRequests(handMade);
    // …even shaped like a signed one, with a made-up signature.
    await refusedWithoutRequests(`${handMade}.AAAAAAAA.${'A'.repeat(43)}`);
  });

  it('refuses an old-format unsigned cursor (v1), before any DynamoDB request', async () => {
    const v1 = Buffer.from(JSON.stringify({ v: 1, c: 'Student.courses', p: 'STUDENT#1', k: { PK: 'STUDENT#1', SK: 'COURSE#A' } })).toString('base64url');
    expect(await refusedWithoutRequests(v1)).toMatch(/not a signed cursor/);
  });

  it('refuses a cursor signed with a secret the gateway does not hold, before any DynamoDB request', async () => {
    const stranger = createCursorCodec({ current: 'someone-elses-secret-0123456789abcdef' });
    const payload = JSON.stringify({ v: 2, c: 'Student.courses', p: 'STUDENT#1', i: 'table', k: { PK: 'STUDENT#1', SK: 'COURSE#A' } });
    expect(await refusedWithoutRequests(stranger.seal(payload))).toMatch(/unknown key/);
  });

  it('refuses cursors passed inline in the document as well as in variables', async () => {
    const { result, requests } = await gw.counted(`{ student(id: "1") { courses(after: "not-a-cursor") { totalCount } } }`);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
  });

  it('answers a refused cursor over HTTP with 200 and BAD_USER_INPUT under application/json, not 5xx', async () => {
    const url = await gw.listen();
    const { status, json } = await postGraphQL(url, { query: COURSES, variables: { id: '1', after: 'garbage' } });
    expect(status).toBe(200);
    expect(json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('cursor secret rotation', () => {
  it('accepts cursors of the previous secret after rotation and refuses them once it is dropped', async () => {
    const [oldCursor] = await courseCursors('1');
    const rotated = await testGateway({ cursorSecrets: { current: 'the-new-secret-after-rotation-0123456789', previous: [TEST_CURSOR_SECRET] } });
    const retired = await testGateway({ cursorSecrets: { current: 'the-new-secret-after-rotation-0123456789' } });
    try {
      await rotated.put(demoItems());
      const ok = await rotated.run(COURSES, { id: '1', after: oldCursor });
      expect(ok.errors).toBeUndefined();
      expect(ok.data.student.courses.edges.map((e: any) => e.node.id)).toEqual(['B', 'C']);
      const { result, requests } = await retired.counted(COURSES, { id: '1', after: oldCursor });
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(requests.requests).toBe(0);
    } finally {
      await rotated.stop();
      await retired.stop();
    }
  });
});
