/**
 * Writes on write-sharded courses against DynamoDB Local: enroll/unenroll
 * touch the edge, the student's counter and one counter shard; counts stay
 * exact under racing enrollments; and a reshard moves every edge and count
 * while readers and writers keep going, every stable student listed exactly
 * once throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogKeys } from '../support/defaultItems.js';
import { counterShardKey, shardOf } from '../support/model.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { reshardCourse } from '../support/writes.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
const students = Array.from({ length: 60 }, (_, i) => `u${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  // Generous timeouts: racing transactions on a busy machine must not time out into UNAVAILABLE.
  gw = await testGateway({ client: { requestTimeoutMs: 15_000 } });
  await gw.put(students.map((id) => studentItem({ id, name: `Student ${id}` })));
});
afterAll(() => gw.stop());

const enroll = (s: string, c: string) => gw.run(`mutation { enroll(studentId: "${s}", courseId: "${c}") { node { id } } }`);
const unenroll = (s: string, c: string) => gw.run(`mutation { unenroll(studentId: "${s}", courseId: "${c}") }`);

async function listing(course: string) {
  const { data, errors } = await gw.run(`{ course(id: "${course}") { students(first: 100) { totalCount edges { node { id } } } } }`);
  expect(errors).toBeUndefined();
  return { ids: data.course.students.edges.map((e: any) => e.node.id) as string[], total: data.course.students.totalCount as number };
}

async function counterSum(course: string, shards: number) {
  let sum = 0;
  for (let k = 0; k < shards; k++) sum += ((await gw.get(counterShardKey(course, k).PK, 'COUNTER'))?.studentCount as number) ?? 0;
  return sum;
}

describe('enroll and unenroll on a sharded course', () => {
  beforeAll(async () => {
    await gw.run(`mutation { createCourse(input: { id: "s8", title: "Sharded", shards: 8 }) { id } }`);
  });

  it("writes the edge under the student's shard and counts it in that shard's counter, never on the course item", async () => {
    const { result, requests } = await gw.counted(`mutation { enroll(studentId: "u01", courseId: "s8") { node { id } } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    const k = shardOf('u01', 8);
    expect(await gw.get('STUDENT#u01', 'COURSE#s8')).toMatchObject({ GSI1PK: `COURSE#s8#${k}`, GSI1SK: 'STUDENT#u01', courseTitle: 'Sharded' });
    expect(await gw.get(`COURSE#s8#${k}`, 'COUNTER')).toMatchObject({ studentCount: 1 });
    expect(await gw.get('COURSE#s8', 'PROFILE')).toEqual({
      PK: 'COURSE#s8',
      SK: 'PROFILE',
      ...catalogKeys('COURSE', 's8', 'Sharded'),
      title: 'Sharded',
      shards: 8,
    });
    expect((await gw.get('STUDENT#u01', 'PROFILE'))?.courseCount).toBe(1);
    expect(await listing('s8')).toEqual({ ids: ['u01'], total: 1 });
  });

  it('answers CONFLICT for a second enrollment and NOT_FOUND for unenrolling twice, counts unchanged', async () => {
    expect(codes(await enroll('u01', 's8'))).toEqual(['CONFLICT']);
    expect((await unenroll('u01', 's8')).data).toEqual({ unenroll: true });
    expect(codes(await unenroll('u01', 's8'))).toEqual(['NOT_FOUND']);
    expect(await counterSum('s8', 8)).toBe(0);
    expect((await gw.get('STUDENT#u01', 'PROFILE'))?.courseCount).toBe(0);
  });

  it('keeps totalCount and every counter exact under racing enrollments and unenrollments', async () => {
    const first = await Promise.all(students.slice(0, 24).map((s) => enroll(s, 's8')));
    expect(first.flatMap((r) => codes(r))).toEqual([]);
    const results = await Promise.all([
      ...students.slice(0, 12).map((s) => unenroll(s, 's8')),
      ...students.slice(24, 36).map((s) => enroll(s, 's8')),
      ...students.slice(12, 18).map((s) => enroll(s, 's8')), // already enrolled: CONFLICT
    ]);
    expect(results.flatMap((r) => codes(r)).filter((c) => c !== 'CONFLICT')).toEqual([]);
    const expected = students.slice(12, 36);
    expect(await listing('s8')).toEqual({ ids: expected, total: expected.length });
    expect(await counterSum('s8', 8)).toBe(expected.length);
    for (let k = 0; k < 8; k++) {
      const inShard = expected.filter((s) => shardOf(s, 8) === k).length;
      expect((await gw.get(`COURSE#s8#${k}`, 'COUNTER'))?.studentCount).toBe(inShard);
    }
  });

  it("takes a deleted student's enrollment out of the course's counter shard", async () => {
    await gw.put([studentItem({ id: 'leaver', name: 'Leaver' })]);
    expect(codes(await enroll('leaver', 's8'))).toEqual([]);
    const before = await listing('s8');
    expect(codes(await gw.run(`mutation { deleteStudent(id: "leaver") }`))).toEqual([]);
    await gw.settle(); // the cascade finishes through the table's stream
    const after = await listing('s8');
    expect(after.ids).toEqual(before.ids.filter((id) => id !== 'leaver'));
    expect(after.total).toBe(before.total - 1);
    expect(await counterSum('s8', 8)).toBe(after.total);
  });

  it('counts nothing into a shard whose counter another program does not keep, and still lists the edge', async () => {
    await gw.put([{ PK: 'COURSE#foreign', SK: 'PROFILE', title: 'Foreign', shards: 4 }]);
    expect(codes(await enroll('u05', 'foreign'))).toEqual([]);
    expect(await gw.get(`COURSE#foreign#${shardOf('u05', 4)}`, 'COUNTER')).toBeUndefined();
    expect(await listing('foreign')).toEqual({ ids: ['u05'], total: 1 });
    expect((await unenroll('u05', 'foreign')).data).toEqual({ unenroll: true });
    expect(await listing('foreign')).toEqual({ ids: [], total: 0 });
  });
});

describe('npm run reshard', () => {
  const pace = { graceMs: 100, settleMs: 0, batchSize: 5, pauseMs: 5 };

  it('moves every edge and count from 1 to 8 to 3 to 1 shards, each result listed once and counted exactly', async () => {
    const initial = students.slice(0, 12);
    await gw.put([
      courseItem({ id: 'move', title: 'Move', studentCount: initial.length }),
      ...initial.map((s) =>
        enrollmentItem({ studentId: s, courseId: 'move', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Move', studentName: `Student ${s}` }),
      ),
    ]);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    for (const n of [8, 3, 1]) {
      const result = await reshardCourse(store, 'move', n, pace);
      expect(result.to).toBe(n);
      expect(await listing('move')).toEqual({ ids: initial, total: initial.length });
      const items = await gw.scan();
      const edges = items.filter((i) => i.SK === 'COURSE#move');
      expect(edges.every((e) => e.GSI1PK === (n === 1 ? 'COURSE#move' : `COURSE#move#${shardOf(String(e.PK).slice(8), n)}`))).toBe(true);
      const counters = items.filter((i) => String(i.PK).startsWith('COURSE#move#'));
      expect(counters).toHaveLength(n === 1 ? 0 : n);
      const course = items.find((i) => i.PK === 'COURSE#move' && i.SK === 'PROFILE')!;
      expect(course.reshardFrom).toBeUndefined();
      expect(course.shards).toBe(n);
    }
  });

  it('keeps every student that nobody touches listed exactly once, and counts exact, while enrollments race the move', async () => {
    const stable = students.slice(0, 30);
    const churn = students.slice(30);
    await gw.put([
      courseItem({ id: 'live', title: 'Live', studentCount: stable.length }),
      ...stable.map((s) =>
        enrollmentItem({ studentId: s, courseId: 'live', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Live', studentName: `Student ${s}` }),
      ),
    ]);
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    let moving = true;
    const problems: string[] = [];
    const reader = (async () => {
      let reads = 0;
      while (moving || reads < 3) {
        reads++;
        const { data, errors } = await gw.run(`{ course(id: "live") { students(first: 100) { totalCount edges { node { id } } } } }`);
        if (errors) {
          // A page that found no quiet window between moves says so; never a wrong page.
          if (codes({ errors }).some((c) => c !== 'UNAVAILABLE')) problems.push(JSON.stringify(errors));
          continue;
        }
        const ids: string[] = data.course.students.edges.map((e: any) => e.node.id);
        if (new Set(ids).size !== ids.length) problems.push(`duplicate in ${ids}`);
        const missing = stable.filter((s) => !ids.includes(s));
        if (missing.length) problems.push(`missing ${missing}`);
        const total = data.course.students.totalCount;
        if (total < stable.length || total > stable.length + churn.length) problems.push(`total ${total}`);
      }
    })();
    const writer = (async () => {
      for (const s of churn) {
        await enroll(s, 'live');
        if (s.endsWith('0') || s.endsWith('5')) await unenroll(s, 'live');
      }
    })();
    await reshardCourse(store, 'live', 8, pace);
    moving = false;
    await Promise.all([reader, writer]);
    expect(problems).toEqual([]);
    // A sweep after the writers finished leaves no edge behind; the move is idempotent.
    await reshardCourse(store, 'live', 8, pace);
    const expected = [...stable, ...churn.filter((s) => !(s.endsWith('0') || s.endsWith('5')))].sort();
    expect(await listing('live')).toEqual({ ids: expected, total: expected.length });
    expect(await counterSum('live', 8)).toBe(expected.length);
    expect((await gw.get('COURSE#live', 'PROFILE'))?.studentCount ?? 0).toBe(0);
  });

  it('refuses a shard count outside 1–64, a missing course, and a course whose count is not kept, changing nothing', async () => {
    const store = { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan };
    await gw.put([{ PK: 'COURSE#uncounted', SK: 'PROFILE', title: 'Uncounted' }]);
    await expect(reshardCourse(store, 'uncounted', 4, pace)).rejects.toThrow(/not maintained/);
    expect(await gw.get('COURSE#uncounted', 'PROFILE')).toEqual({ PK: 'COURSE#uncounted', SK: 'PROFILE', title: 'Uncounted' });
    await expect(reshardCourse(store, 'live', 65, pace)).rejects.toThrow(/between 1 and 64/);
    await expect(reshardCourse(store, 'nope', 4, pace)).rejects.toThrow(/not found/);
  });
});
