/**
 * The table definition, shared by start-up, tests and scripts: the key
 * attributes and indexes a model declares (by default PK/SK, the inverted
 * index GSI1 on GSI1 pk/GSI1 sk and the sparse overloaded index GSI2 on
 * GSI2PK/GSI2SK), every index projecting ALL, on-demand billing, a stream
 * with new and old images, and time to live on `expiresAt` (epoch seconds).
 *
 * Tables made before the stream and GSI2 existed keep working:
 * `describeLayout` says what such a table lacks, so start-up can warn and
 * `/health` can report it, and the features that need the missing part fall
 * back (see docs/table.md).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  GetItemCommand,
  PutItemCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  ResourceNotFoundException,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CURRENT_LAYOUT_VERSION, GSI2, layoutStateKey, tableKeys } from './keys.js';
import type { IndexLayout, Layout } from '../declaration/model.js';
import { DEFAULT_LAYOUT } from '../declaration/layout.js';
import { sleep } from './backoff.js';

/**
 * The table's key attributes and the global secondary indexes on it, as a
 * model declares them (declaration/layout.ts makes one from @table and
 * @index). `types` gives a key attribute's DynamoDB type (N for numbers);
 * any attribute it does not name is a string.
 */
export interface TableShape extends Pick<Layout, 'pk' | 'sk'> {
  /** The indexes as DynamoDB knows them: names and key attributes (a key's casing is the model's, not the table's). */
  indexes: readonly Pick<IndexLayout, 'name' | 'pk' | 'sk'>[];
  types?: ReadonlyMap<string, 'S' | 'N'>;
}

/** The layout of a model that declares none. */
export const DEFAULT_TABLE_SHAPE: TableShape = { pk: DEFAULT_LAYOUT.pk, sk: DEFAULT_LAYOUT.sk, indexes: DEFAULT_LAYOUT.indexes.map(({ name, pk, sk }) => ({ name, pk, sk })) };

type KeyElement = { AttributeName: string; KeyType: 'HASH' | 'RANGE' };
const keySchema = (pk: readonly string[], sk: readonly string[]): KeyElement[] => [
  ...pk.map((AttributeName) => ({ AttributeName, KeyType: 'HASH' as const })),
  ...sk.map((AttributeName) => ({ AttributeName, KeyType: 'RANGE' as const })),
];
const tableKeySchema = (shape: TableShape) => keySchema([shape.pk], shape.sk === null ? [] : [shape.sk]);

/** The definition of a table of this shape: on-demand, every index projecting ALL, a stream with new and old images. */
export function tableDefinition(tableName: string, shape: TableShape = DEFAULT_TABLE_SHAPE): CreateTableCommandInput {
  const attributes = [
    ...new Set([...tableKeySchema(shape).map((k) => k.AttributeName), ...shape.indexes.flatMap((i) => [...i.pk, ...i.sk])]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: shape.types?.get(AttributeName) ?? 'S' })),
    KeySchema: tableKeySchema(shape),
    ...(shape.indexes.length === 0
      ? {}
      : {
          GlobalSecondaryIndexes: shape.indexes.map((i) => ({
            IndexName: i.name,
            KeySchema: keySchema(i.pk, i.sk),
            Projection: { ProjectionType: 'ALL' as const },
          })),
        }),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

/**
 * Where an existing table contradicts the shape, one line each naming the
 * attribute or index: the table's keys, an index declared with other keys,
 * a key attribute of another type. An index the table lacks is no
 * contradiction (`npm run migrate` adds it; describeLayout says so).
 */
