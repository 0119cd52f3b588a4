/**
 * A model that cannot be served stops `npm start` (src/main.ts, a process of
 * its own) with exit code 1 and one line per problem, before any other
 * start-up work: the endpoint given is never reached.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VALID } from '../support/teamsModel.js';
import { patience } from '../support/patience.js';

describe('a model with problems', () => {
  it('stops npm start with a non-zero exit and one line per problem, before any other start-up work', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-'));
    const file = join(dir, 'broken.graphql');
    writeFileSync(file, VALID.replace('player(id: ID!): Player @get', 'player(id: ID!): Player'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, SCHEMA_FILE: file, DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: patience(60_000),
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`The model in ${file} cannot be served`);
    expect(run.stderr).toMatch(/broken\.graphql:\d+: Query\.player: no directive binds this field/);
  });
});

describe('subscriptions the model cannot serve', () => {
  it('stop npm start with a non-zero exit and one line per problem naming the field, before the endpoint is tried', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-'));
    const file = join(dir, 'subscriptions.graphql');
    writeFileSync(file, `${VALID}\ntype Subscription {\n  teamChanged(id: ID!): Team\n  playerChanged(id: ID!): Player @changes(field: "Team.nowhere")\n}\n`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, SCHEMA_FILE: file, DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: patience(60_000),
    });
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('DYNAMODB_ENDPOINT');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^\s+Subscription\.teamChanged: needs @changes$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^\s+Subscription\.playerChanged: @changes\(field: "Team\.nowhere"\) must name a connection the model keeps, as "Type\.field"$/),
    );
  });
});

describe("a federated model Apollo's subgraph rules refuse", () => {
  it('stops npm start with one line per problem, before the endpoint is tried', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-'));
    const file = join(dir, 'subgraph.graphql');
    writeFileSync(
      file,
      `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@requires"])
type Box @item(pk: "B#{id}", sk: "box") @key(fields: "id") { id: ID!  size: Int  price: Int @requires(fields: "size") }
type Query { box(id: ID!): Box @get }
`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, SCHEMA_FILE: file, DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: patience(60_000),
    });
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('DYNAMODB_ENDPOINT');
    expect(run.stderr).toContain(`The model in ${file} cannot be served (1 problem)`);
    expect(run.stderr).toMatch(
      /subgraph\.graphql: Federation: On field "Box\.price", for @requires\(fields: "size"\): field "Box\.size" should not be part of a @requires/,
    );
  });
});
