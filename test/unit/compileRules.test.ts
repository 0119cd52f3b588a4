/**
 * Rules compiled from a model's @access and owner-claim declarations behave as
 * declared, for a model that is not the default one (teams, their matches,
 * players), and owner claims come from @item(claim:) with their settings.
 */
import { describe, expect, it } from 'vitest';
import { parse, type GraphQLResolveInfo } from 'graphql';
import { applyRules } from '../../src/auth/applyRules.js';
import { compileRules } from '../../src/auth/compileRules.js';
import { ANONYMOUS, identityFromClaims, type Caller, type Identity } from '../../src/auth/identity.js';
import { ownerClaims } from '../../src/auth/ownerClaims.js';
import { mayRead } from '../../src/auth/rules.js';
import { buildModel } from '../../src/declaration/buildModel.js';

const SDL = /* GraphQL */ `
scalar DateTime
type PageInfo { hasNextPage: Boolean!  hasPreviousPage: Boolean!  startCursor: String  endCursor: String }

type Team @item(pk: "TEAM#{id}", sk: "META", claim: "team_id", claimSetting: "AUTH_TEAM_CLAIM")
  @access(rule: OWNER, of: "Team", field: "id") {
  id: ID!
  name: String! @access(rule: ANYONE)
  budget: Int
  fixtures(first: Int, after: String, last: Int, before: String): Fixtures! @children(counter: "matchCount") @access(rule: SIGNED_IN)
  players(first: Int, after: String, last: Int, before: String): TeamPlayerConnection! @edges(counter: "playerCount")
}
"A connection type whose name does not say so: a wrapper because the model uses it as one."
type Fixtures { edges: [Fixture!]!  pageInfo: PageInfo!  totalCount: Int! }
type Fixture { cursor: String!  node: Match! }
type TeamPlayerConnection { edges: [TeamPlayerEdge!]!  pageInfo: PageInfo!  totalCount: Int! }
type TeamPlayerEdge { cursor: String!  joinedAt: DateTime! @createdAt  node: Player! }

type Match @item(pk: "TEAM#{team}", sk: "MATCH#{id}", inverted: true) @access(rule: OWNER, of: "Team", field: "team") {
  id: ID!
  score: Int!
  team: Team! @parent
}

type Player @item(pk: "PLAYER#{id}", sk: "META", claim: "player_id") {
  id: ID!
  nick: String! @access(rule: SIGNED_IN)
  email: String @access(rule: OWNER, of: "Player", field: "id")
  phone: String
}

type Query @access(rule: SIGNED_IN) {
  team(id: ID!): Team @get @access(rule: ANYONE)
  match(id: ID!): Match @get @access(rule: OWNER, of: "Team", resultField: "team")
  player(id: ID!): Player @get
}

input CreateTeamInput { id: ID  name: String! }
input AddMatchInput { id: ID  score: Int! }
type Mutation @access(rule: ADMIN) {
  createTeam(input: CreateTeamInput!): Team! @create
  addMatch(teamId: ID!, input: AddMatchInput!): Match! @create(parent: "teamId") @access(rule: OWNER, of: "Team", argument: "teamId")
  join(teamId: ID!, playerId: ID!): TeamPlayerEdge!
    @addEdge(edges: "Team.players", from: "teamId", to: "playerId")
    @access(rule: OWNER, of: "Player", argument: "playerId")
}
`;

const model = buildModel(SDL, 'league.graphql');
const rules = compileRules(model);

const caller = (owns: Record<string, string> = {}, admin = false): Caller => ({
  kind: 'caller',
  subject: 'x',
  roles: new Set(admin ? ['admin'] : []),
  admin,
  owns: new Map(Object.entries(owns)),
});
const coach = caller({ Team: 't1' });
const player = caller({ Player: 'p1' });
const admin = caller({}, true);
const nameOf = (type: string, field: string) => rules.ruleFor(type, field)?.name;
/** The pre-resolver decision for `type.field` of `parent` with `args`. */
const reads = (who: Identity, type: string, field: string, parent: Record<string, unknown> = {}, args: Record<string, unknown> = {}) =>
  mayRead(rules, who, type, field, parent, args);

