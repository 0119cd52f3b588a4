/**
 * A course reached through an enrollment edge (`student { courses { node {
 * students } } }`) takes its shard layout from the edge's copy
 * (`courseShards`) instead of reading the course item; an edge without a
 * trustworthy copy falls back to the item; and a reshard keeps every page
 * reached that way exact at each of its steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/dynamo/batchGet.js';
import { counterShardKey, shardOf } from '../support/model.js';
import { courseCounterItems, courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import type { ReshardStep } from '../../src/writes/reshard.js';
import { reshardCourse } from '../support/writes.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const at = '2026-01-01T00:00:00.000Z';
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

/** A course of `shards` shards with these students enrolled as the gateway writes them, counters exact. */
async function seed(courseId: string, shards: number, students: string[], edge: (item: Item) => Item = (item) => item) {
  const counts = new Array(shards).fill(0);
  for (const s of students) counts[shardOf(s, shards)]++;
  await gw.put([
    courseItem({ id: courseId, title: `Course ${courseId}`, shards, studentCount: students.length }),
    ...(shards > 1 ? courseCounterItems(courseId, shards, counts) : []),
    ...students.map((s) => studentItem({ id: s, name: `Student ${s}`, courseCount: 1 })),
    ...students.map((s) =>
      edge(enrollmentItem({ studentId: s, courseId, shards, enrolledAt: at, courseTitle: `Course ${courseId}`, studentName: `Student ${s}` })),
    ),
  ]);
}

const nestedPage = (count: boolean) => `query ($id: ID!, $after: String) { student(id: $id) { courses(first: 10) { edges { node { id
  students(first: 5, after: $after) { ${count ? 'totalCount' : ''} pageInfo { hasNextPage endCursor } edges { node { id } } } } } } } }`;

/** Every page of the one course of `reader`, reached through the reader's edge; the ids and each page's requests. */
async function pageThrough(reader: string) {
  const seen: string[] = [];
  const requests: Record<string, number>[] = [];
  let after: string | null = null;
  for (let page = 0; page < 20; page++) {
    const { result, requests: metrics }: { result: any; requests: { summary(): { byOperation: Record<string, number> } } } = await gw.counted(
      nestedPage(false),
      { id: reader, after },
    );
    expect(result.errors).toBeUndefined();
    const students: any = result.data.student.courses.edges[0].node.students;
    seen.push(...students.edges.map((e: any) => e.node.id));
    requests.push(metrics.summary().byOperation);
    if (!students.pageInfo.hasNextPage) return { seen, requests };
    after = students.pageInfo.endCursor;
  }
  throw new Error('more pages than students');
}

/** The nested page of the reader's course (first 100), its totalCount and requests. */
async function nested(reader: string) {
  const { result, requests } = await gw.counted(
    `{ student(id: "${reader}") { courses(first: 10) { edges { node { students(first: 100) { totalCount edges { node { id } } } } } } } }`,
  );
  expect(result.errors).toBeUndefined();
  const students = (result.data as any).student.courses.edges[0].node.students;
  return { ids: students.edges.map((e: any) => e.node.id) as string[], total: students.totalCount as number, byOperation: requests.summary().byOperation };
}

