/**
 * Start-up follows the model's declared layout: it creates a missing table
 * with the declared key attributes and indexes (multi-attribute keys
 * included), serves it, and refuses a table whose keys contradict the
 * declaration with one line naming the index.
 */
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { silentLogger } from '../../src/logger.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { describeLayout, ensureTable } from '../../src/dynamo/table.js';
import { runMigration } from '../../src/migration/migrate.js';
import { startTestDynamo } from '../support/localDynamo.js';
import { localEndpoint, postGraphQL } from '../support/gateway.js';

const MODEL = `
extend schema
  @table(pk: "PK", sk: "SK")
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byStatus", pk: ["status", "queue"], sk: ["priority", "subject"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Ticket @item(pk: "TICKET#{id}", sk: "META") {
  id: ID!
  subject: String!
  status: String!
  queue: String!
  priority: Int!
}
input CreateTicketInput { id: ID subject: String! status: String! queue: String! priority: Int! }
type Query { ticket(id: ID!): Ticket @get }
type Mutation { createTicket(input: CreateTicketInput!): Ticket! @create }
`;

const dir = mkdtempSync(join(tmpdir(), 'layout-'));
const schemaFile = join(dir, 'helpdesk.graphql');
writeFileSync(schemaFile, MODEL);
const dynamo = createDynamo({ endpoint: localEndpoint() });
const tables: string[] = [];
const env = (tableName: string) => ({
  DYNAMODB_ENDPOINT: localEndpoint(),
  TABLE_NAME: tableName,
  SCHEMA_FILE: schemaFile,
  PORT: '0',
  HOST: '127.0.0.1',
});

afterAll(async () => {
  for (const TableName of tables) await dynamo.raw.send(new DeleteTableCommand({ TableName })).catch(() => {});
  dynamo.raw.destroy();
});

describe('a model that declares its layout', () => {
  it('gets a table with its declared indexes, multi-attribute keys in order, and is served from it', async () => {
    const tableName = `layout_${randomUUID().slice(0, 8)}`;
    tables.push(tableName);
    const gateway = await startGateway(loadConfig(env(tableName)), silentLogger);
    try {
      const { Table } = await dynamo.raw.send(new DescribeTableCommand({ TableName: tableName }));
      expect(Table?.KeySchema).toEqual([
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ]);
      const indexes = Object.fromEntries((Table?.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName, i.KeySchema]));
      expect(Object.keys(indexes).sort()).toEqual(['GSI1', 'byStatus']);
      expect(indexes.byStatus).toEqual([
        { AttributeName: 'status', KeyType: 'HASH' },
        { AttributeName: 'queue', KeyType: 'HASH' },
        { AttributeName: 'priority', KeyType: 'RANGE' },
        { AttributeName: 'subject', KeyType: 'RANGE' },
      ]);
      expect(Table?.AttributeDefinitions?.find((a) => a.AttributeName === 'priority')?.AttributeType).toBe('N');

      const created = await postGraphQL(gateway.url, {
        query: 'mutation { createTicket(input: { id: "t1", subject: "Printer", status: "OPEN", queue: "it", priority: 2 }) { id } }',
      });
      expect(created.json).toEqual({ data: { createTicket: { id: 't1' } } });
      const read = await postGraphQL(gateway.url, { query: '{ ticket(id: "t1") { subject status queue priority } }' });
      expect(read.json).toEqual({ data: { ticket: { subject: 'Printer', status: 'OPEN', queue: 'it', priority: 2 } } });
    } finally {
      await gateway.stop();
    }
  });

  it('refuses to start on a table whose index has other keys, in one line naming the index', async () => {
    const tableName = `layout_${randomUUID().slice(0, 8)}`;
    tables.push(tableName);
    await dynamo.raw.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['PK', 'SK', 'status'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [{ IndexName: 'byStatus', KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
      }),
    );
    const refused = await startGateway(loadConfig(env(tableName)), silentLogger).then(
      async (gateway) => {
        await gateway.stop();
        return null;
      },
      (err: Error) => err.message,
    );
    expect(refused).toBe(
      `table ${tableName} does not match the model in ${schemaFile}:\n` +
        '  index byStatus is keyed on pk status, the model declares pk status, pk queue, sk priority, sk subject (@index)',
    );
  });

  it('reports an index the model added and the table lacks, and npm run migrate creates it and waits until it is active', async () => {
    // A DynamoDB Local of its own: the shared one, busy with every other
    // file's tables, has been seen to leave a new index CREATING for good.
    const own = await startTestDynamo();
    const dynamo = createDynamo({ endpoint: own.endpoint });
    onTestFinished(async () => {
      dynamo.raw.destroy();
      await own.stop();
    });
    const tableName = `layout_${randomUUID().slice(0, 8)}`;
    const before = compilePlan(buildModel(MODEL.replace(/@index\(name: "byStatus"[^\n]*\n/, ''), 'before.graphql'));
    const after = compilePlan(buildModel(MODEL, 'after.graphql'));
    await ensureTable(dynamo.raw, tableName, before.table);
    const lacking = await describeLayout(dynamo.raw, tableName, undefined, after.table);
    expect(lacking.contradictions).toEqual([]);
    expect(lacking.lacks).toContain('no index byStatus, which the model declares (`npm run migrate` creates it; until then what reads it fails)');

    const result = await runMigration({ raw: dynamo.raw, doc: dynamo.doc, tableName, plan: after, segments: 1, writeUnitsPerSecond: 1000 });
    expect(result.addedIndexes).toEqual(['byStatus']);
    const { Table } = await dynamo.raw.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === 'byStatus')?.IndexStatus).toBe('ACTIVE');
    expect((await describeLayout(dynamo.raw, tableName, undefined, after.table)).lacks).not.toContainEqual(expect.stringContaining('byStatus'));
  });
});
