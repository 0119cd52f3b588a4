/**
 * `npm run migrate` on a table another program filled in the first-round
 * layout (no GSI2 index, no GSI2 keys, no catalog counters): a dry run
 * writes nothing, an interrupted run resumes from its checkpoints, the
 * result is exact (every entry once, counters equal to entries) and a
 * second run changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../../src/dynamo/client.js';
import { startTestDynamo } from '../support/localDynamo.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { describeLayout, tableDefinition } from '../../src/dynamo/table.js';
import { CATALOG_SHARDS } from '../../src/dynamo/keys.js';
import { catalogKeys, orderDateKeys } from '../support/defaultItems.js';
import { runMigration } from '../../src/migration/migrate.js';
import { PATIENT_CLIENT } from '../support/gateway.js';
import { defaultPlan } from '../support/model.js';
import { patience } from '../support/patience.js';

// A DynamoDB Local of its own: adding an index to a table that holds items races, in DynamoDB Local's one shared
// database, with other tables' work beside it (it then reports the index ACTIVE while its table lacks the index's
// columns, and fails every write with InternalFailure). DynamoDB itself builds an index beside any traffic.
const local = await startTestDynamo();
const dynamo = createDynamo({ endpoint: local.endpoint, ...PATIENT_CLIENT });
const tableName = `migrate-${randomUUID().slice(0, 8)}`;

const STUDENTS = 60;
const COURSES = 50;
const ORDERS = 40;

/** Items as a first-round writer stores them: the contract's keys and attributes, nothing derived. */
function oldLayoutItems(): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < STUDENTS; i++) items.push({ PK: `STUDENT#s${i}`, SK: 'PROFILE', name: `Élève ${i}` });
  for (let i = 0; i < COURSES; i++) items.push({ PK: `COURSE#c${i}`, SK: 'PROFILE', title: `Course ${i}`, studentCount: 1 });
  for (let i = 0; i < COURSES; i++) {
    items.push({ PK: `STUDENT#s${i}`, SK: `COURSE#c${i}`, GSI1PK: `COURSE#c${i}`, GSI1SK: `STUDENT#s${i}`, enrolledAt: '2026-01-01T00:00:00.000Z' });
  }
  items.push({ PK: 'CUSTOMER#cu', SK: 'PROFILE', name: 'Buyer' });
  for (let i = 0; i < ORDERS; i++) {
    const placedAt = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
    items.push({ PK: 'CUSTOMER#cu', SK: `ORDER#o${i}`, GSI1PK: `ORDER#o${i}`, GSI1SK: 'CUSTOMER#cu', placedAt, total: i });
  }
  // What the layout cannot derive from stays out of GSI2: a course without a title, an order without a date.
  items.push({ PK: 'COURSE#untitled', SK: 'PROFILE' });
  items.push({ PK: 'CUSTOMER#cu', SK: 'ORDER#undated', GSI1PK: 'ORDER#undated', GSI1SK: 'CUSTOMER#cu', placedAt: 'soon', total: 1 });
  return items;
}

async function scanAll(): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo.doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

const options = { raw: dynamo.raw, doc: dynamo.doc, tableName, plan: defaultPlan, segments: 3, writeUnitsPerSecond: 100_000, pageSize: 15, indexSettleMs: 0 };
/** Edges lack both copies and the shard-count copy; students, the untitled course and the customer lack their counters. */
const RELATION_FIXES = { 'edge-copy': 2 * COURSES, 'edge-shards': COURSES, counter: STUDENTS + 1 + 1 };
const EXPECTED_CHANGES = STUDENTS + COURSES + ORDERS + 3 * COURSES + STUDENTS + 2;
/** Generous: the migration runs against the shared DynamoDB Local of a loaded machine. */
const PATIENT = patience(180_000);

beforeAll(async () => {
  const def = tableDefinition(tableName);
  await dynamo.raw.send(
    new CreateTableCommand({
      ...def,
      StreamSpecification: undefined,
      AttributeDefinitions: def.AttributeDefinitions!.filter((a) => !a.AttributeName!.startsWith('GSI2')),
      GlobalSecondaryIndexes: def.GlobalSecondaryIndexes!.filter((i) => i.IndexName === 'GSI1'),
    }),
  );
  await batchPut(dynamo.doc, tableName, oldLayoutItems());
});

afterAll(async () => {
  await dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  dynamo.raw.destroy();
  await local.stop();
});

