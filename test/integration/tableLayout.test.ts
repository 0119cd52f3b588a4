import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamo } from '../../src/dynamo/client.js';
import { describeLayout, ensureTable, gsi2ReadersOf, tableDefinition } from '../../src/dynamo/table.js';
import { defaultPlan } from '../support/model.js';
import { localEndpoint } from '../support/gateway.js';
import { dynamoFault } from '../support/faults.js';

describe('table layout', () => {
  const { raw } = createDynamo({ endpoint: localEndpoint() });

  it('creates tables with a NEW_AND_OLD_IMAGES stream, GSI1, GSI2 and time to live on expiresAt', async () => {
    const name = `layout-${randomUUID()}`;
    expect(await ensureTable(raw, name)).toBe(true);
    const layout = await describeLayout(raw, name);
    expect(layout.streamArn).toMatch(/^arn:/);
    expect(layout.gsi2).toBe(true);
    expect(layout.ttl).toBe(true);
    expect(layout.lacks).toEqual([]);
    await raw.send(new DeleteTableCommand({ TableName: name }));
  });

  it('still turns on time to live when the CreateTable that made the table was retried and found it made', async () => {
    const flaky = createDynamo({ endpoint: localEndpoint() });
    let creates = 0;
    // The first CreateTable reaches DynamoDB, then its answer is "lost" (a 500): the SDK retries, and the
    // retry is told the table is in use, as after a timeout on a loaded machine.
    flaky.raw.middlewareStack.add(
      (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
        const result = await next(args);
        if (context.commandName === 'CreateTableCommand' && ++creates === 1) throw dynamoFault('InternalServerError');
        return result;
      },
      { step: 'deserialize', name: 'loseFirstCreateTableAnswer', priority: 'low' },
    );
    const name = `retried-${randomUUID()}`;
    try {
      await ensureTable(flaky.raw, name);
      expect(creates).toBe(2);
      expect((await describeLayout(raw, name)).ttl).toBe(true);
    } finally {
      await raw.send(new DeleteTableCommand({ TableName: name })).catch(() => {});
      flaky.raw.destroy();
    }
  });

  it('says what a first-round table (no stream, no GSI2, no TTL) lacks', async () => {
    const name = `old-layout-${randomUUID()}`;
    const def = tableDefinition(name);
    await raw.send(
      new CreateTableCommand({
        ...def,
        StreamSpecification: undefined,
        AttributeDefinitions: def.AttributeDefinitions!.filter((a) => !a.AttributeName!.startsWith('GSI2')),
        GlobalSecondaryIndexes: def.GlobalSecondaryIndexes!.filter((i) => i.IndexName === 'GSI1'),
      }),
    );
    expect(await ensureTable(raw, name)).toBe(false);
    const layout = await describeLayout(raw, name);
    expect(layout).toMatchObject({ streamArn: null, gsi2: false, ttl: false });
    expect(layout.lacks).toHaveLength(4);
    expect(layout).toMatchObject({ itemsVersion: 1, needsMigration: true });
    expect(layout.lacks.join(' ')).toMatch(/stream/);
    expect(layout.lacks.join(' ')).toMatch(/GSI2/);
    // Worded after the served model: its catalog lists and its by-instant types.
    const worded = await describeLayout(raw, name, gsi2ReadersOf(defaultPlan.model));
    expect(worded.lacks.filter((l) => l.includes('the courses/students lists and order date ranges'))).toHaveLength(2);
    expect(layout.lacks.filter((l) => l.includes('the @catalog lists and date ranges (@query beside @children)'))).toHaveLength(2);
    await raw.send(new DeleteTableCommand({ TableName: name }));
  });
});
