/**
 * Edge keys holding edge fields and an edge id of their own, and
 * @edges(from, until), at start-up: what they compile to (keys filled,
 * fields read back from the key) and the declarations refused, one line
 * each naming the field and the argument.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { compilePlan } from '../../src/plan/plan.js';
import { writePlanOf } from '../../src/writes/writePlan.js';

/** Users with `followers` over `args` (edge type FollowEdge), its inverse side over `inverse`, and the mutations in `mutations`. */
const model = (args: string, inverse: string | null, { edge = 'since: DateTime!  tier: Tier!', mutations = '', range = '' } = {}) => `
extend schema @table(pk: "pk", sk: "sk")
scalar DateTime
enum Tier { GOLD SILVER }
type User @item(pk: "u#{id}", sk: "info") {
  id: ID!
  name: String!
  followers(first: Int, after: String, last: Int, before: String${range}): FollowConnection! @edges(${args})
  ${inverse === null ? '' : `following(first: Int, after: String, last: Int, before: String): FollowConnection! @edges(inverseOf: "followers"${inverse})`}
}
type FollowConnection { edges: [FollowEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type FollowEdge { cursor: String!  ${edge}  node: User! }
type Query { user(id: ID!): User @get }
input CreateUserInput { id: ID  name: String! }
type Mutation { createUser(input: CreateUserInput!): User! @create ${mutations} }
`;

describe('edge keys holding edge fields and ids', () => {
  it('fills the fields and the own id into the keys and reads them back from the sort key', () => {
    const sdl = model('pk: "u#{id}#f", sk: "{since}#{tier}#u#{follower}"', ', pk: "u#{id}#g", sk: "u#{followed}"');
    const plan = compilePlan(buildModel(sdl, 'edges.graphql'));
    const pair = writePlanOf(plan).pair('User.followers');
    const values = { since: '2026-03-01T10:00:00.000Z', tier: 'GOLD' };
    expect([pair.edgeKey('a', 'b', values), pair.mirrorKey('a', 'b', values)]).toEqual([
      { PK: 'u#a#f', SK: '2026-03-01T10:00:00.000Z#GOLD#u#b' },
      { PK: 'u#b#g', SK: 'u#a' },
    ]);
    expect([[...pair.baseHeld], [...pair.mirrorHeld], pair.keyFields, pair.ownId]).toEqual([['since', 'tier'], [], ['since', 'tier'], false]);
    const edge = plan.relation('User.followers').edge({ pk: 'u#a#f', sk: '2026-03-01T10:00:00.000Z#GOLD#u#b' });
    expect(edge).toMatchObject({ since: '2026-03-01T10:00:00.000Z', tier: 'GOLD', node: { id: 'b' } });
    // The collection reads the whole partition: the key opens with a placeholder.
    expect(plan.relation('User.followers').collection('a')).toMatchObject({ pk: 'u#a#f', prefix: '' });
  });

  it('an edge id of its own: {id} in sk is the edge id, in pk the owner id', () => {
    const sdl = model('pk: "u#{id}#l", sk: "L#{id}#u#{follower}"', ', pk: "u#{id}#k", sk: "L#{id}#u#{followed}"', { edge: 'id: ID!' });
    const plan = compilePlan(buildModel(sdl, 'edges.graphql'));
    const pair = writePlanOf(plan).pair('User.followers');
    expect([pair.edgeKey('a', 'b', { id: 'E1' }), pair.mirrorKey('a', 'b', { id: 'E1' }), pair.ownId]).toEqual([
      { PK: 'u#a#l', SK: 'L#E1#u#b' },
      { PK: 'u#b#k', SK: 'L#E1#u#a' },
      true,
    ]);
    expect(plan.relation('User.following').edge({ pk: 'u#b#k', sk: 'L#E1#u#a' })).toMatchObject({ id: 'E1', node: { id: 'a' } });
  });
});

