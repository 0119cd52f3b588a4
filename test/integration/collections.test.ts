/**
 * Collections: connections over a union or an interface of types that share
 * a partition, in the table and in an index, read one Query a page in key
 * order, each node resolved to its type by its key; exact flags and cursors
 * both ways, totalCount, DESCENDING, root fields and type fields. Another
 * type's one-a-partition item inside the members' range is read past
 * within the same Query. And an entity with the first page of a
 * connection beside it in its partition, in one Query, when the members
 * sort after it (ascending page) or before it (descending page), on the
 * table and on an index; two requests where the layout does not allow one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const SDL = `
  extend schema @table(pk: "PK", sk: "SK") @index(name: "byOwner", pk: ["ownerKey"], sk: ["ownerSort"])
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }

  "An organisation sorts before its feed (#ORG < EVENT# < PIN < POLL# < POST#)."
  type Org @item(pk: "ORG#{id}", sk: "#ORG") {
    id: ID!
    name: String!
    feed(first: Int, after: String, last: Int, before: String): FeedConnection! @query
    news(first: Int, after: String, last: Int, before: String): FeedConnection! @query(order: DESCENDING)
    activity(first: Int, after: String, last: Int, before: String): ActivityConnection! @query
  }
  interface Activity { id: ID! }
  type Post implements Activity @item(pk: "ORG#{org}", sk: "POST#{id}") { id: ID! title: String! org: Org! @parent }
  type Event implements Activity @item(pk: "ORG#{org}", sk: "EVENT#{id}") { id: ID! name: String! org: Org! @parent }
  type Poll implements Activity @item(pk: "ORG#{org}", sk: "POLL#{id}") { id: ID! question: String! org: Org! @parent }
  "One a partition, inside the feed's range: read past."
  type Pinned @item(pk: "ORG#{org}", sk: "PIN") { id: ID! note: String! org: Org! @parent }
  union Feed = Post | Event | Poll
  type FeedConnection { edges: [FeedEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type FeedEdge { cursor: String! node: Feed! }
  type ActivityConnection { edges: [ActivityEdge!]! pageInfo: PageInfo! }
  type ActivityEdge { cursor: String! node: Activity! }

  "A team sorts after its members and invites (INVITE# < MEMBER# < TEAM)."
  type Team @item(pk: "TEAM#{id}", sk: "TEAM") {
    id: ID!
    name: String!
    recent(first: Int, after: String, last: Int, before: String): RosterConnection! @query(order: DESCENDING)
    roster(first: Int, after: String, last: Int, before: String): RosterConnection! @query
  }
  type Member @item(pk: "TEAM#{team}", sk: "MEMBER#{id}") { id: ID! name: String! team: Team! @parent }
  type Invite @item(pk: "TEAM#{team}", sk: "INVITE#{id}") { id: ID! email: String! team: Team! @parent }
  union Roster = Member | Invite
  type RosterConnection { edges: [RosterEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type RosterEdge { cursor: String! node: Roster! }

  "A squad's partition holds notes between its roster and itself: no one Query for both."
  type Squad @item(pk: "SQUAD#{id}", sk: "SQUAD") {
    id: ID!
    recent(first: Int, after: String, last: Int, before: String): SquadRosterConnection! @query(order: DESCENDING)
    players(first: Int, after: String, last: Int, before: String): SquadRosterConnection! @query
  }
  type Player @item(pk: "SQUAD#{squad}", sk: "MEMBER#{id}") { id: ID! name: String! squad: Squad! @parent }
  type Memo @item(pk: "SQUAD#{squad}", sk: "NOTE#{id}") { id: ID! text: String! squad: Squad! @parent }
  union SquadRoster = Player
  type SquadRosterConnection { edges: [SquadRosterEdge!]! pageInfo: PageInfo! }
  type SquadRosterEdge { cursor: String! node: SquadRoster! }

  "An account sorts before what it owns in the index byOwner (A < G# < R#); a company after it (~)."
  type Account @item(pk: "ACC#{id}", sk: "ACC") @indexed(index: "byOwner", pk: ["OWNER#{id}"], sk: ["A"]) {
    id: ID!
    name: String!
    owned(first: Int, after: String, last: Int, before: String): OwnedConnection! @query(index: "byOwner")
    latest(first: Int, after: String, last: Int, before: String): OwnedConnection! @query(index: "byOwner", order: DESCENDING)
  }
  type Company @item(pk: "CO#{id}", sk: "CO") @indexed(index: "byOwner", pk: ["OWNER#{id}"], sk: ["~"]) {
    id: ID!
    name: String!
    latest(first: Int, after: String, last: Int, before: String): OwnedConnection! @query(index: "byOwner", order: DESCENDING)
  }
  type Repo @item(pk: "REPO#{id}", sk: "REPO") @indexed(index: "byOwner", pk: ["OWNER#{owner}"], sk: ["R#{name}#{id}"]) { id: ID! name: String! owner: String! }
  type Gist @item(pk: "GIST#{id}", sk: "GIST") @indexed(index: "byOwner", pk: ["OWNER#{owner}"], sk: ["G#{id}"]) { id: ID! title: String! owner: String! }
  union Owned = Repo | Gist
  type OwnedConnection { edges: [OwnedEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type OwnedEdge { cursor: String! node: Owned! }

  type Query {
    org(id: ID!): Org @get
    team(id: ID!): Team @get
    squad(id: ID!): Squad @get
    account(id: ID!): Account @get
    company(id: ID!): Company @get
    feed(org: ID!, first: Int, after: String, last: Int, before: String): FeedConnection! @query
    newest(org: ID!, first: Int, after: String, last: Int, before: String): FeedConnection! @query(order: DESCENDING)
    owned(owner: String!, first: Int, after: String, last: Int, before: String): OwnedConnection! @query(index: "byOwner")
  }`;

/** The feed of org o1 in key order: events, then polls, then posts (Pinned at PIN read past). */
const FEED = [
  { sk: 'EVENT#e1', type: 'Event', id: 'e1', fields: { name: 'Launch' } },
  { sk: 'EVENT#e2', type: 'Event', id: 'e2', fields: { name: 'Meetup' } },
  { sk: 'POLL#q1', type: 'Poll', id: 'q1', fields: { question: 'Lunch?' } },
  { sk: 'POST#p1', type: 'Post', id: 'p1', fields: { title: 'Hello' } },
  { sk: 'POST#p2', type: 'Post', id: 'p2', fields: { title: 'Again' } },
  { sk: 'POST#p3', type: 'Post', id: 'p3', fields: { title: 'Third' } },
];
const FEED_IDS = FEED.map((f) => f.id);
/** Team t1: invites then members (INVITE# < MEMBER#). */
const ROSTER = ['i1', 'i2', 'm1', 'm2', 'm3'];
/** Owner a1 in byOwner: gists then repos (by name). */
const OWNED = ['g1', 'g2', 'r-alpha', 'r-beta'];

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(SDL, 'collections.graphql') });
  const items: Record<string, unknown>[] = [
    { PK: 'ORG#o1', SK: '#ORG', name: 'Org one' },
    { PK: 'ORG#o1', SK: 'PIN', note: 'pinned' },
    ...FEED.map((f) => ({ PK: 'ORG#o1', SK: f.sk, ...f.fields })),
    { PK: 'ORG#o2', SK: '#ORG', name: 'Org two' },
    { PK: 'TEAM#t1', SK: 'TEAM', name: 'Team one' },
    { PK: 'TEAM#t1', SK: 'INVITE#i1', email: 'a@x.io' },
    { PK: 'TEAM#t1', SK: 'INVITE#i2', email: 'b@x.io' },
    { PK: 'TEAM#t1', SK: 'MEMBER#m1', name: 'Ann' },
    { PK: 'TEAM#t1', SK: 'MEMBER#m2', name: 'Bob' },
    { PK: 'TEAM#t1', SK: 'MEMBER#m3', name: 'Cy' },
    { PK: 'SQUAD#s1', SK: 'SQUAD' },
    { PK: 'SQUAD#s1', SK: 'MEMBER#x1', name: 'Xi' },
    { PK: 'SQUAD#s1', SK: 'NOTE#n1', text: 'note' },
    { PK: 'SQUAD#s2', SK: 'SQUAD' },
    { PK: 'SQUAD#s2', SK: 'MEMBER#x2', name: 'Yu' },
    ...['n1', 'n2', 'n3', 'n4', 'n5', 'n6'].map((n) => ({ PK: 'SQUAD#s2', SK: `NOTE#${n}`, text: 'note' })),
    { PK: 'ACC#a1', SK: 'ACC', name: 'Ada', ownerKey: 'OWNER#a1', ownerSort: 'A' },
    { PK: 'GIST#g1', SK: 'GIST', title: 'one', owner: 'a1', ownerKey: 'OWNER#a1', ownerSort: 'G#g1' },
    { PK: 'GIST#g2', SK: 'GIST', title: 'two', owner: 'a1', ownerKey: 'OWNER#a1', ownerSort: 'G#g2' },
    { PK: 'REPO#r-alpha', SK: 'REPO', name: 'alpha', owner: 'a1', ownerKey: 'OWNER#a1', ownerSort: 'R#alpha#r-alpha' },
    { PK: 'REPO#r-beta', SK: 'REPO', name: 'beta', owner: 'a1', ownerKey: 'OWNER#a1', ownerSort: 'R#beta#r-beta' },
    { PK: 'CO#c1', SK: 'CO', name: 'Corp', ownerKey: 'OWNER#c1', ownerSort: '~' },
    { PK: 'GIST#g9', SK: 'GIST', title: 'nine', owner: 'c1', ownerKey: 'OWNER#c1', ownerSort: 'G#g9' },
    { PK: 'REPO#r-z', SK: 'REPO', name: 'zed', owner: 'c1', ownerKey: 'OWNER#c1', ownerSort: 'R#zed#r-z' },
  ];
  await gw.put(items);
});
afterAll(() => gw?.stop());

