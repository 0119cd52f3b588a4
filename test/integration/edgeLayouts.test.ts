/**
 * Edges laid out as a model declares them (@edges(pk, sk, index)), on a
 * table keyed on lower-case `pk`/`sk` with an inverted index over those
 * keys and no GSI1: edges in a partition of their own, mirrored pairs
 * written and deleted in one transaction, and an inverse side read through
 * the inverted index. Every item is checked raw where the model puts it;
 * request counts are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
extend schema @table(pk: "pk", sk: "sk") @index(name: "inverted", pk: ["sk"], sk: ["pk"])
scalar DateTime

type Person @item(pk: "P#{id}", sk: "profile") {
  id: ID!
  name: String!
  "P#<person>#followers / P#<follower>."
  followers(first: Int, after: String, last: Int, before: String): FollowConnection!
    @edges(pk: "P#{id}#followers", sk: "P#{follower}", counter: "followerCount")
  "The mirror: P#<person>#following / P#<followed>."
  following(first: Int, after: String, last: Int, before: String): FollowConnection!
    @edges(inverseOf: "followers", pk: "P#{id}#following", sk: "P#{followed}", counter: "followingCount")
  "The groups' member edges, read back through the inverted index (sk = P#<person>), highest group id first."
  groups(first: Int, after: String, last: Int, before: String): MembershipConnection! @edges(inverseOf: "members", index: "inverted", counter: "groupCount", order: DESCENDING)
}
type FollowConnection { edges: [FollowEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type FollowEdge { cursor: String!  since: DateTime! @createdAt  node: Person! }

type Group @item(pk: "G#{id}", sk: "meta") {
  id: ID!
  title: String!
  "G#<group>#members / P#<person>."
  members(first: Int, after: String, last: Int, before: String): MemberConnection! @edges(pk: "G#{id}#members", sk: "P#{member}", counter: "memberCount")
}
type MemberConnection { edges: [MemberEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type MemberEdge { cursor: String!  role: String  node: Person! }
type MembershipConnection { edges: [MembershipEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type MembershipEdge { cursor: String!  role: String  node: Group! }

input CreatePersonInput { id: ID  name: String! }
input CreateGroupInput { id: ID  title: String! }

type Query {
  person(id: ID!): Person @get
  group(id: ID!): Group @get
}
type Mutation {
  createPerson(input: CreatePersonInput!): Person! @create
  createGroup(input: CreateGroupInput!): Group! @create
  deletePerson(id: ID!): ID! @delete(type: "Person")
  deleteGroup(id: ID!): ID! @delete(type: "Group")
  follow(personId: ID!, followerId: ID!): FollowEdge! @addEdge(edges: "Person.followers", from: "personId", to: "followerId", phrase: "followed by")
  unfollow(personId: ID!, followerId: ID!): Boolean! @removeEdge(edges: "Person.followers", from: "personId", to: "followerId", phrase: "followed by")
  join(groupId: ID!, personId: ID!, role: String): MemberEdge! @addEdge(edges: "Group.members", from: "groupId", to: "personId")
  leave(groupId: ID!, personId: ID!): Boolean! @removeEdge(edges: "Group.members", from: "groupId", to: "personId")
}
`;

let gw: TestGateway;
const people = ['a', 'b', 'c', 'd', 'e', 'f'];

beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'edges.graphql') });
  for (const id of people) await gw.run(`mutation { createPerson(input: { id: "${id}", name: "Person ${id}" }) { id } }`);
  for (const id of ['g1', 'g2', 'g3']) await gw.run(`mutation { createGroup(input: { id: "${id}", title: "Group ${id}" }) { id } }`);
});
afterAll(() => gw?.stop());

type Page = {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
};
const ids = (page: Page) => page.edges.map((e) => e.node.id);
const PAGE = 'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
/** A forward page's own flag only: hasPreviousPage after a cursor costs a Query of its own (the engine's exact flags). */
const FORWARD = 'edges { cursor node { id } } pageInfo { hasNextPage endCursor }';

/** Strips the time of creation, which the test cannot know. */
const bare = (item: Record<string, unknown> | undefined) => {
  if (!item) return item;
  const { since, ...rest } = item;
  expect(typeof since).toBe('string');
  return rest;
};