describe('edge keys refused at start-up, one line each', () => {
  it('an optional field, an Int, a list-free key without the node, a field of an end', () => {
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{since}#u#{follower}"', null, { edge: 'since: DateTime' }))).toEqual([
      'User.followers @edges(sk): placeholder {since} names the edge field FollowEdge.since, which is optional: an edge without it would have no key (make it DateTime!)',
    ]);
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{rank}#u#{follower}"', null, { edge: 'rank: Int!' }))).toEqual([
      'User.followers @edges(sk): placeholder {rank} names the edge field FollowEdge.rank, an Int: a sort key compares text (10 before 9), so it holds DateTime, String, ID or enum fields only',
    ]);
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{since}#{tier}"', null))).toEqual([
      'User.followers @edges(sk): template "{since}#{tier}" must hold one placeholder for the node\'s id besides edge fields and {id} (sk: "u#{follower}"); it has none',
    ]);
    expect(problemsOf(model('pk: "u#{id}#{since}", sk: "u#{follower}"', null))).toEqual([
      "User.followers @edges(pk): placeholder {since} names the field FollowEdge.since: the edges' partition is named by the owner's {id} alone",
      "User.followers @edges(pk): template \"u#{id}#{since}\" must name {id} (the owner's id) and no other placeholder: the owner's id alone names the edges' partition",
    ]);
  });

  it('{id} in sk without an id on the edge type, and a mirror that disagrees on it', () => {
    expect(problemsOf(model('pk: "u#{id}#l", sk: "L#{id}#u#{follower}"', null))).toEqual([
      "User.followers @edges(sk): {id} in sk is the edge's own id: declare id: ID! on FollowEdge, so that an unlink can name the edge",
    ]);
    expect(problemsOf(model('pk: "u#{id}#l", sk: "L#{id}#u#{follower}"', ', pk: "u#{id}#k", sk: "u#{followed}"', { edge: 'id: ID!' }))).toEqual([
      "User.following @edges(sk): lacks {id} while User.followers's sk names it: a mirror names the edge's own id exactly when its base item does",
    ]);
  });

  it('an inverse side read through GSI1 from a base key holding fields, and write sharding of edges with their own id', () => {
    expect(
      problemsOf(
        model('pk: "u#{id}#f", sk: "{since}#{tier}#u#{follower}"', '', { edge: 'since: DateTime!  tier: Tier!' }).replace(
          'extend schema @table(pk: "pk", sk: "sk")',
          '',
        ),
      ),
    ).toEqual([
      "User.following @edges(inverseOf): reads User.followers's items by their sort key, which holds {since}, {tier} besides the node's id: give this side its own pk and sk (a mirror written with each edge)",
    ]);
    expect(
      problemsOf(
        model('pk: "u#{id}#l", sk: "L#{id}#u#{follower}"', ', shards: "shards"', { edge: 'id: ID!' }).replace('extend schema @table(pk: "pk", sk: "sk")', ''),
      ),
    ).toContain('User.following @edges(shards): write sharding of edges with an id of their own is not supported: User.followers names {id} in its sk');
  });

  it('@removeEdge without the key fields, @addEdge with an id argument of another type', () => {
    const mutations = `
      follow(userId: ID!, followerId: ID!, since: DateTime!, tier: Tier!): FollowEdge! @addEdge(edges: "User.followers", from: "userId", to: "followerId")
      unfollow(userId: ID!, followerId: ID!, since: DateTime!): Boolean! @removeEdge(edges: "User.followers", from: "userId", to: "followerId")`;
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{since}#{tier}#u#{follower}"', null, { mutations }))).toEqual([
      "Mutation.unfollow @removeEdge: takes no argument tier, which the key of User.followers's edges holds: an unlink finds the edge by it",
    ]);
    const byId = `
      lend(userId: ID!, followerId: ID!, id: Int): FollowEdge! @addEdge(edges: "User.followers", from: "userId", to: "followerId")
      giveBack(userId: ID!, followerId: ID!): Boolean! @removeEdge(edges: "User.followers", from: "userId", to: "followerId")`;
    expect(problemsOf(model('pk: "u#{id}#l", sk: "L#{id}#u#{follower}"', null, { edge: 'id: ID!', mutations: byId }))).toEqual([
      "Mutation.lend(id): takes Int, but the edge's own id FollowEdge.id is ID",
      "Mutation.giveBack @removeEdge: takes no argument id, which the key of User.followers's edges holds: an unlink finds the edge by it",
    ]);
  });

  it('@edges(from, until) over a sort key that opens with literal text, or naming no argument', () => {
    expect(problemsOf(model('pk: "u#{id}#f", sk: "u#{follower}", from: "since"', null, { range: ', since: String' }))).toEqual([
      'User.followers @edges(from): ranges over the first placeholder of the edges\' sort key, which must open it (sk: "{since}#u#{follower}"); "u#{follower}" opens with "u#"',
    ]);
    expect(
      problemsOf(model('counter: "n", until: "until"', null, { range: ', until: String' }).replace('extend schema @table(pk: "pk", sk: "sk")', '')),
    ).toEqual([
      'User.followers @edges(until): ranges over the first placeholder of the edges\' sort key, which must open it (sk: "{since}#u#{follower}"); this side has no sk of its own',
    ]);
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{since}#u#{follower}", from: "after"', null, { edge: 'since: DateTime!' }))).toEqual([]);
    expect(problemsOf(model('pk: "u#{id}#f", sk: "{since}#u#{follower}", from: "start"', null, { edge: 'since: DateTime!' }))).toEqual([
      'User.followers @edges(from): names no argument of the field: start',
    ]);
  });
});

