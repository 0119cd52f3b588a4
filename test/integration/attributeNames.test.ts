/**
 * Fields stored under other attribute names (@attribute(name:)): the items
 * hold `team#name`, `nick name`, `shirt#`, `RoomID`…, GraphQL answers by
 * the fields' names, on every path: reads, creates, updates, edges with
 * their copies and counters, the stream's propagation of a rename, a date
 * range with a filter (@query beside @children), cursors, a natural-attribute index, the change
 * model subscriptions read, and the table the model creates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { modelFromPlan } from '../../src/subscriptions/model.js';
import { imageRedaction } from '../../src/subscriptions/redaction.js';
import { runCheck } from '../../src/migration/check.js';
import { problemsOf } from '../support/problems.js';
import { checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

const TEAMS = `
scalar DateTime
type Team @item(pk: "TEAM#{id}", sk: "META") {
  id: ID!
  name: String! @attribute(name: "team#name")
  motto: String @attribute(name: "Motto")
  players(first: Int, after: String, last: Int, before: String): TeamPlayerConnection!
    @edges(copy: [{ field: "nick", attribute: "player#nick" }], counter: "player#")
  games(first: Int, after: String, last: Int, before: String, playedAfter: DateTime, playedBefore: DateTime, venue: String): GameConnection!
    @children(counter: "game#")
    @query(index: "GSI2", from: "playedAfter", until: "playedBefore", filter: ["venue"])
}
type TeamPlayerConnection { edges: [TeamPlayerEdge!]! pageInfo: PageInfo! totalCount: Int! }
type TeamPlayerEdge { cursor: String! joinedAt: DateTime! @createdAt @attribute(name: "joined@") number: Int @attribute(name: "shirt#") node: Player! }
type Player @item(pk: "PLAYER#{id}", sk: "META") {
  id: ID!
  nick: String! @attribute(name: "nick name")
  teams(first: Int, after: String, last: Int, before: String): PlayerTeamConnection!
    @edges(inverseOf: "players", copy: [{ field: "name", attribute: "team#copy" }])
}
type PlayerTeamConnection { edges: [PlayerTeamEdge!]! pageInfo: PageInfo! totalCount: Int! }
type PlayerTeamEdge { cursor: String! joinedAt: DateTime! @attribute(name: "joined@") number: Int @attribute(name: "shirt#") node: Team! }
type Game @item(pk: "TEAM#{team}", sk: "GAME#{id}") @indexed(index: "GSI2", pk: ["GAMES#{team}"], sk: ["{playedAt}#{id}"]) {
  id: ID!
  team: Team! @parent
  playedAt: DateTime! @attribute(name: "played@")
  venue: String @attribute(name: "Venue")
}
input CreateTeamInput { id: ID name: String! motto: String }
input UpdateTeamInput { name: String motto: String }
input CreatePlayerInput { id: ID nick: String! }
input UpdatePlayerInput { nick: String }
input AddGameInput { id: ID playedAt: DateTime! venue: String }
type Query {
  team(id: ID!): Team @get
  player(id: ID!): Player @get
}
type Mutation {
  createTeam(input: CreateTeamInput!): Team! @create
  updateTeam(id: ID!, input: UpdateTeamInput!): Team! @update
  createPlayer(input: CreatePlayerInput!): Player! @create
  updatePlayer(id: ID!, input: UpdatePlayerInput!): Player! @update
  addGame(teamId: ID!, input: AddGameInput!): Game! @create(parent: "teamId")
  join(teamId: ID!, playerId: ID!, number: Int): TeamPlayerEdge! @addEdge(edges: "Team.players", from: "teamId", to: "playerId")
}
`;

const ROOMS = `
extend schema @table(pk: "PK", sk: "SK") @index(name: "byRoom", pk: ["RoomID"], sk: ["CreatedAt"]) @index(name: "byAuthor", pk: ["AuthorKey"], sk: ["CreatedAt"])
"A room is known by the ids on its messages."
type Room { id: ID! }
type Message @item(pk: "MSG#{id}", sk: "META") @indexed(index: "byRoom") @indexed(index: "byAuthor", pk: ["AUTHOR#{author}"], sk: ["{createdAt}"]) {
  id: ID!
  room: Room! @attribute(name: "RoomID")
  createdAt: String! @attribute(name: "CreatedAt")
  text: String! @attribute(name: "Message")
  author: String @attribute(name: "Author")
}
input PostInput { id: ID room: ID! createdAt: String! text: String! author: String }
type Query {
  message(id: ID!): Message @get
  messagesIn(room: ID!, first: Int, after: String, last: Int, before: String): MessageConnection! @query(index: "byRoom")
  messagesBy(author: String!, first: Int, after: String, last: Int, before: String): MessageConnection! @query(index: "byAuthor")
}
type Mutation { post(input: PostInput!): Message! @create }
`;

const ok = <T>(result: { data?: T | null; errors?: readonly unknown[] }): T => {
  expect(result.errors).toBeUndefined();
  return result.data as T;
};

describe('a model whose fields are stored under other attribute names', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ model: buildModel(TEAMS, 'teams.graphql') });
    ok(await gw.run(`mutation { createTeam(input: { id: "t1", name: "Lions", motto: "Roar" }) { id } }`));
    ok(await gw.run(`mutation { createPlayer(input: { id: "p1", nick: "Ada" }) { id } }`));
    ok(await gw.run(`mutation { createPlayer(input: { id: "p2", nick: "Bo" }) { id } }`));
  });
  afterAll(() => gw?.stop());

  it("creates items holding the stored names only, and reads them back by the fields' names in one GetItem", async () => {
    const item = await gw.get('TEAM#t1', 'META');
    expect(item).toMatchObject({ 'team#name': 'Lions', Motto: 'Roar', 'player#': 0, 'game#': 0 });
    expect(item).not.toHaveProperty('name');
    expect(item).not.toHaveProperty('motto');
    expect(await gw.get('PLAYER#p1', 'META')).toMatchObject({ 'nick name': 'Ada' });
    const { result, requests } = await gw.counted(`{ team(id: "t1") { name motto } }`);
    expect(result).toEqual({ data: { team: { name: 'Lions', motto: 'Roar' } } });
    expect(requests.summary().byOperation).toEqual({ GetItem: 1 });
  });

  it('updates under the stored names: a new value is SET there, null REMOVEs it', async () => {
    // name is copied onto edges: the item is read first (to compare and version the copy), then updated.
    const { result, requests } = await gw.counted(`mutation { updateTeam(id: "t1", input: { name: "Tigers", motto: null }) { name motto } }`);
    expect(result).toEqual({ data: { updateTeam: { name: 'Tigers', motto: null } } });
    expect(requests.summary().byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
    ok(await gw.run(`mutation { updateTeam(id: "t1", input: { motto: "Roar" }) { motto } }`));
    ok(await gw.run(`mutation { updateTeam(id: "t1", input: { motto: null }) { motto } }`));
    const item = await gw.get('TEAM#t1', 'META');
    expect(item).toMatchObject({ 'team#name': 'Tigers' });
    expect(item).not.toHaveProperty('Motto');
    expect(item).not.toHaveProperty('name');
  });

  it("links with the edge fields and both copies under their stored names, counting in the counters' attributes", async () => {
    ok(await gw.run(`mutation { join(teamId: "t1", playerId: "p1", number: 7) { number node { nick } } }`));
    ok(await gw.run(`mutation { join(teamId: "t1", playerId: "p2") { number } }`));
    const edge = await gw.get('TEAM#t1', 'PLAYER#p1');
    expect(edge).toMatchObject({ 'shirt#': 7, 'player#nick': 'Ada', 'team#copy': 'Tigers' });
    expect(typeof edge?.['joined@']).toBe('string');
    expect(edge).not.toHaveProperty('number');
    expect(await gw.get('TEAM#t1', 'META')).toMatchObject({ 'player#': 2 });
  });

  it("reads edge fields, the copies and the counter back by the fields' names: the team and its page in one Query", async () => {
    const { result, requests } = await gw.counted(`{ team(id: "t1") { players(first: 5) { totalCount edges { number node { id nick } } } } }`);
    expect(result).toEqual({
      data: {
        team: {
          players: {
            totalCount: 2,
            edges: [
              { number: 7, node: { id: 'p1', nick: 'Ada' } },
              { number: null, node: { id: 'p2', nick: 'Bo' } },
            ],
          },
        },
      },
    });
    expect(requests.summary().byOperation).toEqual({ Query: 1 });
    const inverse = ok(await gw.run(`{ player(id: "p1") { teams(first: 5) { edges { number node { name } } } } }`));
    expect(inverse).toEqual({ player: { teams: { edges: [{ number: 7, node: { name: 'Tigers' } }] } } });
  });

  it('carries a rename to the copies through the stream, reading and versioning the stored attribute', async () => {
    ok(await gw.run(`mutation { updatePlayer(id: "p1", input: { nick: "Ada L." }) { nick } }`));
    expect(await gw.get('PLAYER#p1', 'META')).toMatchObject({ 'nick name': 'Ada L.', 'nick nameVersion': 1 });
    await gw.settle();
    expect(await gw.get('TEAM#t1', 'PLAYER#p1')).toMatchObject({ 'player#nick': 'Ada L.', 'player#nickVersion': 1 });
  });

  it('writes the GSI2 key by instant from the stored instant and filters on the stored attribute, with cursors that resume', async () => {
    for (const [id, day, venue] of [
      ['g1', 1, 'Home'],
      ['g2', 2, 'Away'],
      ['g3', 3, 'Home'],
      ['g4', 4, 'Home'],
    ] as const) {
      ok(await gw.run(`mutation($i: AddGameInput!) { addGame(teamId: "t1", input: $i) { id } }`, { i: { id, playedAt: `2026-05-0${day}T10:00:00Z`, venue } }));
    }
    const stored = await gw.get('TEAM#t1', 'GAME#g2');
    expect(stored).toMatchObject({ 'played@': '2026-05-02T10:00:00.000Z', Venue: 'Away', GSI2PK: 'GAMES#t1' });
    expect(String(stored?.GSI2SK)).toMatch(/^2026-05-02T10:00:00\.000Z#g2$/);
    const page = (after: string | null) =>
      gw.run(
        `query($after: String) { team(id: "t1") { games(first: 2, after: $after, venue: "Home", playedAfter: "2026-05-01T00:00:00Z") {
        edges { node { id venue playedAt } } pageInfo { hasNextPage endCursor } } } }`,
        { after },
      );
    const first = ok(await page(null)) as any;
    expect(first.team.games.edges.map((e: any) => e.node)).toEqual([
      { id: 'g1', venue: 'Home', playedAt: '2026-05-01T10:00:00.000Z' },
      { id: 'g3', venue: 'Home', playedAt: '2026-05-03T10:00:00.000Z' },
    ]);
    expect(first.team.games.pageInfo.hasNextPage).toBe(true);
    const second = ok(await page(first.team.games.pageInfo.endCursor)) as any;
    expect(second.team.games.edges.map((e: any) => e.node.id)).toEqual(['g4']);
  });

  it('checks the table by the stored names: clean as written; an edge copy, an item field and an edge field missing under them are found', async () => {
    const options = checkOptionsOf(gw);
    const clean = await runCheck(options);
    expect(clean.found, JSON.stringify(clean.findings)).toBe(0);
    const edge = (await gw.get('TEAM#t1', 'PLAYER#p2'))!;
    const { 'joined@': _joined, 'player#nick': _copy, ...broken } = edge;
    await gw.put([broken, { PK: 'PLAYER#p9', SK: 'META', nick: 'under the field name' }]);
    const report = await runCheck(options);
    expect(
      Object.fromEntries(
        Object.entries(report.findings)
          .filter(([, f]) => f.count > 0)
          .map(([k, f]) => [k, f.count]),
      ),
    ).toEqual({ missingAttributes: 2, staleCopies: 1 });
    expect(report.findings.missingAttributes.samples.map((s) => s.detail).sort()).toEqual(['Player lacks nick', 'edge Team.players lacks joinedAt']);
    await gw.put([edge]);
  });

  it("gives subscriptions the fields by their names, and keeps a guarded field's stored attribute out of carried images", () => {
    const changes = modelFromPlan(gw.plan);
    const image = { PK: 'TEAM#t1', SK: 'META', 'team#name': 'Tigers', Motto: 'Roar' };
    expect(changes.record('Team', image)).toMatchObject({ id: 't1', name: 'Tigers', motto: 'Roar' });
    // Team open to anyone, its motto to administrators only: the motto leaves under its stored name.
    const guardedSdl = TEAMS.replace(
      'type Team @item(pk: "TEAM#{id}", sk: "META")',
      'type Team @item(pk: "TEAM#{id}", sk: "META") @access(rule: ANYONE)',
    ).replace('motto: String @attribute(name: "Motto")', 'motto: String @attribute(name: "Motto") @access(rule: ADMIN)');
    const redact = imageRedaction(buildModel(guardedSdl, 'teams.graphql'));
    const event = redact({ topic: 'Team#t1', item: 'x', seq: '1', kind: 'UPDATED', image });
    expect(event.image).toEqual({ PK: 'TEAM#t1', SK: 'META', 'team#name': 'Tigers' });
    expect(event.partial).toBe(true);
  });
});

describe('a natural-attribute index over fields stored under other names', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ model: buildModel(ROOMS, 'rooms.graphql') });
    for (const [id, room, at] of [
      ['m1', 'r1', '2026-03-01'],
      ['m2', 'r1', '2026-03-02'],
      ['m3', 'r2', '2026-03-03'],
      ['m4', 'r1', '2026-03-04'],
    ]) {
      ok(
        await gw.run(`mutation($i: PostInput!) { post(input: $i) { id } }`, {
          i: { id, room, createdAt: at, text: `hello ${id}`, ...(id === 'm1' ? {} : { author: 'ada' }) },
        }),
      );
    }
  });
  afterAll(() => gw?.stop());

  it("stores natural index keys once, as the fields' own attributes, and fills a template from a field's stored attribute", async () => {
    expect(await gw.get('MSG#m2', 'META')).toEqual({
      PK: 'MSG#m2',
      SK: 'META',
      RoomID: 'r1',
      CreatedAt: '2026-03-02',
      Message: 'hello m2',
      Author: 'ada',
      AuthorKey: 'AUTHOR#ada',
    });
    // No author: the item stays out of byAuthor (a sparse index).
    expect(await gw.get('MSG#m1', 'META')).toEqual({ PK: 'MSG#m1', SK: 'META', RoomID: 'r1', CreatedAt: '2026-03-01', Message: 'hello m1' });
  });

  it('reads an index whose key template names a renamed field: one Query', async () => {
    const { result, requests } = await gw.counted(`{ messagesBy(author: "ada", first: 5) { edges { node { id author } } } }`);
    expect((ok(result) as any).messagesBy.edges.map((e: any) => e.node)).toEqual([
      { id: 'm2', author: 'ada' },
      { id: 'm3', author: 'ada' },
      { id: 'm4', author: 'ada' },
    ]);
    expect(requests.summary().byOperation).toEqual({ Query: 1 });
  });

  it("reads one room's messages from the index, one Query a page, and resumes from a cursor", async () => {
    const query = `query($after: String) { messagesIn(room: "r1", first: 2, after: $after) { edges { node { id text room { id } createdAt } } pageInfo { hasNextPage endCursor } } }`;
    const { result, requests } = await gw.counted(query, { after: null });
    const first = ok(result) as any;
    expect(first.messagesIn.edges.map((e: any) => e.node)).toEqual([
      { id: 'm1', text: 'hello m1', room: { id: 'r1' }, createdAt: '2026-03-01' },
      { id: 'm2', text: 'hello m2', room: { id: 'r1' }, createdAt: '2026-03-02' },
    ]);
    expect(requests.summary().byOperation).toEqual({ Query: 1 });
    const second = ok(await gw.run(query, { after: first.messagesIn.pageInfo.endCursor })) as any;
    expect(second.messagesIn.edges.map((e: any) => e.node.id)).toEqual(['m4']);
    expect(second.messagesIn.pageInfo.hasNextPage).toBe(false);
  });

  it('creates the table with the index over the stored attribute names', () => {
    expect(gw.plan.table.indexes).toEqual([
      { name: 'byRoom', pk: ['RoomID'], sk: ['CreatedAt'] },
      { name: 'byAuthor', pk: ['AuthorKey'], sk: ['CreatedAt'] },
    ]);
  });
});

describe('renamed attributes a model may not declare', () => {
  it('refuses two fields stored under one attribute, naming the second', () => {
    expect(problemsOf(TEAMS.replace('motto: String @attribute(name: "Motto")', 'motto: String @attribute(name: "team#name")'))).toEqual([
      'Team.motto @attribute(name: "team#name"): the field Team.motto is stored under team#name, which already holds the field Team.name: name it otherwise',
    ]);
  });

  it("refuses a field stored under a field's name that another field is stored under, and one stored like a counter", () => {
    expect(problemsOf(TEAMS.replace('motto: String @attribute(name: "Motto")', 'motto: String @attribute(name: "player#")'))).toEqual([
      'Team.players @edges(counter): the counter of Team.players is stored under player#, which already holds the field Team.motto: name it otherwise',
    ]);
  });

  it('refuses a field stored under a key attribute of the table or of an index the type writes from a template', () => {
    expect(problemsOf(TEAMS.replace('motto: String @attribute(name: "Motto")', 'motto: String @attribute(name: "SK")'))).toEqual([
      'Team.motto @attribute(name: "SK"): the field Team.motto is stored under SK, an attribute the gateway keeps (a key): name it otherwise',
    ]);
    const written = ROOMS.replace('@indexed(index: "byRoom")', '@indexed(index: "byRoom", pk: ["ROOM#{room}"], sk: ["{createdAt}"])');
    expect(problemsOf(written)).toContainEqual(
      'Message.room @attribute(name: "RoomID"): the field Message.room is stored under RoomID, which Message\'s key in the index byRoom fills from a template: name it otherwise',
    );
  });

  it("refuses an edge field stored under a copy's attribute", () => {
    expect(problemsOf(TEAMS.replace(/number: Int @attribute\(name: "shirt#"\)/g, 'number: Int @attribute(name: "player#nick")'))).toContainEqual(
      expect.stringContaining('the copy of Player.nick (Team.players) is stored under player#nick, which already holds the edge field TeamPlayerEdge.number'),
    );
  });
});
