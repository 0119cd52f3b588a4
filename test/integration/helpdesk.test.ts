/**
 * examples/helpdesk.graphql served from its file on a table it creates:
 * lower-case table keys, messages at msg#<sentAt>#<id> in their ticket's
 * partition, watchers in a partition of their own read back by agent
 * through an inverted index over the table's keys, a sparse index over a
 * natural attribute, two-attribute index keys, keyless customers and
 * agents. Writes are checked in the raw items and in every index; reads
 * page exactly both ways, ranges are exact, and request counts are the
 * minimum for each operation. The connections over two sort attributes
 * are sortedIndexes.test.ts's.
 */
import { fileURLToPath } from 'node:url';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { problemsOf } from '../support/problems.js';
import { readFileSync } from 'node:fs';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/helpdesk.graphql', import.meta.url));

let gw: TestGateway;
/** The messages of t1 as posted: ids and the sentAt each got, in sending order. */
const sent: { id: string; sentAt: string }[] = [];

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gw.run<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

/** The items of one partition of an index, straight from DynamoDB. */
async function indexPartition(index: string, conditions: Record<string, string>) {
  const names = Object.keys(conditions);
  const out = await gw.dynamo.doc.send(
    new QueryCommand({
      TableName: gw.tableName,
      IndexName: index,
      KeyConditionExpression: names.map((_, i) => `#k${i} = :v${i}`).join(' AND '),
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#k${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, conditions[n]])),
    }),
  );
  return out.Items ?? [];
}

const OPEN = `mutation($i: OpenTicketInput!) { openTicket(input: $i) { id openedAt } }`;
const POST = `mutation($t: ID!, $i: PostMessageInput!) { postMessage(ticket: $t, input: $i) { id sentAt } }`;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE, fanOut: 'inRequest' });
  const tickets = [
    { id: 't1', subject: 'Printer on fire', status: 'OPEN', priority: 'URGENT', customer: 'c1', assignee: 'a1' },
    { id: 't2', subject: 'Password reset', status: 'OPEN', priority: 'NORMAL', customer: 'c1' },
    { id: 't3', subject: 'Invoice copy', status: 'OPEN', priority: 'URGENT', customer: 'c2', assignee: 'a1' },
    { id: 't4', subject: 'Slow VPN', status: 'PENDING', priority: 'URGENT', customer: 'c1', assignee: 'a2' },
  ];
  // One at a time: each gets a later openedAt.
  for (const input of tickets) await ok(OPEN, { i: input });
  for (let n = 1; n <= 5; n++) {
    const data = await ok<{ postMessage: { id: string; sentAt: string } }>(POST, {
      t: 't1',
      i: { id: `m${n}`, body: `message ${n}`, author: n % 2 ? 'customer' : 'agent' },
    });
    sent.push(data.postMessage);
  }
  await ok(POST, { t: 't2', i: { id: 'm9', body: 'other ticket', author: 'customer' } });
  for (const [ticket, agent] of [
    ['t1', 'a1'],
    ['t1', 'a2'],
    ['t3', 'a2'],
  ]) {
    await ok(`mutation($t: ID!, $a: ID!) { watch(ticket: $t, input: { id: $a }) { id } }`, { t: ticket, a: agent });
  }
});
afterAll(() => gw?.stop());

