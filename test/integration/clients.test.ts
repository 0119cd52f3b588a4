/**
 * The client setups of docs/clients.md, run against a gateway over HTTP on
 * 127.0.0.1: Apollo Client and urql page through connections forward and
 * backward with the typed operations of clients/operations.ts, and read the
 * codes of refused operations; Relay's refetch query for a @refetchable
 * fragment on Student (through node and globalId) pages a connection.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';
import { createApolloClient } from '../../clients/apolloClient.js';
import { createUrqlClient } from '../../clients/urqlClient.js';
import { CourseStudents, Enroll, StudentCourses } from '../../clients/operations.js';
import type { StudentCoursesQuery } from '../../clients/__generated__/graphql.js';

let gw: TestGateway;
let url: string;
/** The same data behind the authorization rules (AUTH_MODE=oidc). */
let secured: TestGateway;
let securedUrl: string;
let issuer: TestIssuer;

const COURSES = ['c1', 'c2', 'c3', 'c4', 'c5'];
const STUDENTS = ['p1', 'p2', 'p3', 'p4', 'p5'];
const at = (i: number) => `2026-02-0${i + 1}T10:00:00.000Z`;

beforeAll(async () => {
  issuer = await startTestIssuer();
  [gw, secured] = await Promise.all([testGateway(), testGateway({ auth: testAuthenticator(issuer).auth })]);
  // p1 takes c1…c5; c1 is taken by p1…p5 (enrolled on successive days).
  const items = [
    ...STUDENTS.map((id, i) => studentItem({ id, name: `Student ${i + 1}`, courseCount: id === 'p1' ? 5 : 1 })),
    ...COURSES.map((id, i) => courseItem({ id, title: `Course ${i + 1}`, studentCount: id === 'c1' ? 5 : 1 })),
    ...COURSES.map((courseId, i) => enrollmentItem({ studentId: 'p1', courseId, enrolledAt: at(i), courseTitle: `Course ${i + 1}`, studentName: 'Student 1' })),
    ...STUDENTS.slice(1).map((studentId, i) =>
      enrollmentItem({ studentId, courseId: 'c1', enrolledAt: at(i + 1), courseTitle: 'Course 1', studentName: `Student ${i + 2}` }),
    ),
  ];
  await Promise.all([gw.put(items), secured.put(items)]);
  [url, securedUrl] = await Promise.all([gw.listen(), secured.listen()]);
});
afterAll(async () => {
  await Promise.all([gw.stop(), secured.stop()]);
  await issuer.stop();
});

describe('typed operations', () => {
  it('types DateTime as string and a missing entity as null', () => {
    type Edge = NonNullable<StudentCoursesQuery['student']>['courses']['edges'][number];
    expectTypeOf<Edge['enrolledAt']>().toEqualTypeOf<string>();
    expectTypeOf<StudentCoursesQuery['student']>().toMatchTypeOf<object | null>();
  });
});

describe('Apollo Client with relayStylePagination', () => {
  it('appends pages fetched with first/after into one cached list', async () => {
    const client = createApolloClient({ url });
    const watch = client.watchQuery({ query: StudentCourses, variables: { id: 'p1', first: 2 } });
    const first = await watch.refetch();
    expect(first.data?.student?.courses.edges.map((e) => e.node.id)).toEqual(['c1', 'c2']);
    let page = first.data!.student!.courses.pageInfo;
    while (page.hasNextPage) {
      const more = await watch.fetchMore({ variables: { after: page.endCursor } });
      page = more.data!.student!.courses.pageInfo;
    }
    const merged = client.readQuery({ query: StudentCourses, variables: { id: 'p1', first: 2 } })!;
    expect(merged.student!.courses.edges.map((e) => e.node.id)).toEqual(COURSES);
    expect(merged.student!.courses.edges.map((e) => e.enrolledAt)).toEqual(COURSES.map((_, i) => at(i)));
    expect(merged.student!.courses.totalCount).toBe(5);
    expect(merged.student!.courses.pageInfo.hasNextPage).toBe(false);
    client.stop();
  });

  it('prepends pages fetched with last/before, keeping the edges in ascending order', async () => {
    const client = createApolloClient({ url });
    const watch = client.watchQuery({ query: CourseStudents, variables: { id: 'c1', last: 2 } });
    const last = await watch.refetch();
    expect(last.data?.course?.students.edges.map((e) => e.node.id)).toEqual(['p4', 'p5']);
    let page = last.data!.course!.students.pageInfo;
    let fetches = 0;
    while (page.hasPreviousPage) {
      const more = await watch.fetchMore({ variables: { before: page.startCursor } });
      page = more.data!.course!.students.pageInfo;
      fetches++;
    }
    expect(fetches).toBe(2);
    const merged = client.readQuery({ query: CourseStudents, variables: { id: 'c1', last: 2 } })!;
    expect(merged.course!.students.edges.map((e) => e.node.id)).toEqual(STUDENTS);
    client.stop();
  });

  it('reports a refused operation with its code, not an HTTP status', async () => {
    const seen: string[] = [];
    const client = createApolloClient({ url, onError: (code, _message, name) => seen.push(`${name}: ${code}`) });
    const result = await client.query({ query: StudentCourses, variables: { id: 'p1', after: 'not-a-cursor' } }).catch((e) => ({ error: e }));
    expect(seen).toEqual(['StudentCourses: BAD_USER_INPUT']);
    expect(String((result as { error?: Error }).error?.message)).not.toMatch(/status code/);
    client.stop();
  });

  it('sends the bearer token it is given: a signed-in student reads names anonymous callers may not', async () => {
    const seen: string[] = [];
    const anonymous = createApolloClient({ url: securedUrl, onError: (code) => seen.push(code) });
    const refused = await anonymous.query({ query: StudentCourses, variables: { id: 'p1', first: 1 }, errorPolicy: 'all' });
    expect(refused.data?.student ?? null).toBeNull();
    expect(seen).toEqual(['FORBIDDEN']);
    const token = await issuer.token({ student_id: 'p1' });
    const signedIn = createApolloClient({ url: securedUrl, token: () => token });
    const own = await signedIn.query({ query: StudentCourses, variables: { id: 'p1', first: 1 } });
    expect(own.data?.student?.name).toBe('Student 1');
    anonymous.stop();
    signedIn.stop();
  });
});

