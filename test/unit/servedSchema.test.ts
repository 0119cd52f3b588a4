/**
 * `npm run schema` writes the served schema and the cache shape of the model
 * in SCHEMA_FILE: the API introspection answers (generated connection, edge
 * and PageInfo types included, the storage vocabulary left out), which
 * codegen reads even for a model that declares no connection type; the
 * committed clients/api/ is what it writes for the default model.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSchema, findBreakingChanges, findDangerousChanges, printSchema } from 'graphql';
import { generate } from '@graphql-codegen/cli';
import { preset as clientPreset } from '@graphql-codegen/client-preset';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../../src/declaration/loadModel.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { DEFAULT_OUT, schemaFiles, schemaMain } from '../../scripts/schema.js';
import { servedSchema } from '../../scripts/servedSchema.js';

const root = resolve(import.meta.dirname, '../..');

/** A model that leaves its connection types to the gateway (writtenTypes.ts), as drafts and hand-written models do. */
const RESERVATIONS = `
type Restaurant @item(pk: "REST#{id}", sk: "META") {
  id: ID!
  name: String!
  reservations(first: Int, after: String, last: Int, before: String): ReservationConnection! @children
}
type Reservation @item(pk: "REST#{restaurant}", sk: "RES#{date}#{id}") {
  id: ID!
  restaurant: Restaurant! @parent
  date: DateTime!
  partySize: Int!
}
scalar DateTime
type Query { restaurant(id: ID!): Restaurant @get }
`;
const OPERATION =
  'query Bookings($id: ID!) { restaurant(id: $id) { name reservations(first: 5) { totalCount edges { cursor node { id date partySize } } pageInfo { hasNextPage endCursor } } } }';

function withModel(sdl: string): { dir: string; model: string } {
  const dir = mkdtempSync(join(tmpdir(), 'schema-'));
  writeFileSync(join(dir, 'restaurants.graphql'), sdl);
  return { dir, model: join(dir, 'restaurants.graphql') };
}

/** The client preset's output for `documents` against `schema` (nothing written). */
async function codegen(cwd: string, schema: string): Promise<string> {
  writeFileSync(join(cwd, 'operations.graphql'), OPERATION);
  const outputs = (await generate(
    {
      cwd,
      schema,
      documents: ['operations.graphql'],
      silent: true,
      generates: { 'gen/': { preset: clientPreset, config: { scalars: { DateTime: 'string' }, strictScalars: true } } },
    },
    false,
  )) as { filename: string; content: string }[];
  return outputs.map((o) => o.content).join('\n');
}

describe('npm run schema', () => {
  it('has written the committed clients/api/ for the default model (run npm run schema after changing schema.graphql)', () => {
    for (const [name, text] of Object.entries(schemaFiles(DEFAULT_SCHEMA_FILE))) {
      expect(readFileSync(join(DEFAULT_OUT, name), 'utf8'), `clients/api/${name}`).toBe(text);
    }
  });

  it('serves the API introspection answers: no change between the printed schema and the executable one', () => {
    const model = loadModel(DEFAULT_SCHEMA_FILE);
    const printed = buildSchema(readFileSync(join(DEFAULT_OUT, 'schema.graphql'), 'utf8'));
    const served = gatewaySchema(model, undefined).schema;
    const changes = [
      ...findBreakingChanges(served, printed),
      ...findDangerousChanges(served, printed),
      ...findBreakingChanges(printed, served),
      ...findDangerousChanges(printed, served),
    ];
    // The storage vocabulary only: what a client never sends nor receives.
    const vocabulary =
      /^(item|parent|children|edges|createdAt|attribute|get|create|update|delete|addEdge|removeEdge|table|index|indexed|query|catalog|propagating|access|changes|CopyField|ValueFormat|GetBy|AccessRule|KeyOrder|KeyCasing|StoredConstant) was removed\.$/;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.filter((c) => !vocabulary.test(c.description))).toEqual([]);
    expect(printSchema(printed)).not.toMatch(/directive @item|directive @children|input CopyField/);
    expect(printSchema(printed)).toMatch(/type StudentCourseConnection \{/);
  });

  it("writes a model's generated connection types, so codegen types an operation over them", async () => {
    const { dir, model } = withModel(RESERVATIONS);
    const lines: string[] = [];
    expect(schemaMain(['--out', 'api'], { env: { SCHEMA_FILE: model }, cwd: dir, out: (l) => lines.push(l) })).toBe(0);
    expect(lines).toEqual(['api/schema.graphql: the served schema of restaurants.graphql', 'api/cacheShape.ts: the cache shape of restaurants.graphql']);
    const sdl = readFileSync(join(dir, 'api/schema.graphql'), 'utf8');
    expect(sdl).toMatch(/type ReservationConnection \{\n {2}edges: \[ReservationEdge!\]!\n {2}pageInfo: PageInfo!\n {2}totalCount: Int!\n\}/);
    const types = await codegen(dir, 'api/schema.graphql');
    expect(types).toContain(
      'export type BookingsQuery = { restaurant: { name: string, reservations: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, date: string, partySize: number } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } | null };',
    );
    expect(readFileSync(join(dir, 'api/cacheShape.ts'), 'utf8')).toMatch(/Reservation: \["restaurant\.id", "date", "id"\]/);
  });

  it('is what codegen needs: the model file alone names connection types it does not declare', async () => {
    const { dir, model } = withModel(RESERVATIONS);
    await expect(codegen(dir, model)).rejects.toThrow(/ReservationConnection/);
  });

  it('writes nothing for a model with problems, and says what they are', () => {
    const { dir, model } = withModel(RESERVATIONS.replace('RES#{date}#{id}', 'RES#{when}#{id}'));
    const errors: string[] = [];
    expect(schemaMain(['--out', 'api'], { env: { SCHEMA_FILE: model }, cwd: dir, out: () => {}, err: (l) => errors.push(l) })).toBe(1);
    expect(errors.join('\n')).toMatch(/restaurants\.graphql/);
    expect(existsSync(join(dir, 'api'))).toBe(false);
  });

  it("leaves the storage vocabulary out and keeps the model's own directives", () => {
    const { model } = withModel(`directive @note(text: String) on FIELD_DEFINITION\n${RESERVATIONS}`);
    const sdl = printSchema(servedSchema(loadModel(model)));
    expect(sdl).toMatch(/directive @note\(text: String\) on FIELD_DEFINITION/);
    expect(sdl).not.toMatch(/@item|@children|@parent|AccessRule/);
  });
});
