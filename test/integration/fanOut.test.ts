/**
 * The in-request fan-out, as on a table without a stream (with a stream the
 * same work runs in the stream processor: stream.test.ts).
 * Writes over more edges than one page: renames reach every edge copy,
 * cascades leave nothing behind, and both finish when re-run after a crash
 * midway (injected by a client that fails after k edge writes). Pages are
 * made small (`writeOptions.pageSize`) so a few dozen edges span many.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { deleteCourse, deleteStudent, enroll, updateCourse, updateStudent } from '../support/writes.js';
import type { Store, WriteOptions } from '../../src/writes/store.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ fanOut: 'inRequest' });
});
afterAll(() => gw.stop());

const EDGES = 23;
const PAGE = 5;
const ids = (prefix: string, n = EDGES) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

/** A store over the test table that counts commands and can fail every command of a kind after the first `k`. */
function store(options: Partial<WriteOptions> = {}, crash?: { kind: new (...args: never[]) => unknown; after: number }) {
  const sent: Record<string, number> = {};
  const doc = {
    send: (command: object, ...rest: unknown[]) => {
      const name = command.constructor.name.replace(/Command$/, '');
      sent[name] = (sent[name] ?? 0) + 1;
      if (crash && command instanceof crash.kind && sent[name] > crash.after) {
        return Promise.reject(new Error('injected crash'));
      }
      return (gw.dynamo.doc.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    },
  } as unknown as DynamoDBDocumentClient;
  // atomicEdges 0: renames fan out however few edges there are (the atomic path has its own tests below).
  const s: Store = { doc, tableName: gw.tableName, plan: gw.plan, writeOptions: { atomicEdges: 0, pageSize: PAGE, concurrency: 3, ...options } };
  return { store: s, sent };
}

/** A course with EDGES students enrolled (copies and counters as the gateway would write them). */
async function courseWithStudents(courseId: string, title: string, prefix: string) {
  const students = ids(prefix);
  await gw.put([
    courseItem({ id: courseId, title, studentCount: students.length }),
    ...students.map((id) => studentItem({ id, name: `Name ${id}`, courseCount: 1 })),
    ...students.map((id) => enrollmentItem({ studentId: id, courseId, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: title, studentName: `Name ${id}` })),
  ]);
  return students;
}

const edgesOf = async (courseId: string) => (await gw.scan()).filter((i) => i.SK === `COURSE#${courseId}`);

describe('rename fan-out', () => {
  it('a course rename reaches every edge across many pages of GSI1', async () => {
    await courseWithStudents('RN', 'Old', 'rn');
    const { store: s, sent } = store();
    const course = await updateCourse(s, 'RN', { title: 'New' });
    expect(course.title).toBe('New');
    const edges = await edgesOf('RN');
    expect(edges).toHaveLength(EDGES);
    expect(edges.every((e) => e.courseTitle === 'New')).toBe(true);
    expect(sent.Query).toBeGreaterThanOrEqual(Math.ceil(EDGES / PAGE));
    expect(sent.Update).toBe(1 + EDGES);
  });

  it("a student rename reaches every edge in the student's collection", async () => {
    const courses = ids('SC');
    await gw.put([
      studentItem({ id: 'many', name: 'Before', courseCount: EDGES }),
      ...courses.map((c) => enrollmentItem({ studentId: 'many', courseId: c, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: c, studentName: 'Before' })),
    ]);
    await updateStudent(store().store, 'many', { name: 'After' });
    const edges = (await gw.scan()).filter((i) => i.PK === 'STUDENT#many' && i.SK !== 'PROFILE');
    expect(edges.map((e) => e.studentName)).toEqual(Array(EDGES).fill('After'));
  });

  it('re-running a rename that crashed after k edges completes it, writing only the edges it missed', async () => {
    await courseWithStudents('RC', 'Old', 'rc');
    const k = 7;
    const crashing = store({ concurrency: 1 }, { kind: UpdateCommand, after: 1 + k }); // the entity, then k edges
    await expect(updateCourse(crashing.store, 'RC', { title: 'New' })).rejects.toThrow('injected crash');
    const half = await edgesOf('RC');
    expect(half.filter((e) => e.courseTitle === 'New')).toHaveLength(k);
    expect((await gw.get('COURSE#RC', 'PROFILE'))?.title).toBe('New');

    const rerun = store();
    await updateCourse(rerun.store, 'RC', { title: 'New' });
    expect((await edgesOf('RC')).every((e) => e.courseTitle === 'New')).toBe(true);
    // The entity already has the title: only the missed copies are written.
    expect(rerun.sent.Update).toBe(EDGES - k);
  });

  it.each([
    ['fanned out', 0],
    ['in one transaction each', 99],
  ])('concurrent renames of one course (%s) converge on the title the course ends with', async (_, atomicEdges) => {
    const course = `RR${atomicEdges}`;
    await courseWithStudents(course, 'Old', `rr${atomicEdges}x`);
    await Promise.all(['One', 'Two', 'Three', 'Four'].map((title) => updateCourse(store({ atomicEdges }).store, course, { title })));
    const final = (await gw.get(`COURSE#${course}`, 'PROFILE'))?.title;
    const copies = new Set((await edgesOf(course)).map((e) => e.courseTitle));
    expect([...copies]).toEqual([final]);
  });

  it.each([
    ['fanned out', 0],
    ['in one transaction', 99],
  ])('does not resurrect an edge deleted between the edge read and the write (%s)', async (_, atomicEdges) => {
    const course = `RD${atomicEdges}`;
    const prefix = `rd${atomicEdges}x`;
    await courseWithStudents(course, 'Old', prefix);
    let deleted = false;
    const racing = store({ atomicEdges });
    const send = racing.store.doc.send.bind(racing.store.doc);
    // Between the fan-out's page read and its edge writes, another writer unenrolls the first student.
    racing.store.doc.send = (async (command: object, ...rest: unknown[]) => {
      const out = await (send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      if (command instanceof QueryCommand && !deleted) {
        deleted = true;
        const { unenroll } = await import('../support/writes.js');
        await unenroll({ doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan }, `${prefix}00`, course);
      }
      return out;
    }) as never;
    await updateCourse(racing.store, course, { title: 'New' });
    expect(await gw.get(`STUDENT#${prefix}00`, `COURSE#${course}`)).toBeUndefined();
    const edges = await edgesOf(course);
    expect(edges).toHaveLength(EDGES - 1);
    expect(edges.every((e) => e.courseTitle === 'New')).toBe(true);
    expect((await gw.get(`COURSE#${course}`, 'PROFILE'))?.studentCount).toBe(EDGES - 1);
    // In one transaction: the first one named the deleted edge, was cancelled whole, and was re-read and re-sent.
    // Fanned out, no transaction at all (each edge its own conditional write).
    expect(racing.sent.TransactWrite ?? 0).toBe(atomicEdges > 0 ? 2 : 0);
  });
});

describe('rename in one transaction', () => {
  it('up to atomicEdges edges: the entity and every copy change in a single transaction', async () => {
    await courseWithStudents('AT', 'Old', 'at');
    const { store: s, sent } = store({ atomicEdges: 99 });
    expect((await updateCourse(s, 'AT', { title: 'New' })).title).toBe('New');
    expect(sent.TransactWrite).toBe(1);
    expect(sent.Update).toBeUndefined();
    expect((await edgesOf('AT')).every((e) => e.courseTitle === 'New')).toBe(true);
  });

  it('a failed transaction leaves the entity and every copy as they were', async () => {
    await courseWithStudents('AF', 'Old', 'af');
    const before = await gw.scan();
    const failing = store({ atomicEdges: 99 }, { kind: TransactWriteCommand, after: 0 });
    await expect(updateCourse(failing.store, 'AF', { title: 'New' })).rejects.toThrow('injected crash');
    expect(await gw.scan()).toEqual(before);
  });

  it('99 edges fit one transaction (100 items); the 100th edge makes it a fan-out', async () => {
    const students = ids('big', 99);
    await gw.put([
      courseItem({ id: 'BIG', title: 'Old', studentCount: 99 }),
      ...students.map((id) => enrollmentItem({ studentId: id, courseId: 'BIG', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: id })),
    ]);
    const atomic = store({ atomicEdges: 99, pageSize: 100 });
    await updateCourse(atomic.store, 'BIG', { title: 'Ninety-nine' });
    expect(atomic.sent.TransactWrite).toBe(1);
    expect((await edgesOf('BIG')).every((e) => e.courseTitle === 'Ninety-nine')).toBe(true);

    await gw.put([enrollmentItem({ studentId: 'big99', courseId: 'BIG', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: 'x' })]);
    const fanned = store({ atomicEdges: 99, pageSize: 100 });
    await updateCourse(fanned.store, 'BIG', { title: 'Hundred' });
    expect(fanned.sent.TransactWrite).toBeUndefined();
    expect(fanned.sent.Update).toBe(1 + 100);
    expect((await edgesOf('BIG')).every((e) => e.courseTitle === 'Hundred')).toBe(true);
  });
});

describe('cascade delete', () => {
  it('deleting a course with many pages of edges leaves nothing behind and decrements every student', async () => {
    const students = await courseWithStudents('DC', 'Doomed', 'dc');
    const { store: s, sent } = store();
    expect(await deleteCourse(s, 'DC')).toBe('DC');
    expect(await gw.get('COURSE#DC', 'PROFILE')).toBeUndefined();
    expect(await edgesOf('DC')).toEqual([]);
    for (const id of students) expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(0);
    expect(sent.TransactWrite).toBe(EDGES + 1); // one per edge, then the course with its catalog counter
    expect(sent.Query).toBeGreaterThanOrEqual(Math.ceil(EDGES / PAGE));
  });

  it('deleting a student with many pages of edges leaves nothing behind and decrements every course', async () => {
    const courses = ids('DS');
    await gw.put([
      studentItem({ id: 'ds', name: 'Leaving', courseCount: EDGES }),
      ...courses.map((c) => courseItem({ id: c, title: c, studentCount: 1 })),
      ...courses.map((c) => enrollmentItem({ studentId: 'ds', courseId: c, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: c, studentName: 'Leaving' })),
    ]);
    expect(await deleteStudent(store().store, 'ds')).toBe('ds');
    expect((await gw.scan()).filter((i) => i.PK === 'STUDENT#ds')).toEqual([]);
    for (const c of courses) expect((await gw.get(`COURSE#${c}`, 'PROFILE'))?.studentCount).toBe(0);
  });

  it('a cascade that crashed after k edges keeps every counter exact, refuses new edges, and finishes when re-run', async () => {
    const students = await courseWithStudents('CR', 'Crashing', 'cr');
    const k = 9;
    const crashing = store({ concurrency: 1 }, { kind: TransactWriteCommand, after: k });
    await expect(deleteCourse(crashing.store, 'CR')).rejects.toThrow('injected crash');

    // Halfway: the course is marked and has no counter (totalCount is counted), k edges are gone with their counts.
    const course = await gw.get('COURSE#CR', 'PROFILE');
    expect(course).toHaveProperty('deletingAt');
    expect(course).not.toHaveProperty('studentCount');
    const remaining = await edgesOf('CR');
    expect(remaining).toHaveLength(EDGES - k);
    const enrolled = new Set(remaining.map((e) => e.PK));
    for (const id of students) {
      expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(enrolled.has(`STUDENT#${id}`) ? 1 : 0);
    }
    const seen = await gw.run(`{ course(id: "CR") { students { totalCount } } }`);
    expect(seen.data.course.students.totalCount).toBe(EDGES - k);
    await expect(enroll({ doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan }, students[0], 'CR')).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect(codes(await gw.run(`mutation { updateCourse(id: "CR", input: { title: "Zombie" }) { id } }`))).toEqual(['NOT_FOUND']);

    const rerun = await gw.run(`mutation { deleteCourse(id: "CR") }`);
    expect(rerun).toEqual({ data: { deleteCourse: 'CR' } });
    expect(await gw.get('COURSE#CR', 'PROFILE')).toBeUndefined();
    expect(await edgesOf('CR')).toEqual([]);
    for (const id of students) expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(0);
  });
});