describe('urql with Graphcache relayPagination', () => {
  it('merges forward pages into one list', async () => {
    const client = createUrqlClient({ url });
    let result = await client.query(StudentCourses, { id: 'p1', first: 2 }).toPromise();
    expect(result.error).toBeUndefined();
    let requests = 1;
    while (result.data!.student!.courses.pageInfo.hasNextPage) {
      result = await client.query(StudentCourses, { id: 'p1', first: 2, after: result.data!.student!.courses.pageInfo.endCursor }).toPromise();
      requests++;
    }
    expect(requests).toBe(3);
    expect(result.data!.student!.courses.edges.map((e) => e.node.id)).toEqual(COURSES);
  });

  it('merges backward pages, edges in ascending order', async () => {
    const client = createUrqlClient({ url });
    let result = await client.query(CourseStudents, { id: 'c1', last: 2 }).toPromise();
    while (result.data!.course!.students.pageInfo.hasPreviousPage) {
      result = await client.query(CourseStudents, { id: 'c1', last: 2, before: result.data!.course!.students.pageInfo.startCursor }).toPromise();
    }
    expect(result.data!.course!.students.edges.map((e) => e.node.id)).toEqual(STUDENTS);
  });

  it('exposes the code of a refused operation and of a failed mutation', async () => {
    const client = createUrqlClient({ url });
    const refused = await client.query(StudentCourses, { id: 'p1', after: 'not-a-cursor' }).toPromise();
    expect(refused.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
    expect(refused.error?.networkError).toBeUndefined();
    const missing = await client.mutation(Enroll, { studentId: 'nobody', courseId: 'c1' }).toPromise();
    expect(missing.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
  });

  it('sends the bearer token it is given', async () => {
    const anonymous = await createUrqlClient({ url: securedUrl }).query(StudentCourses, { id: 'p1', first: 1 }).toPromise();
    expect(anonymous.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const token = await issuer.token({ student_id: 'p1' });
    const signedIn = await createUrqlClient({ url: securedUrl, token: () => token })
      .query(StudentCourses, { id: 'p1', first: 1 })
      .toPromise();
    expect(signedIn.data?.student?.name).toBe('Student 1');
  });
});

describe('Relay with the Node interface', () => {
  it("pages a student's courses with the refetch query relay-compiler makes for the @refetchable Student fragment", async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join, resolve } = await import('node:path');
    const root = resolve(import.meta.dirname, '../..');
    const dir = mkdtempSync(join(tmpdir(), 'relay-'));
    let text: string;
    try {
      cpSync(join(root, 'clients/api/schema.graphql'), join(dir, 'clients/api/schema.graphql'));
      cpSync(join(root, 'clients/relay'), join(dir, 'clients/relay'), { recursive: true });
      mkdirSync(join(dir, 'clients/relay/src/__generated__'), { recursive: true });
      await promisify(execFile)(join(root, 'node_modules/.bin/relay-compiler'), [], { cwd: join(dir, 'clients/relay') });
      const artifact = readFileSync(join(dir, 'clients/relay/src/__generated__/StudentCoursesListPaginationQuery.graphql.ts'), 'utf8');
      text = JSON.parse(/"text": ("(?:[^"\\]|\\.)*")/.exec(artifact)![1]!) as string;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const post = async (variables: Record<string, unknown>) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text, variables }) });
      return (await response.json()) as { data?: any; errors?: unknown[] };
    };
    // What the page query gave the fragment: the student's globalId, which Relay passes back as $globalId.
    const first = await gw.run(`{ student(id: "p1") { globalId } }`);
    const globalId = first.data.student.globalId as string;
    const titles: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const result = await post({ globalId, count: 2, cursor });
      expect(result.errors).toBeUndefined();
      const node = result.data.node;
      expect(node).toMatchObject({ __typename: 'Student', globalId, name: 'Student 1' });
      titles.push(...node.courses.edges.map((e: any) => e.node.title));
      if (!node.courses.pageInfo.hasNextPage) break;
      cursor = node.courses.pageInfo.endCursor;
    }
    expect(titles).toEqual(COURSES.map((_, i) => `Course ${i + 1}`));
  });
});
