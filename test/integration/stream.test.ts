/**
 * Renames and deletes off the request path, against DynamoDB Local's real
 * stream: the mutation writes the entity and answers in a constant number
 * of requests; the stream processor (the in-process reader here) brings
 * every edge copy up to date and finishes cascades.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { listDeadLetters } from '../../src/stream/checkpoints.js';
import { loadConfig } from '../../src/config.js';
import { createStreamLambdaHandler } from '../../src/stream/lambda.js';
import { createStreamsClient } from '../../src/stream/streamsClient.js';
import { codes, localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { lambdaEvent, readAfter, readAll } from '../support/streamRecords.js';
import { TEST_DEPTH } from '../support/depth.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
});
afterAll(() => gw.stop());

const EDGES = 23;
const ids = (prefix: string, n = EDGES) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

async function courseWithStudents(courseId: string, title: string, prefix: string, n = EDGES) {
  const students = ids(prefix, n);
  await gw.put([
    courseItem({ id: courseId, title, studentCount: students.length }),
    ...students.map((id) => studentItem({ id, name: `Name ${id}`, courseCount: 1 })),
    ...students.map((id) => enrollmentItem({ studentId: id, courseId, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: title, studentName: `Name ${id}` })),
  ]);
  return students;
}

const edgesOf = async (courseId: string) => (await gw.scan()).filter((i) => i.SK === `COURSE#${courseId}`);
const courseOf = (id: string) => gw.get(`COURSE#${id}`, 'PROFILE');
const RENAME = `mutation($id: ID!, $t: String) { updateCourse(id: $id, input: { title: $t }) { id title propagating } }`;

/** A document client over the test table whose writes of a kind freeze (never answer) after the first `k`: a process that died mid-batch. */
function freezingDoc(kind: new (...args: never[]) => unknown, k: number) {
  let sent = 0;
  const doc = {
    send: (command: object, ...rest: unknown[]) => {
      if (command instanceof kind && ++sent > k) return new Promise(() => {});
      return (gw.dynamo.doc.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, sent: () => sent };
}

describe('rename', () => {
  it('answers after two DynamoDB requests with propagating: true, and every copy converges once the stream is processed', async () => {
    await courseWithStudents('R1', 'Old', 'r1x');
    const { result, requests } = await gw.counted(RENAME, { id: 'R1', t: 'New' });
    expect(result.data.updateCourse).toEqual({ id: 'R1', title: 'New', propagating: true });
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
    expect((await courseOf('R1'))?.titleVersion).toBe(1);

    await gw.settle();
    const edges = await edgesOf('R1');
    expect(edges).toHaveLength(EDGES);
    expect(edges.every((e) => e.courseTitle === 'New' && e.courseTitleVersion === 1)).toBe(true);
    expect((await gw.run(`{ course(id: "R1") { title propagating } }`)).data.course).toEqual({ title: 'New', propagating: false });
  });

  it(`costs the same two requests for ${4 * TEST_DEPTH} times the edges`, async () => {
    await courseWithStudents('R2', 'Old', 'r2x', 4 * TEST_DEPTH * EDGES);
    const { requests } = await gw.counted(RENAME, { id: 'R2', t: 'New' });
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
    await gw.settle();
    expect((await edgesOf('R2')).filter((e) => e.courseTitle !== 'New')).toEqual([]);
  });

  it('a rename that changes nothing writes nothing: one read, no write, no stream record', async () => {
    await courseWithStudents('R3', 'Same', 'r3x', 3);
    await gw.settle();
    const before = await courseOf('R3');
    const { result, requests } = await gw.counted(RENAME, { id: 'R3', t: 'Same' });
    expect(result.data.updateCourse).toEqual({ id: 'R3', title: 'Same', propagating: false });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
    expect(await courseOf('R3')).toEqual(before);
    const student = await gw.counted(`mutation { updateStudent(id: "r3x00", input: { name: "Name r3x00" }) { name } }`);
    expect(student.requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('concurrent renames of one course converge on the title it ends with, replays included', async () => {
    await courseWithStudents('R4', 'Old', 'r4x');
    await gw.settle();
    await Promise.all(['One', 'Two', 'Three', 'Four'].map((t) => gw.run(RENAME, { id: 'R4', t })));
    await gw.settle();
    const course = await courseOf('R4');
    expect(course?.titleVersion).toBe(4);
    const copies = new Set((await edgesOf('R4')).map((e) => `${e.courseTitle}@${e.courseTitleVersion}`));
    expect([...copies]).toEqual([`${course?.title}@4`]);
    expect(course).not.toHaveProperty('propagatingSince');

    // A second reader replays the whole stream from its oldest record: nothing changes.
    const before = await gw.scan();
    const replay = gw.streamReader({ store: { doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan }, checkpointName: 'replay' });
    replay.start();
    await replay.caughtUp();
    await replay.stop();
    const after = (await gw.scan()).filter((i) => !String(i.PK).startsWith('STREAM#'));
    expect(after).toEqual(before.filter((i) => !String(i.PK).startsWith('STREAM#')));
  });

  it('an enroll while a rename is still propagating copies the new title', async () => {
    await courseWithStudents('R5', 'Old', 'r5x');
    await gw.put([studentItem({ id: 'r5late', name: 'Late', courseCount: 0 })]);
    await gw.settle();
    await gw.run(RENAME, { id: 'R5', t: 'New' });
    expect(codes(await gw.run(`mutation { enroll(studentId: "r5late", courseId: "R5") { node { title } } }`))).toEqual([]);
    const late = await gw.get('STUDENT#r5late', 'COURSE#R5');
    expect(late).toMatchObject({ courseTitle: 'New', courseTitleVersion: 1 });
    await gw.settle();
    const edges = await edgesOf('R5');
    expect(edges).toHaveLength(EDGES + 1);
    expect(edges.every((e) => e.courseTitle === 'New')).toBe(true);
    expect((await courseOf('R5'))?.studentCount).toBe(EDGES + 1);
  });

  it("a student rename reaches every edge in the student's own collection", async () => {
    await gw.put([
      studentItem({ id: 'r6s', name: 'Before', courseCount: 5 }),
      ...ids('R6C', 5).map((c) =>
        enrollmentItem({ studentId: 'r6s', courseId: c, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: c, studentName: 'Before' }),
      ),
    ]);
    const { requests } = await gw.counted(`mutation { updateStudent(id: "r6s", input: { name: "After" }) { name propagating } }`);
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
    await gw.settle();
    const edges = (await gw.scan()).filter((i) => i.PK === 'STUDENT#r6s' && i.SK !== 'PROFILE');
    expect(edges.map((e) => e.studentName)).toEqual(Array(5).fill('After'));
  });
});

describe('delete', () => {
  it('marks the course in one request; the processor removes every edge with its student counter, then the course', async () => {
    const students = await courseWithStudents('D1', 'Doomed', 'd1x');
    const { result, requests } = await gw.counted(`mutation { deleteCourse(id: "D1") }`);
    expect(result).toEqual({ data: { deleteCourse: 'D1' } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect((await gw.run(`{ course(id: "D1") { propagating students { totalCount } } }`)).data.course).toEqual({
      propagating: true,
      students: { totalCount: EDGES },
    });
    // Refused while pending: no edge can be added behind the cascade's back, no rename either.
    expect(codes(await gw.run(`mutation { enroll(studentId: "${students[0]}", courseId: "D1") { cursor } }`))).toEqual(['NOT_FOUND']);
    expect(codes(await gw.run(RENAME, { id: 'D1', t: 'Zombie' }))).toEqual(['NOT_FOUND']);

    await gw.settle();
    expect(await courseOf('D1')).toBeUndefined();
    expect(await edgesOf('D1')).toEqual([]);
    for (const id of students) expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(0);
  });

  it('a delete while a rename is still propagating wins: no edge is left or resurrected', async () => {
    const students = await courseWithStudents('D2', 'Old', 'd2x');
    await gw.settle();
    await gw.run(RENAME, { id: 'D2', t: 'New' });
    await gw.run(`mutation { deleteCourse(id: "D2") }`);
    await gw.settle();
    expect(await courseOf('D2')).toBeUndefined();
    expect(await edgesOf('D2')).toEqual([]);
    for (const id of students) expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(0);
  });

  it('keeps every counter exact at every moment of a cascade', async () => {
    const students = await courseWithStudents('D3', 'Counted', 'd3x');
    await gw.settle();
    await gw.stopWorker();
    const violations: string[] = [];
    const check = async () => {
      const items = await gw.scan();
      const edges = new Set(items.filter((i) => i.SK === 'COURSE#D3').map((i) => i.PK));
      for (const id of students) {
        const s = items.find((i) => i.PK === `STUDENT#${id}` && i.SK === 'PROFILE');
        if (s?.courseCount !== (edges.has(`STUDENT#${id}`) ? 1 : 0)) violations.push(id);
      }
    };
    const send = gw.dynamo.doc.send.bind(gw.dynamo.doc) as (...a: unknown[]) => Promise<unknown>;
    const doc = {
      send: async (command: object, ...rest: unknown[]) => {
        const out = await send(command, ...rest);
        if (command instanceof TransactWriteCommand) await check();
        return out;
      },
    } as unknown as DynamoDBDocumentClient;
    const reader = gw.streamReader({ store: { doc, tableName: gw.tableName, plan: gw.plan, writeOptions: { concurrency: 1 } }, checkpointName: 'counted' });
    await gw.run(`mutation { deleteCourse(id: "D3") }`);
    reader.start();
    await reader.caughtUp();
    await reader.stop();
    expect(await edgesOf('D3')).toEqual([]);
    expect(violations).toEqual([]);
  });
});

describe('worker crash and poison records', () => {
  it.each([
    ['a rename', UpdateCommand, 'K1'],
    ['a cascade delete', TransactWriteCommand, 'K2'],
  ] as const)('a worker killed in the middle of %s loses nothing: a restarted one resumes from the checkpoint and finishes', async (_, kind, course) => {
    const students = await courseWithStudents(course, 'Old', `${course.toLowerCase()}x`);
    await gw.settle();
    await gw.stopWorker();
    if (course === 'K1') await gw.run(RENAME, { id: course, t: 'New' });
    else await gw.run(`mutation { deleteCourse(id: "${course}") }`);

    const k = 9;
    const frozen = freezingDoc(kind, k);
    const first = gw.streamReader({ store: { doc: frozen.doc, tableName: gw.tableName, plan: gw.plan, writeOptions: { concurrency: 1 } } });
    first.start();
    while (frozen.sent() <= k) await new Promise((r) => setTimeout(r, 10));
    first.kill();
    const half = await edgesOf(course);
    if (course === 'K1') expect(half.filter((e) => e.courseTitle === 'New')).toHaveLength(k);
    else expect(half).toHaveLength(EDGES - k);

    await gw.settle();
    const edges = await edgesOf(course);
    if (course === 'K1') {
      expect(edges).toHaveLength(students.length);
      expect(edges.every((e) => e.courseTitle === 'New')).toBe(true);
      expect(await courseOf(course)).not.toHaveProperty('propagatingSince');
    } else {
      expect(edges).toEqual([]);
      expect(await courseOf(course)).toBeUndefined();
    }
    for (const id of students) {
      expect((await gw.get(`STUDENT#${id}`, 'PROFILE'))?.courseCount).toBe(course === 'K1' ? 1 : 0);
    }
  });

  it('a record the handler cannot process is retried a bounded number of times, kept as a dead letter and skipped', async () => {
    await courseWithStudents('P1', 'Old', 'p1x', 3);
    await courseWithStudents('P2', 'Old', 'p2x', 3);
    await gw.settle();
    await gw.stopWorker();
    const reader = gw.streamReader({ maxAttempts: 3, checkpointName: 'poison' });
    reader.start();
    await reader.caughtUp();
    // Another program leaves a course whose version is not a number: its record can never be processed.
    await gw.dynamo.doc.send(
      new UpdateCommand({
        TableName: gw.tableName,
        Key: { PK: 'COURSE#P1', SK: 'PROFILE' },
        UpdateExpression: 'SET title = :t, titleVersion = :bad, propagatingSince = :now',
        ExpressionAttributeValues: { ':t': 'Broken', ':bad': 'seven', ':now': new Date().toISOString() },
      }),
    );
    await gw.run(RENAME, { id: 'P2', t: 'Fine' });
    await reader.caughtUp();
    await reader.stop();

    const dead = await listDeadLetters({ doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan }, 'poison');
    await gw.settle(); // the regular processor, restarted, dead-letters it under its own checkpoints
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ attempts: 3, eventName: 'MODIFY' });
    expect(String(dead[0].error)).toMatch(/PoisonRecord.*titleVersion/);
    expect(reader.stats.failed).toBe(1);
    expect(reader.stats.retried).toBe(2);
    // The shard went on: the record after the poison one was processed.
    expect((await edgesOf('P2')).every((e) => e.courseTitle === 'Fine')).toBe(true);
    expect((await edgesOf('P1')).every((e) => e.courseTitle === 'Old')).toBe(true);
  });
});

describe('the Lambda consumer, fed with records read from the stream', () => {
  const lambda = () =>
    createStreamLambdaHandler(loadConfig({ TABLE_NAME: gw.tableName, DYNAMODB_ENDPOINT: localEndpoint(), LOG_LEVEL: 'silent' }), {
      dynamo: gw.dynamo,
    });
  const streams = () => createStreamsClient({ endpoint: localEndpoint() });

  it('propagates a rename and finishes a cascade, answering no batch item failures', async () => {
    const students = await courseWithStudents('L1', 'Old', 'l1x');
    await courseWithStudents('L2', 'Doomed', 'l2x', 4);
    await gw.settle();
    await gw.stopWorker();
    const client = streams();
    const mark = (await readAll(client, gw.streamArn!)).at(-1)?.dynamodb?.SequenceNumber;
    await gw.run(RENAME, { id: 'L1', t: 'New' });
    await gw.run(`mutation { deleteCourse(id: "L2") }`);
    const records = await readAfter(client, gw.streamArn!, mark);
    expect(records.map((r) => r.eventName)).toEqual(['MODIFY', 'MODIFY']);

    const answer = await lambda()(lambdaEvent(records, gw.streamArn!));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect((await edgesOf('L1')).map((e) => e.courseTitle)).toEqual(Array(students.length).fill('New'));
    expect(await courseOf('L1')).not.toHaveProperty('propagatingSince');
    expect(await edgesOf('L2')).toEqual([]);
    expect(await courseOf('L2')).toBeUndefined();

    // Delivered again (at least once): nothing changes.
    const before = await gw.scan();
    expect(await lambda()(lambdaEvent(records, gw.streamArn!))).toEqual({ batchItemFailures: [] });
    expect(await gw.scan()).toEqual(before);
    client.destroy();
  });

  it('reports the first record it cannot process, so Lambda retries from there (and bisects, then gives up to the queue)', async () => {
    await courseWithStudents('L3', 'Old', 'l3x', 2);
    await courseWithStudents('L4', 'Old', 'l4x', 2);
    await gw.settle();
    await gw.stopWorker();
    const client = streams();
    const mark = (await readAll(client, gw.streamArn!)).at(-1)?.dynamodb?.SequenceNumber;
    await gw.run(RENAME, { id: 'L3', t: 'First' });
    await gw.dynamo.doc.send(
      new UpdateCommand({
        TableName: gw.tableName,
        Key: { PK: 'COURSE#L4', SK: 'PROFILE' },
        UpdateExpression: 'SET titleVersion = :bad, propagatingSince = :now',
        ExpressionAttributeValues: { ':bad': 'seven', ':now': new Date().toISOString() },
      }),
    );
    const records = await readAfter(client, gw.streamArn!, mark);
    expect(records).toHaveLength(2);
    const answer = await lambda()(lambdaEvent(records, gw.streamArn!));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: records[1].dynamodb!.SequenceNumber }] });
    // The record before the poison one is done.
    expect((await edgesOf('L3')).every((e) => e.courseTitle === 'First')).toBe(true);
    client.destroy();
  });
});
