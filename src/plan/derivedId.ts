/**
 * Derived ids: the id of an item whose key templates name no `{id}`
 * (`pk: "ACC#{account}"`, `sk: "REC#{processedAt}#SKU#{sku}"`), made from
 * the values its key holds, so the id alone finds the item with one GetItem.
 *
 * Format: base64url (no padding) of the key's placeholder values, in the
 * order they first appear in pk then sk, joined by `#` (`123#2026-03-02T10:00:00.000Z#999`
 * → `MTIzIzIwMjYtMDMtMDJUMTA6MDA6MDAuMDAwWiM5OTk`). A value in a key never
 * holds `#` (keyText refuses it, ids never contain one), so the parts read
 * back exactly. A DateTime value is the key's text (three fraction digits),
 * so the id of an item is the same whether read from the table or built
 * from arguments. base64url has no `#`: the id may stand in another key.
 *
 * Reading one back is strict: the canonical base64url text of as many
 * non-empty values as the type's key holds, else null (the caller says
 * BAD_USER_INPUT).
 */
import { Buffer } from 'node:buffer';

const SEPARATOR = '#';
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/**
 * The longest derived id: the base64url of the 3,072 bytes DynamoDB's two
 * keys hold at most (a partition key of 2,048 bytes, a sort key of 1,024),
 * so every item a table can hold has an id within it. The 128-character
 * limit of ids applies to the ids callers give (`{id}`); a derived id is
 * made from the key, and may be longer.
 */
export const MAX_DERIVED_ID_LENGTH = 4096;

/** The id of the item whose key holds `values` (in the type's placeholder order). */
export const formatDerivedId = (values: readonly string[]): string => Buffer.from(values.join(SEPARATOR), 'utf8').toString('base64url');

/** The key values inside a derived id of a type whose key holds `count` placeholders, or null when `value` is not one. */
export function parseDerivedId(value: unknown, count: number): string[] | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_DERIVED_ID_LENGTH || !BASE64URL.test(value)) return null;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  // Node's decoder skips what it cannot read; only the canonical text of the same bytes is an id.
  if (Buffer.from(text, 'utf8').toString('base64url') !== value) return null;
  const values = text.split(SEPARATOR);
  return values.length === count && values.every((v) => v.length > 0) ? values : null;
}