describe('edges in a partition of their own, as mirrored pairs', () => {
  it('follow writes the follower item under the followed person and its mirror under the follower, with both counters, in one transaction', async () => {
    const { result, requests } = await gw.counted(`mutation { follow(personId: "a", followerId: "b") { since node { id name } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.follow.node).toEqual({ id: 'b', name: 'Person b' });
    // Both people read in one BatchGetItem (they must exist), then one transaction: the pair and both counters.
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    const follower = await gw.get('P#a#followers', 'P#b');
    const mirror = await gw.get('P#b#following', 'P#a');
    expect(bare(follower)).toEqual({ pk: 'P#a#followers', sk: 'P#b' });
    expect(bare(mirror)).toEqual({ pk: 'P#b#following', sk: 'P#a' });
    expect(mirror!.since).toBe(follower!.since);
    // A create starts every counter at 0.
    expect(await gw.get('P#a', 'profile')).toEqual({ pk: 'P#a', sk: 'profile', name: 'Person a', followerCount: 1, followingCount: 0, groupCount: 0 });
    expect(await gw.get('P#b', 'profile')).toEqual({ pk: 'P#b', sk: 'profile', name: 'Person b', followerCount: 0, followingCount: 1, groupCount: 0 });
  });

  it('refuses a second follow (CONFLICT) and a follow of a missing person (NOT_FOUND), writing nothing', async () => {
    const before = await gw.scan();
    const again = await gw.run(`mutation { follow(personId: "a", followerId: "b") { since } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.errors?.[0]?.message).toBe('Person a is already followed by person b');
    const missing = await gw.run(`mutation { follow(personId: "a", followerId: "nobody") { since } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // Both ends one item: refused before any request.
    const self = await gw.counted(`mutation { follow(personId: "a", followerId: "a") { since } }`);
    expect(self.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(self.result.errors?.[0]?.message).toBe('Person a cannot be linked to itself (personId and followerId are the same)');
    expect(self.requests.requests).toBe(0);
    expect(await gw.scan()).toEqual(before);
  });

  it('pages each direction exactly, forward and backward, one Query a page', async () => {
    for (const f of ['c', 'd', 'e', 'f']) await gw.run(`mutation { follow(personId: "a", followerId: "${f}") { since } }`);
    for (const p of ['c', 'd']) await gw.run(`mutation { follow(personId: "${p}", followerId: "b") { since } }`);
    const first = await gw.counted(`{ person(id: "a") { followers(first: 2) { totalCount ${PAGE} } } }`);
    const page1 = first.result.data.person.followers;
    expect([ids(page1), page1.totalCount, page1.pageInfo.hasNextPage, page1.pageInfo.hasPreviousPage]).toEqual([['b', 'c'], 5, true, false]);
    // The person's GetItem (which holds the counter) and the page's Query, sent together.
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const next = await gw.counted(`query($a: String) { person(id: "a") { followers(first: 3, after: $a) { ${FORWARD} } } }`, { a: page1.pageInfo.endCursor });
    const page2 = next.result.data.person.followers;
    expect([ids(page2), page2.pageInfo.hasNextPage]).toEqual([['d', 'e', 'f'], false]);
    expect(next.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const back = await gw.run(`query($b: String) { person(id: "a") { followers(last: 2, before: $b) { ${PAGE} } } }`, { b: page2.edges[1]!.cursor });
    expect([ids(back.data.person.followers), back.data.person.followers.pageInfo.hasPreviousPage]).toEqual([['c', 'd'], true]);
    const following = await gw.counted(`{ person(id: "b") { following(last: 2) { totalCount ${PAGE} } } }`);
    const f = following.result.data.person.following;
    expect([ids(f), f.totalCount, f.pageInfo.hasPreviousPage, f.pageInfo.hasNextPage]).toEqual([['c', 'd'], 3, true, false]);
    expect(following.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const rest = await gw.run(`query($b: String) { person(id: "b") { following(last: 5, before: $b) { ${PAGE} } } }`, { b: f.pageInfo.startCursor });
    expect([ids(rest.data.person.following), rest.data.person.following.pageInfo.hasPreviousPage]).toEqual([['a'], false]);
    // A cursor of one direction is refused by the other.
    const foreign = await gw.run(`query($a: String) { person(id: "b") { following(first: 1, after: $a) { ${PAGE} } } }`, { a: page1.pageInfo.endCursor });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('unfollow deletes both items and both counts in one transaction; a second is NOT_FOUND', async () => {
    const { result, requests } = await gw.counted(`mutation { unfollow(personId: "a", followerId: "f") }`);
    expect(result).toEqual({ data: { unfollow: true } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('P#a#followers', 'P#f')).toBeUndefined();
    expect(await gw.get('P#f#following', 'P#a')).toBeUndefined();
    expect((await gw.get('P#a', 'profile'))?.followerCount).toBe(4);
    expect((await gw.get('P#f', 'profile'))?.followingCount).toBe(0);
    const again = await gw.run(`mutation { unfollow(personId: "a", followerId: "f") }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(again.errors?.[0]?.message).toBe('Person a is not followed by person f');
  });
});

describe('an inverse side read through an inverted index over the table keys', () => {
  it('join writes one edge item with nothing for the index, and the counters', async () => {
    const { result, requests } = await gw.counted(`mutation { join(groupId: "g1", personId: "a", role: "owner") { role node { id } } }`);
    expect(result).toEqual({ data: { join: { role: 'owner', node: { id: 'a' } } } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    // No GSI1PK/GSI1SK: the inverted index reads the table's own keys.
    expect(await gw.get('G#g1#members', 'P#a')).toEqual({ pk: 'G#g1#members', sk: 'P#a', role: 'owner' });
    expect(await gw.get('G#g1', 'meta')).toEqual({ pk: 'G#g1', sk: 'meta', title: 'Group g1', memberCount: 1 });
    expect((await gw.get('P#a', 'profile'))?.groupCount).toBe(1);
  });

  it("reads a person's groups from the index in the declared order (highest first), exactly both ways, and never the follow items sharing its partition", async () => {
    for (const g of ['g2', 'g3']) await gw.run(`mutation { join(groupId: "${g}", personId: "a") { role } }`);
    // Partition sk = P#a of the inverted index also holds a's follow items (pk P#<x>#followers / #following): not groups.
    const first = await gw.counted(
      `{ person(id: "a") { groups(first: 2) { totalCount edges { role node { id title } } pageInfo { hasNextPage endCursor } } } }`,
    );
    const page = first.result.data.person.groups;
    expect(page.edges).toEqual([
      { role: null, node: { id: 'g3', title: 'Group g3' } },
      { role: null, node: { id: 'g2', title: 'Group g2' } },
    ]);
    expect([page.totalCount, page.pageInfo.hasNextPage]).toEqual([3, true]);
    // The person and the page together, then the groups' items in one BatchGetItem for their titles.
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1, BatchGetItem: 1 });
    const next = await gw.counted(`query($a: String) { person(id: "a") { groups(first: 2, after: $a) { ${FORWARD} } } }`, { a: page.pageInfo.endCursor });
    expect([ids(next.result.data.person.groups), next.result.data.person.groups.pageInfo.hasNextPage]).toEqual([['g1'], false]);
    expect(next.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const back = await gw.run(`{ person(id: "a") { groups(last: 2) { ${PAGE} } } }`);
    expect([ids(back.data.person.groups), back.data.person.groups.pageInfo.hasPreviousPage]).toEqual([['g2', 'g1'], true]);
  });

  it('leave deletes the edge and both counts', async () => {
    const { result, requests } = await gw.counted(`mutation { leave(groupId: "g3", personId: "a") }`);
    expect(result).toEqual({ data: { leave: true } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('G#g3#members', 'P#a')).toBeUndefined();
    expect((await gw.get('P#a', 'profile'))?.groupCount).toBe(2);
    expect((await gw.get('G#g3', 'meta'))?.memberCount).toBe(0);
  });
});

describe('a delete of either side', () => {
  it('removes every edge of a person, both items of each mirrored pair and its memberships, with the counters at the other ends', async () => {
    await gw.run(`mutation { join(groupId: "g2", personId: "b") { role } }`);
    const deleted = await gw.run(`mutation { deletePerson(id: "a") }`);
    expect(deleted).toEqual({ data: { deletePerson: 'a' } });
    await gw.settle();
    const left = (await gw.scan()).filter((i) => String(i.pk).includes('#a') || String(i.sk).endsWith('#a'));
    expect(left).toEqual([]);
    // b, c, d, e followed a (their mirrors gone); b still follows c and d.
    for (const p of ['c', 'd', 'e']) expect((await gw.get(`P#${p}`, 'profile'))?.followingCount).toBe(0);
    expect((await gw.get('P#b', 'profile'))?.followingCount).toBe(2);
    expect((await gw.get('G#g1', 'meta'))?.memberCount).toBe(0);
    expect((await gw.get('G#g2', 'meta'))?.memberCount).toBe(1);
    const b = await gw.run(`{ person(id: "b") { following(first: 5) { totalCount ${PAGE} } groups(first: 5) { totalCount ${PAGE} } } }`);
    expect([ids(b.data.person.following), b.data.person.following.totalCount]).toEqual([['c', 'd'], 2]);
    expect([ids(b.data.person.groups), b.data.person.groups.totalCount]).toEqual([['g2'], 1]);
  });

  it('removes a followed person from the other side: its followers lose the mirror and the count', async () => {
    await gw.run(`mutation { deletePerson(id: "c") }`);
    await gw.settle();
    expect(await gw.get('P#b#following', 'P#c')).toBeUndefined();
    expect(await gw.get('P#c#followers', 'P#b')).toBeUndefined();
    expect((await gw.get('P#b', 'profile'))?.followingCount).toBe(1);
  });

  it("removes a group's member edges, with each member's count", async () => {
    await gw.run(`mutation { deleteGroup(id: "g2") }`);
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.pk).startsWith('G#g2'))).toEqual([]);
    expect((await gw.get('P#b', 'profile'))?.groupCount).toBe(0);
  });
});
