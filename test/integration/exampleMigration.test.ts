/**
 * `npm run migrate` for a model other than the default: membership edges
 * another program wrote without their GSI1 keys are invisible from the
 * group's side until the migration adds them from the declaration; a dry
 * run writes nothing and a second run changes nothing.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigration } from '../../src/migration/migrate.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));
const MEMBERS = 7;

let gw: TestGateway;
let options: Parameters<typeof runMigration>[0];
beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  options = { raw: gw.dynamo.raw, doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan, segments: 2, writeUnitsPerSecond: 100_000, pageSize: 4 };
  await gw.put([
    { PK: 'GROUP#g', SK: 'PROFILE', name: 'Readers', memberCount: MEMBERS },
    ...Array.from({ length: MEMBERS }, (_, i) => [
      { PK: `USER#u${i}`, SK: 'PROFILE', name: `User ${i}`, groupCount: 1 },
      // Written as another program would: no GSI1 keys on the edge.
      { PK: `USER#u${i}`, SK: 'GROUP#g', joinedAt: '2026-01-01T00:00:00.000Z', groupName: 'Readers', memberName: `User ${i}` },
    ]).flat(),
    { PK: 'USER#u0', SK: 'ORDER2026-07-03', total: 3 },
  ]);
});
afterAll(() => gw.stop());

const MEMBERS_QUERY = `{ group(id: "g") { members(first: 20) { edges { node { id name } } } } user(id: "u0") { groups { edges { node { name } } } } }`;

describe('npm run migrate on the example model', () => {
  it('reports the missing edge keys in a dry run and writes nothing', async () => {
    const before = await gw.scan();
    const result = await runMigration({ ...options, dryRun: true });
    expect(result).toMatchObject({ changed: MEMBERS, byKind: { 'index-keys': MEMBERS, 'enter-catalog': 0, 'order-date': 0 }, writeUnits: 0 });
    expect(await gw.scan()).toEqual(before);
    const { data } = await gw.run(MEMBERS_QUERY);
    expect(data.group.members.edges).toEqual([]);
    expect(data.user.groups.edges).toEqual([{ node: { name: 'Readers' } }]);
  });

  it('adds GSI1 keys to every edge, so the group lists its members; a second run changes nothing', async () => {
    const result = await runMigration(options);
    expect(result).toMatchObject({ changed: MEMBERS, skipped: 0, byKind: { 'index-keys': MEMBERS } });
    const edges = (await gw.scan()).filter((i) => i.SK === 'GROUP#g');
    expect(edges).toHaveLength(MEMBERS);
    for (const edge of edges) expect(edge).toMatchObject({ GSI1PK: 'GROUP#g', GSI1SK: edge.PK });
    const { data } = await gw.run(MEMBERS_QUERY);
    expect(data.group.members.edges.map((e: any) => e.node.id)).toEqual(Array.from({ length: MEMBERS }, (_, i) => `u${i}`));

    const again = await runMigration(options);
    expect(again).toMatchObject({ changed: 0, writeUnits: 0 });
  });
});
