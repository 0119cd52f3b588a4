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
  it('names every directive it defines, and none besides', () => {
    const defined = parse(DIRECTIVE_DEFINITIONS).definitions.flatMap((d) => (d.kind === 'DirectiveDefinition' ? [d.name.value] : []));
    expect([...defined].sort()).toEqual([...DIRECTIVE_NAMES].sort());
  });

  it('refuses a model that still uses a retired directive, one line naming its replacement', () => {
    const sdl = `${VALID}
      type Subscription { teamPlayersChanged(teamId: ID!): Team @collectionChanges(field: "Team.players") }`;
    expect(problemsOf(sdl)).toEqual([
      expect.stringMatching(/^\d+: Subscription\.teamPlayersChanged: @collectionChanges is gone: use @changes\(field: "Type\.connection"\)$/),
    ]);
    for (const name of Object.keys(RETIRED_DIRECTIVES)) expect(DIRECTIVE_NAMES).not.toContain(name);
  });
});