describe('npm run migrate on a table filled in the first-round layout', () => {
  it(
    'reports in a dry run what it would change and writes nothing',
    async () => {
      const before = await scanAll();
      const result = await runMigration({ ...options, dryRun: true });
      expect(result).toMatchObject({
        changed: EXPECTED_CHANGES,
        byKind: { 'enter-catalog': STUDENTS + COURSES, 'resort-catalog': 0, 'order-date': ORDERS, ...RELATION_FIXES },
        writeUnits: 0,
        addedIndex: false,
      });
      expect(await scanAll()).toEqual(before);
      expect((await describeLayout(dynamo.raw, tableName)).needsMigration).toBe(true);
    },
    PATIENT,
  );

  it(
    'stops when interrupted, keeping its checkpoints, and the next run resumes from them to an exact result',
    async () => {
      let pages = 0;
      const crash = () => {
        if (++pages === 4) throw new Error('injected crash');
      };
      await expect(runMigration({ ...options, afterCheckpoint: crash })).rejects.toThrow('injected crash');
      const half = await scanAll();
      const firstRunChanges = half.filter((i) => typeof i.GSI2PK === 'string' && !String(i.PK).startsWith('CATALOG#')).length;
      expect(firstRunChanges).toBeGreaterThan(0);
      expect(firstRunChanges).toBeLessThan(EXPECTED_CHANGES);
      expect(half.filter((i) => String(i.SK).startsWith('MIGRATION#SEGMENT#'))).toHaveLength(3);
      expect((await describeLayout(dynamo.raw, tableName)).needsMigration).toBe(true);

      const resumed = await runMigration(options);
      expect(resumed.resumed).toBe(true);
      // Pages written before their checkpoint are scanned again but write nothing: every item changes exactly once.
      expect(resumed.changed).toBe(EXPECTED_CHANGES);
      expect(resumed.skipped).toBe(0);

      const items = await scanAll();
      for (const item of items) {
        const pk = String(item.PK);
        if (item.SK === 'PROFILE' && pk.startsWith('STUDENT#')) {
          expect(item).toMatchObject(catalogKeys('STUDENT', pk.slice(8), String(item.name)));
        } else if (item.SK === 'PROFILE' && pk.startsWith('COURSE#') && item.title !== undefined) {
          expect(item).toMatchObject(catalogKeys('COURSE', pk.slice(7), String(item.title)));
        } else if (String(item.SK).startsWith('ORDER#') && item.SK !== 'ORDER#undated') {
          expect(item).toMatchObject(orderDateKeys('cu', String(item.SK).slice(6), item.placedAt)!);
        } else if (!pk.startsWith('CATALOG#')) {
          expect(item.GSI2PK).toBeUndefined();
        }
      }
      const byKey = (PK: string, SK: string) => items.find((i) => i.PK === PK && i.SK === SK);
      expect(byKey('STUDENT#s0', 'PROFILE')).toMatchObject({ courseCount: 1 });
      expect(byKey(`STUDENT#s${STUDENTS - 1}`, 'PROFILE')).toMatchObject({ courseCount: 0 });
      expect(byKey('COURSE#untitled', 'PROFILE')).toMatchObject({ studentCount: 0 });
      expect(byKey('COURSE#c0', 'PROFILE')?.studentCount).toBe(1);
      expect(byKey('CUSTOMER#cu', 'PROFILE')).toMatchObject({ orderCount: ORDERS + 1 });
      expect(byKey('STUDENT#s7', 'COURSE#c7')).toMatchObject({
        courseTitle: 'Course 7',
        courseTitleVersion: 0,
        studentName: 'Élève 7',
        studentNameVersion: 0,
        courseShards: 1,
      });
      const counters = items.filter((i) => String(i.PK).startsWith('CATALOG#'));
      const sum = (kind: string) => counters.filter((c) => String(c.PK).startsWith(`CATALOG#${kind}#`)).reduce((n, c) => n + Number(c.count), 0);
      expect(counters.length).toBeLessThanOrEqual(2 * CATALOG_SHARDS);
      expect(sum('STUDENT')).toBe(STUDENTS);
      expect(sum('COURSE')).toBe(COURSES);
      expect(items.filter((i) => String(i.SK).startsWith('MIGRATION#SEGMENT#'))).toEqual([]);
      const layout = await describeLayout(dynamo.raw, tableName);
      expect(layout).toMatchObject({ gsi2: true, itemsVersion: 2, needsMigration: false });
    },
    PATIENT,
  );

  it(
    'changes nothing when run again',
    async () => {
      const before = await scanAll();
      const again = await runMigration(options);
      expect(again).toMatchObject({ resumed: false, changed: 0, writeUnits: 0, addedIndex: false });
      const after = (await scanAll()).filter((i) => i.SK !== 'MIGRATION');
      expect(after).toEqual(before.filter((i) => i.SK !== 'MIGRATION'));
    },
    PATIENT,
  );
});