describe('the helpdesk table', () => {
  it('is created with the declared keys and indexes, the two-attribute keys included', async () => {
    const { Table } = await gw.dynamo.raw.send(new DescribeTableCommand({ TableName: gw.tableName }));
    expect(Table!.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = Object.fromEntries(
      (Table!.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName, i.KeySchema!.map((k) => `${k.KeyType} ${k.AttributeName}`)]),
    );
    expect(indexes).toEqual({
      inverted: ['HASH sk', 'RANGE pk'],
      byAssignee: ['HASH assignee', 'RANGE openedAt'],
      byCustomer: ['HASH customer', 'RANGE openedAt'],
      byQueue: ['HASH status', 'HASH priority', 'RANGE openedAt'],
      byStatus: ['HASH status', 'RANGE priority', 'RANGE openedAt'],
      byCustomerStatus: ['HASH customer', 'RANGE status', 'RANGE openedAt'],
    });
  });

  it('holds a ticket at T#<id>/meta with its natural attributes and no key of the engine', async () => {
    const t1 = await gw.get('T#t1', 'meta');
    expect(t1).toMatchObject({
      pk: 'T#t1',
      sk: 'meta',
      subject: 'Printer on fire',
      status: 'OPEN',
      priority: 'URGENT',
      customer: 'c1',
      assignee: 'a1',
      messageCount: 5,
      watcherCount: 2,
    });
    expect(Object.keys(t1!).filter((k) => /^(PK|SK|GSI)/.test(k))).toEqual([]);
    // Sparse: a ticket nobody is assigned has no assignee attribute, so it is in no partition of byAssignee.
    expect(await gw.get('T#t2', 'meta')).not.toHaveProperty('assignee');
  });

  it('writes a message at msg#<sentAt>#<id> in its ticket partition, sentAt with three fraction digits', async () => {
    const [first] = sent;
    expect(first!.sentAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await gw.get('T#t1', `msg#${first!.sentAt}#m1`)).toMatchObject({ body: 'message 1', sentAt: first!.sentAt });
  });

  it('writes a watcher in the ticket watchers partition, found by agent in the inverted index', async () => {
    expect(await gw.get('T#t1#watchers', 'A#a1')).toMatchObject({ pk: 'T#t1#watchers', sk: 'A#a1' });
    expect((await indexPartition('inverted', { sk: 'A#a2' })).map((i) => i.pk)).toEqual(['T#t1#watchers', 'T#t3#watchers']);
  });

  it('puts tickets in every index they qualify for, and only those', async () => {
    expect((await indexPartition('byAssignee', { assignee: 'a1' })).map((i) => i.pk)).toEqual(['T#t1', 'T#t3']);
    expect((await indexPartition('byCustomer', { customer: 'c1' })).map((i) => i.pk)).toEqual(['T#t1', 'T#t2', 'T#t4']);
    expect((await indexPartition('byQueue', { status: 'OPEN', priority: 'URGENT' })).map((i) => i.pk)).toEqual(['T#t1', 'T#t3']);
  });
});