export function tableContradictions(table: TableDescription | undefined, shape: TableShape): string[] {
  const found: string[] = [];
  const names = (keys: KeySchemaElement[] | undefined) =>
    (keys ?? []).map((k) => `${k.KeyType === 'HASH' ? 'pk' : 'sk'} ${k.AttributeName}`).join(', ');
  const declaredTable = keySchema([shape.pk], shape.sk === null ? [] : [shape.sk]);
  if (names(table?.KeySchema) !== names(declaredTable)) {
    found.push(`the table is keyed on ${names(table?.KeySchema) || 'nothing'}, the model declares ${names(declaredTable)} (@table)`);
  }
  for (const index of shape.indexes) {
    const existing = (table?.GlobalSecondaryIndexes ?? []).find((i) => i.IndexName === index.name);
    if (!existing) continue;
    const declared = keySchema(index.pk, index.sk);
    if (names(existing.KeySchema) !== names(declared)) {
      found.push(`index ${index.name} is keyed on ${names(existing.KeySchema)}, the model declares ${names(declared)} (@index)`);
    }
  }
  for (const d of table?.AttributeDefinitions ?? []) {
    const want = shape.types?.get(d.AttributeName ?? '') ?? 'S';
    const used = [...tableKeySchema(shape), ...shape.indexes.flatMap((i) => keySchema(i.pk, i.sk))].some((k) => k.AttributeName === d.AttributeName);
    if (used && d.AttributeType !== want) found.push(`key attribute ${d.AttributeName} is of type ${d.AttributeType} in the table, ${want} in the model`);
  }
  return found;
}

/** The attribute DynamoDB's time to live reads (Number, epoch seconds). */
export const TTL_ATTRIBUTE = 'expiresAt';

/** What an existing table has of the current layout. */
export interface TableLayout {
  /** A stream with new and old images is enabled; its ARN. */
  streamArn: string | null;
  /** GSI2 exists (ACTIVE or still building). */
  gsi2: boolean;
  /** Time to live is enabled on `expiresAt`. */
  ttl: boolean;
  /** Layout version of the items (the layout record `npm run migrate` and table creation write); 1 when none. */
  itemsVersion: number;
  /** The items are older than this code's layout: `npm run migrate` brings them up to date. */
  needsMigration: boolean;
  /** Human-readable lacks, empty when the table is current. */
  lacks: string[];
  /** Where the table contradicts the declared shape (tableContradictions): the gateway refuses to serve it. */
  contradictions: string[];
}

/** The layout record's key under the table's own key attributes (bookkeeping lives in the same table). */
function layoutRecordKey(shape: TableShape) {
  const { pk, sk } = tableKeys(shape);
  return { [pk]: { S: layoutStateKey.PK }, [sk]: { S: layoutStateKey.SK } };
}

/**
 * The layout version the table's items are at, from the layout record
 * (one GetItem). A table without the record was filled by an older version
 * or another program: version 1.
 */
export async function itemsLayoutVersion(client: DynamoDBClient, tableName: string, shape: TableShape = DEFAULT_TABLE_SHAPE): Promise<number> {
  const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: layoutRecordKey(shape) }));
  const version = Number(Item?.layoutVersion?.N);
  return Number.isInteger(version) && version > 0 ? version : 1;
}

/** Records that the table's items are at `version` (table creation: an empty table is current). */
export async function writeLayoutVersion(client: DynamoDBClient, tableName: string, version = CURRENT_LAYOUT_VERSION, shape: TableShape = DEFAULT_TABLE_SHAPE) {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        ...layoutRecordKey(shape),
        layoutVersion: { N: String(version) },
        updatedAt: { S: new Date().toISOString() },
      },
    }),
  );
}

/**
 * What the served model reads through GSI2, in the words of the layout's
 * messages: its @catalog lists by field (`['users', 'groups']` → "the
 * users/groups lists") and its types keyed by instant in GSI2 (`['Event']` → "event date
 * ranges"). Without it the messages name the directives.
 */
export interface Gsi2Readers {
  catalogs: readonly string[];
  byInstant: readonly string[];
}

/** The GSI2 readers of a model, for describeLayout's messages. */
export function gsi2ReadersOf(model: { queries: readonly { kind: string; field: string }[]; items: ReadonlyMap<string, { name: string; byInstant: unknown }> }): Gsi2Readers {
  return {
    catalogs: model.queries.filter((q) => q.kind === 'catalog').map((q) => q.field),
    byInstant: [...model.items.values()].filter((t) => t.byInstant).map((t) => t.name),
  };
}