describe('a course reached through an edge', () => {
  it('pages a sharded course exactly from the layout its edge carries, without reading the course item', async () => {
    const students = ids('a', 13);
    await seed('ca', 4, students);
    const { seen, requests } = await pageThrough('a00');
    expect(seen).toEqual(students);
    // Every page: the reader's courses (1 Query), then the 4 shards; no GetItem or BatchGetItem of the course.
    for (const byOperation of requests) expect(byOperation).toEqual({ Query: 5 });
    // totalCount: the 4 counter items (one BatchGetItem next to the shard Queries), still not the course item.
    const { result, requests: counted } = await gw.counted(nestedPage(true), { id: 'a00', after: null });
    expect((result.data as any).student.courses.edges[0].node.students.totalCount).toBe(13);
    expect(counted.summary()).toMatchObject({ requests: 6, byOperation: { Query: 5, BatchGetItem: 1 }, waves: 2 });
  });

  it('reads an unsharded course through its edge with one Query, and its count from the course item', async () => {
    const students = ids('u', 7);
    await seed('cu', 1, students);
    const { seen, requests } = await pageThrough('u03');
    expect(seen).toEqual(students);
    for (const byOperation of requests) expect(byOperation).toEqual({ Query: 2 });
    const { result } = await gw.counted(nestedPage(true), { id: 'u03', after: null });
    expect((result.data as any).student.courses.edges[0].node.students.totalCount).toBe(7);
  });

  it('falls back to the course item when the edge carries no layout copy, as edges written by other programs do', async () => {
    const students = ids('b', 9);
    await seed('cb', 4, students, ({ courseShards: _, ...item }) => item);
    expect((await gw.get('STUDENT#b00', 'COURSE#cb'))?.courseShards).toBeUndefined();
    const { seen, requests } = await pageThrough('b00');
    expect(seen).toEqual(students);
    // The course item (one GetItem) next to the speculative unsharded Query, then the 4 shards.
    for (const byOperation of requests) expect(byOperation).toEqual({ Query: 6, GetItem: 1 });
  });

  it('gets the missing copies written when resharded to the shard count it already has, moving nothing', async () => {
    const students = ids('g', 8);
    await seed('cg', 3, students, ({ courseShards: _, ...item }) => item);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    expect(await reshardCourse(store, 'cg', 3, { graceMs: 0, settleMs: 0, batchSize: 3, pauseMs: 0 })).toMatchObject({
      from: 3,
      to: 3,
      moved: 0,
      copiesRestored: 8,
    });
    const { seen, requests } = await pageThrough('g00');
    expect(seen).toEqual(students);
    for (const byOperation of requests) expect(byOperation).toEqual({ Query: 4 });
    expect((await gw.get('COURSE#cg', 'PROFILE'))?.reshardCopies).toBeUndefined();
  });

  it('falls back to the course item when the copy does not match where the edge is indexed', async () => {
    const students = ids('m', 6);
    // The edges are in the 4-shard layout but claim 1 shard (another program moved them without the copy).
    await seed('cm', 4, students, (item) => ({ ...item, courseShards: 1 }));
    const { seen, requests } = await pageThrough('m00');
    expect(seen).toEqual(students);
    for (const byOperation of requests) expect(byOperation).toEqual({ Query: 6, GetItem: 1 });
  });
});

