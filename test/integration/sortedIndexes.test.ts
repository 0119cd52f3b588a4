/**
 * Connections over an index whose sort key has several attributes
 * (DynamoDB's multi-attribute keys), on examples/helpdesk.graphql:
 * `Query.triage` reads byStatus (pk status; sk priority, openedAt) and
 * `Customer.ticketsByStatus` reads byCustomerStatus (pk customer; sk
 * status, openedAt) newest first. Arguments fix leading sort attributes,
 * from/until range over the first one left, pages are exact both ways at
 * one Query each, and the key conditions sent are the ones DynamoDB
 * requires (equality left to right, a range on the last conditioned one).
 */
import { fileURLToPath } from 'node:url';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { readRange } from '../../src/dynamo/collection.js';
import { sdkReads, type ReadPort } from '../../src/dynamo/readPort.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/helpdesk.graphql', import.meta.url));

let gw: TestGateway;
const openedAt: Record<string, string> = {};

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gw.run<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

// Opened one at a time, so each gets a later openedAt.
const TICKETS = [
  ['o1', 'OPEN', 'URGENT', 'c1'],
  ['o2', 'OPEN', 'LOW', 'c1'],
  ['o3', 'OPEN', 'NORMAL', 'c1'],
  ['o4', 'OPEN', 'URGENT', 'c2'],
  ['o5', 'OPEN', 'LOW', 'c2'],
  ['p1', 'PENDING', 'URGENT', 'c1'],
  ['o6', 'OPEN', 'URGENT', 'c2'],
  ['o7', 'OPEN', 'NORMAL', 'c2'],
] as const;
/** triage(status: OPEN): by priority's text (LOW, NORMAL, URGENT), then oldest first. */
const OPEN_ORDER = ['o2', 'o5', 'o3', 'o7', 'o1', 'o4', 'o6'];
/** c1's ticketsByStatus, newest first over (status, openedAt): PENDING before OPEN. */
const C1_ORDER = ['p1', 'o3', 'o2', 'o1'];

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE, fanOut: 'inRequest' });
  for (const [id, status, priority, customer] of TICKETS) {
    const data = await ok(`mutation($i: OpenTicketInput!) { openTicket(input: $i) { id openedAt } }`, {
      i: { id, subject: `ticket ${id}`, status, priority, customer },
    });
    openedAt[id] = data.openTicket.openedAt;
  }
});
afterAll(() => gw?.stop());