describe('rules compiled from a model', () => {
  it('ANYONE: with or without a token, and the field needs no check at all', () => {
    expect(nameOf('Query', 'team')).toBe('anyone');
    expect(rules.ruleFor('Query', 'team')?.allows).toBeUndefined();
    expect(reads(ANONYMOUS, 'Team', 'name', { id: 't2' })).toBe(true);
  });

  it('SIGNED_IN on a field, and as the default of the Query type', () => {
    expect(reads(ANONYMOUS, 'Team', 'fixtures', { id: 't1' })).toBe(false);
    expect(reads(player, 'Team', 'fixtures', { id: 't1' })).toBe(true);
    expect(nameOf('Query', 'player')).toBe('signed-in callers'); // no @access of its own: Query's
    expect(reads(ANONYMOUS, 'Query', 'player', {}, { id: 'p1' })).toBe(false);
    expect(reads(caller(), 'Query', 'player', {}, { id: 'p1' })).toBe(true);
  });

  it('OWNER by argument: the caller owns the item whose id the argument holds', () => {
    expect(nameOf('Mutation', 'addMatch')).toBe('the team themselves');
    expect(reads(coach, 'Mutation', 'addMatch', {}, { teamId: 't1' })).toBe(true);
    expect(reads(coach, 'Mutation', 'addMatch', {}, { teamId: 't2' })).toBe(false);
    expect(reads(coach, 'Mutation', 'addMatch', {}, {})).toBe(false);
    expect(reads(player, 'Mutation', 'join', {}, { teamId: 't9', playerId: 'p1' })).toBe(true);
    expect(reads(coach, 'Mutation', 'join', {}, { teamId: 't1', playerId: 'p1' })).toBe(false); // owns a team, not that player
  });

  it('OWNER by field: id is the object itself, a @parent field the parent id the record holds', () => {
    expect(reads(coach, 'Team', 'budget', { id: 't1' })).toBe(true);
    expect(reads(coach, 'Team', 'budget', { id: 't2' })).toBe(false);
    expect(reads(player, 'Player', 'email', { id: 'p1' })).toBe(true);
    expect(reads(player, 'Player', 'email', { id: 'p2' })).toBe(false);
    // A match record carries its team's id under teamId, or the team itself under team.
    expect(reads(coach, 'Match', 'score', { id: 'm1', teamId: 't1' })).toBe(true);
    expect(reads(coach, 'Match', 'score', { id: 'm1', team: { id: 't1' } })).toBe(true);
    expect(reads(coach, 'Match', 'score', { id: 'm1', teamId: 't2' })).toBe(false);
    expect(reads(coach, 'Match', 'score', { id: 't1' })).toBe(false); // the match's own id is not its team's
  });

  it('OWNER by result: refused before any read without an id of the owned type, then decided on the result', () => {
    const rule = rules.ruleFor('Query', 'match')!;
    expect(rule.name).toBe("the match's team");
    expect(rule.allows!(player, {}, { id: 'm1' })).toBe(false);
    expect(rule.allows!(ANONYMOUS, {}, { id: 'm1' })).toBe(false);
    expect(rule.allows!(coach, {}, { id: 'm1' })).toBe(true);
    expect(rule.allowsResult!(coach, { id: 'm1', teamId: 't1' })).toBe(true);
    expect(rule.allowsResult!(coach, { id: 'm1', teamId: 't2' })).toBe(false);
  });

  it('type defaults: a type without @access is admin-only, and so is every undeclared field of it', () => {
    expect(nameOf('Player', 'phone')).toBe('admins');
    expect(nameOf('Player', 'id')).toBe('admins');
    expect(nameOf('Team', 'players')).toBe('the team themselves'); // a relation without @access: the type's rule
    expect(nameOf('Mutation', 'createTeam')).toBe('admins');
    expect(reads(coach, 'Mutation', 'createTeam', {}, { input: {} })).toBe(false);
    expect(nameOf('Invoice', 'total')).toBe('admins'); // a type the model does not know
  });

  it('wrapper types have no rule of their own, whether or not their names say Connection or Edge', () => {
    for (const type of ['Fixtures', 'Fixture', 'TeamPlayerConnection', 'TeamPlayerEdge', 'PageInfo', 'SomeConnection']) {
      expect(rules.ruleFor(type, 'edges')).toBeNull();
    }
  });

  it('administrators pass every rule', () => {
    for (const [type, field] of [
      ['Player', 'phone'],
      ['Mutation', 'createTeam'],
      ['Mutation', 'addMatch'],
      ['Invoice', 'total'],
    ] as const) {
      expect(reads(admin, type, field)).toBe(true);
    }
  });

  it("lists the fields with rules of their own, in the model's order", () => {
    expect(rules.fields).toEqual([
      'Team.name',
      'Player.nick',
      'Player.email',
      'Team.fixtures',
      'Query.team',
      'Query.match',
      'Mutation.addMatch',
      'Mutation.join',
    ]);
  });

  it('without compiled rules only an administrator reads ahead (fails closed)', () => {
    expect(mayRead(undefined, coach, 'Team', 'name', { id: 't1' })).toBe(false);
    expect(mayRead(undefined, admin, 'Team', 'name', { id: 't1' })).toBe(true);
  });
});

