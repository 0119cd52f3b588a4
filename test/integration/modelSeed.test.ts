/**
 * `npm run seed` for a model other than the default: the command writes
 * the example model's data set to DynamoDB Local, and the gateway serving
 * that model reads it with exact counters and copies.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { layoutProblems } from '../support/layoutCheck.js';
import { patience } from '../support/patience.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMA_FILE = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));

let gw: TestGateway;
let summary: Record<string, unknown>;
beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/seed.ts',
      '--count',
      'User=12',
      '--count',
      'Group=3',
      '--per',
      'User.orders=4',
      '--per',
      'User.contacts=1',
      '--per',
      'Group.members=5',
      '--ids',
      'Order=date',
      '--concurrency',
      '2',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        SCHEMA_FILE,
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
        AWS_REGION: 'us-east-1',
        DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
        DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
      },
      timeout: patience(120_000),
    },
  );
  summary = JSON.parse(stdout.trim().split('\n').at(-1)!);
}, patience(180_000));
afterAll(() => gw.stop());

describe('seeding the example model', () => {
  it('writes the counts asked for and reports them', async () => {
    expect(summary).toMatchObject({ table: gw.tableName, items: 12 + 3 + 48 + 12 + 15, User: 12, Group: 3, Order: 48, Contact: 12, 'User.groups': 15 });
    // Besides the table's layout record (written when the table is created).
    const items = (await gw.scan()).filter((i) => i.PK !== 'LAYOUT');
    expect(items).toHaveLength(90);
    expect(layoutProblems(gw.plan, items)).toEqual([]);
  });

  it("serves what it wrote: a user's dated orders and a group's members from the counters and copies", async () => {
    const { result } = await gw.counted(`{
      user(id: "user0000") { name orders(first: 2) { totalCount edges { node { id } } pageInfo { hasNextPage } } contacts { totalCount } }
      order(userId: "user0000", id: "2025-01-04") { id user { id } }
      group(id: "group0002") { name members(first: 10) { totalCount edges { node { id name } } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.user).toEqual({
      name: 'User 0',
      orders: { totalCount: 4, edges: [{ node: { id: '2025-01-01' } }, { node: { id: '2025-01-02' } }], pageInfo: { hasNextPage: true } },
      contacts: { totalCount: 1 },
    });
    expect(result.data.order).toEqual({ id: '2025-01-04', user: { id: 'user0000' } });
    expect(result.data.group.members.totalCount).toBe(5);
    expect(result.data.group.members.edges).toHaveLength(5);
    for (const edge of result.data.group.members.edges) expect(edge.node.name).toBe(`User ${Number(edge.node.id.slice(4))}`);
  });

  it(
    "refuses an unknown type with the model's types named, writing nothing",
    async () => {
      const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--count', 'Person=3'], {
        cwd: root,
        env: {
          ...process.env,
          SCHEMA_FILE,
          DYNAMODB_ENDPOINT: localEndpoint(),
          TABLE_NAME: 'never_created',
          AWS_REGION: 'us-east-1',
          DYNAMODB_REQUEST_TIMEOUT_MS: '20000',
          DYNAMODB_CONNECT_TIMEOUT_MS: '10000',
        },
        timeout: patience(120_000),
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('seed: --count Person: the model has no @item type Person (it has User, Order, Contact, Group)');
    },
    patience(180_000),
  );
});