const TRIAGE = `query($status: TicketStatus!, $priority: Priority, $from: String, $until: String, $first: Int, $after: String, $last: Int, $before: String) {
  triage(status: $status, priority: $priority, from: $from, until: $until, first: $first, after: $after, last: $last, before: $before) {
    edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
const BY_STATUS = `query($customer: ID!, $status: TicketStatus, $first: Int, $after: String, $last: Int, $before: String) {
  customer(id: $customer) { ticketsByStatus(status: $status, first: $first, after: $after, last: $last, before: $before) {
    edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
const ids = (c: { edges: { node: { id: string } }[] }) => c.edges.map((e) => e.node.id);

type Page = { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string } };

/**
 * Walks a connection with pages of `size` forward from the start and
 * backward from the end, checking every page's items and both flags
 * against `expected`, and its requests: one Query for the page, and after
 * a cursor one more for the flag on the cursor's side.
 */
async function walksExactly(read: (page: Record<string, unknown>) => Promise<{ connection: Page; requests: number }>, expected: string[], size: number) {
  let after: string | undefined;
  for (let at = 0; at < expected.length; at += size) {
    const { connection, requests } = await read({ first: size, after });
    expect(ids(connection)).toEqual(expected.slice(at, at + size));
    expect(connection.pageInfo.hasNextPage).toBe(at + size < expected.length);
    expect(connection.pageInfo.hasPreviousPage).toBe(at > 0);
    // The page (one Query), and after a cursor the check of the other side: the cursor's item is still there (one Query).
    expect(requests).toBe(at === 0 ? 1 : 2);
    after = connection.pageInfo.endCursor;
  }
  let before: string | undefined;
  for (let end = expected.length; end > 0; end -= size) {
    const { connection, requests } = await read({ last: size, before });
    expect(ids(connection)).toEqual(expected.slice(Math.max(0, end - size), end));
    expect(connection.pageInfo.hasPreviousPage).toBe(end - size > 0);
    expect(connection.pageInfo.hasNextPage).toBe(end < expected.length);
    expect(requests).toBe(end === expected.length ? 1 : 2);
    before = connection.pageInfo.startCursor;
  }
}

const triage = (vars: Record<string, unknown>) => async (page: Record<string, unknown>) => {
  const { result, requests } = await gw.counted(TRIAGE, { ...vars, ...page });
  expect(result.errors).toBeUndefined();
  return { connection: result.data.triage as Page, requests: requests.requests };
};

describe('a connection over two sort attributes', () => {
  it('indexes each ticket under its natural attributes, ordered by priority then time opened, nothing written for it', async () => {
    const o1 = await gw.get('T#o1', 'meta');
    expect(o1).toMatchObject({ status: 'OPEN', priority: 'URGENT', customer: 'c1', openedAt: openedAt.o1 });
    // The index keys are the ticket's own attributes: nothing else is written for them.
    const declared = ['pk', 'sk', 'subject', 'status', 'priority', 'openedAt', 'customer', 'messageCount', 'watcherCount'];
    expect(Object.keys(o1!).filter((k) => !declared.includes(k))).toEqual([]);
    const out = await gw.dynamo.doc.send(
      new QueryCommand({
        TableName: gw.tableName,
        IndexName: 'byStatus',
        KeyConditionExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'OPEN' },
      }),
    );
    expect((out.Items ?? []).map((i) => i.pk)).toEqual(OPEN_ORDER.map((id) => `T#${id}`));
  });

  it('pages one status by priority then time exactly both ways, one Query a page', async () => {
    await walksExactly(triage({ status: 'OPEN' }), OPEN_ORDER, 2);
    await walksExactly(triage({ status: 'OPEN' }), OPEN_ORDER, 3);
  });

  it('fixes the first sort attribute by its argument: one priority, oldest first, exactly both ways', async () => {
    await walksExactly(triage({ status: 'OPEN', priority: 'URGENT' }), ['o1', 'o4', 'o6'], 2);
    await walksExactly(triage({ status: 'PENDING', priority: 'URGENT' }), ['p1'], 2);
    expect(ids((await ok(TRIAGE, { status: 'SOLVED', first: 5 })).triage)).toEqual([]);
  });

  it('ranges over the time opened within one priority, and over the priority without one, with cursors bound to the range', async () => {
    const urgent = { status: 'OPEN', priority: 'URGENT' };
    const { result, requests } = await gw.counted(TRIAGE, { ...urgent, from: openedAt.o4, until: openedAt.o6, first: 5 });
    expect(ids(result.data.triage)).toEqual(['o4']);
    expect(requests.byOperation).toEqual({ Query: 1 });
    await walksExactly(triage({ ...urgent, from: openedAt.o4 }), ['o4', 'o6'], 1);
    await walksExactly(triage({ ...urgent, until: openedAt.o6 }), ['o1', 'o4'], 1);
    // Without a priority, from/until compare with it: LOW and NORMAL, not URGENT.
    await walksExactly(triage({ status: 'OPEN', from: 'LOW', until: 'URGENT' }), ['o2', 'o5', 'o3', 'o7'], 3);
    // A cursor of one range is refused in another, and in the connection with another priority.
    const page = (await ok(TRIAGE, { ...urgent, from: openedAt.o4, first: 1 })).triage;
    for (const vars of [
      { ...urgent, first: 1 },
      { status: 'OPEN', priority: 'LOW', from: openedAt.o4, first: 1 },
      { status: 'OPEN', from: openedAt.o4, first: 1 },
    ]) {
      const refused = await gw.run(TRIAGE, { ...vars, after: page.pageInfo.endCursor });
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    }
  });

  it('counts what the arguments select, in COUNT Queries', async () => {
    const COUNT = `query($status: TicketStatus!, $priority: Priority, $from: String, $until: String) { triage(status: $status, priority: $priority, from: $from, until: $until, first: 0) { totalCount } }`;
    // One COUNT Query with the arguments' equalities; with until, one more for the items at it (BETWEEN counts them).
    for (const [vars, total, queries] of [
      [{ status: 'OPEN' }, 7, 1],
      [{ status: 'OPEN', priority: 'URGENT' }, 3, 1],
      [{ status: 'OPEN', priority: 'URGENT', until: openedAt.o6 }, 2, 2],
      [{ status: 'OPEN', from: 'LOW', until: 'URGENT' }, 4, 2],
    ] as const) {
      const { result, requests } = await gw.counted(COUNT, vars);
      expect(result.errors).toBeUndefined();
      expect(result.data.triage.totalCount).toBe(total);
      expect(requests.byOperation).toEqual({ Query: queries });
    }
  });

  it('sends the key conditions DynamoDB requires: equality on the partition and the fixed attribute, one side of a range on the next', async () => {
    const sent: QueryCommandInput[] = [];
    const sdk = sdkReads(gw.dynamo.doc);
    const reads: ReadPort = { get: (i) => sdk.get(i), batchGet: (i) => sdk.batchGet(i), query: (input) => (sent.push(input), sdk.query(input)) };
    const plan = gw.plan.queries.find((q) => q.path === 'Query.triage')!;
    const collection = plan.collection({ status: 'OPEN', priority: 'URGENT', from: openedAt.o4, until: openedAt.o6 });
    // Each side read from its near end on, the far end met in the items: one Query each, ties at either end never read.
    expect((await readRange(reads, gw.tableName, { collection, forward: true, limit: 5 })).map((i) => i.pk)).toEqual(['T#o4']);
    expect((await readRange(reads, gw.tableName, { collection, forward: false, limit: 5 })).map((i) => i.pk)).toEqual(['T#o4']);
    expect(sent.map((q) => [q.IndexName, q.KeyConditionExpression, q.ExpressionAttributeNames, q.ExpressionAttributeValues, q.ScanIndexForward])).toEqual([
      [
        'byStatus',
        '#pk = :pk AND #s0 = :s0 AND #sk >= :lo',
        { '#pk': 'status', '#s0': 'priority', '#sk': 'openedAt' },
        { ':pk': 'OPEN', ':s0': 'URGENT', ':lo': openedAt.o4 },
        true,
      ],
      [
        'byStatus',
        '#pk = :pk AND #s0 = :s0 AND #sk < :hi',
        { '#pk': 'status', '#s0': 'priority', '#sk': 'openedAt' },
        { ':pk': 'OPEN', ':s0': 'URGENT', ':hi': openedAt.o6 },
        false,
      ],
    ]);
  });
});

describe('a type field over two sort attributes, newest first', () => {
  const byStatus = (vars: Record<string, unknown>) => async (page: Record<string, unknown>) => {
    const { result, requests } = await gw.counted(BY_STATUS, { ...vars, ...page });
    expect(result.errors).toBeUndefined();
    return { connection: result.data.customer.ticketsByStatus as Page, requests: requests.requests };
  };

  it('pages a customer tickets by status then newest first, exactly both ways, one Query a page', async () => {
    await walksExactly(byStatus({ customer: 'c1' }), C1_ORDER, 1);
    await walksExactly(byStatus({ customer: 'c1' }), C1_ORDER, 3);
  });

  it('fixes the status by its argument', async () => {
    await walksExactly(byStatus({ customer: 'c1', status: 'OPEN' }), ['o3', 'o2', 'o1'], 2);
    await walksExactly(byStatus({ customer: 'c2', status: 'OPEN' }), ['o7', 'o6', 'o5', 'o4'], 3);
    await walksExactly(byStatus({ customer: 'c2', status: 'PENDING' }), [], 3);
  });

  it('stops exactly at a cursor whose ticket has since moved to another place in the order', async () => {
    const CURSORS = `query { customer(id: "c2") { ticketsByStatus(first: 4) { edges { cursor node { id } } } } }`;
    const all = (await ok(CURSORS)).customer.ticketsByStatus;
    expect(ids(all)).toEqual(['o7', 'o6', 'o5', 'o4']);
    const o5 = all.edges[2].cursor;
    await ok(`mutation { updateTicket(id: "o5", input: { status: SOLVED }) { id } }`);
    try {
      // SOLVED sorts after OPEN, so newest first o5 now comes first; the page before o5's old place holds it, o7 and o6.
      const { result, requests } = await gw.counted(BY_STATUS, { customer: 'c2', first: 5, before: o5 });
      expect(result.errors).toBeUndefined();
      expect(ids(result.data.customer.ticketsByStatus)).toEqual(['o5', 'o7', 'o6']);
      expect(result.data.customer.ticketsByStatus.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
      // The page, and the check after it: nothing at o5's old place any more (one Query), o4 past it (one more).
      expect(requests.byOperation).toEqual({ Query: 3 });
      // A cursor issued without a status is refused with one.
      expect(codes(await gw.run(BY_STATUS, { customer: 'c2', status: 'OPEN', first: 5, before: o5 }))).toEqual(['BAD_USER_INPUT']);
    } finally {
      await ok(`mutation { updateTicket(id: "o5", input: { status: OPEN }) { id } }`);
    }
  });
});
