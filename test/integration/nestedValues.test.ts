/**
 * Maps and lists inside an item: a field of a map type (an object type
 * without @item and without id) is a DynamoDB map, a list field a DynamoDB
 * list, each written from an input of the same shape, read back by the
 * fields' names, replaced whole by an update; a list holds at most its
 * declared @attribute(max:), and a model whose item could outgrow
 * DynamoDB's 400 KB is refused at start-up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { maxItemBytes } from '../../src/declaration/itemSize.js';
import { problemsOf } from '../support/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
type Player @item(pk: "{id}", sk: "#METADATA#{id}") {
  id: ID!
  nick: String!
  stats: Stats @attribute(name: "PlayerStats")
  friends: [Friend!] @attribute(name: "FriendList", max: 3)
  tags: [String!]! @attribute(max: 5)
}
"Stored as a map inside the player's item."
type Stats { hp: Int! @attribute(name: "HP") atk: Int def: Int @attribute(min: 0) }
type Friend { friendId: ID! @attribute(name: "FriendId") name: String @attribute(name: "FriendName") }
input StatsInput { hp: Int! atk: Int def: Int }
input FriendInput { friendId: ID! name: String }
input CreatePlayerInput { id: ID nick: String! stats: StatsInput friends: [FriendInput!] tags: [String!]! }
input UpdatePlayerInput { stats: StatsInput friends: [FriendInput!] tags: [String!] }
type Query { player(id: ID!): Player @get }
type Mutation {
  createPlayer(input: CreatePlayerInput!): Player! @create
  updatePlayer(id: ID!, input: UpdatePlayerInput!): Player! @update
}
`;

const SELECTION = '{ nick stats { hp atk def } friends { friendId name } tags }';

describe('maps and lists inside an item', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ model: buildModel(MODEL, 'players.graphql') });
    const created = await gw.run(`mutation($i: CreatePlayerInput!) { createPlayer(input: $i) { id } }`, {
      i: { id: 'p1', nick: 'John', stats: { hp: 50, atk: 10 }, friends: [{ friendId: 'p2', name: ' Alice ' }, { friendId: 'p3' }], tags: ['new'] },
    });
    expect(created.errors).toBeUndefined();
  });
  afterAll(() => gw?.stop());

  it('writes a map and lists under their stored names, leaving out what the input does not set', async () => {
    expect(await gw.get('p1', '#METADATA#p1')).toEqual({
      PK: 'p1',
      SK: '#METADATA#p1',
      nick: 'John',
      PlayerStats: { HP: 50, atk: 10 },
      FriendList: [{ FriendId: 'p2', FriendName: 'Alice' }, { FriendId: 'p3' }],
      tags: ['new'],
    });
  });

  it("reads them back by the fields' names in one GetItem", async () => {
    const { result, requests } = await gw.counted(`{ player(id: "p1") ${SELECTION} }`);
    expect(result).toEqual({
      data: {
        player: {
          nick: 'John',
          stats: { hp: 50, atk: 10, def: null },
          friends: [
            { friendId: 'p2', name: 'Alice' },
            { friendId: 'p3', name: null },
          ],
          tags: ['new'],
        },
      },
    });
    expect(requests.summary().byOperation).toEqual({ GetItem: 1 });
  });

  it('replaces a map or list whole on update, and removes one set to null', async () => {
    const { result, requests } = await gw.counted(
      `mutation { updatePlayer(id: "p1", input: { stats: { hp: 60 }, friends: null, tags: ["veteran", "healer"] }) ${SELECTION} }`,
    );
    expect(result).toEqual({ data: { updatePlayer: { nick: 'John', stats: { hp: 60, atk: null, def: null }, friends: null, tags: ['veteran', 'healer'] } } });
    expect(requests.summary().byOperation).toEqual({ UpdateItem: 1 });
    const item = await gw.get('p1', '#METADATA#p1');
    expect(item).toMatchObject({ PlayerStats: { HP: 60 }, tags: ['veteran', 'healer'] });
    expect(item).not.toHaveProperty('FriendList');
  });

  it("refuses a list longer than its declared max, and values inside that break their field's rules, before any request", async () => {
    const before = await gw.get('p1', '#METADATA#p1');
    const cases: [string, string][] = [
      [`{ tags: ["a", "b", "c", "d", "e", "f"] }`, 'input.tags holds at most 5 elements; got 6'],
      [`{ friends: [{ friendId: "a" }, { friendId: "b" }, { friendId: "c" }, { friendId: "d" }] }`, 'input.friends holds at most 3 elements; got 4'],
      [`{ stats: { hp: 1, def: -1 } }`, 'input.stats.def must be at least 0; got -1'],
      [`{ friends: [{ friendId: "a", name: "${'x'.repeat(201)}" }] }`, 'input.friends[0].name must be at most 200 characters; got 201'],
      [`{ tags: ["  "] }`, 'input.tags[0] must not be blank'],
    ];
    for (const [input, message] of cases) {
      const { result, requests } = await gw.counted(`mutation { updatePlayer(id: "p1", input: ${input}) { nick } }`);
      expect(result.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
      expect(requests.requests).toBe(0);
    }
    expect(await gw.get('p1', '#METADATA#p1')).toEqual(before);
  });

  it('reads an item another program wrote: a string set as a list, a value of another kind as null (an error where non-null)', async () => {
    await gw.put([
      {
        PK: 'p9',
        SK: '#METADATA#p9',
        nick: 'Foreign',
        PlayerStats: { HP: 'lots', atk: 3 },
        FriendList: [{ FriendId: 'p1' }, 'not a map'],
        tags: new Set(['x']),
      },
    ]);
    const result = await gw.run(`{ player(id: "p9") { nick stats { atk } friends { friendId } tags } }`);
    expect(result.data).toEqual({ player: { nick: 'Foreign', stats: { atk: 3 }, friends: null, tags: ['x'] } });
    expect(result.errors).toEqual([
      expect.objectContaining({ message: 'Cannot return null for non-nullable field Player.friends.', path: ['player', 'friends', 1] }),
    ]);
    const hp = await gw.run(`{ player(id: "p9") { stats { hp } } }`);
    expect(hp.errors?.[0]).toMatchObject({ path: ['player', 'stats', 'hp'] });
  });
});

describe('maps and lists a model may not declare', () => {
  const refused = (from: string, to: string) => problemsOf(MODEL.replace(from, to));

  it('refuses a list without a declared max', () => {
    expect(refused('tags: [String!]! @attribute(max: 5)', 'tags: [String!]!')).toEqual([
      'Player.tags @attribute(max): a list field needs @attribute(max: N), the most elements it may hold (a whole number ≥ 1): an item holds at most 400 KB',
    ]);
  });

  it('refuses a model whose item could outgrow 400 KB, naming the figure and the lists', () => {
    const sdl = MODEL.replace('@attribute(name: "FriendList", max: 3)', '@attribute(name: "FriendList", max: 400)');
    const model = problemsOf(sdl);
    expect(model).toEqual([
      expect.stringMatching(
        /^Player: an item could reach [\d,]+ bytes \(every text at its longest, every list at its @attribute\(max:\)\), above DynamoDB's 400 KB \(409,600 bytes\): lower the max of friends, tags$/,
      ),
    ]);
    const bytes = Number(/reach ([\d,]+) bytes/.exec(model[0]!)![1]!.replace(/,/g, ''));
    expect(bytes).toBeGreaterThan(409_600);
    // At max 3 the same type is far below: the bound follows the declaration.
    expect(maxItemBytes(buildModel(MODEL, 'players.graphql').items.get('Player')!, { pk: 'PK', sk: 'SK' })).toBeLessThan(30_000);
  });

  it('refuses map input for a list of a keyless type (a list of references, which takes ids), a list of lists and a map type holding itself', () => {
    expect(refused('type Friend { friendId: ID!', 'type Friend { id: ID!')).toContainEqual(
      'CreatePlayerInput.friends: CreatePlayerInput.friends[] takes FriendInput; the field holds ID (Player.friends)',
    );
    expect(refused('tags: [String!]! @attribute(max: 5)', 'tags: [[String!]!]! @attribute(max: 5)')).toContainEqual(
      'Player.tags: a list of lists is not stored: wrap the inner list in a map type',
    );
    expect(refused('def: Int @attribute(min: 0) }', 'def: Int @attribute(min: 0) more: Stats }')).toContainEqual(
      expect.stringContaining('Stats.more: the map type Stats holds itself (Stats → Stats)'),
    );
  });

  it("refuses an input whose shape differs from the map's, naming the field", () => {
    expect(refused('input StatsInput { hp: Int! atk: Int def: Int }', 'input StatsInput { hp: Int atk: Int mana: Int }')).toEqual([
      'CreatePlayerInput.stats: CreatePlayerInput.stats.mana is no field of Stats (Player.stats)',
      'UpdatePlayerInput.stats: UpdatePlayerInput.stats.mana is no field of Stats (Player.stats)',
    ]);
    expect(refused('input FriendInput { friendId: ID! name: String }', 'input FriendInput { friendId: ID name: String }')).toContainEqual(
      'CreatePlayerInput.friends: CreatePlayerInput.friends[].friendId must be non-null: Friend.friendId is required (Player.friends)',
    );
    expect(refused('tags: [String!]! }', 'tags: String! }')).toContainEqual(
      'CreatePlayerInput.tags: CreatePlayerInput.tags takes a single value; the field holds a list (Player.tags)',
    );
  });

  it('refuses a map or list field as a key placeholder', () => {
    const indexed = `extend schema @index(name: "byStats", pk: ["S"], sk: ["T"])\n${MODEL.replace('@item(pk: "{id}", sk: "#METADATA#{id}")', '@item(pk: "{id}", sk: "#METADATA#{id}") @indexed(index: "byStats", pk: ["S#{stats}"], sk: ["{nick}"])')}`;
    expect(problemsOf(indexed)).toContainEqual(expect.stringContaining('placeholder {stats} names no field of Player'));
    expect(refused('@item(pk: "{id}", sk: "#METADATA#{id}")', '@item(pk: "{id}", sk: "#{stats}#{id}")')).toContainEqual(
      expect.stringContaining('placeholder {stats} names stats, a map: a key holds text or a number'),
    );
  });
});