describe('applyRules with rules compiled from a model', () => {
  const typeDefs = parse(`type Query { match(id: ID!): Match }  type Match { id: ID!  score: Int! }`);
  const info = { path: { key: 'match' } } as GraphQLResolveInfo;
  const matches: Record<string, unknown> = { m1: { id: 'm1', teamId: 't1', score: 3 } };
  const wrapped = applyRules({ Query: { match: (_: unknown, args: { id: string }) => Promise.resolve(matches[args.id] ?? null) } }, typeDefs, rules) as any;

  it("withholds a result owned by someone else, passes the owner's, and leaves a missing one null", async () => {
    await expect(wrapped.Query.match(undefined, { id: 'm1' }, { identity: coach }, info)).resolves.toMatchObject({ score: 3 });
    await expect(wrapped.Query.match(undefined, { id: 'm1' }, { identity: caller({ Team: 't2' }) }, info)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN', rule: "the match's team" },
    });
    await expect(wrapped.Query.match(undefined, { id: 'nope' }, { identity: caller({ Team: 't2' }) }, info)).resolves.toBeNull();
  });

  it('refuses before the resolver runs a caller who owns no team', () => {
    let ran = false;
    const guarded = applyRules({ Query: { match: () => ((ran = true), null) } }, typeDefs, rules) as any;
    expect(() => guarded.Query.match(undefined, { id: 'm1' }, { identity: player }, info)).toThrow(/only the match's team may/);
    expect(ran).toBe(false);
  });

  it('guards a stored field of the type through the default resolver', () => {
    expect(wrapped.Match.score({ id: 'm1', teamId: 't1', score: 3 }, {}, { identity: coach }, { fieldName: 'score' })).toBe(3);
    expect(() => wrapped.Match.score({ id: 'm1', teamId: 't2', score: 3 }, {}, { identity: coach }, { fieldName: 'score' })).toThrow(/Match.score/);
  });
});

describe('owner claims', () => {
  it("reads each owner type's claim, renamed by its setting when the environment sets it", () => {
    expect(ownerClaims(model)).toEqual({ Team: 'team_id', Player: 'player_id' });
    expect(ownerClaims(model, { AUTH_TEAM_CLAIM: 'custom:team', AUTH_OTHER_CLAIM: 'x' })).toEqual({ Team: 'custom:team', Player: 'player_id' });
  });

  it("gives a caller the items its token's claims name, by owner type", () => {
    const names = { roles: 'groups', owners: ownerClaims(model, { AUTH_TEAM_CLAIM: 'custom:team' }) };
    expect(identityFromClaims({ 'custom:team': 't1', player_id: 7, team_id: 'ignored' }, names).owns).toEqual(
      new Map([
        ['Team', 't1'],
        ['Player', '7'],
      ]),
    );
    expect(identityFromClaims({ team_id: 't1' }, names).owns).toEqual(new Map());
  });

  it('refuses a setting the environment could never rename, as a model problem', () => {
    const bad = buildModel(SDL.replace('claimSetting: "AUTH_TEAM_CLAIM"', 'claimSetting: "TEAM"'), 'league.graphql');
    expect(() => compileRules(bad)).toThrow(/TEAM/);
    expect(() => ownerClaims(bad)).toThrow(
      /league\.graphql: Team @item\(claimSetting\): "TEAM" cannot rename the claim: name an environment variable AUTH_<NAME>_CLAIM/,
    );
  });
});
