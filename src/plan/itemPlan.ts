/**
 * An item type's plan: how its keys are built from ids and read back, and
 * how a stored item becomes a record. Compiled once per model (plan.ts);
 * the request path calls these functions and never reads the declaration.
 *
 * Tolerant of tables written by other programs: attributes the gateway
 * maintains (counters, copies) may be missing and are left undefined.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey } from '../dynamo/keys.js';
import type { ItemType } from '../declaration/model.js';
import { invariant } from '../errors.js';
import { parentIdProperty, type ItemRecord } from './records.js';

export interface ItemPlan {
  name: string;
  type: ItemType;
  /** Stored text/number/boolean fields every item must carry, and optional ones (null when absent). */
  requiredFields: readonly string[];
  optionalFields: readonly string[];
  /** @propagating fields: false when the item lacks what sets them. */
  flags: readonly string[];
  /** The record property holding the parent's id (child types), e.g. `customerId`. */
  parentIdProperty: string | null;
  /** The key of the item with this id (and, for a child type, its parent's id). */
  key(id: string, parentId?: string): ItemKey;
  /** The ids inside a stored item's keys, or null when the item is not of this type. */
  ids(item: Item): { id: string; parentId: string | null } | null;
  /** A stored item → its (complete) record. */
  map(item: Item): ItemRecord;
  /** Counter attributes of the type's relations, kept on its items. */
  counters: readonly string[];
}

/** A rename (`propagatingSince`) or a delete (`deletingAt`) is still being carried to the copies. */
export const PROPAGATING_ATTRS = ['propagatingSince', 'deletingAt'] as const;
const propagating = (item: Item): boolean => PROPAGATING_ATTRS.some((a) => item[a] !== undefined);

/** What an extension adds to a record from the stored item (a sharded parent's layout). */
export type RecordExtension = (record: ItemRecord, item: Item) => void;

export function compileItemPlan(type: ItemType, extensions: readonly RecordExtension[] = []): ItemPlan {
  const parentField = type.parent?.field ?? null;
  const parentProperty = parentField === null ? null : parentIdProperty(parentField);
  const requiredFields = type.attributes.filter((a) => a.required).map((a) => a.name);
  const optionalFields = type.attributes.filter((a) => !a.required).map((a) => a.name);
  const counters = type.relations.flatMap((r) => (r.counter ? [r.counter] : []));
  // Attribute readers by kind: a value of another type (a foreign writer), or a text that is none of an enum's values, reads as absent.
  const readers = type.attributes.map((a) => {
    const values = a.values === undefined ? null : new Set(a.values);
    const read =
      a.kind === 'Int' || a.kind === 'Float'
        ? (v: unknown) => (typeof v === 'number' ? v : undefined)
        : a.kind === 'Boolean'
          ? (v: unknown) => (typeof v === 'boolean' ? v : undefined)
          : values !== null
            ? (v: unknown) => (typeof v === 'string' && values.has(v) ? v : undefined)
            : (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { name: a.name, read, optional: !a.required };
  });
  const values = (id: string, parentId?: string): Record<string, string> => {
    const v: Record<string, string> = { id };
    if (parentField !== null) {
      invariant(parentId !== undefined, `${type.name} ${id} needs its parent's id`);
      v[parentField] = parentId;
    }
    return v;
  };
  const ids = (item: Item) => {
    const fromPk = type.pk.match(item.PK);
    const fromSk = fromPk && type.sk.match(item.SK);
    if (!fromPk || !fromSk) return null;
    const all = { ...fromPk, ...fromSk };
    if (all.id === undefined) return null;
    return { id: all.id, parentId: parentField === null ? null : (all[parentField] ?? null) };
  };
  return {
    name: type.name,
    type,
    requiredFields,
    optionalFields,
    flags: type.flags,
    parentIdProperty: parentProperty,
    counters,
    key: (id, parentId) => {
      const v = values(id, parentId);
      return { PK: type.pk.fill(v), SK: type.sk.fill(v) };
    },
    ids,
    map: (item) => {
      const found = ids(item);
      invariant(found !== null, `expected a ${type.name} item, got ${JSON.stringify({ PK: item.PK, SK: item.SK })}`);
      const record: ItemRecord = { id: found.id, complete: true };
      if (parentProperty !== null) record[parentProperty] = found.parentId;
      for (const { name, read, optional } of readers) {
        const value = read(item[name]);
        record[name] = value === undefined && optional ? null : value;
      }
      for (const counter of counters) record[counter] = typeof item[counter] === 'number' ? item[counter] : undefined;
      if (type.flags.length > 0) {
        const on = propagating(item);
        for (const flag of type.flags) record[flag] = on;
      }
      for (const extend of extensions) extend(record, item);
      return record;
    },
  };
}
