/**
 * The seven AWS designs' NoSQL Workbench exports kept in examples/aws/, and
 * what a test needs to ask a draft for its samples: each sample's ids read
 * back from its keys with the draft's own templates.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTemplate } from '../../src/declaration/template.js';
import { formatDerivedId } from '../../src/plan/derivedId.js';
import type { DraftType } from '../../scripts/workbench/infer.js';

/** [design folder, export file] as published (two exports are named unlike their folders). */
export const DESIGNS: readonly (readonly [string, string])[] = [
  ['ChatSystem', 'ChatSystemSchema.json'],
  ['ComplainManagement', 'ComplaintManagementSchema.json'],
  ['ConnectedVehicles', 'ConnectedVehiclesSchema.json'],
  ['GamingPlayerProfiles', 'GamePlayerProfilesSchema.json'],
  ['RecurringPayments', 'RecurringPaymentsSchema.json'],
  ['SessionManagement', 'SessionManagementSchema.json'],
  ['SocialNetwork', 'SocialNetworkSchema.json'],
];

export const exportPath = (design: string, file: string): string => fileURLToPath(new URL(`../../examples/aws/${design}/${file}`, import.meta.url));
export const readExport = (design: string, file: string): string => readFileSync(exportPath(design, file), 'utf8');

/** A one-table export without facets (table `shop`, keys PK/SK) holding `tableData`; `extra` adds to its table. */
export const smallExport = (tableData: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    ModelName: 'Shop',
    DataModel: [
      {
        TableName: 'shop',
        KeyAttributes: { PartitionKey: { AttributeName: 'PK', AttributeType: 'S' }, SortKey: { AttributeName: 'SK', AttributeType: 'S' } },
        NonKeyAttributes: [
          { AttributeName: 'name', AttributeType: 'S' },
          { AttributeName: 'total', AttributeType: 'N' },
          { AttributeName: 'big', AttributeType: 'N' },
          { AttributeName: 'tags', AttributeType: 'L' },
          { AttributeName: 'item-count', AttributeType: 'N' },
        ],
        TableData: tableData,
        ...extra,
      },
    ],
  });

/** Receipts keyed by a stored DateTime and a SKU under an account (no sample is the account): `ACC#<acc>` / `REC#<date>#SKU#<sku>`. */
export const RECEIPT_SAMPLES = [
  { PK: { S: 'ACC#a1' }, SK: { S: 'REC#2023-05-28T14:15:39.247Z#SKU#999' }, SKU: { S: '999' }, name: { S: 'r1' } },
  { PK: { S: 'ACC#a1' }, SK: { S: 'REC#2023-06-28T14:15:39.247Z#SKU#555' }, SKU: { S: '555' } },
  { PK: { S: 'ACC#a2' }, SK: { S: 'REC#2023-06-28T10:00:00.000Z#SKU#999' }, SKU: { S: '999' } },
];

/** Members keyed under an organisation's team, two values in the PK: `ORG#<org>#TEAM#<team>` / `MEMBER#<member>`. */
export const TEAM_SAMPLES = [
  { PK: { S: 'ORG#o1#TEAM#t1' }, SK: { S: 'MEMBER#m1' }, name: { S: 'Ada' } },
  { PK: { S: 'ORG#o1#TEAM#t1' }, SK: { S: 'MEMBER#m2' } },
  { PK: { S: 'ORG#o1#TEAM#t2' }, SK: { S: 'MEMBER#m1' } },
];

/** A sample's placeholder values under a type's templates (id, the parent field), or null when its keys do not match. */
export function keyValues(type: Pick<DraftType, 'pk' | 'sk'>, sample: Record<string, unknown>): Record<string, string> | null {
  const pk = parseTemplate(type.pk).match(sample.PK);
  const sk = parseTemplate(type.sk).match(sample.SK);
  return pk && sk ? { ...pk, ...sk } : null;
}

/** A sample's id: its key's {id}, or for a type keyed without one the id derived from every value of its keys (pk then sk). */
export function idOf(type: Pick<DraftType, 'pk' | 'sk' | 'derivedId'>, sample: Record<string, unknown>): string {
  const values = keyValues(type, sample);
  if (!values) throw new Error(`sample ${String(sample.PK)} / ${String(sample.SK)} does not match ${type.pk} / ${type.sk}`);
  if (!type.derivedId) return values.id!;
  const order = [...new Set([...parseTemplate(type.pk).placeholders, ...parseTemplate(type.sk).placeholders])];
  return formatDerivedId(order.map((p) => values[p]!));
}

/** The @get arguments of a sample of a type: its id, and unless the id is derived, its parent's id and its key fields. */
export function getArguments(type: DraftType, sample: Record<string, unknown>): Record<string, string> {
  const values = keyValues(type, sample);
  if (!values) throw new Error(`${type.name}: sample ${String(sample.PK)} / ${String(sample.SK)} does not match ${type.pk} / ${type.sk}`);
  if (type.derivedId) return { id: idOf(type, sample) };
  const keyFields = Object.fromEntries(type.keyFields.map((k) => [k, values[k]!]));
  return { id: values.id!, ...(type.parent ? { [`${type.parent.field}Id`]: values[type.parent.field]! } : {}), ...keyFields };
}

/** The fields of a type stored under their own name (what the gateway reads today). */
export const readableFields = (type: DraftType) => type.fields.filter((f) => f.name === f.attribute);

/**
 * An export of `n` samples (table `big`, keys PK/SK, GSI1 on GSI1PK/GSI1SK): users `USER#<slug>` / `PROFILE` in a
 * city's GSI1 partition, each followed by up to three orders `USER#<slug>` / `ORDER#<slug>-<k>`. Slug ids: letters only.
 */
export function bigExport(n: number): string {
  const letters = (i: number) => Array.from({ length: 4 }, (_, k) => String.fromCharCode(97 + (Math.floor(i / 26 ** k) % 26))).join('');
  const items: Record<string, unknown>[] = [];
  for (let i = 0; items.length < n; i++) {
    const user = `user-${letters(i)}`;
    items.push({
      PK: { S: `USER#${user}` },
      SK: { S: 'PROFILE' },
      name: { S: `User ${i}` },
      city: { S: `city-${letters(i % 50)}` },
      GSI1PK: { S: `CITY#city-${letters(i % 50)}` },
      GSI1SK: { S: `USER#${user}` },
    });
    for (let k = 0; k < 3 && items.length < n; k++)
      items.push({ PK: { S: `USER#${user}` }, SK: { S: `ORDER#${letters(i)}-${letters(k)}` }, total: { N: String(k * 1.5) } });
  }
  return JSON.stringify({
    ModelName: 'Big',
    DataModel: [
      {
        TableName: 'big',
        KeyAttributes: { PartitionKey: { AttributeName: 'PK', AttributeType: 'S' }, SortKey: { AttributeName: 'SK', AttributeType: 'S' } },
        NonKeyAttributes: ['name', 'city', 'GSI1PK', 'GSI1SK', 'total'].map((a) => ({ AttributeName: a, AttributeType: a === 'total' ? 'N' : 'S' })),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeyAttributes: { PartitionKey: { AttributeName: 'GSI1PK', AttributeType: 'S' }, SortKey: { AttributeName: 'GSI1SK', AttributeType: 'S' } },
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        TableData: items,
      },
    ],
  });
}