describe('a course reached through an edge while it is resharded', () => {
  const pace = { graceMs: 20, settleMs: 0, batchSize: 4, pauseMs: 0 };
  const enroll = async (s: string, c: string) => {
    await gw.put([studentItem({ id: s, name: `Student ${s}` })]);
    const { errors } = await gw.run(`mutation { enroll(studentId: "${s}", courseId: "${c}") { node { id } } }`);
    expect(errors).toBeUndefined();
  };

  it('lists every student exactly once, counted exactly, at every step from 1 to 4 shards, enrollments made meanwhile included', async () => {
    const enrolled = ids('r', 10);
    await seed('cr', 1, enrolled);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    const steps: { step: ReshardStep; readsCourseItem: boolean }[] = [];
    const check = async (step: ReshardStep) => {
      // An enrollment at each step, then the reader (through its own edge) must list it with everyone else.
      const s = `r${steps.length}x`;
      await enroll(s, 'cr');
      enrolled.push(s);
      const { ids: listed, total } = await nested('r00');
      expect(listed, step).toEqual([...enrolled].sort());
      expect(total, step).toBe(enrolled.length);
      // Without totalCount, any GetItem/BatchGetItem is the course item, read for its layout.
      const { byOperation } = await gw.counted(nestedPage(false), { id: 'r00', after: null }).then((r) => ({ byOperation: r.requests.summary().byOperation }));
      steps.push({ step, readsCourseItem: (byOperation.GetItem ?? 0) + (byOperation.BatchGetItem ?? 0) > 0 });
    };
    const result = await reshardCourse(store, 'cr', 4, { ...pace, onStep: check });
    // The enrollments of the steps before the edges moved carry no copy; the reshard writes it on them (13 edges).
    expect(result).toMatchObject({ from: 1, to: 4, copiesRemoved: 10, copiesRestored: 13 });
    await check('copiesRestored');
    expect(steps.map((s) => s.step)).toEqual(['prepared', 'copiesRemoved', 'switched', 'moved', 'copiesRestored', 'copiesRestored']);
    // The edge's copy is trusted until the reshard removes it, and again once it is written back.
    expect(steps.map((s) => s.readsCourseItem)).toEqual([false, true, true, true, false, false]);
    const edges = (await gw.scan()).filter((i) => i.SK === 'COURSE#cr');
    expect(edges).toHaveLength(enrolled.length);
    for (const e of edges) {
      expect(e.courseShards).toBe(4);
      expect(e.GSI1PK).toBe(`COURSE#cr#${shardOf(String(e.PK).slice('STUDENT#'.length), 4)}`);
    }
    const { byOperation } = await nested('r00');
    expect(byOperation).toEqual({ Query: 5, BatchGetItem: 1 }); // the 4 counters for totalCount
    let counted = 0;
    for (let k = 0; k < 4; k++) counted += ((await gw.get(counterShardKey('cr', k).PK, 'COUNTER'))?.studentCount as number) ?? 0;
    expect(counted).toBe(enrolled.length);
  });

  it('keeps pages reached through edges exact while edges move under racing readers', async () => {
    const stable = ids('v', 24);
    await seed('cv', 2, stable);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    let moving = true;
    const problems: string[] = [];
    const reader = (async () => {
      let reads = 0;
      while (moving || reads < 3) {
        reads++;
        const { result } = await gw.counted(
          `{ student(id: "v05") { courses(first: 10) { edges { node { students(first: 100) { totalCount edges { node { id } } } } } } } }`,
        );
        if (result.errors) {
          // A page that found no quiet window between moves says so; never a wrong page.
          if (result.errors.some((e) => e.extensions?.code !== 'UNAVAILABLE')) problems.push(JSON.stringify(result.errors));
          continue;
        }
        const students = (result.data as any).student.courses.edges[0].node.students;
        const listed: string[] = students.edges.map((e: any) => e.node.id);
        if (listed.join() !== stable.join()) problems.push(`listed ${listed}`);
        if (students.totalCount !== stable.length) problems.push(`total ${students.totalCount}`);
      }
    })();
    try {
      await reshardCourse(store, 'cv', 5, { graceMs: 20, settleMs: 5, batchSize: 3, pauseMs: 5 });
    } finally {
      moving = false;
      await reader;
    }
    expect(problems).toEqual([]);
  });

  it('resumes a reshard interrupted after removing the copies, and a prepared reshard can be called off', async () => {
    const students = ids('w', 5);
    await seed('cw', 1, students);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    const stop = new Error('interrupted');
    await expect(
      reshardCourse(store, 'cw', 3, {
        ...pace,
        onStep: (step) => {
          if (step === 'copiesRemoved') throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(await gw.get('COURSE#cw', 'PROFILE')).toMatchObject({ reshardTo: 3 });
    // A different target is refused while one is prepared.
    await expect(reshardCourse(store, 'cw', 2, pace)).rejects.toThrow(/prepared for a reshard to 3/);
    expect((await nested('w00')).ids).toEqual(students);
    expect(await reshardCourse(store, 'cw', 3, pace)).toMatchObject({ from: 1, to: 3, moved: 5, copiesRemoved: 0, copiesRestored: 5 });
    expect((await nested('w00')).ids).toEqual(students);
    expect((await gw.get('STUDENT#w00', 'COURSE#cw'))?.courseShards).toBe(3);

    await expect(
      reshardCourse(store, 'cw', 1, {
        ...pace,
        onStep: (step) => {
          if (step === 'prepared') throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(await reshardCourse(store, 'cw', 3, pace)).toMatchObject({ from: 3, to: 3, moved: 0, copiesRestored: 0 });
    const course = await gw.get('COURSE#cw', 'PROFILE');
    expect(course?.reshardTo).toBeUndefined();
    expect(course?.shards).toBe(3);
    expect((await nested('w00')).ids).toEqual(students);
  });
});