const FEED_NODE = '__typename ... on Post { id title } ... on Event { id name } ... on Poll { id question }';
type Page = { edges: { cursor: string; node: { __typename: string; id: string } }[]; pageInfo: Record<string, boolean | string | null>; totalCount?: number };

/** Walks `field` of `path` page by page one way, asserting each page's ids, its reading-side flag and one Query a page. */
async function walk(query: (args: string) => string, pick: (data: any) => Page, expected: string[], forward: boolean, size: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const args = forward ? `first: ${size}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${size}${cursor ? `, before: "${cursor}"` : ''}`;
    const { result, requests } = await gw.counted(query(args));
    expect(result.errors).toBeUndefined();
    const page = pick(result.data);
    const ids = page.edges.map((e) => e.node.id);
    const rest = forward ? expected.slice(seen.length) : expected.slice(0, expected.length - seen.length);
    expect(ids).toEqual(forward ? rest.slice(0, size) : rest.slice(Math.max(0, rest.length - size)));
    expect(forward ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage).toBe(rest.length > size);
    expect(requests.byOperation).toEqual({ Query: 1 });
    if (forward) seen.push(...ids);
    else seen.unshift(...ids);
    if (rest.length <= size) break;
    cursor = (forward ? page.pageInfo.endCursor : page.pageInfo.startCursor) as string;
  }
  expect(seen).toEqual(expected);
}

