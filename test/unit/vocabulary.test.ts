import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DIRECTIVE_DEFINITIONS, DIRECTIVE_NAMES } from '../../src/declaration/directives.js';
import { VALID } from '../support/teamsModel.js';
import { numberedProblemsOf } from '../support/problems.js';

describe('the vocabulary the gateway supplies', () => {
  const defined = parse(DIRECTIVE_DEFINITIONS).definitions.flatMap((d) => (d.kind === 'DirectiveDefinition' ? [d.name.value] : []));

  it('names every directive it defines, and none besides', () => {
    expect([...defined].sort()).toEqual([...DIRECTIVE_NAMES].sort());
  });

  it("is at most 20 directives, the subscriptions' included, and keeps every name the contract relies on", () => {
    expect(defined.length).toBeLessThanOrEqual(20);
    const relied = [
      'item',
      'parent',
      'children',
      'edges',
      'createdAt',
      'get',
      'create',
      'update',
      'delete',
      'addEdge',
      'removeEdge',
      'table',
      'index',
      'attribute',
      'indexed',
      'query',
    ];
    for (const name of relied) expect(defined).toContain(name);
    expect(new Set(defined).size).toBe(defined.length);
  });

  it.each([
    ['@collectionChanges', '  team(id: ID!): Team @get', '  team(id: ID!): Team @get @collectionChanges(field: "Team.players")'],
    ['@byInstant', 'type Season @item', 'type Season @byInstant(pk: "S#{team}", by: "year") @item'],
    ['@range', '@children(counter: "seasonCount")', '@children(counter: "seasonCount") @range(after: "a", before: "b")'],
    ['@where', '@children(counter: "seasonCount")', '@children(counter: "seasonCount") @where(argument: "a", field: "year")'],
    ['@sharded', '@edges(inverseOf: "players")', '@edges(inverseOf: "players") @sharded(count: "shards")'],
    ['@owner', 'type Team @item(pk: "TEAM#{id}", sk: "META")', 'type Team @item(pk: "TEAM#{id}", sk: "META") @owner(claim: "team_id")'],
    ['@node', '  team(id: ID!): Team @get', '  team(id: ID!): Team @node'],
    ['@me', '  team(id: ID!): Team @get', '  team(id: ID!): Team @me'],
    ['@madeUp', '  team(id: ID!): Team @get', '  team(id: ID!): Team @get @madeUp'],
  ])('refuses %s, a name it does not supply, with graphql\'s unknown-directive error (removed names included: docs/model.md, "Changes")', (name, from, to) => {
    expect(VALID).toContain(from);
    expect(numberedProblemsOf(VALID.replace(from, to))).toEqual([`-: schema: Unknown directive "${name}".`]);
  });

  it.each([
    ['@link', '@addEdge(edges:, from:, to:, phrase:)'],
    ['@unlink', '@removeEdge(edges:, from:, to:, phrase:)'],
  ])('still refuses %s on a field with the name that replaced it, for one release', (name, replacement) => {
    const sdl = VALID.replace('  team(id: ID!): Team @get', `  team(id: ID!): Team @get ${name}(edges: "Team.players")`);
    expect(numberedProblemsOf(sdl)).toEqual([
      expect.stringMatching(new RegExp(`^\\d+: Query\\.team: ${name} is gone: use ${replacement.replace(/[()]/g, '\\$&')}$`)),
    ]);
  });
});
