/**
 * The second model (examples/crm.graphql) served end to end against
 * DynamoDB Local: users with their dated orders and contacts in their own
 * partition, and groups joined through membership edges. The reads run on
 * items written straight into the table in the layout examples/README.md
 * documents; the mutations write through the gateway.
 */
import { fileURLToPath } from 'node:url';
import { Buffer } from 'node:buffer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { loadedModelFiles } from '../../src/declaration/loadModel.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));

const DATES = ['2026-07-01', '2026-07-03', '2026-07-04', '2026-07-10', '2026-08-01'];

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  await gw.put([
    { PK: 'USER#12345', SK: 'PROFILE', name: 'Rosa Parks', email: 'rosa@example.com', orderCount: 5, contactCount: 2, groupCount: 2 },
    // Written out of date order: the sort key orders them.
    ...[...DATES].reverse().map((date, i) => ({ PK: 'USER#12345', SK: `ORDER${date}`, total: 10 + i, status: 'PLACED' })),
    { PK: 'USER#12345', SK: 'CONTACT#6543', name: 'Martin', phone: '+1 555 0100' },
    { PK: 'USER#12345', SK: 'CONTACT#6544', name: 'Coretta' },
    { PK: 'USER#777', SK: 'PROFILE', name: 'Ida Wells', groupCount: 1 },
    { PK: 'USER#777', SK: 'ORDER2026-07-03', total: 99 },
    { PK: 'GROUP#chess', SK: 'PROFILE', name: 'Chess club', description: 'Thursdays', memberCount: 2 },
    { PK: 'GROUP#choir', SK: 'PROFILE', name: 'Choir', memberCount: 1 },
    membership('12345', 'chess', 'Chess club', 'Rosa Parks', '2026-06-01T10:00:00.000Z'),
    membership('12345', 'choir', 'Choir', 'Rosa Parks', '2026-06-02T10:00:00.000Z'),
    membership('777', 'chess', 'Chess club', 'Ida Wells', '2026-06-03T10:00:00.000Z'),
  ]);
});
afterAll(() => gw.stop());

/** A membership edge as examples/README.md lays it out: in the user's partition, GSI1 keys swapped, both copies. */
function membership(user: string, group: string, groupName: string, memberName: string, joinedAt: string) {
  return { PK: `USER#${user}`, SK: `GROUP#${group}`, GSI1PK: `GROUP#${group}`, GSI1SK: `USER#${user}`, joinedAt, groupName, memberName };
}

const ORDERS_PAGE = `query ($first: Int, $after: String, $last: Int, $before: String) {
  user(id: "12345") { orders(first: $first, after: $after, last: $last, before: $before) {
    edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }
}`;
const ids = (connection: any) => connection.edges.map((e: any) => e.node.id);

