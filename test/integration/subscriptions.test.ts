/**
 * Live updates end to end, on DynamoDB Local's real stream: the gateway as
 * `npm start` runs it (its in-process stream processor feeding its own
 * subscribers), AUTH_MODE=oidc against a local issuer, clients speaking
 * graphql-ws. Changes are made through mutations and straight into the
 * table, as another program would.
 *
 * "Exactly" is checked with a fence: a later change on the same topic is
 * awaited, and everything that was going to arrive before it has arrived.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { courseItem, customerItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { describeLayout } from '../../src/dynamo/table.js';
import { StreamReader } from '../../src/stream/reader.js';
import { createStreamsClient } from '../../src/stream/streamsClient.js';
import { publishingHandler } from '../../src/stream/publisher.js';
import { defaultChangeModel, defaultPlan } from '../support/model.js';
import { localEndpoint, postGraphQL } from '../support/gateway.js';
import { AUDIENCE, startTestIssuer, type TestIssuer } from '../support/oidc.js';
import { liveDetails, untilOpen, wsClient, type WsClient } from '../support/subscriptions.js';

let issuer: TestIssuer;
let gateway: Gateway;
let url: string;
let admin: string;
const tableName = `subs_${randomUUID().slice(0, 8)}`;
const clients: WsClient[] = [];

const connect = (token?: string) => {
  const c = wsClient(url, token);
  clients.push(c);
  return c;
};

const gql = async (query: string, token = admin) => {
  const { json } = await postGraphQL(url, { query }, { authorization: `Bearer ${token}` });
  expect(json.errors).toBeUndefined();
  return json.data;
};

const rename = (id: string, name: string) =>
  gateway.dynamo.doc.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: `STUDENT#${id}`, SK: 'PROFILE' },
      UpdateExpression: 'SET #n = :n',
      ExpressionAttributeNames: { '#n': 'name' },
      ExpressionAttributeValues: { ':n': name },
    }),
  );

beforeAll(async () => {
  issuer = await startTestIssuer();
  gateway = await startGateway(
    loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: issuer.url,
      AUTH_AUDIENCE: AUDIENCE,
      STREAM_POLL_MS: '100',
      LOG_LEVEL: 'silent',
    }),
    silentLogger,
  );
  url = gateway.url;
  admin = await issuer.token({ groups: ['admin'] });
  await batchPut(gateway.dynamo.doc, tableName, [
    studentItem({ id: 's1', name: 'Ada', email: 'ada@example.com' }),
    studentItem({ id: 's2', name: 'Bob', email: 'bob@example.com' }),
    studentItem({ id: 's3', name: 'Cy' }),
    courseItem({ id: 'c1', title: 'Engines' }),
    courseItem({ id: 'c2', title: 'Looms' }),
    courseItem({ id: 'c3', title: 'Gears' }),
    customerItem({ id: 'u1', name: 'Una' }),
    customerItem({ id: 'u2', name: 'Vic' }),
  ]);
  await gateway.stream.reader!.caughtUp();
});

// Every test leaves nothing open: its clients go, and the gateway's counts return to zero.
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose().catch(() => {})));
  await untilOpen(url, { connections: 0, subscriptions: 0 });
  expect((await liveDetails(url)).topics).toBe(0);
});

afterAll(async () => {
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
  await issuer?.stop();
});

const ROSTER = 'subscription ($id: ID!) { courseStudentsChanged(courseId: $id) { kind studentId edge { cursor enrolledAt node { id name } } } }';

describe('changes made through the gateway and by other programs', () => {
  it('a renamed course reaches courseChanged with its new title, ending with the copies done', async () => {
    const c = connect(admin);
    const w = c.watch('subscription { courseChanged(id: "c1") { id title propagating } }');
    await untilOpen(url, { subscriptions: 1 });
    await gql('mutation { updateCourse(id: "c1", input: { title: "Engines II" }) { id } }');
    await gateway.stream.reader!.caughtUp();
    const messages = await w.untilCount(1);
    expect(messages.every((m) => m.data.courseChanged.title === 'Engines II')).toBe(true);
    await c.dispose();
    await untilOpen(url, { connections: 0, subscriptions: 0 });
    // Every record of the rename arrived once: the last says the copies are done.
    expect(messages.at(-1)!.data.courseChanged).toEqual({ id: 'c1', title: 'Engines II', propagating: false });
  });

  it('enroll, an edge written straight into the table, its copies completed, and unenroll reach courseStudentsChanged once each, in order', async () => {
    const c = connect(admin);
    const w = c.watch(ROSTER, { id: 'c1' });
    await untilOpen(url, { subscriptions: 1 });
    await gql('mutation { enroll(studentId: "s1", courseId: "c1") { enrolledAt } }');
    // Another program writes an edge itself (no counter, copies without versions): the stream processor completes its copies.
    await gateway.dynamo.doc.send(
      new PutCommand({
        TableName: tableName,
        Item: enrollmentItem({ studentId: 's2', courseId: 'c1', studentName: 'Bob', courseTitle: 'Engines II', enrolledAt: '2026-12-01T10:00:00.000Z' }),
      }),
    );
    await w.untilCount(3);
    await gql('mutation { unenroll(studentId: "s1", courseId: "c1") }');
    const messages = await w.untilCount(4);
    expect(messages.map((m) => [m.data.courseStudentsChanged.kind, m.data.courseStudentsChanged.studentId])).toEqual([
      ['ADDED', 's1'],
      ['ADDED', 's2'],
      ['UPDATED', 's2'],
      ['REMOVED', 's1'],
    ]);
    expect(messages[0]!.data.courseStudentsChanged.edge.node).toEqual({ id: 's1', name: 'Ada' });
    expect(typeof messages[0]!.data.courseStudentsChanged.edge.cursor).toBe('string');
    expect(messages[1]!.data.courseStudentsChanged.edge).toMatchObject({ enrolledAt: '2026-12-01T10:00:00.000Z', node: { id: 's2', name: 'Bob' } });
    expect(messages[3]!.data.courseStudentsChanged.edge).toBeNull();
    // The fence: one more change on the topic; nothing else came before it.
    await gateway.dynamo.doc.send(new DeleteCommand({ TableName: tableName, Key: { PK: 'STUDENT#s2', SK: 'COURSE#c1' } }));
    await w.untilCount(5);
    expect(w.messages).toHaveLength(5);
    // An edge's cursor pages on from it in the course's roster.
    const page = await gql(
      `{ course(id: "c1") { students(first: 5, after: ${JSON.stringify(messages[1]!.data.courseStudentsChanged.edge.cursor)}) { edges { node { id } } } } }`,
    );
    expect(page.course.students.edges).toEqual([]);
  });

  it('a deleted course is null in courseChanged once its cascade is done', async () => {
    await gql('mutation { enroll(studentId: "s3", courseId: "c2") { enrolledAt } }');
    await gateway.stream.reader!.caughtUp();
    const c = connect(admin);
    const course = c.watch('subscription { courseChanged(id: "c2") { id title } }');
    const roster = c.watch(ROSTER, { id: 'c2' });
    await untilOpen(url, { subscriptions: 2 });
    await gql('mutation { deleteCourse(id: "c2") }');
    await course.untilCount(1);
    await roster.untilCount(1);
    await gateway.stream.reader!.caughtUp();
    expect(course.messages.at(-1)!.data.courseChanged).toBeNull();
    expect(roster.messages.map((m) => m.data.courseStudentsChanged)).toEqual([{ kind: 'REMOVED', studentId: 's3', edge: null }]);
  });

  it('a placed order reaches its customer as ADDED with the order', async () => {
    const una = await issuer.token({ customer_id: 'u1' });
    const c = connect(una);
    const w = c.watch('subscription { customerOrdersChanged(customerId: "u1") { kind orderId order { id total customer { id name } } } }');
    await untilOpen(url, { subscriptions: 1 });
    const placed = await gql('mutation { placeOrder(customerId: "u1", input: { id: "o1", total: 12.5 }) { id } }');
    expect(placed.placeOrder.id).toBe('o1');
    const [m] = await w.untilCount(1);
    expect(m!.data.customerOrdersChanged).toEqual({ kind: 'ADDED', orderId: 'o1', order: { id: 'o1', total: 12.5, customer: { id: 'u1', name: 'Una' } } });
  });
});

describe('order and replays', () => {
  it("delivers one item's changes in the order they were made, and a replayed stream adds nothing", async () => {
    const c = connect(admin);
    const w = c.watch('subscription { studentChanged(id: "s3") { name } }');
    await untilOpen(url, { subscriptions: 1 });
    const names = ['Cy1', 'Cy2', 'Cy3', 'Cy4', 'Cy5'];
    for (const name of names) await rename('s3', name);
    await w.untilCount(5);
    expect(w.messages.map((m) => m.data.studentChanged.name)).toEqual(names);

    // The whole stream again, from its oldest record, through a second processor publishing to the same bus.
    const { streamArn } = await describeLayout(gateway.dynamo.raw, tableName);
    const streams = createStreamsClient({ endpoint: localEndpoint() });
    const replay = new StreamReader({
      store: { doc: gateway.dynamo.doc, tableName, plan: defaultPlan },
      streams,
      streamArn: streamArn!,
      logger: silentLogger,
      pollMs: 100,
      checkpointName: `replay-${randomUUID()}`,
      handler: publishingHandler(gateway.changes.bus, defaultChangeModel, async (_store, records) => ({
        done: records.length,
        failedAt: null,
        copies: 0,
        edgesRemoved: 0,
      })),
    }).start();
    const before = gateway.changes.hub.stats().duplicates;
    await replay.caughtUp();
    await replay.stop();
    streams.destroy();
    // The five renames at least (and the item's older records, already behind what was delivered).
    expect(gateway.changes.hub.stats().duplicates - before).toBeGreaterThanOrEqual(5);
    await rename('s3', 'Cy6');
    await w.untilCount(6);
    expect(w.messages.map((m) => m.data.studentChanged.name)).toEqual([...names, 'Cy6']);
  });
});

describe('the rules', () => {
  it('refuses an anonymous subscriber of a roster with FORBIDDEN, and lets anyone watch a course', async () => {
    const c = connect();
    const roster = c.watch(ROSTER, { id: 'c1' });
    await roster.ended();
    expect(roster.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    const course = c.watch('subscription { courseChanged(id: "c3") { title } }');
    await untilOpen(url, { subscriptions: 1 });
    await gql('mutation { updateCourse(id: "c3", input: { title: "Gears II" }) { id } }');
    const [m] = await course.untilCount(1);
    expect(m!.data.courseChanged.title).toBe('Gears II');
  });

  it("refuses another customer's orders", async () => {
    const vic = await issuer.token({ customer_id: 'u2' });
    const w = connect(vic).watch('subscription { customerOrdersChanged(customerId: "u1") { kind } }');
    await w.ended();
    expect(w.error).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
  });

  it("filters every payload: a student sees their own email and another student's as null with FORBIDDEN", async () => {
    const ada = await issuer.token({ student_id: 's1' });
    const w = connect(ada).watch('subscription { courseStudentsChanged(courseId: "c3") { studentId edge { node { id email } } } }');
    await untilOpen(url, { subscriptions: 1 });
    await gql('mutation { enroll(studentId: "s1", courseId: "c3") { enrolledAt } }');
    await gql('mutation { enroll(studentId: "s2", courseId: "c3") { enrolledAt } }');
    const [own, other] = await w.untilCount(2);
    expect(own!.data.courseStudentsChanged.edge.node).toEqual({ id: 's1', email: 'ada@example.com' });
    expect(own!.errors).toBeUndefined();
    expect(other!.data.courseStudentsChanged.edge.node).toEqual({ id: 's2', email: null });
    expect(other!.errors).toEqual([
      expect.objectContaining({ path: ['courseStudentsChanged', 'edge', 'node', 'email'], extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
    ]);
  });

  it('closes the socket with 4403 for a token that does not verify', async () => {
    const forged = (await issuer.token({ groups: ['admin'] })).slice(0, -4) + 'AAAA';
    const c = connect(forged);
    const w = c.watch('subscription { courseChanged(id: "c1") { title } }');
    await w.ended();
    expect(c.closes.map((e) => e.code)).toEqual([4403]);
  });

  it('closes the socket with 4403 when the token expires', async () => {
    const short = await issuer.token({ groups: ['admin'] }, { expiresIn: 2 });
    const c = connect(short);
    const w = c.watch('subscription { courseChanged(id: "c1") { title } }');
    await untilOpen(url, { subscriptions: 1 });
    await w.ended(30_000);
    expect(c.closes).toEqual([{ code: 4403, reason: 'Forbidden: the token expired' }]);
    await untilOpen(url, { connections: 0, subscriptions: 0 });
  });
});
