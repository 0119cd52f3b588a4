/**
 * Model-based check of the student/course mutations: random sequences of
 * create / enroll / unenroll / rename / delete run through GraphQL against
 * DynamoDB Local and against an in-memory model. Every answer (success or
 * error code) must match the model, and afterwards the stored items must be
 * exactly the model's: entities with their names and counters, edges with
 * both keys and current copies, nothing left of deleted entities.
 *
 * Renames and deletes finish through the table's stream: the model treats a
 * delete as done once the stream processor has caught up (the state while
 * it is pending is stream.test.ts's business), and the final comparison
 * waits for the processor too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

const S = ['s1', 's2', 's3'];
const C = ['c1', 'c2', 'c3'];

type Op =
  | { op: 'createStudent' | 'deleteStudent'; s: string }
  | { op: 'createCourse' | 'deleteCourse'; c: string }
  | { op: 'enroll' | 'unenroll'; s: string; c: string }
  | { op: 'renameStudent'; s: string; name: string }
  | { op: 'renameCourse'; c: string; name: string };

const s = fc.constantFrom(...S);
const c = fc.constantFrom(...C);
const name = fc.constantFrom('Ada', 'Bo', 'Cy');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('createStudent' as const, 'deleteStudent' as const), s }),
  fc.record({ op: fc.constantFrom('createCourse' as const, 'deleteCourse' as const), c }),
  { arbitrary: fc.record({ op: fc.constantFrom('enroll' as const, 'unenroll' as const), s, c }), weight: 4 },
  fc.record({ op: fc.constant('renameStudent' as const), s, name }),
  fc.record({ op: fc.constant('renameCourse' as const), c, name }),
);

interface Model {
  students: Map<string, string>;
  courses: Map<string, string>;
  edges: Set<string>;
}

/** What the model says the mutation answers: 'ok' or an error code. */
function apply(m: Model, o: Op): string {
  const edge = (st: string, co: string) => `${st}|${co}`;
  switch (o.op) {
    case 'createStudent':
      if (m.students.has(o.s)) return 'CONFLICT';
      m.students.set(o.s, `Student ${o.s}`);
      return 'ok';
    case 'createCourse':
      if (m.courses.has(o.c)) return 'CONFLICT';
      m.courses.set(o.c, `Course ${o.c}`);
      return 'ok';
    case 'enroll':
      if (!m.students.has(o.s) || !m.courses.has(o.c)) return 'NOT_FOUND';
      if (m.edges.has(edge(o.s, o.c))) return 'CONFLICT';
      m.edges.add(edge(o.s, o.c));
      return 'ok';
    case 'unenroll':
      return m.edges.delete(edge(o.s, o.c)) ? 'ok' : 'NOT_FOUND';
    case 'renameStudent':
      if (!m.students.has(o.s)) return 'NOT_FOUND';
      m.students.set(o.s, o.name);
      return 'ok';
    case 'renameCourse':
      if (!m.courses.has(o.c)) return 'NOT_FOUND';
      m.courses.set(o.c, o.name);
      return 'ok';
    case 'deleteStudent':
      if (!m.students.delete(o.s)) return 'NOT_FOUND';
      for (const e of [...m.edges]) if (e.startsWith(`${o.s}|`)) m.edges.delete(e);
      return 'ok';
    case 'deleteCourse':
      if (!m.courses.delete(o.c)) return 'NOT_FOUND';
      for (const e of [...m.edges]) if (e.endsWith(`|${o.c}`)) m.edges.delete(e);
      return 'ok';
    default: {
      const never: never = o;
      throw new Error(`unknown op ${JSON.stringify(never)}`);
    }
  }
}

function mutation(o: Op, p: string): [string, Record<string, unknown>] {
  switch (o.op) {
    case 'createStudent':
      return [`mutation($id: ID!, $n: String!) { createStudent(input: { id: $id, name: $n }) { id } }`, { id: p + o.s, n: `Student ${o.s}` }];
    case 'createCourse':
      return [`mutation($id: ID!, $n: String!) { createCourse(input: { id: $id, title: $n }) { id } }`, { id: p + o.c, n: `Course ${o.c}` }];
    case 'enroll':
      return [`mutation($s: ID!, $c: ID!) { enroll(studentId: $s, courseId: $c) { cursor } }`, { s: p + o.s, c: p + o.c }];
    case 'unenroll':
      return [`mutation($s: ID!, $c: ID!) { unenroll(studentId: $s, courseId: $c) }`, { s: p + o.s, c: p + o.c }];
    case 'renameStudent':
      return [`mutation($id: ID!, $n: String!) { updateStudent(id: $id, input: { name: $n }) { id } }`, { id: p + o.s, n: o.name }];
    case 'renameCourse':
      return [`mutation($id: ID!, $n: String!) { updateCourse(id: $id, input: { title: $n }) { id } }`, { id: p + o.c, n: o.name }];
    case 'deleteStudent':
      return [`mutation($id: ID!) { deleteStudent(id: $id) }`, { id: p + o.s }];
    case 'deleteCourse':
      return [`mutation($id: ID!) { deleteCourse(id: $id) }`, { id: p + o.c }];
  }
}

let run = 0;

describe('student/course mutations against a model', () => {
  it('answer like the model and leave exactly the model in the table', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 18 }), async (ops) => {
        const p = `m${run++}x`;
        const model: Model = { students: new Map(), courses: new Map(), edges: new Set() };
        for (const o of ops) {
          const expected = apply(model, o);
          const [query, variables] = mutation(o, p);
          const result = await gw.run(query, variables);
          expect(result.errors ? codes(result)[0] : 'ok', JSON.stringify(o)).toBe(expected);
          if (o.op === 'deleteStudent' || o.op === 'deleteCourse') await gw.settle();
        }
        await gw.settle();
        for (const st of S) {
          const item = await gw.get(`STUDENT#${p}${st}`, 'PROFILE');
          if (!model.students.has(st)) {
            expect(item).toBeUndefined();
            continue;
          }
          const count = [...model.edges].filter((e) => e.startsWith(`${st}|`)).length;
          expect(item).toMatchObject({ name: model.students.get(st), courseCount: count });
        }
        for (const co of C) {
          const item = await gw.get(`COURSE#${p}${co}`, 'PROFILE');
          if (!model.courses.has(co)) {
            expect(item).toBeUndefined();
            continue;
          }
          const count = [...model.edges].filter((e) => e.endsWith(`|${co}`)).length;
          expect(item).toMatchObject({ title: model.courses.get(co), studentCount: count });
        }
        for (const st of S) {
          for (const co of C) {
            const edge = await gw.get(`STUDENT#${p}${st}`, `COURSE#${p}${co}`);
            if (!model.edges.has(`${st}|${co}`)) {
              expect(edge).toBeUndefined();
              continue;
            }
            expect(edge).toMatchObject({
              GSI1PK: `COURSE#${p}${co}`,
              GSI1SK: `STUDENT#${p}${st}`,
              studentName: model.students.get(st),
              courseTitle: model.courses.get(co),
            });
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