/** What reads GSI2 in the served model, in words: "the courses/students lists and order date ranges", or "" when nothing does. */
export function gsi2ReadersInWords(readers: Gsi2Readers | undefined): string {
  if (!readers) return 'the @catalog lists and date ranges (@query beside @children)';
  const parts = [
    ...(readers.catalogs.length ? [`the ${readers.catalogs.join('/')} lists`] : []),
    ...readers.byInstant.map((t) => `${t.toLowerCase()} date ranges`),
  ];
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * Reads what a table has of the current layout and of the declared shape
 * (DescribeTable + DescribeTimeToLive); `readers` words its messages.
 */
export async function describeLayout(
  client: DynamoDBClient,
  tableName: string,
  readers?: Gsi2Readers,
  shape: TableShape = DEFAULT_TABLE_SHAPE,
): Promise<TableLayout> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const stream = Table?.StreamSpecification;
  const streamArn =
    stream?.StreamEnabled && stream.StreamViewType === 'NEW_AND_OLD_IMAGES' ? (Table?.LatestStreamArn ?? null) : null;
  const gsi2 = (Table?.GlobalSecondaryIndexes ?? []).some((i) => i.IndexName === GSI2);
  let ttl = false;
  try {
    const out = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    const d = out.TimeToLiveDescription;
    ttl = d?.AttributeName === TTL_ATTRIBUTE && (d.TimeToLiveStatus === 'ENABLED' || d.TimeToLiveStatus === 'ENABLING');
  } catch {
    ttl = false;
  }
  const itemsVersion = await itemsLayoutVersion(client, tableName, shape);
  const needsMigration = itemsVersion < CURRENT_LAYOUT_VERSION;
  const lacks: string[] = [];
  const indexed = gsi2ReadersInWords(readers);
  if (needsMigration) {
    lacks.push(
      `items are at layout version ${itemsVersion}, this gateway writes ${CURRENT_LAYOUT_VERSION}: run \`npm run migrate\`${indexed ? ` (until then ${indexed} show only what is indexed)` : ''}`,
    );
  }
  if (!streamArn) lacks.push('no stream with NEW_AND_OLD_IMAGES (renames and deletes fan out inside the request)');
  const wantsGsi2 = shape.indexes.some((i) => i.name === GSI2);
  if (!gsi2 && wantsGsi2) lacks.push(`no GSI2 index${indexed ? ` (${indexed} are unavailable until it is added and \`npm run migrate\` ran)` : ''}`);
  for (const index of shape.indexes) {
    if (index.name === GSI2 || (Table?.GlobalSecondaryIndexes ?? []).some((i) => i.IndexName === index.name)) continue;
    lacks.push(`no index ${index.name}, which the model declares (\`npm run migrate\` creates it; until then what reads it fails)`);
  }
  if (!ttl) lacks.push(`time to live is not enabled on ${TTL_ATTRIBUTE} (idempotency records are not removed by DynamoDB)`);
  return { streamArn, gsi2, ttl, itemsVersion, needsMigration, lacks, contradictions: tableContradictions(Table, shape) };
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
export async function ensureTable(client: DynamoDBClient, tableName: string, shape: TableShape = DEFAULT_TABLE_SHAPE): Promise<boolean> {
  let created = false;
  // The table is new (this call or a concurrent one made it): it gets time to live.
  let fresh = false;
  if (!(await tableExists(client, tableName))) {
    fresh = true;
    try {
      await client.send(new CreateTableCommand(tableDefinition(tableName, shape)));
      created = true;
    } catch (err) {
      // Another gateway instance created it between our check and our create, or the SDK retried
      // our own CreateTable after a timeout and the retry found the table the first attempt made.
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  for (let attempt = 0; attempt < 120; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) {
      // Time to live can only be set on an ACTIVE table, and is not part of CreateTable.
      if (fresh) {
        // An empty table is at the current layout: nothing for `npm run migrate` to do.
        await writeLayoutVersion(client, tableName, CURRENT_LAYOUT_VERSION, shape);
        await client
          .send(
            new UpdateTimeToLiveCommand({
              TableName: tableName,
              TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
            }),
          )
          .catch((err: { name?: string; message?: string }) => {
            // The concurrent creator enabled it first.
            if (!(err?.name === 'ValidationException' && /already enabled/i.test(err.message ?? ''))) throw err;
          });
      }
      return created;
    }
    await sleep(500);
  }
  throw new Error(`table ${tableName} did not become ACTIVE within 60 s`);
}
