/**
 * The partition simulator in front of DynamoDB Local: units metered per
 * partition key for the table and for GSI1 separately, and an empty bucket
 * answered as DynamoDB answers (ProvisionedThroughputExceededException,
 * TransactionCanceledException with ThrottlingError, unprocessed batch keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchGetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../../src/dynamo/client.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { startPartitionSimulator, type PartitionSimulator } from '../../bench/simulator/partitionSimulator.js';
import { localEndpoint } from '../support/gateway.js';

let sim: PartitionSimulator;
let dynamo: ReturnType<typeof createDynamo>;
const table = `sim_${Date.now().toString(36)}`;

beforeAll(async () => {
  // Buckets of 5 units that refill too slowly to matter within a test: the sixth unit is refused.
  sim = await startPartitionSimulator({ target: localEndpoint(), writeRate: 0.001, readRate: 0.001, burstSeconds: 5000 });
  dynamo = createDynamo({ endpoint: sim.endpoint, maxAttempts: 1, requestTimeoutMs: 10_000 });
  await ensureTable(dynamo.raw, table);
});
afterAll(async () => {
  dynamo?.raw.destroy();
  await sim?.stop();
});

const edge = (sid: string, cid: string) => ({ PK: `STUDENT#${sid}`, SK: `COURSE#${cid}`, GSI1PK: `COURSE#${cid}`, GSI1SK: `STUDENT#${sid}` });

describe('partition simulator', () => {
  it('meters a put on its table partition and on its index partition separately', async () => {
    sim.resetUsage();
    await dynamo.doc.send(new PutCommand({ TableName: table, Item: edge('m1', 'meter') }));
    const usage = sim.usage();
    expect(usage.get(`${table} STUDENT#m1`)).toMatchObject({ writeUnits: 1 });
    expect(usage.get(`${table}/GSI1 COURSE#meter`)).toMatchObject({ writeUnits: 1 });
    await dynamo.doc.send(
      new QueryCommand({ TableName: table, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': 'COURSE#meter' } }),
    );
    expect(sim.usage().get(`${table}/GSI1 COURSE#meter`)).toMatchObject({ readUnits: 0.5 });
  });

  it('throttles writes into one hot index partition while other partitions keep serving', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => dynamo.doc.send(new PutCommand({ TableName: table, Item: edge(`h${i}`, 'hot') }))),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect((refused[0] as PromiseRejectedResult).reason.name).toBe('ProvisionedThroughputExceededException');
    expect(sim.usage().get(`${table}/GSI1 COURSE#hot`)!.throttled).toBeGreaterThan(0);
    await dynamo.doc.send(new PutCommand({ TableName: table, Item: edge('cold1', 'cold') }));
  });

  it('cancels a transaction touching an empty bucket with a ThrottlingError reason for that item', async () => {
    await Promise.allSettled(Array.from({ length: 6 }, (_, i) => dynamo.doc.send(new PutCommand({ TableName: table, Item: edge(`t${i}`, 'txhot') }))));
    const err = await dynamo.doc
      .send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: table, Item: { PK: 'OTHER#1', SK: 'X' } } }, { Put: { TableName: table, Item: edge('tx', 'txhot') } }],
        }),
      )
      .catch((e) => e);
    expect(err.name).toBe('TransactionCanceledException');
    expect(err.CancellationReasons.map((r: { Code: string }) => r.Code)).toEqual(['None', 'ThrottlingError']);
  });

  it('returns the keys of a throttled partition as unprocessed from BatchGetItem', async () => {
    await dynamo.doc.send(new PutCommand({ TableName: table, Item: { PK: 'READ#1', SK: 'A' } }));
    // Drain READ#2's read bucket (5 units) with consistent reads of a 1 unit item.
    await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        dynamo.doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: [{ PK: 'READ#2', SK: 'A' }], ConsistentRead: true } } })),
      ),
    );
    const out = await dynamo.doc.send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: [
              { PK: 'READ#1', SK: 'A' },
              { PK: 'READ#2', SK: 'A' },
            ],
            ConsistentRead: true,
          },
        },
      }),
    );
    expect(out.Responses![table].map((i) => i.PK)).toEqual(['READ#1']);
    expect(out.UnprocessedKeys![table].Keys).toEqual([{ PK: 'READ#2', SK: 'A' }]);
  });
});
