/**
 * Demo data: the small data set `npm start` loads into the embedded
 * DynamoDB Local, kept next to the model file it belongs to
 * (`schema.graphql` → `schema.demo.json`, `examples/crm.graphql` →
 * `examples/crm.demo.json`).
 *
 * In:  the model file served. Out: the items written (0 when the model has
 * no demo file). The file holds raw items in the table layout, counters,
 * copies and index keys written out: `{ "about": "...", "items": [ ... ] }`.
 * A malformed file stops start-up with its name and what is wrong.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '../dynamo/batchWrite.js';
import type { Item } from '../dynamo/batchGet.js';
import type { TableKeyNames } from '../dynamo/keys.js';

/** The demo file of a model file: the same path with `.demo.json` for its `.graphql` (or appended). */
export const demoFileOf = (schemaFile: string): string => `${schemaFile.replace(/\.graphql$/, '')}.demo.json`;

/** The demo items of a model file, or null when it has none. */
export function demoItemsOf(schemaFile: string, keys: TableKeyNames = { pk: 'PK', sk: 'SK' }): Item[] | null {
  const file = demoFileOf(schemaFile);
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`demo data ${file}: not valid JSON (${(error as Error).message})`);
  }
  const items = (parsed as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) throw new Error(`demo data ${file}: expected an object with an "items" array`);
  items.forEach((item, i) => {
    if (typeof item?.[keys.pk] !== 'string' || typeof item?.[keys.sk] !== 'string') {
      throw new Error(`demo data ${file}: item ${i} has no string ${keys.pk} and ${keys.sk}`);
    }
  });
  return items as Item[];
}

export async function loadDemoData(doc: DynamoDBDocumentClient, tableName: string, schemaFile: string, keys?: TableKeyNames): Promise<number> {
  const items = demoItemsOf(schemaFile, keys);
  if (items === null) return 0;
  await batchPut(doc, tableName, items);
  return items.length;
}
