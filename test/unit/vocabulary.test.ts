import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { DIRECTIVE_DEFINITIONS, DIRECTIVE_NAMES, RETIRED_DIRECTIVES } from '../../src/declaration/directives.js';
import { ModelError } from '../../src/declaration/problems.js';
import { VALID } from '../support/teamsModel.js';

function problemsOf(sdl: string): string[] {
  try {
    buildModel(sdl, 'model.graphql');
  } catch (error) {
    if (error instanceof ModelError) return error.problems.map((p) => `${p.line ?? '-'}: ${p.where}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('the vocabulary the gateway supplies', () => {
  const defined = parse(DIRECTIVE_DEFINITIONS).definitions.flatMap((d) => (d.kind === 'DirectiveDefinition' ? [d.name.value] : []));

  it('names every directive it defines, and none besides', () => {
    expect([...defined].sort()).toEqual([...DIRECTIVE_NAMES].sort());
  });

  it('is at most 20 directives, the subscriptions\' included, and keeps every name the contract relies on', () => {
    expect(defined.length).toBeLessThanOrEqual(20);
    const relied = ['item', 'parent', 'children', 'edges', 'createdAt', 'get', 'create', 'update', 'delete', 'addEdge', 'removeEdge', 'table', 'index', 'attribute', 'indexed', 'query'];
    for (const name of relied) expect(defined).toContain(name);
    expect(new Set(defined).size).toBe(defined.length);
  });

  it('refuses a model that still uses a retired directive, one line naming its replacement', () => {
    const sdl = `${VALID}
      type Subscription { teamPlayersChanged(teamId: ID!): Team @collectionChanges(field: "Team.players") }`;
    expect(problemsOf(sdl)).toEqual([
      expect.stringMatching(/^\d+: Subscription\.teamPlayersChanged: @collectionChanges is gone: use @changes\(field: "Type\.connection"\)$/),
    ]);
    for (const name of Object.keys(RETIRED_DIRECTIVES)) expect(DIRECTIVE_NAMES).not.toContain(name);
  });

  it.each([
    ['@byInstant', 'type Season @item', 'type Season @byInstant(pk: "S#{team}", by: "year") @item', /Season: @byInstant is gone: use @indexed\(index:, pk: \["<prefix>\{<parent>\}"\], sk: \["\{<DateTime field>\}#\{id\}"\]\) on the type and @query\(index:, from:, until:\) beside @children$/],
    ['@range', '@children(counter: "seasonCount")', '@children(counter: "seasonCount") @range(after: "a", before: "b")', /Team\.seasons: @range is gone: use @query\(index:, from:, until:\) beside @children$/],
    ['@where', '@children(counter: "seasonCount")', '@children(counter: "seasonCount") @where(argument: "a", field: "year")', /Team\.seasons: @where is gone: use @query\(filter: \[<argument>\]\) beside @children$/],
    ['@sharded', '@edges(inverseOf: "players")', '@edges(inverseOf: "players") @sharded(count: "shards")', /Player\.teams: @sharded is gone: use @edges\(shards:, maxShards:, shardsCopy:\)$/],
    ['@owner', 'type Team @item(pk: "TEAM#{id}", sk: "META")', 'type Team @item(pk: "TEAM#{id}", sk: "META") @owner(claim: "team_id")', /Team: @owner is gone: use @item\(claim:, claimSetting:\)$/],
    ['@node', '  team(id: ID!): Team @get', '  team(id: ID!): Team @node', /Query\.team: @node is gone: use @get\(by: NODE\)$/],
    ['@me', '  team(id: ID!): Team @get', '  team(id: ID!): Team @me', /Query\.team: @me is gone: use @get\(by: CALLER\)$/],
  ])('refuses %s with the form that replaced it, and nothing else', (_, from, to, message) => {
    expect(VALID).toContain(from);
    expect(problemsOf(VALID.replace(from, to))).toEqual([expect.stringMatching(message)]);
  });
});
