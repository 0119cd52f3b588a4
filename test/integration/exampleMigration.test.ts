/**
 * `npm run migrate` for a model other than the default: membership edges
 * another program wrote without their GSI1 keys are invisible from the
 * group's side until the migration adds them from the declaration, with
 * the copies the model declares on them (group name, member name) and the
 * counters users and groups lack; a dry run writes nothing and a second
 * run changes nothing.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigration } from '../../src/migration/migrate.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));
const MEMBERS = 7;

let gw: TestGateway;
let options: Parameters<typeof runMigration>[0];
beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  options = {
    raw: gw.dynamo.raw,
    doc: gw.dynamo.doc,
    tableName: gw.tableName,
    plan: gw.plan,
    segments: 2,
    writeUnitsPerSecond: 100_000,
    pageSize: 4,
    indexSettleMs: 0,
  };
  await gw.put([
    { PK: 'GROUP#g', SK: 'PROFILE', name: 'Readers', memberCount: MEMBERS },
    ...Array.from({ length: MEMBERS }, (_, i) => [
      // No orderCount or contactCount: the program that wrote them kept only the memberships' count.
      { PK: `USER#u${i}`, SK: 'PROFILE', name: `User ${i}`, groupCount: 1 },
      // Written as another program would: no GSI1 keys, no copies on the edge.
      { PK: `USER#u${i}`, SK: 'GROUP#g', joinedAt: '2026-01-01T00:00:00.000Z' },
    ]).flat(),
    { PK: 'USER#u0', SK: 'ORDER2026-07-03', total: 3 },
    { PK: 'USER#u0', SK: 'CONTACT#k1', name: 'Kim' },
    // A group without its memberCount, with one member whose edge is complete.
    { PK: 'GROUP#g2', SK: 'PROFILE', name: 'Writers' },
    { PK: 'USER#w', SK: 'PROFILE', name: 'Wren', groupCount: 1, orderCount: 0, contactCount: 0 },
    { PK: 'USER#w', SK: 'GROUP#g2', GSI1PK: 'GROUP#g2', GSI1SK: 'USER#w', joinedAt: '2026-01-01T00:00:00.000Z', groupName: 'Writers', memberName: 'Wren' },
  ]);
});
afterAll(() => gw.stop());

const MEMBERS_QUERY = `{ group(id: "g") { members(first: 20) { edges { node { id name } } } } user(id: "u0") { groups { edges { node { name } } } } }`;
/** The fixes the fixture needs: GSI1 keys and both copies on each edge, orderCount and contactCount of 7 users, g2's memberCount. */
const FIXES = { 'index-keys': MEMBERS, 'edge-copy': 2 * MEMBERS, counter: 2 * MEMBERS + 1, 'edge-shards': 0, 'enter-catalog': 0, 'order-date': 0 };
const CHANGES = MEMBERS + 2 * MEMBERS + 2 * MEMBERS + 1;

describe('npm run migrate on the example model', () => {
  it('reports the missing edge keys in a dry run and writes nothing', async () => {
    const before = await gw.scan();
    const result = await runMigration({ ...options, dryRun: true });
    expect(result).toMatchObject({ changed: CHANGES, byKind: FIXES, writeUnits: 0 });
    expect(await gw.scan()).toEqual(before);
    const { data } = await gw.run(MEMBERS_QUERY);
    expect(data.group.members.edges).toEqual([]);
    expect(data.user.groups.edges).toEqual([{ node: { name: 'Readers' } }]);
  });

  it(
    'adds GSI1 keys, copies and counters, answering every read the same while it runs; a second run changes nothing',
    async () => {
      // Paced (about 30 units a second) so that the reads below overlap it.
      const running = runMigration({ ...options, writeUnitsPerSecond: 30 });
      let done = false;
      void running.finally(() => (done = true)).catch(() => {});
      const expected = {
        user: { name: 'User 0', groups: { totalCount: 1, edges: [{ node: { name: 'Readers' } }] }, orders: { totalCount: 1 }, contacts: { totalCount: 1 } },
      };
      let reads = 0;
      for (let i = 0; i < 200 && !done; i++) {
        const { data, errors } = await gw.run(
          `{ user(id: "u0") { name groups { totalCount edges { node { name } } } orders { totalCount } contacts { totalCount } } }`,
        );
        expect(errors).toBeUndefined();
        expect(data).toEqual(expected);
        reads++;
      }
      const result = await running;
      expect(reads).toBeGreaterThan(0);
      expect(result).toMatchObject({ changed: CHANGES, skipped: 0, byKind: FIXES });
      const items = await gw.scan();
      const edges = items.filter((i) => i.SK === 'GROUP#g');
      expect(edges).toHaveLength(MEMBERS);
      for (const edge of edges) {
        const name = `User ${String(edge.PK).slice('USER#u'.length)}`;
        expect(edge).toMatchObject({ GSI1PK: 'GROUP#g', GSI1SK: edge.PK, groupName: 'Readers', groupNameVersion: 0, memberName: name, memberNameVersion: 0 });
      }
      expect(await gw.get('USER#u0', 'PROFILE')).toMatchObject({ groupCount: 1, orderCount: 1, contactCount: 1 });
      expect(await gw.get('USER#u1', 'PROFILE')).toMatchObject({ orderCount: 0, contactCount: 0 });
      expect(await gw.get('GROUP#g2', 'PROFILE')).toMatchObject({ memberCount: 1 });
      const { data } = await gw.run(MEMBERS_QUERY);
      expect(data.group.members.edges.map((e: any) => e.node.id)).toEqual(Array.from({ length: MEMBERS }, (_, i) => `u${i}`));

      const again = await runMigration(options);
      expect(again).toMatchObject({ changed: 0, writeUnits: 0 });
    },
    patience(180_000),
  );
});