describe('a collection over several types in one table partition', () => {
  it("lists every member in key order, each resolved to its type, one Query a page both ways, reading past another type's item in the range", async () => {
    const query = (args: string) =>
      `{ feed(org: "o1", ${args}) { edges { cursor node { ${FEED_NODE} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const { result } = await gw.counted(`{ feed(org: "o1", first: 10) { edges { node { ${FEED_NODE} } } } }`);
    expect(result.data.feed.edges.map((e: { node: unknown }) => e.node)).toEqual(FEED.map((f) => ({ __typename: f.type, id: f.id, ...f.fields })));
    for (const size of [1, 2, 4]) {
      await walk(
        (a) => query(a).replace(' hasPreviousPage', ''),
        (d) => d.feed,
        FEED_IDS,
        true,
        size,
      );
      await walk(
        (a) => query(a).replace('hasNextPage ', ''),
        (d) => d.feed,
        FEED_IDS,
        false,
        size,
      );
    }
  });

  it('has exact flags on both sides: the far side one Limit-1 Query more when selected', async () => {
    const first = await gw.run(`{ feed(org: "o1", first: 2) { pageInfo { endCursor } } }`);
    const after = first.data.feed.pageInfo.endCursor;
    const { result, requests } = await gw.counted(
      `{ feed(org: "o1", first: 2, after: "${after}") { edges { node { ... on Poll { id } ... on Post { id } } } pageInfo { hasNextPage hasPreviousPage } } }`,
    );
    expect(result.data.feed.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['q1', 'p1']);
    expect(result.data.feed.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    expect(requests.byOperation).toEqual({ Query: 2 });
    expect(requests.waves).toBe(2);
    // The last page: nothing after it, though Pinned (PIN) sorts before it and the org (#ORG) before that.
    const last = await gw.counted(`{ feed(org: "o1", last: 2) { pageInfo { hasNextPage hasPreviousPage } } }`);
    expect(last.result.data.feed.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    // The first page: nothing before it (the org's own item is no member).
    const firstPage = await gw.run(`{ feed(org: "o1", first: 2) { pageInfo { hasNextPage hasPreviousPage } } }`);
    expect(firstPage.data.feed.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
  });

  it('counts the members alone for totalCount, within the page read budget', async () => {
    const { result, requests } = await gw.counted(`{ feed(org: "o1", first: 1) { totalCount } }`);
    expect(result.data.feed.totalCount).toBe(FEED.length);
    // The page, then the range's count and the count of Pinned's one key in it (taken off), the two counts together.
    expect(requests.byOperation).toEqual({ Query: 3 });
    expect(requests.waves).toBe(2);
    const empty = await gw.counted(`{ feed(org: "o2", first: 3) { totalCount edges { node { __typename } } pageInfo { hasNextPage hasPreviousPage } } }`);
    expect(empty.result.data.feed).toEqual({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } });
  });

  it('pages a DESCENDING collection from the highest key, one Query a page both ways', async () => {
    const query = (args: string) =>
      `{ newest(org: "o1", ${args}) { edges { node { ${FEED_NODE} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const newest = [...FEED_IDS].reverse();
    for (const size of [2, 3]) {
      await walk(
        (a) => query(a).replace(' hasPreviousPage', ''),
        (d) => d.newest,
        newest,
        true,
        size,
      );
      await walk(
        (a) => query(a).replace('hasNextPage ', ''),
        (d) => d.newest,
        newest,
        false,
        size,
      );
    }
  });

  it("takes a type field's partition from its parent, and lists an interface's implementations as a union's members", async () => {
    const { result } = await gw.counted(`{ org(id: "o1") { activity(first: 10) { edges { node { __typename id } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.org.activity.edges.map((e: { node: { __typename: string; id: string } }) => `${e.node.__typename}:${e.node.id}`)).toEqual(
      FEED.map((f) => `${f.type}:${f.id}`),
    );
  });

  it('refuses a cursor of another partition or another collection before any request', async () => {
    const page = await gw.run(`{ feed(org: "o1", first: 1) { pageInfo { endCursor } } }`);
    const cursor = page.data.feed.pageInfo.endCursor;
    for (const query of [
      `{ feed(org: "o2", first: 1, after: "${cursor}") { edges { cursor } } }`,
      `{ newest(org: "o1", first: 1, after: "${cursor}") { edges { cursor } } }`,
    ]) {
      const { result, requests } = await gw.counted(query);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(requests.requests).toBe(0);
    }
  });
});

describe('a collection over several types in one index partition', () => {
  it("lists gists and repos of an owner in the index's key order, one Query a page both ways, with totalCount", async () => {
    const query = (args: string) =>
      `{ owned(owner: "a1", ${args}) { edges { node { __typename ... on Repo { id name } ... on Gist { id title } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    for (const size of [1, 3]) {
      await walk(
        (a) => query(a).replace(' hasPreviousPage', ''),
        (d) => d.owned,
        OWNED,
        true,
        size,
      );
      await walk(
        (a) => query(a).replace('hasNextPage ', ''),
        (d) => d.owned,
        OWNED,
        false,
        size,
      );
    }
    const counted = await gw.counted(`{ owned(owner: "a1", first: 1) { totalCount edges { node { __typename } } } }`);
    expect(counted.result.data.owned).toEqual({ totalCount: 4, edges: [{ node: { __typename: 'Gist' } }] });
    expect(counted.requests.byOperation).toEqual({ Query: 2 });
    expect(counted.requests.waves).toBe(2);
  });
});

describe('an entity and the first page beside it in one Query', () => {
  const ids = (c: Page) => c.edges.map((e) => e.node.id);

  it('reads an organisation with the first page of its feed, which sorts after it, in one Query (the table)', async () => {
    const { result, requests } = await gw.counted(`{ org(id: "o1") { name feed(first: 2) { edges { node { ${FEED_NODE} } } pageInfo { hasNextPage } } } }`);
    expect(result.data.org.name).toBe('Org one');
    expect(ids(result.data.org.feed)).toEqual(['e1', 'e2']);
    expect(result.data.org.feed.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
    const missing = await gw.counted(`{ org(id: "nope") { name feed(first: 2) { edges { cursor } } } }`);
    expect(missing.result.data.org).toBeNull();
    expect(missing.requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads a team with its newest members and invites, which sort before it, in one descending Query (the table)', async () => {
    const { result, requests } = await gw.counted(
      `{ team(id: "t1") { name recent(first: 2) { edges { node { __typename ... on Member { id } ... on Invite { id } } } pageInfo { hasNextPage } } } }`,
    );
    expect(result.data.team.name).toBe('Team one');
    expect(ids(result.data.team.recent)).toEqual(['m3', 'm2']);
    expect(result.data.team.recent.pageInfo.hasNextPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads a team with the page of its roster nearest it in one Query, and with its first page ascending toward it while the roster fits the page and the over-read', async () => {
    const last = await gw.counted(
      `{ team(id: "t1") { name roster(last: 2) { edges { node { __typename ... on Member { id } ... on Invite { id } } } pageInfo { hasPreviousPage } } } }`,
    );
    expect(last.result.data.team.name).toBe('Team one');
    expect(ids(last.result.data.team.roster)).toEqual(['m2', 'm3']);
    expect(last.result.data.team.roster.pageInfo.hasPreviousPage).toBe(true);
    expect(last.requests.byOperation).toEqual({ Query: 1 });
    // Five members and invites, a page of 2: the page, the one deciding hasNextPage and FORWARD_OVER_READ (2) more reach the team.
    const first = await gw.counted(
      `{ team(id: "t1") { name roster(first: 2) { edges { node { __typename ... on Member { id } ... on Invite { id } } } pageInfo { hasNextPage } } } }`,
    );
    expect(first.result.data.team.name).toBe('Team one');
    expect(ids(first.result.data.team.roster)).toEqual(['i1', 'i2']);
    expect(first.result.data.team.roster.pageInfo.hasNextPage).toBe(true);
    expect(first.requests.byOperation).toEqual({ Query: 1 });
    // A page of 1: the Query stops before the team, whose GetItem follows.
    const short = await gw.counted(`{ team(id: "t1") { name roster(first: 1) { edges { node { ... on Invite { id } } } } } }`);
    expect(short.result.data.team.name).toBe('Team one');
    expect(ids(short.result.data.team.roster)).toEqual(['i1']);
    expect(short.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
  });

  it('reads an account with the first page of what it owns on the index in one Query, and a company with its newest', async () => {
    const account = await gw.counted(`{ account(id: "a1") { name owned(first: 3) { edges { node { ... on Repo { id } ... on Gist { id } } } } } }`);
    expect(account.result.data.account.name).toBe('Ada');
    expect(ids(account.result.data.account.owned)).toEqual(['g1', 'g2', 'r-alpha']);
    expect(account.requests.byOperation).toEqual({ Query: 1 });
    const company = await gw.counted(
      `{ company(id: "c1") { name latest(first: 1) { edges { node { ... on Repo { id } ... on Gist { id } } } pageInfo { hasNextPage } } } }`,
    );
    expect(company.result.data.company.name).toBe('Corp');
    expect(ids(company.result.data.company.latest)).toEqual(['r-z']);
    expect(company.result.data.company.latest.pageInfo.hasNextPage).toBe(true);
    expect(company.requests.byOperation).toEqual({ Query: 1 });
    // Not in the index (another program wrote it without index keys): still found, by its key.
    await gw.put([{ PK: 'ACC#a9', SK: 'ACC', name: 'Bare' }]);
    const bare = await gw.counted(`{ account(id: "a9") { name owned(first: 3) { edges { cursor } } } }`);
    expect(bare.result.data.account).toEqual({ name: 'Bare', owned: { edges: [] } });
    expect(bare.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
  });

  it('reads a squad with its players toward it in one Query across the few notes between, and stops past the players where the notes are many', async () => {
    const few = await gw.counted(`{ squad(id: "s1") { players(first: 1) { edges { node { ... on Player { id name } } } pageInfo { hasNextPage } } } }`);
    expect(ids(few.result.data.squad.players)).toEqual(['x1']);
    expect(few.result.data.squad.players.pageInfo.hasNextPage).toBe(false);
    expect(few.requests.byOperation).toEqual({ Query: 1 });
    // Six notes between: the Query (the page, one more and the over-read: 5 items) stops in the notes; the squad's GetItem follows.
    const many = await gw.counted(`{ squad(id: "s2") { players(first: 1) { edges { node { ... on Player { id name } } } pageInfo { hasNextPage } } } }`);
    expect(ids(many.result.data.squad.players)).toEqual(['x2']);
    expect(many.result.data.squad.players.pageInfo.hasNextPage).toBe(false);
    expect(many.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
    expect(many.requests.waves).toBe(2);
  });

  it('falls back to two requests sent together where the page reads away from the entity or another kind sorts between', async () => {
    // Newest first from an org that sorts before its feed: the page starts at the far end.
    const away = await gw.counted(`{ org(id: "o1") { name news(first: 2) { edges { node { ${FEED_NODE} } } } } }`);
    expect(ids(away.result.data.org.news)).toEqual(['p3', 'p2']);
    expect(away.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
    expect(away.requests.waves).toBe(1);
    // An account's newest, read from the far end of the index partition.
    const latest = await gw.counted(`{ account(id: "a1") { name latest(first: 1) { edges { node { ... on Repo { id } } } } } }`);
    expect(ids(latest.result.data.account.latest)).toEqual(['r-beta']);
    expect(latest.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
    // A squad's notes sort between its roster and itself.
    const squad = await gw.counted(`{ squad(id: "s1") { recent(first: 1) { edges { node { ... on Player { id name } } } } } }`);
    expect(ids(squad.result.data.squad.recent)).toEqual(['x1']);
    expect(squad.requests.byOperation).toEqual({ Query: 1, GetItem: 1 });
  });
});
