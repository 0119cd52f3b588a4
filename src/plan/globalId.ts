/**
 * Global ids (Relay's Global Object Identification): one opaque string per
 * item, unique across the model's types, that `node(id:)` finds the item by.
 *
 * Format: base64url (no padding) of `<Type>#<parent id>#<id>` for a child
 * type, `<Type>#<id>` otherwise. `#` cannot occur in a type name or an id,
 * so the parts read back exactly; the parent's id is inside because a child
 * lives in its parent's partition, so the item is one GetItem away. Clients
 * treat the string as opaque: the format is documented (docs/api.md) so
 * other programs can make one, not so clients take it apart.
 *
 * Reading one back is strict: only the canonical base64url text of a known
 * type with the right number of parts passes; anything else is BAD_USER_INPUT
 * (a well-formed id of an item that does not exist is not an error: node is
 * then null).
 */
import { Buffer } from 'node:buffer';
import { badUserInput, invariant } from '../errors.js';
import type { ItemPlan } from './itemPlan.js';
import { MAX_ID_LENGTH, validateId } from './arguments.js';
import { MAX_DERIVED_ID_LENGTH } from './derivedId.js';
import type { ItemRecord } from './records.js';

const SEPARATOR = '#';
/** A type name and two ids (a derived one up to MAX_DERIVED_ID_LENGTH characters) stay under this many base64url characters. */
export const MAX_GLOBAL_ID_LENGTH = Math.ceil(((MAX_DERIVED_ID_LENGTH + 2 * MAX_ID_LENGTH + 256) * 4) / 3);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The global id of the item `ids` (parent's id first, for a child type) of `type`. */
export const formatGlobalId = (type: string, ids: readonly string[]): string => Buffer.from([type, ...ids].join(SEPARATOR), 'utf8').toString('base64url');

/** The type and ids inside a global id, or null when `value` is not one (syntax only: the type is not looked up). */
export function parseGlobalId(value: unknown): { type: string; ids: string[] } | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_GLOBAL_ID_LENGTH || !BASE64URL.test(value)) return null;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  // Node's decoder skips what it cannot read; only the canonical text of the same bytes is a global id.
  if (Buffer.from(text, 'utf8').toString('base64url') !== value) return null;
  const [type, ...ids] = text.split(SEPARATOR);
  if (!type || ids.length === 0 || ids.some((id) => id.length === 0 || id.length > MAX_DERIVED_ID_LENGTH)) return null;
  return { type, ids };
}

/** The global id of a record of `item` (a child's record holds its parent's id). */
export function globalIdOf(item: ItemPlan, record: ItemRecord): string {
  const property = item.parentIdProperty;
  if (property === null) return formatGlobalId(item.name, [record.id]);
  const parentId = record[property];
  invariant(typeof parentId === 'string', `a ${item.name} record without its parent's id`);
  return formatGlobalId(item.name, [parentId, record.id]);
}

export interface GlobalIdTarget {
  item: ItemPlan;
  id: string;
  parentId: string | undefined;
}

/**
 * The item a global id names, among `items` (the types implementing the
 * node interface); BAD_USER_INPUT naming `argumentName` when it names none.
 */
export function readGlobalId(items: ReadonlyMap<string, ItemPlan>, value: unknown, argumentName = 'id', idField = 'globalId'): GlobalIdTarget {
  const parsed = parseGlobalId(value);
  const item = parsed ? items.get(parsed.type) : undefined;
  const arity = item ? (item.parentIdProperty === null ? 1 : 2) : 0;
  if (!parsed || !item || item.type.globalId === null || parsed.ids.length !== arity) {
    throw badUserInput(`${argumentName} is not a global id of this API (pass the ${idField} of an item)`, argumentName);
  }
  const [first, second] = parsed.ids as [string, string | undefined];
  // Each id by its type's rule: at most 128 characters, or a derived id of its type.
  const parent = item.type.parent ? items.get(item.type.parent.type) : undefined;
  try {
    if (arity === 1) return { item, id: item.checkId(first, argumentName), parentId: undefined };
    if (parent) parent.checkId(first, argumentName);
    else validateId(first, argumentName);
    return { item, id: item.checkId(second!, argumentName), parentId: first };
  } catch {
    throw badUserInput(`${argumentName} is not a global id of this API (pass the ${idField} of an item)`, argumentName);
  }
}
