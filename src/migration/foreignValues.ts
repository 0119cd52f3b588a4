/**
 * What other programs may write that the declaration does not allow, as
 * `npm run check` reads it (docs/operations.md, "Checking a table"):
 * - numbers of any size: DynamoDB holds 38 digits; a JavaScript number
 *   holds integers exactly up to 2^53. The check's client reads every
 *   number it cannot hold exactly as a NumberValue (its digits), so no
 *   item stops the Scan (`numberSafeDoc`), and findings print such values
 *   as their digits (`jsonText`, `jsonSafe`): none is ever lost or crashes
 *   the report;
 * - values that are not what their field's type says (`badValuesOf`): a
 *   DateTime that is no time, in the key or an attribute; an Int that is
 *   no integer a JavaScript number holds; a copied field's version that
 *   is no non-negative integer;
 * - keys holding the separator (`separatorIn`): ids and key values never
 *   hold `#`, so an item whose keys would be of a type but for a `#` inside
 *   a value is no item of it: the gateway's lists and lookups read past it.
 * Counters are compared with counts elsewhere (check.ts): a counter that is
 * no count, of any size, is a wrong counter.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import type { KeyTemplate } from '../declaration/template.js';
import type { Item } from '../dynamo/batchGet.js';
import type { TableKeys } from '../dynamo/keys.js';
import { isDateTimeText } from '../plan/dateTime.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import type { Plan } from '../plan/plan.js';
import { edgeReadOf } from '../plan/relationPlan.js';
import { writePlanOf } from '../writes/writePlan.js';

/** A number as the check reads it: a JavaScript number when it holds the value exactly, else its digits. */
export function readNumber(text: string): number | NumberValue {
  const n = Number(text);
  // A fraction reads as the gateway reads it (a double); an integer only while it is exact.
  const exact = Number.isInteger(n) ? Number.isSafeInteger(n) : Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
  return exact ? n : NumberValue.from(text);
}

/** A document client over `raw` that reads any number (readNumber), writes NumberValues back as they were read. */
export const numberSafeDoc = (raw: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true }, unmarshallOptions: { wrapNumbers: readNumber } });

/** Is `v` a number no JavaScript number holds exactly (a BigInt, as the default client reads one, or a NumberValue)? */
export const isWideNumber = (v: unknown): v is bigint | NumberValue => typeof v === 'bigint' || v instanceof NumberValue;

/** `value` with every wide number as its digits (a string), so it serializes as JSON. */
export function jsonSafe(value: unknown): unknown {
  if (isWideNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value instanceof Set) return [...value].map(jsonSafe);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}

/** A value as a finding's detail shows it: JSON, a wide number as its digits. */
export const jsonText = (value: unknown): string => (isWideNumber(value) ? value.toString() : (JSON.stringify(jsonSafe(value)) ?? String(value)));

/** Is `v` a non-negative integer a JavaScript number holds (a count, a version)? */
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The values the item's key holds, by placeholder (null when the key does not match). */
function keyValues(type: ItemPlan, item: Item, keys: TableKeys): Record<string, string> {
  return { ...type.type.pk.match(item[keys.pk]), ...type.type.sk.match(item[keys.sk]) };
}

/** What is wrong with one value of a field of `kind`; null when nothing. */
function badValue(kind: string, value: unknown, inKey: boolean): string | null {
  if (kind === 'DateTime') return typeof value === 'string' && !isDateTimeText(value) ? 'not an ISO-8601 time' : null;
  if (kind === 'Int') {
    if (inKey) return typeof value === 'string' && !/^-?\d+$/.test(value) ? 'not an integer' : null;
    if (isWideNumber(value)) return 'beyond the integers a JavaScript number holds exactly (±2^53)';
    return typeof value === 'number' && !Number.isInteger(value) ? 'not an integer' : null;
  }
  if (kind === 'Float' && isWideNumber(value)) return 'more digits than a JavaScript number holds';
  return null;
}

/**
 * The values of an item of `type` that are not what their fields' types
 * say, one line each; `fields` receives the names of the fields concerned
 * (so that a missing-attribute finding does not count them again).
 */
export function badValuesOf(type: ItemPlan, item: Item, keys: TableKeys, copiedFields: readonly string[]): { lines: string[]; fields: Set<string> } {
  const lines: string[] = [];
  const fields = new Set<string>();
  const fromKey = type.type.keyFields.length > 0 ? keyValues(type, item, keys) : {};
  for (const a of type.type.attributes) {
    if (a.shape) continue;
    const stored = item[a.storedAs];
    const inKey = stored === undefined && fromKey[a.name] !== undefined;
    const value = inKey ? fromKey[a.name] : stored;
    const why = badValue(a.kind, value, inKey);
    if (why === null) continue;
    fields.add(a.name);
    lines.push(`${a.name}${inKey ? ' (in the key)' : ''} is ${jsonText(value)}: ${why}`);
  }
  for (const field of copiedFields) {
    const attr = `${field}Version`;
    const v = item[attr];
    if (v !== undefined && !isCount(v)) lines.push(`${attr} is ${jsonText(v)}: a version is a non-negative integer`);
  }
  return { lines, fields };
}

/**
 * A template matched loosely: each placeholder takes any non-empty text,
 * `#` included (the last one the rest of the value). Null when even so
 * the value does not fit.
 */
function looseMatch(template: KeyTemplate, value: unknown): Record<string, string> | null {
  if (typeof value !== 'string') return null;
  const pattern = template.parts
    .map((p, i) => ('literal' in p ? p.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : i === template.parts.length - 1 ? '(.+)' : '(.+?)'))
    .join('');
  const m = new RegExp(`^${pattern}$`, 's').exec(value);
  if (m === null) return null;
  return Object.fromEntries(template.placeholders.map((name, i) => [name, m[i + 1]!]));
}

/** Both keys fit loosely and some value holds `#`: the placeholders that do, or null. */
function withSeparator(pk: KeyTemplate, sk: KeyTemplate, item: Item, keys: TableKeys): string[] | null {
  const a = looseMatch(pk, item[keys.pk]);
  const b = a && looseMatch(sk, item[keys.sk]);
  if (!a || !b) return null;
  const held = Object.entries({ ...a, ...b }).filter(([, v]) => v.includes('#'));
  return held.length > 0 ? held.map(([name, v]) => `{${name}} "${v}"`) : null;
}

/**
 * For an item that matches no type or edge: the type (or edge) whose keys
 * it would have but for a `#` inside a value, and those values; null when
 * there is none.
 */
export function compileSeparatorCheck(plan: Plan): (item: Item) => string | null {
  const keys = plan.keys;
  const candidates: { what: string; pk: KeyTemplate; sk: KeyTemplate }[] = [
    ...[...plan.items.values()].map((t) => ({ what: t.name, pk: t.type.pk, sk: t.type.sk })),
    ...writePlanOf(plan).pairs.flatMap((pair) => {
      const relation = pair.base.relation;
      if (relation.kind !== 'edges') return [];
      const { key } = edgeReadOf(relation, plan.model, keys);
      return [{ what: `edge ${pair.base.path}`, pk: key.pk, sk: key.sk }];
    }),
  ];
  return (item) => {
    for (const c of candidates) {
      const held = withSeparator(c.pk, c.sk, item, keys);
      if (held) return `${c.what} but for '#' in ${held.join(', ')}: ids and key values never hold '#', so lists and lookups read past it`;
    }
    return null;
  };
}
