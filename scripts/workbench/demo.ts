/**
 * The sample items of an export as a demo data file (src/transport/demoData.ts):
 * DynamoDB JSON (`{"PK": {"S": "USER#1"}}`) → plain values (`{"PK": "USER#1"}`).
 *
 * Exports are hand-edited and not always well-formed DynamoDB JSON (a map
 * whose entries are plain JSON, `{"M": {"is_enabled": true}}`): a value that
 * is not an attribute value is kept as it is rather than refused, so every
 * sample reaches the table. Sets become lists (JSON has no sets).
 */
import type { AttributeValue, RawItem, WorkbenchTable } from './read.js';

const TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/** The attribute value's type (`S`, `N`, `M`, …), or null when it is not a typed attribute value. */
export function typeOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  return keys.length === 1 && TYPES.has(keys[0]!) ? keys[0]! : null;
}

export function plainValue(value: unknown): unknown {
  const type = typeOf(value);
  if (type === null) {
    if (Array.isArray(value)) return value.map(plainValue);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
    return value;
  }
  const inner = (value as AttributeValue)[type];
  switch (type) {
    case 'N':
      return Number(inner);
    case 'NS':
      return Array.isArray(inner) ? inner.map(Number) : inner;
    case 'NULL':
      return null;
    case 'M':
      return plainValue(inner);
    case 'L':
      return Array.isArray(inner) ? inner.map(plainValue) : inner;
    default:
      return inner;
  }
}

export const plainItem = (item: RawItem): Record<string, unknown> => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, plainValue(v)]));

/** Every sample of the table (its own TableData, then each facet's), as plain items. */
export const samplesOf = (table: WorkbenchTable): RawItem[] => [...table.items, ...table.facets.flatMap((f) => f.items)];

/** The demo data of a table, without the samples the draft leaves out. */
export function demoData(table: WorkbenchTable, excluded: ReadonlySet<RawItem> = new Set()): { about: string; items: Record<string, unknown>[] } {
  return {
    about: `Sample items of the NoSQL Workbench model "${table.modelName}" (table ${table.tableName}), converted from DynamoDB JSON by npm run import.`,
    items: samplesOf(table)
      .filter((i) => !excluded.has(i))
      .map(plainItem),
  };
}
