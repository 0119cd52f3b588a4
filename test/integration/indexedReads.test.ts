/**
 * Reads over declared indexes, for a helpdesk model: tickets listed by
 * status over a sparse index on natural attributes (@indexed with no
 * templates, a root @query filled from its argument), a ticket's messages
 * ordered by when they were sent in an index of their own (@indexed
 * templates over a field, from/until ranges), notes in a partition of
 * their own beside the ticket's (@children anywhere), tickets opened in a
 * range of a sort key that repeats. Every page is one Query; paging is
 * exact both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const HELPDESK = `
extend schema
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byStatus", pk: ["status"], sk: ["openedAt"])
  @index(name: "byTicket", pk: ["ticketKey"], sk: ["sentKey"])
  @index(name: "byQueue", pk: ["queue", "status"], sk: ["openedAt"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Ticket @item(pk: "TICKET#{id}", sk: "META") @indexed(index: "byStatus") @indexed(index: "byQueue") {
  id: ID!
  subject: String!
  queue: String
  status: String
  openedAt: String!
  messages(first: Int, after: String, last: Int, before: String, since: String, until: String): MessageConnection!
    @query(index: "byTicket", from: "since", until: "until")
  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @children(counter: "noteCount")
  replies(first: Int, after: String, last: Int, before: String): ReplyConnection! @children
}
type Reply @item(pk: "TICKET#{ticket}", sk: "R#{id}") { id: ID! text: String! ticket: Ticket! @parent }
type ReplyConnection { edges: [ReplyEdge!]! pageInfo: PageInfo! totalCount: Int! }
type ReplyEdge { cursor: String! node: Reply! }
type TicketConnection { edges: [TicketEdge!]! pageInfo: PageInfo! totalCount: Int! }
type TicketEdge { cursor: String! node: Ticket! }
type Message @item(pk: "MSG#{id}", sk: "T#{ticket}") @indexed(index: "byTicket", pk: ["T#{ticket}"], sk: ["m#{sentAt}#{id}"]) {
  id: ID!
  body: String!
  sentAt: String!
  ticket: Ticket! @parent
}
type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! totalCount: Int! }
type MessageEdge { cursor: String! node: Message! }
type Note @item(pk: "TICKET#{ticket}#notes", sk: "NOTE#{id}") { id: ID! text: String! ticket: Ticket! @parent }
type NoteConnection { edges: [NoteEdge!]! pageInfo: PageInfo! totalCount: Int! }
type NoteEdge { cursor: String! node: Note! }
input OpenTicketInput { id: ID subject: String! queue: String status: String openedAt: String! }
input PostMessageInput { id: ID body: String! sentAt: String! }
input AddNoteInput { id: ID text: String! }
input ReplyInput { id: ID text: String! }
input UpdateMessageInput { body: String sentAt: String }
type Query {
  ticket(id: ID!): Ticket @get
  tickets(status: String!, first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "byStatus")
  "A two-attribute partition key: one queue's tickets of one status, by when they were opened."
  queueTickets(queue: String!, status: String!, first: Int, after: String, last: Int, before: String): TicketConnection! @query(index: "byQueue")
  "from/until over a sort key that repeats (openedAt, a natural attribute)."
  ticketsOpened(status: String!, from: String, until: String, first: Int, after: String, last: Int, before: String): TicketConnection!
    @query(index: "byStatus", from: "from", until: "until")
}
type Mutation {
  openTicket(input: OpenTicketInput!): Ticket! @create
  postMessage(ticketId: ID!, input: PostMessageInput!): Message! @create(parent: "ticketId")
  addNote(ticketId: ID!, input: AddNoteInput!): Note! @create(parent: "ticketId")
  reply(ticketId: ID!, input: ReplyInput!): Reply! @create(parent: "ticketId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(HELPDESK, 'helpdesk.graphql') });
  const open = (id: string, status: string | null, day: number) =>
    gw.run(`mutation($i: OpenTicketInput!) { openTicket(input: $i) { id } }`, {
      i: { id, subject: `Ticket ${id}`, status, openedAt: `2026-03-0${day}`, queue: id === 't3' ? 'billing' : 'it' },
    });
  for (const [id, status, day] of [
    ['t1', 'OPEN', 1],
    ['t2', 'OPEN', 3],
    ['t3', 'CLOSED', 2],
    ['t4', 'OPEN', 2],
    ['t5', null, 4],
  ] as const) {
    expect((await open(id, status, day)).errors).toBeUndefined();
  }
  for (let i = 1; i <= 5; i++) {
    const posted = await gw.run(`mutation($i: PostMessageInput!) { postMessage(ticketId: "t1", input: $i) { id } }`, {
      i: { id: `m${i}`, body: `message ${i}`, sentAt: `2026-03-0${i}T10:00:00Z` },
    });
    expect(posted.errors).toBeUndefined();
  }
  for (const id of ['r1', 'r2', 'r3']) {
    expect((await gw.run(`mutation { reply(ticketId: "t1", input: { id: "${id}", text: "reply ${id}" }) { id } }`)).errors).toBeUndefined();
  }
  for (const id of ['n1', 'n2']) {
    expect((await gw.run(`mutation { addNote(ticketId: "t1", input: { id: "${id}", text: "note ${id}" }) { id } }`)).errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

const ids = (connection: { edges: { node: { id: string } }[] }) => connection.edges.map((e) => e.node.id);

describe('a root @query over a sparse index of natural attributes', () => {
  it('lists the tickets of one status in the index sort order, one Query a page, and leaves out tickets without a status', async () => {
    const { result, requests } = await gw.counted(`{ tickets(status: "OPEN", first: 10) { edges { node { id openedAt } } pageInfo { hasNextPage } } }`);
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.tickets)).toEqual(['t1', 't4', 't2']);
    expect(result.data.tickets.pageInfo.hasNextPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const written = await gw.get('TICKET#t5', 'META');
    expect(written).not.toHaveProperty('status');
  });

  it('pages exactly both ways with cursors', async () => {
    const first = await gw.run(`{ tickets(status: "OPEN", first: 2) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`);
    expect(ids(first.data.tickets)).toEqual(['t1', 't4']);
    expect(first.data.tickets.pageInfo.hasNextPage).toBe(true);
    const next = await gw.run(
      `query($c: String) { tickets(status: "OPEN", first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }`,
      {
        c: first.data.tickets.pageInfo.endCursor,
      },
    );
    expect(ids(next.data.tickets)).toEqual(['t2']);
    expect(next.data.tickets.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    const last = await gw.run(`{ tickets(status: "OPEN", last: 2) { edges { node { id } } pageInfo { hasPreviousPage } } }`);
    expect(ids(last.data.tickets)).toEqual(['t4', 't2']);
    expect(last.data.tickets.pageInfo.hasPreviousPage).toBe(true);
  });

  it('refuses a cursor of one status for another', async () => {
    const first = await gw.run(`{ tickets(status: "OPEN", first: 1) { pageInfo { endCursor } } }`);
    const other = await gw.run(`query($c: String) { tickets(status: "CLOSED", first: 1, after: $c) { edges { node { id } } } }`, {
      c: first.data.tickets.pageInfo.endCursor,
    });
    expect(other.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('counts the partition for totalCount', async () => {
    const { result } = await gw.counted(`{ tickets(status: "OPEN", first: 0) { totalCount } }`);
    expect(result.data.tickets.totalCount).toBe(3);
  });
});

describe('a @query field over an index of templates, narrowed by from/until', () => {
  it('writes the index keys from the templates at create', async () => {
    const item = await gw.get('MSG#m2', 'T#t1');
    expect(item).toMatchObject({ ticketKey: 'T#t1', sentKey: 'm#2026-03-02T10:00:00Z#m2' });
  });

  it("reads a ticket's messages in the order they were sent, one Query a page", async () => {
    const { result, requests } = await gw.counted(`{ ticket(id: "t1") { messages(last: 2) { edges { node { id body } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.ticket.messages)).toEqual(['m4', 'm5']);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('keeps only what was sent from since up to, not including, until, and pages within that range', async () => {
    const ranged = await gw.run(
      `{ ticket(id: "t1") { messages(since: "2026-03-02", until: "2026-03-05", first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(ranged.errors).toBeUndefined();
    expect(ids(ranged.data.ticket.messages)).toEqual(['m2', 'm3']);
    expect(ranged.data.ticket.messages.pageInfo.hasNextPage).toBe(true);
    const rest = await gw.run(
      `query($c: String) { ticket(id: "t1") { messages(since: "2026-03-02", until: "2026-03-05", first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage } } } }`,
      { c: ranged.data.ticket.messages.pageInfo.endCursor },
    );
    expect(ids(rest.data.ticket.messages)).toEqual(['m4']);
    expect(rest.data.ticket.messages.pageInfo.hasNextPage).toBe(false);
    const otherRange = await gw.run(`query($c: String) { ticket(id: "t1") { messages(since: "2026-03-01", first: 2, after: $c) { edges { node { id } } } } }`, {
      c: ranged.data.ticket.messages.pageInfo.endCursor,
    });
    expect(otherRange.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses an empty range with BAD_USER_INPUT before any request', async () => {
    const { result, requests } = await gw.counted(
      `{ ticket(id: "t1") { messages(since: "2026-03-05", until: "2026-03-01", first: 2) { edges { node { id } } } } }`,
    );
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(requests.requests).toBeLessThanOrEqual(1);
  });
});

describe('@children in a partition of their own', () => {
  it("stores notes beside the ticket's partition and reads them with the counter", async () => {
    expect(await gw.get('TICKET#t1#notes', 'NOTE#n1')).toMatchObject({ text: 'note n1' });
    const { result } = await gw.counted(`{ ticket(id: "t1") { notes(first: 5) { totalCount edges { node { id text } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.ticket.notes).toEqual({ totalCount: 2, edges: [{ node: { id: 'n1', text: 'note n1' } }, { node: { id: 'n2', text: 'note n2' } }] });
  });
});

describe('an entity whose item sorts before its children', () => {
  it('is read with the first page of its children in one Query (META before R#)', async () => {
    const { result, requests } = await gw.counted(`{ ticket(id: "t1") { subject replies(first: 2) { edges { node { id text } } pageInfo { hasNextPage } } } }`);
    expect(result.data.ticket).toEqual({
      subject: 'Ticket t1',
      replies: { edges: [{ node: { id: 'r1', text: 'reply r1' } }, { node: { id: 'r2', text: 'reply r2' } }], pageInfo: { hasNextPage: true } },
    });
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('sends the GetItem and the Query of the last page together, read backward', async () => {
    const { result, requests } = await gw.counted(`{ ticket(id: "t1") { subject replies(last: 2) { edges { node { id } } } } }`);
    expect(ids(result.data.ticket.replies)).toEqual(['r2', 'r3']);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('answers null for a missing entity from the same one Query', async () => {
    const { result, requests } = await gw.counted(`{ ticket(id: "nope") { subject replies(first: 2) { edges { node { id } } } } }`);
    expect(result.data.ticket).toBeNull();
    expect(requests.byOperation).toEqual({ Query: 1 });
  });
});

describe('items another program left under a collection prefix', () => {
  it("reads past an item whose keys are not the node type's, instead of failing the page", async () => {
    await gw.put([
      { PK: 'TICKET#t4', SK: 'R#a', text: 'ok' },
      { PK: 'TICKET#t4', SK: 'R#b#extra', text: 'malformed' },
      { PK: 'TICKET#t4', SK: 'R#c', text: 'ok' },
    ]);
    const { result } = await gw.counted(`{ ticket(id: "t4") { replies(first: 5) { edges { node { id text } } pageInfo { hasNextPage } } } }`);
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.ticket.replies)).toEqual(['a', 'c']);
    expect(result.data.ticket.replies.pageInfo.hasNextPage).toBe(false);
  });
});

describe('a root @query over an index with a two-attribute partition key', () => {
  it('reads one partition of both attributes, in the sort order, one Query a page, exactly both ways', async () => {
    const { result, requests } = await gw.counted(
      `{ queueTickets(queue: "it", status: "OPEN", first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.queueTickets)).toEqual(['t1', 't4']);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const next = await gw.run(
      `query($c: String) { queueTickets(queue: "it", status: "OPEN", first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage } } }`,
      {
        c: result.data.queueTickets.pageInfo.endCursor,
      },
    );
    expect(ids(next.data.queueTickets)).toEqual(['t2']);
    expect(next.data.queueTickets.pageInfo.hasNextPage).toBe(false);
    const last = await gw.run(`{ queueTickets(queue: "it", status: "OPEN", last: 1) { edges { node { id } } } }`);
    expect(ids(last.data.queueTickets)).toEqual(['t2']);
    const other = await gw.run(`{ queueTickets(queue: "billing", status: "CLOSED", first: 5) { edges { node { id } } } }`);
    expect(ids(other.data.queueTickets)).toEqual(['t3']);
  });

  it('refuses a cursor of one partition for another that shares its first attribute', async () => {
    const first = await gw.run(`{ queueTickets(queue: "it", status: "OPEN", first: 1) { pageInfo { endCursor } } }`);
    const other = await gw.run(`query($c: String) { queueTickets(queue: "it", status: "CLOSED", first: 1, after: $c) { edges { node { id } } } }`, {
      c: first.data.queueTickets.pageInfo.endCursor,
    });
    expect(other.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('a root @query narrowed by from/until over an index sort key that repeats', () => {
  beforeAll(async () => {
    // t6 is opened on the day t4 was: two items of one sort key in the OPEN partition.
    const opened = await gw.run(
      `mutation { openTicket(input: { id: "t6", subject: "Ticket t6", status: "OPEN", openedAt: "2026-03-02", queue: "it" }) { id } }`,
    );
    expect(opened.errors).toBeUndefined();
  });
  const q = `query($from: String, $until: String, $first: Int, $after: String, $last: Int) {
    ticketsOpened(status: "OPEN", from: $from, until: $until, first: $first, after: $after, last: $last) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } }
  }`;

  it('pages one item at a time through two items of one sort key, missing neither, one Query a page', async () => {
    const range = { from: '2026-03-02', until: '2026-03-03' };
    const first = await gw.counted(q, { ...range, first: 1 });
    expect(first.result.errors).toBeUndefined();
    expect(first.result.data.ticketsOpened.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.requests.byOperation).toEqual({ Query: 1 });
    const second = await gw.counted(q, { ...range, first: 1, after: first.result.data.ticketsOpened.pageInfo.endCursor });
    expect(second.result.data.ticketsOpened.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(second.requests.byOperation).toEqual({ Query: 2 });
    // t2, opened on the until day, is left out: until is excluded.
    expect([...ids(first.result.data.ticketsOpened), ...ids(second.result.data.ticketsOpened)].sort()).toEqual(['t4', 't6']);
  });

  it('reads from a position to the latest, backward, and counts the range without its far end', async () => {
    const { result, requests } = await gw.counted(q, { from: '2026-03-02', last: 10 });
    expect(ids(result.data.ticketsOpened).slice(2)).toEqual(['t2']);
    expect(ids(result.data.ticketsOpened).slice(0, 2).sort()).toEqual(['t4', 't6']);
    expect(result.data.ticketsOpened.pageInfo.hasPreviousPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const counted = await gw.counted(`{ ticketsOpened(status: "OPEN", from: "2026-03-01", until: "2026-03-03", first: 0) { totalCount } }`);
    expect(counted.result.data.ticketsOpened.totalCount).toBe(3);
    expect(counted.requests.byOperation).toEqual({ Query: 2 });
  });

  it('refuses a cursor issued for another range, and an empty range', async () => {
    const first = await gw.run(q, { from: '2026-03-01', first: 1 });
    const other = await gw.run(q, { from: '2026-03-02', first: 1, after: first.data.ticketsOpened.pageInfo.endCursor });
    expect(other.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const empty = await gw.counted(q, { from: '2026-03-03', until: '2026-03-02', first: 1 });
    expect(empty.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(empty.requests.requests).toBe(0);
  });
});
