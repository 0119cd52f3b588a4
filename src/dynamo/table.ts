/**
 * The table definition (CONTRACT.md §1), shared by start-up, tests and
 * scripts: PK/SK, global secondary index GSI1 (GSI1PK/GSI1SK, projection ALL),
 * on-demand billing.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { GSI1 } from './keys.js';
import { sleep } from './backoff.js';

export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'PK', AttributeType: 'S' },
      { AttributeName: 'SK', AttributeType: 'S' },
      { AttributeName: 'GSI1PK', AttributeType: 'S' },
      { AttributeName: 'GSI1SK', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: GSI1,
        KeySchema: [
          { AttributeName: 'GSI1PK', KeyType: 'HASH' },
          { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
  };
}

/** Does the table exist? Other errors (unreachable, denied) propagate. */
export async function tableExists(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (err) {
    if (err instanceof ResourceNotFoundException) return false;
    throw err;
  }
}

/**
 * Creates the table when it is missing and waits until it is ACTIVE.
 * Returns true when this call created it. Never touches an existing table.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  let created = false;
  if (!(await tableExists(client, tableName))) {
    try {
      await client.send(new CreateTableCommand(tableDefinition(tableName)));
      created = true;
    } catch (err) {
      // Another gateway instance created it between our check and our create.
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  for (let attempt = 0; attempt < 120; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return created;
    await sleep(500);
  }
  throw new Error(`table ${tableName} did not become ACTIVE within 60 s`);
}