describe('reads of the second model', () => {
  it('are served by a process that read no other model file (not even the default one)', async () => {
    const { result } = await gw.counted(`{ user(id: "12345") { id } }`);
    expect(result.errors).toBeUndefined();
    expect(loadedModelFiles()).toEqual([SCHEMA_FILE]);
  });

  it('gets a user, an order by its user and date, a contact and a group; absent ones are null', async () => {
    const { result } = await gw.counted(`{
      user(id: "12345") { id name email }
      order(userId: "12345", id: "2026-07-03") { id total status user { id name } }
      contact(userId: "12345", id: "6543") { id name phone }
      group(id: "chess") { id name description }
      nobody: user(id: "0") { id }
      noOrder: order(userId: "12345", id: "1999-01-01") { id }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      user: { id: '12345', name: 'Rosa Parks', email: 'rosa@example.com' },
      order: { id: '2026-07-03', total: 13, status: 'PLACED', user: { id: '12345', name: 'Rosa Parks' } },
      contact: { id: '6543', name: 'Martin', phone: '+1 555 0100' },
      group: { id: 'chess', name: 'Chess club', description: 'Thursdays' },
      nobody: null,
      noOrder: null,
    });
  });

  it('reads a user and the first page of their orders in one Query (look-ahead), oldest date first', async () => {
    const { result, requests } = await gw.counted(`{ user(id: "12345") { name orders(first: 2) { edges { node { id total } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.user).toEqual({
      name: 'Rosa Parks',
      orders: { edges: [{ node: { id: '2026-07-01', total: 14 } }, { node: { id: '2026-07-03', total: 13 } }] },
    });
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('pages orders forward and backward with exact hasNextPage and hasPreviousPage', async () => {
    const first = (await gw.run(ORDERS_PAGE, { first: 2 })).data.user.orders;
    expect(ids(first)).toEqual(DATES.slice(0, 2));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await gw.run(ORDERS_PAGE, { first: 2, after: first.pageInfo.endCursor })).data.user.orders;
    expect(ids(second)).toEqual(DATES.slice(2, 4));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = (await gw.run(ORDERS_PAGE, { first: 2, after: second.pageInfo.endCursor })).data.user.orders;
    expect(ids(third)).toEqual(DATES.slice(4));
    // The last page: no next page, although it was cut by the page size's read.
    expect(third.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const last = (await gw.run(ORDERS_PAGE, { last: 2 })).data.user.orders;
    expect(ids(last)).toEqual(DATES.slice(3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = (await gw.run(ORDERS_PAGE, { last: 3, before: last.pageInfo.startCursor })).data.user.orders;
    expect(ids(before)).toEqual(DATES.slice(0, 3));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('lists contacts only (orders and memberships share the partition) in id order', async () => {
    const { data } = await gw.run(`{ user(id: "12345") { contacts { totalCount edges { node { id name phone } } } } }`);
    expect(data.user.contacts).toEqual({
      totalCount: 2,
      edges: [{ node: { id: '6543', name: 'Martin', phone: '+1 555 0100' } }, { node: { id: '6544', name: 'Coretta', phone: null } }],
    });
  });

  it("reads a user's groups from the edges' copies in one Query, with each membership's joinedAt", async () => {
    const { result, requests } = await gw.counted(`{ user(id: "12345") { groups { edges { joinedAt node { id name } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.user.groups.edges).toEqual([
      { joinedAt: '2026-06-01T10:00:00.000Z', node: { id: 'chess', name: 'Chess club' } },
      { joinedAt: '2026-06-02T10:00:00.000Z', node: { id: 'choir', name: 'Choir' } },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads the group nodes themselves, in one batch, when the selection asks for more than the copy', async () => {
    const { result, requests } = await gw.counted(`{ user(id: "12345") { groups { edges { node { id name description } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.user.groups.edges.map((e: any) => e.node)).toEqual([
      { id: 'chess', name: 'Chess club', description: 'Thursdays' },
      { id: 'choir', name: 'Choir', description: null },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1 });
  });

  it("reads a group's members through GSI1 from the memberName copies, and their items when email is selected", async () => {
    const copies = await gw.counted(`{ group(id: "chess") { name members { edges { joinedAt node { id name } } } } }`);
    expect(copies.result.errors).toBeUndefined();
    expect(copies.result.data.group).toEqual({
      name: 'Chess club',
      members: {
        edges: [
          { joinedAt: '2026-06-01T10:00:00.000Z', node: { id: '12345', name: 'Rosa Parks' } },
          { joinedAt: '2026-06-03T10:00:00.000Z', node: { id: '777', name: 'Ida Wells' } },
        ],
      },
    });
    // The group item (GetItem) and its GSI1 page (Query): the group's item is not in GSI1, so no look-ahead.
    expect(copies.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });

    const items = await gw.counted(`{ group(id: "chess") { members { edges { node { id email } } } } }`);
    expect(items.result.errors).toBeUndefined();
    expect(items.result.data.group.members.edges.map((e: any) => e.node)).toEqual([
      { id: '12345', email: 'rosa@example.com' },
      { id: '777', email: null },
    ]);
    expect(items.requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
  });

  it('answers totalCount from the counters on the user and the group, with no extra request', async () => {
    const { result, requests } = await gw.counted(`{
      user(id: "12345") { orders(last: 1) { totalCount } contacts(first: 1) { totalCount } groups(first: 1) { totalCount } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.user).toEqual({ orders: { totalCount: 5 }, contacts: { totalCount: 2 }, groups: { totalCount: 2 } });
    // One Query of the user with the last order (look-ahead), the other two first pages in their own Queries.
    expect(requests.byOperation).toEqual({ Query: 3 });
    const group = await gw.counted(`{ group(id: "chess") { members(first: 1) { totalCount } } }`);
    expect(group.result.data.group.members.totalCount).toBe(2);
    expect(group.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("refuses another connection's cursor and another user's cursor, before any DynamoDB request", async () => {
    const orders = (await gw.run(ORDERS_PAGE, { first: 1 })).data.user.orders;
    const onContacts = await gw.counted(`query ($c: String) { user(id: "12345") { contacts(first: 1, after: $c) { edges { node { id } } } } }`, {
      c: orders.pageInfo.endCursor,
    });
    expect(codes(onContacts.result)).toEqual(['BAD_USER_INPUT']);
    expect(onContacts.requests.requests).toBe(0);
    const otherUser = await gw.counted(`query ($c: String) { user(id: "777") { orders(first: 1, after: $c) { edges { node { id } } } } }`, {
      c: orders.pageInfo.endCursor,
    });
    expect(codes(otherUser.result)).toEqual(['BAD_USER_INPUT']);
    expect(otherUser.requests.requests).toBe(0);
  });

  it('refuses bad ids with BAD_USER_INPUT, before any DynamoDB request', async () => {
    for (const query of [
      `{ user(id: "12#345") { id } }`,
      `{ user(id: "") { id } }`,
      `{ group(id: "${'g'.repeat(129)}") { id } }`,
      `{ order(userId: "12345", id: "2026#07") { id } }`,
      `{ order(userId: "", id: "2026-07-03") { id } }`,
      `{ contact(userId: "a#b", id: "6543") { id } }`,
    ]) {
      const { result, requests } = await gw.counted(query);
      expect(codes(result), query).toEqual(['BAD_USER_INPUT']);
      expect(requests.requests, query).toBe(0);
    }
  });
});

const CREATE_USER = `mutation ($input: CreateUserInput!) { createUser(input: $input) { id name } }`;
const CREATE_GROUP = `mutation ($input: CreateGroupInput!) { createGroup(input: $input) { id name } }`;
const PLACE_ORDER = `mutation ($u: ID!, $input: PlaceOrderInput!) { placeOrder(userId: $u, input: $input) { id total user { id } } }`;
const ADD_CONTACT = `mutation ($u: ID!, $input: AddContactInput!) { addContact(userId: $u, input: $input) { id name } }`;
const JOIN = `mutation ($u: ID!, $g: ID!) { joinGroup(userId: $u, groupId: $g) { joinedAt node { id name } } }`;
const LEAVE = `mutation ($u: ID!, $g: ID!) { leaveGroup(userId: $u, groupId: $g) }`;

async function ok(query: string, variables?: Record<string, unknown>) {
  const result = await gw.run(query, variables);
  expect(result.errors, query).toBeUndefined();
  return result.data;
}

// The second model's mutations, built from its declaration like its reads.
describe('global ids of the second model', () => {
  it('gives every item type a globalId that node(id:) reads back in one request, an order by its user and date', async () => {
    const { result } = await gw.counted(
      `{ user(id: "12345") { globalId orders(first: 1) { edges { node { globalId } } } contacts(first: 1) { edges { node { globalId } } } groups(first: 1) { edges { node { globalId } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const user = result.data.user;
    const ids = [user.globalId, user.orders.edges[0].node.globalId, user.contacts.edges[0].node.globalId, user.groups.edges[0].node.globalId];
    expect(ids.map((id: string) => Buffer.from(id, 'base64url').toString())).toEqual([
      'User#12345',
      'Order#12345#2026-07-01',
      'Contact#12345#6543',
      'Group#chess',
    ]);
    const NODE = `query($id: ID!) { node(id: $id) { __typename ... on User { name } ... on Order { id total user { id } } ... on Contact { name } ... on Group { name } } }`;
    const expected = [
      { __typename: 'User', name: 'Rosa Parks' },
      { __typename: 'Order', id: '2026-07-01', total: 14, user: { id: '12345' } },
      { __typename: 'Contact', name: 'Martin' },
      { __typename: 'Group', name: 'Chess club' },
    ];
    for (const [i, id] of ids.entries()) {
      const { result: read, requests } = await gw.counted(NODE, { id });
      expect(read).toEqual({ data: { node: expected[i] } });
      expect(requests.requests).toBe(1);
    }
  });
});

describe('mutations of the second model', () => {
  it('creates a user, refuses the same id again with CONFLICT, and places dated orders in their partition', async () => {
    await ok(CREATE_USER, { input: { id: 'm1', name: 'Mae Jemison' } });
    const again = await gw.run(CREATE_USER, { input: { id: 'm1', name: 'Impostor' } });
    expect(codes(again)).toEqual(['CONFLICT']);
    expect((await gw.get('USER#m1', 'PROFILE'))?.name).toBe('Mae Jemison');

    const placed = await ok(PLACE_ORDER, { u: 'm1', input: { id: '2026-07-03', total: 12.5 } });
    expect(placed.placeOrder).toEqual({ id: '2026-07-03', total: 12.5, user: { id: 'm1' } });
    expect(await gw.get('USER#m1', 'ORDER2026-07-03')).toMatchObject({ total: 12.5 });
    const twice = await gw.run(PLACE_ORDER, { u: 'm1', input: { id: '2026-07-03', total: 1 } });
    expect(codes(twice)).toEqual(['CONFLICT']);
    await ok(ADD_CONTACT, { u: 'm1', input: { id: 'k1', name: 'Sally' } });
    const { data } = await gw.run(`{ user(id: "m1") { orders { totalCount edges { node { id } } } contacts { totalCount } } }`);
    expect(data.user).toEqual({ orders: { totalCount: 1, edges: [{ node: { id: '2026-07-03' } }] }, contacts: { totalCount: 1 } });
    expect(await gw.get('USER#m1', 'PROFILE')).toMatchObject({ orderCount: 1, contactCount: 1 });
  });

  it('refuses a child of a missing user with NOT_FOUND and writes nothing', async () => {
    const result = await gw.run(PLACE_ORDER, { u: 'ghost', input: { id: '2026-07-03', total: 1 } });
    expect(codes(result)).toEqual(['NOT_FOUND']);
    expect(await gw.get('USER#ghost', 'ORDER2026-07-03')).toBeUndefined();
    expect(codes(await gw.run(ADD_CONTACT, { u: 'ghost', input: { name: 'x' } }))).toEqual(['NOT_FOUND']);
  });

  it('links and unlinks a membership with both copies and both counters, refusing a second link and a missing one', async () => {
    await ok(CREATE_USER, { input: { id: 'l1', name: 'Katherine' } });
    await ok(CREATE_GROUP, { input: { id: 'lg', name: 'Rocketry' } });
    const joined = await ok(JOIN, { u: 'l1', g: 'lg' });
    expect(joined.joinGroup.node).toEqual({ id: 'lg', name: 'Rocketry' });
    expect(await gw.get('USER#l1', 'GROUP#lg')).toMatchObject({ GSI1PK: 'GROUP#lg', GSI1SK: 'USER#l1', groupName: 'Rocketry', memberName: 'Katherine' });
    expect(await gw.get('USER#l1', 'PROFILE')).toMatchObject({ groupCount: 1 });
    expect(await gw.get('GROUP#lg', 'PROFILE')).toMatchObject({ memberCount: 1 });
    expect(codes(await gw.run(JOIN, { u: 'l1', g: 'lg' }))).toEqual(['CONFLICT']);
    expect(codes(await gw.run(JOIN, { u: 'l1', g: 'nowhere' }))).toEqual(['NOT_FOUND']);

    expect((await ok(LEAVE, { u: 'l1', g: 'lg' })).leaveGroup).toBe(true);
    expect(await gw.get('USER#l1', 'GROUP#lg')).toBeUndefined();
    expect(await gw.get('USER#l1', 'PROFILE')).toMatchObject({ groupCount: 0 });
    expect(await gw.get('GROUP#lg', 'PROFILE')).toMatchObject({ memberCount: 0 });
    expect(codes(await gw.run(LEAVE, { u: 'l1', g: 'lg' }))).toEqual(['NOT_FOUND']);
  });

  it("carries a group's new name to every membership's copy", async () => {
    await ok(CREATE_GROUP, { input: { id: 'ug', name: 'Old name' } });
    await ok(CREATE_USER, { input: { id: 'u1', name: 'One' } });
    await ok(CREATE_USER, { input: { id: 'u2', name: 'Two' } });
    await ok(JOIN, { u: 'u1', g: 'ug' });
    await ok(JOIN, { u: 'u2', g: 'ug' });
    await ok(`mutation { updateGroup(id: "ug", input: { name: "New name" }) { name } }`);
    await ok(`mutation { updateUser(id: "u1", input: { name: "Uno" }) { name } }`);
    await gw.settle();
    expect(await gw.get('USER#u1', 'GROUP#ug')).toMatchObject({ groupName: 'New name', memberName: 'Uno' });
    expect(await gw.get('USER#u2', 'GROUP#ug')).toMatchObject({ groupName: 'New name', memberName: 'Two' });
    const { data } = await gw.run(`{ user(id: "u2") { groups { edges { node { name } } } } group(id: "ug") { members { edges { node { name } } } } }`);
    expect(data.user.groups.edges).toEqual([{ node: { name: 'New name' } }]);
    expect(data.group.members.edges).toEqual([{ node: { name: 'Uno' } }, { node: { name: 'Two' } }]);
  });

  it("deletes a user with their orders, contacts and memberships, and the group's count follows", async () => {
    await ok(CREATE_USER, { input: { id: 'd1', name: 'Doomed' } });
    await ok(CREATE_GROUP, { input: { id: 'dg', name: 'Stays' } });
    await ok(PLACE_ORDER, { u: 'd1', input: { id: '2026-01-01', total: 1 } });
    await ok(ADD_CONTACT, { u: 'd1', input: { id: 'dc', name: 'Friend' } });
    await ok(JOIN, { u: 'd1', g: 'dg' });
    expect((await ok(`mutation { deleteUser(id: "d1") }`)).deleteUser).toBe('d1');
    await gw.settle();
    const left = (await gw.scan()).filter((item) => item.PK === 'USER#d1' || item.GSI1SK === 'USER#d1');
    expect(left).toEqual([]);
    expect(await gw.get('GROUP#dg', 'PROFILE')).toMatchObject({ name: 'Stays', memberCount: 0 });
    expect((await gw.run(`{ user(id: "d1") { id } }`)).data.user).toBeNull();
  });
});