describe('edges of a child type', () => {
  const league = (inverted: boolean, edges = '@edges(pk: "S#{id}#fans", sk: "F#{fan}", counter: "fanCount")') => `
scalar DateTime
type Team @item(pk: "TEAM#{id}", sk: "TEAM") {
  id: ID!
  seasons(first: Int, after: String, last: Int, before: String): SeasonConnection! @children(counter: "seasonCount")
}
type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}", inverted: ${inverted}) {
  id: ID!
  team: Team! @parent
  fans(first: Int, after: String, last: Int, before: String): FanConnection! ${edges}
}
type Fan @item(pk: "FAN#{id}", sk: "FAN") {
  id: ID!
  seasons(first: Int, after: String, last: Int, before: String): FanSeasonConnection! @edges(inverseOf: "fans", counter: "seasonCount")
}
type SeasonConnection { edges: [SeasonEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type SeasonEdge { cursor: String!  node: Season! }
type FanConnection { edges: [FanEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type FanEdge { cursor: String!  since: DateTime! @createdAt  node: Fan! }
type FanSeasonConnection { edges: [FanSeasonEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type FanSeasonEdge { cursor: String!  since: DateTime! @createdAt  node: Season! }
input SeasonInput { id: ID }
type Query { season(id: ID!): Season @get  fan(id: ID!): Fan @get }
type Mutation {
  addSeason(team: ID!, input: SeasonInput!): Season! @create(parent: "team")
  removeSeason(id: ID!): ID! @delete(type: "Season")
  cheer(seasonId: ID!, fanId: ID!): FanEdge! @addEdge(edges: "Season.fans", from: "seasonId", to: "fanId")
}
`;

  it('serves an inverted child type with edges of its own: a delete of the child follows them, a delete of the fan finds the season by its id', () => {
    const plan = compilePlan(buildModel(league(true), 'league.graphql'));
    const writes = writePlanOf(plan);
    expect(writes.type('Season').sides.map((s) => s.relation.path)).toEqual(['Season.fans']);
    const fanSide = writes.type('Fan').sides.find((s) => s.relation.path === 'Fan.seasons')!;
    expect(fanSide.otherChild?.plan.name).toBe('Season');
    expect(fanSide.otherChild?.id({ PK: 'S#s1#fans', SK: 'F#f1', GSI1PK: 'F#f1', GSI1SK: 'S#s1#fans' })).toBe('s1');
    expect(plan.relation('Fan.seasons').collection('f1')).toMatchObject({ index: 'GSI1', pk: 'F#f1', prefix: 'S#' });
  });

  it('refuses a child type found only with its parent id, and default-keyed edges of a child type, one line each', () => {
    // (The root fields that find a non-inverted season by id alone are refused too, on lines of their own.)
    expect(problemsOf(league(false)).filter((p) => p.includes('@edges'))).toEqual([
      "Season.fans @edges: the owner type Season is a child type found only with its parent's id: make it inverted: true (an edge names its ends by id alone)",
      "Fan.seasons @edges: the node type Season is a child type found only with its parent's id: make it inverted: true (an edge names its ends by id alone)",
    ]);
    expect(problemsOf(league(true, '@edges(counter: "fanCount")'))).toEqual([
      "Season.fans @edges: edges live in Season's partition, so its pk must hold {id} and Season cannot be a child type",
    ]);
  });
});