const MESSAGES = `query($first: Int, $after: String, $last: Int, $before: String) {
  ticket(id: "t1") { subject messages(first: $first, after: $after, last: $last, before: $before) {
    totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
const LATEST = `query($first: Int, $after: String, $last: Int, $before: String) {
  ticket(id: "t1") { latest(first: $first, after: $after, last: $last, before: $before) {
    edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
const ids = (c: { edges: { node: { id: string } }[] }) => c.edges.map((e) => e.node.id);

describe('reading the helpdesk', () => {
  it('reads a ticket and its first messages in one Query (its item sorts before them)', async () => {
    const { result, requests } = await gw.counted(MESSAGES, { first: 2 });
    expect(result.errors).toBeUndefined();
    expect(result.data.ticket.subject).toBe('Printer on fire');
    expect(ids(result.data.ticket.messages)).toEqual(['m1', 'm2']);
    expect(result.data.ticket.messages.totalCount).toBe(5);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('pages messages in sending order exactly both ways', async () => {
    const p1 = (await ok(MESSAGES, { first: 2 })).ticket.messages;
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = (await ok(MESSAGES, { first: 2, after: p1.pageInfo.endCursor })).ticket.messages;
    expect(ids(p2)).toEqual(['m3', 'm4']);
    const p3 = (await ok(MESSAGES, { first: 2, after: p2.pageInfo.endCursor })).ticket.messages;
    expect(ids(p3)).toEqual(['m5']);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = (await ok(MESSAGES, { last: 2, before: p3.pageInfo.startCursor })).ticket.messages;
    expect(ids(back)).toEqual(['m3', 'm4']);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const end = (await ok(MESSAGES, { last: 2 })).ticket.messages;
    expect(ids(end)).toEqual(['m4', 'm5']);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('pages a newest-first connection: first takes the newest, last the oldest, exactly both ways', async () => {
    const { result, requests } = await gw.counted(LATEST, { first: 2 });
    expect(result.errors).toBeUndefined();
    const p1 = result.data.ticket.latest;
    expect(ids(p1)).toEqual(['m5', 'm4']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const p2 = (await ok(LATEST, { first: 2, after: p1.pageInfo.endCursor })).ticket.latest;
    expect(ids(p2)).toEqual(['m3', 'm2']);
    const p3 = (await ok(LATEST, { first: 2, after: p2.pageInfo.endCursor })).ticket.latest;
    expect(ids(p3)).toEqual(['m1']);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = (await ok(LATEST, { last: 2 })).ticket.latest;
    expect(ids(last)).toEqual(['m2', 'm1']);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = (await ok(LATEST, { last: 2, before: last.pageInfo.startCursor })).ticket.latest;
    expect(ids(before)).toEqual(['m4', 'm3']);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    // A cursor of one order is one of the other's positions: first with before stops there.
    const upTo = (await ok(LATEST, { first: 10, before: p2.pageInfo.endCursor })).ticket.latest;
    expect(ids(upTo)).toEqual(['m5', 'm4', 'm3']);
  });

  it('narrows messages to a time range on the sort key, newest first, exactly, with cursors bound to it', async () => {
    const from = sent[1]!.sentAt;
    const until = sent[3]!.sentAt;
    const q = `query($s: String, $u: String, $first: Int, $after: String) { ticket(id: "t1") { latest(since: $s, until: $u, first: $first, after: $after) {
      edges { node { id } } pageInfo { hasNextPage endCursor } } } }`;
    const page = (await ok(q, { s: from, u: until, first: 1 })).ticket.latest;
    expect(ids(page)).toEqual(['m3']);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const next = (await ok(q, { s: from, u: until, first: 5, after: page.pageInfo.endCursor })).ticket.latest;
    expect(ids(next)).toEqual(['m2']);
    expect(next.pageInfo.hasNextPage).toBe(false);
    const other = await gw.run(q, { s: sent[0]!.sentAt, u: until, first: 1, after: page.pageInfo.endCursor });
    expect(codes(other)).toEqual(['BAD_USER_INPUT']);
  });

  it('gets a message by its ticket, time and id in one GetItem, whatever precision the time is given in', async () => {
    const { sentAt } = sent[2]!;
    const coarse = sentAt.replace(/\.(\d{3})Z$/, '.$1000Z');
    const { result, requests } = await gw.counted(`query($s: DateTime!) { message(ticket: "t1", sentAt: $s, id: "m3") { id body sentAt ticket { id } } }`, {
      s: coarse,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data.message).toEqual({ id: 'm3', body: 'message 3', sentAt, ticket: { id: 't1' } });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('reads an agent watches through the inverted index in one Query, and their assigned tickets through the sparse index', async () => {
    const { result, requests } = await gw.counted(`{ agent(id: "a2") {
      watching(first: 5) { edges { node { id since ticket { id } } } }
      assigned(first: 5) { edges { node { id } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.agent.watching.edges.map((e: any) => [e.node.id, e.node.ticket.id])).toEqual([
      ['a2', 't1'],
      ['a2', 't3'],
    ]);
    expect(ids(result.data.agent.assigned)).toEqual(['t4']);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it('reads a customer tickets newest first and a queue by two attributes, one Query each', async () => {
    const { result, requests } = await gw.counted(`{ customer(id: "c1") { tickets(first: 2) { edges { node { id } } pageInfo { hasNextPage } } }
      queue(status: OPEN, priority: URGENT, first: 5) { edges { node { id } } } }`);
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.customer.tickets)).toEqual(['t4', 't2']);
    expect(result.data.customer.tickets.pageInfo.hasNextPage).toBe(true);
    expect(ids(result.data.queue)).toEqual(['t1', 't3']);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });
});

describe('writing the helpdesk', () => {
  it('moves a ticket between queues and assignees when its natural attributes change, in one write', async () => {
    const { result, requests } = await gw.counted(`mutation { updateTicket(id: "t3", input: { status: PENDING, assignee: "a2" }) { id status } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect((await indexPartition('byQueue', { status: 'OPEN', priority: 'URGENT' })).map((i) => i.pk)).toEqual(['T#t1']);
    expect((await indexPartition('byQueue', { status: 'PENDING', priority: 'URGENT' })).map((i) => i.pk)).toEqual(['T#t3', 'T#t4']);
    expect((await indexPartition('byAssignee', { assignee: 'a2' })).map((i) => i.pk)).toEqual(['T#t3', 'T#t4']);
  });

  it('edits and deletes a message by its ticket, time and id; a wrong time is NOT_FOUND and changes nothing', async () => {
    const { sentAt } = sent[4]!;
    const edited = await gw.counted(
      `mutation($s: DateTime!) { editMessage(ticket: "t1", sentAt: $s, id: "m5", input: { body: "edited" }) { id body sentAt } }`,
      { s: sentAt },
    );
    expect(edited.result.errors).toBeUndefined();
    expect(edited.result.data.editMessage).toEqual({ id: 'm5', body: 'edited', sentAt });
    expect(edited.requests.byOperation).toEqual({ UpdateItem: 1 });
    const wrong = await gw.run(`mutation { deleteMessage(ticket: "t1", sentAt: "2001-01-01T00:00:00.000Z", id: "m5") }`);
    expect(codes(wrong)).toEqual(['NOT_FOUND']);
    const deleted = await gw.counted(`mutation($s: DateTime!) { deleteMessage(ticket: "t1", sentAt: $s, id: "m5") }`, { s: sentAt });
    expect(deleted.result.errors).toBeUndefined();
    // The message and the ticket's counter in one transaction.
    expect(deleted.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('T#t1', `msg#${sentAt}#m5`)).toBeUndefined();
    expect((await gw.get('T#t1', 'meta'))!.messageCount).toBe(4);
  });

  it('refuses a message time holding # before any request', async () => {
    const { result, requests } = await gw.counted(`{ message(ticket: "t1", sentAt: "2026-01-01T00:00:00Z", id: "a#b") { id } }`);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
  });

  it('closes a ticket with its messages and watchers, and the watches leave the inverted index', async () => {
    await ok(`mutation { closeTicket(id: "t1") }`);
    const left = (await gw.scan()).filter((i) => String(i.pk).startsWith('T#t1'));
    expect(left).toEqual([]);
    expect((await indexPartition('inverted', { sk: 'A#a2' })).map((i) => i.pk)).toEqual(['T#t3#watchers']);
    expect(await gw.get('T#t2', `msg#${(await gw.scan()).find((i) => i.pk === 'T#t2' && String(i.sk).startsWith('msg#'))!.sentAt}#m9`)).toBeDefined();
  });
});

describe('templates the helpdesk could not be served with', () => {
  const base = readFileSync(SCHEMA_FILE, 'utf8');
  it('refuses an update input holding a field the table key holds, an Int in a sort key and a get without the key time', () => {
    const sdl = base.replace('message(ticket: ID!, sentAt: DateTime!, id: ID!): Message @get', 'message(ticket: ID!, id: ID!): Message @get').replace(
      '"An agent watching a ticket',
      `type Note @item(pk: "T#{ticket}#notes", sk: "n#{rank}#{id}") { id: ID!  rank: Int!  ticket: Ticket! @parent }
type Tag @item(pk: "T#{ticket}#tags", sk: "{label}#{id}") { id: ID!  label: String!  ticket: Ticket! @parent }
input TagInput { label: String }
extend type Mutation { relabel(ticket: ID!, label: String!, id: ID!, input: TagInput!): Tag! @update(parent: "ticket") }
"An agent watching a ticket`,
    );
    expect(problemsOf(sdl)).toEqual(
      [
        'Note @item(sk): placeholder {rank} names rank, an Int: its text would not sort by value (1, 10, 2); use a DateTime, a String, a sequence (@attribute(sequence:, pad:)), or put it in the partition key',
        "Query.message @get: no argument fills {sentAt} of Message's key (expected sentAt or sentAtId)",
        "TagInput.label: Tag.label is in Tag's table key, which an update cannot change: remove it from the update input",
      ].map((line) => expect.stringContaining(line)) as never,
    );
  });

  it('refuses a reference to a type whose key holds a time, and a delete without it', () => {
    const sdl = base
      .replace('assignee: Agent\n', 'assignee: Agent\n  pinned: Message\n')
      .replace('deleteMessage(ticket: ID!, sentAt: DateTime!, id: ID!)', 'deleteMessage(ticket: ID!, id: ID!)');
    expect(problemsOf(sdl)).toEqual([
      "Ticket.pinned: refers to Message, a child type found only with its parent's id: make it inverted: true, or refer to its parent",
      'Ticket.pinned: refers to Message, whose key holds {sentAt}: a reference finds an item by its id alone',
      "Mutation.deleteMessage @delete: Message's key holds {sentAt}: take it in an argument sentAt (its id alone does not find the item)",
    ]);
  });
});

describe('the demo data', () => {
  it('is served as written: a ticket with its messages newest first and its watchers', async () => {
    const demo = await testGateway({ schemaFile: SCHEMA_FILE });
    try {
      await demo.put(JSON.parse(readFileSync(SCHEMA_FILE.replace(/\.graphql$/, '.demo.json'), 'utf8')).items);
      const data = (
        await demo.run(`{ ticket(id: "t1") { subject messages { totalCount } latest(first: 1) { edges { node { id body } } } watchers(first: 5) { totalCount edges { node { id } } } }
        agent(id: "a1") { watching(first: 5) { edges { node { ticket { id subject } } } } } }`)
      ).data;
      expect(data.ticket).toEqual({
        subject: 'Printer on fire',
        messages: { totalCount: 3 },
        latest: { edges: [{ node: { id: 'm3', body: 'Unplugged. Thanks!' } }] },
        watchers: { totalCount: 2, edges: [{ node: { id: 'a1' } }, { node: { id: 'a2' } }] },
      });
      expect(data.agent.watching.edges.map((e: any) => e.node.ticket.subject)).toEqual(['Printer on fire', 'Invoice copy']);
    } finally {
      await demo.stop();
    }
  });
});
