/**
 * Write-sharded courses through the gateway, on a table written by another
 * program in the sharded layout: Course.students merges the shards exactly,
 * totalCount sums the counter items (or counts a shard whose counter is
 * absent), bad cursors are refused before any request, and createCourse
 * takes a shard count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COUNT_ATTR } from '../../src/dynamo/keys.js';
import { catalogCounterKey, catalogKeys, catalogShardOf } from '../support/defaultItems.js';
import { counterShardKey, shardOf } from '../support/model.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const ids = Array.from({ length: 17 }, (_, i) => `s${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  gw = await testGateway();
  const items = [
    // Written as another program would: plain maps in the contract's layout, no gateway helpers for the course.
    { PK: 'COURSE#hot', SK: 'PROFILE', title: 'Hot', shards: 7 },
    { PK: 'COURSE#nocount', SK: 'PROFILE', title: 'No counters', shards: 4 },
    { PK: 'COURSE#tiny', SK: 'PROFILE', title: 'Tiny', shards: 64 },
    courseItem({ id: 'plain', title: 'Plain', studentCount: 3 }),
  ];
  const counts = new Array(7).fill(0);
  for (const id of ids) {
    items.push(studentItem({ id, name: `Student ${id}` }));
    items.push({
      PK: `STUDENT#${id}`,
      SK: 'COURSE#hot',
      GSI1PK: `COURSE#hot#${shardOf(id, 7)}`,
      GSI1SK: `STUDENT#${id}`,
      enrolledAt: '2026-01-01T00:00:00.000Z',
      studentName: `Student ${id}`,
    });
    counts[shardOf(id, 7)]++;
    items.push(
      enrollmentItem({
        studentId: id,
        courseId: 'nocount',
        shards: 4,
        enrolledAt: '2026-01-01T00:00:00.000Z',
        courseTitle: 'No counters',
        studentName: `Student ${id}`,
      }),
    );
  }
  counts.forEach((studentCount, k) => items.push({ ...counterShardKey('hot', k), studentCount }));
  for (const id of ids.slice(0, 2))
    items.push(
      enrollmentItem({
        studentId: id,
        courseId: 'tiny',
        shards: 64,
        enrolledAt: '2026-01-01T00:00:00.000Z',
        courseTitle: 'Tiny',
        studentName: `Student ${id}`,
      }),
    );
  for (const id of ids.slice(0, 3))
    items.push(
      enrollmentItem({ studentId: id, courseId: 'plain', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Plain', studentName: `Student ${id}` }),
    );
  await gw.put(items);
});
afterAll(() => gw.stop());

const PAGE = `pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id name } }`;

async function walk(course: string, size: number, forward: boolean) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const arg: string = forward ? `first: ${size}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${size}${cursor ? `, before: "${cursor}"` : ''}`;
    const { data, errors } = await gw.run(`{ course(id: "${course}") { students(${arg}) { ${PAGE} } } }`);
    expect(errors).toBeUndefined();
    const conn = data.course.students;
    const page = conn.edges.map((e: any) => e.node.id);
    if (forward) seen.push(...page);
    else seen.unshift(...page);
    const more = forward ? conn.pageInfo.hasNextPage : conn.pageInfo.hasPreviousPage;
    if (!more) return seen;
    expect(page).toHaveLength(size);
    cursor = forward ? conn.pageInfo.endCursor : conn.pageInfo.startCursor;
  }
  throw new Error('no end');
}

describe('a sharded course written by another program', () => {
  it('pages its students exactly once in id order, forward and backward', async () => {
    expect(await walk('hot', 4, true)).toEqual(ids);
    expect(await walk('hot', 5, false)).toEqual(ids);
    expect(await walk('tiny', 2, true)).toEqual(ids.slice(0, 2));
    expect(await walk('plain', 2, false)).toEqual(ids.slice(0, 3));
  });

  it('reads the names from the edge copies and totalCount from the N counter items in one BatchGetItem', async () => {
    const { result, requests } = await gw.counted(`{ course(id: "hot") { title students(first: 3) { totalCount edges { node { id name } } } } }`);
    expect(result.data.course.students).toEqual({
      totalCount: 17,
      edges: ids.slice(0, 3).map((id) => ({ node: { id, name: `Student ${id}` } })),
    });
    // Wave 1: the course item and, speculatively, its unsharded partition; wave 2: 7 shard Queries and the 7 counters.
    expect(requests.summary()).toMatchObject({ requests: 10, byOperation: { GetItem: 1, Query: 8, BatchGetItem: 1 }, waves: 2 });
  });

  it('counts a shard whose counter item is absent instead of guessing', async () => {
    const { data } = await gw.run(`{ course(id: "nocount") { students(first: 0) { totalCount } } }`);
    expect(data.course.students.totalCount).toBe(17);
  });

  it("refuses a tampered cursor or another course's cursor before any DynamoDB request", async () => {
    const { data } = await gw.run(`{ course(id: "hot") { students(first: 2) { pageInfo { endCursor } } } }`);
    const cursor = data.course.students.pageInfo.endCursor;
    for (const [course, after] of [
      ['hot', cursor.slice(0, -3) + 'AAA'],
      ['plain', cursor],
      ['tiny', cursor],
    ]) {
      const { result, requests } = await gw.counted(`{ course(id: "${course}") { students(first: 2, after: "${after}") { edges { node { id } } } } }`);
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(requests.requests).toBe(0);
    }
  });
});

describe('createCourse with shards', () => {
  it('creates the course and its counter items at 0, and reads an empty sharded course', async () => {
    const { data, errors } = await gw.run(
      `mutation { createCourse(input: { id: "new8", title: "New", shards: 8 }) { id students { totalCount edges { cursor } } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.createCourse).toEqual({ id: 'new8', students: { totalCount: 0, edges: [] } });
    expect(await gw.get('COURSE#new8', 'PROFILE')).toMatchObject({ title: 'New', shards: 8 });
    expect((await gw.get('COURSE#new8', 'PROFILE'))!.studentCount).toBeUndefined();
    for (let k = 0; k < 8; k++) expect(await gw.get(`COURSE#new8#${k}`, 'COUNTER')).toMatchObject({ studentCount: 0 });
  });

  it('keeps shards: 1 (and no shards) the unsharded layout', async () => {
    await gw.run(`mutation { createCourse(input: { id: "one", title: "One", shards: 1 }) { id } }`);
    expect(await gw.get('COURSE#one', 'PROFILE')).toEqual({
      PK: 'COURSE#one',
      SK: 'PROFILE',
      ...catalogKeys('COURSE', 'one', 'One'),
      title: 'One',
      studentCount: 0,
    });
  });

  it('lists a sharded course in the course catalog and counts it there, in the one transaction that creates it', async () => {
    const counter = catalogCounterKey('COURSE', catalogShardOf('cat8'));
    const before = Number((await gw.get(counter.PK, counter.SK))?.[CATALOG_COUNT_ATTR] ?? 0);
    const { result, requests } = await gw.counted(`mutation { createCourse(input: { id: "cat8", title: "Catalogued", shards: 8 }) { id } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect((await gw.get(counter.PK, counter.SK))?.[CATALOG_COUNT_ATTR]).toBe(before + 1);
    expect(await gw.get('COURSE#cat8', 'PROFILE')).toMatchObject(catalogKeys('COURSE', 'cat8', 'Catalogued'));
    const { data } = await gw.run(`{ courses(titlePrefix: "catalogued", first: 5) { edges { node { id } } } }`);
    expect(data.courses.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['cat8']);
  });

  it('refuses a shard count outside 1–64 with BAD_USER_INPUT and writes nothing', async () => {
    for (const n of [0, 65, -1]) {
      const { result, requests } = await gw.counted(`mutation { createCourse(input: { id: "bad${n}", title: "Bad", shards: ${n} }) { id } }`);
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(requests.requests).toBe(0);
    }
  });
});
