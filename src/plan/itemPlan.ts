/**
 * An item type's plan: how its keys are built from ids and read back, and
 * how a stored item becomes a record. Compiled once per model (plan.ts);
 * the request path calls these functions and never reads the declaration.
 *
 * Tolerant of tables written by other programs: attributes the gateway
 * maintains (counters, copies) may be missing and are left undefined.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey, TableKeys } from '../dynamo/keys.js';
import type { Attribute, ItemType } from '../declaration/model.js';
import { Buffer } from 'node:buffer';
import { badUserInput, invariant } from '../errors.js';
import { validateId } from './arguments.js';
import { formatDerivedId, parseDerivedId } from './derivedId.js';
import { kindTest, parentIdProperty, propertyLiteral, valueDecoder, type ItemRecord } from './records.js';

export interface ItemPlan {
  name: string;
  type: ItemType;
  /** Stored text/number/boolean fields every item must carry, and optional ones (null when absent). */
  requiredFields: readonly string[];
  optionalFields: readonly string[];
  /** @propagating fields: false when the item lacks what sets them. */
  flags: readonly string[];
  /** The record property holding the parent's id (child types), e.g. `userId`. */
  parentIdProperty: string | null;
  /**
   * The key of the item with this id (and, for a child type, its parent's
   * id, and for a type whose key holds fields, their values as stored or as
   * arguments give them; keyText writes them).
   */
  key(id: string, parentId?: string, fields?: Readonly<Record<string, unknown>>): ItemKey;
  /** The ids inside a stored item's keys, or null when the item is not of this type. */
  ids(item: Item): { id: string; parentId: string | null } | null;
  /** A stored item → its (complete) record. */
  map(item: Item): ItemRecord;
  /** Counter attributes of the type's relations, kept on its items. */
  counters: readonly string[];
  /** For a type whose keys name no `{id}`: its id made from its key's values, and back; null for other types. */
  derived: DerivedIds | null;
  /**
   * `value` when it can be an id of this type, BAD_USER_INPUT naming
   * `argument` otherwise: a derived id by its own rule (the canonical
   * text of the key's values, up to MAX_DERIVED_ID_LENGTH characters),
   * any other by the id rules (at most 128 characters, no `#`).
   */
  checkId(value: unknown, argument?: string): string;
}

/**
 * A value a cased key holds, read back: the attribute the create stored it
 * under where the key holds it in its case, else as the key holds it (a
 * lower-cased id still finds the item: its key is written in that case
 * whatever case an id is given in). By placeholder: `id`, the parent
 * field, or a key field.
 */
function storedValues(type: ItemType): (item: Item, placeholder: string, inKey: string) => string {
  const cased = type.pk.cased;
  const attributes = new Map<string, string>(type.attributes.map((a) => [a.name, a.storedAs]));
  if (type.idStoredAs !== null) attributes.set('id', type.idStoredAs);
  if (type.parent && type.parentStoredAs !== null) attributes.set(type.parent.field, type.parentStoredAs);
  return (item, placeholder, inKey) => {
    const attribute = attributes.get(placeholder);
    const value = attribute === undefined ? undefined : item[attribute];
    const text = typeof value === 'number' ? String(value) : value;
    return typeof text === 'string' && cased(text) === inKey ? text : inKey;
  };
}

/** idOf/parentOf of a type whose table keys are cased and hold {id}: the ids from their attributes (storedValues). */
function storedIdReaders(type: ItemType, readers: { idOf(item: Item): string | null | undefined; parentOf(item: Item): string | null }) {
  const stored = storedValues(type);
  const parentField = type.parent?.field ?? null;
  return {
    idOf(item: Item): string | null | undefined {
      const inKey = readers.idOf(item);
      return inKey === undefined || inKey === null ? inKey : stored(item, 'id', inKey);
    },
    parentOf(item: Item): string | null {
      const inKey = readers.parentOf(item);
      return inKey === null || parentField === null ? inKey : stored(item, parentField, inKey);
    },
  };
}

/** A derived id (plan/derivedId.ts) of one type, made and read. */
export interface DerivedIds {
  /**
   * The id of the item whose key holds `values` (by placeholder: the
   * parent's id, key fields as arguments or inputs give them, written as
   * keyText writes them). `names` names the argument of each placeholder
   * for BAD_USER_INPUT.
   */
  id(values: Readonly<Record<string, unknown>>, names?: Readonly<Record<string, string>>): string;
  /** The key's values inside `id`, by placeholder; BAD_USER_INPUT naming `argument` when it is no id of this type. */
  values(id: unknown, argument?: string): Record<string, string>;
}

/**
 * A key field's value as the key holds it: a DateTime as ISO-8601 UTC with
 * three fraction digits (`2026-03-02T10:00:00.000Z`), so keys sort by time
 * whatever precision was given; an Int in decimal (partition keys only: the
 * model check keeps it out of sort keys), a sequence's zero-padded to its
 * digits (`000042`: in any key); text as it is, without `#`, which
 * ends a value in a key. `what` names the input or argument for the error.
 */
export function keyText(a: Pick<Attribute, 'kind' | 'sequence'>, value: unknown, what: string): string {
  if (a.kind === 'DateTime' && typeof value === 'string') {
    const time = Date.parse(value);
    if (Number.isNaN(time)) throw badUserInput(`${what} must be an ISO-8601 UTC time`, what);
    return new Date(time).toISOString();
  }
  // A sequence's number zero-padded to its digits, so the text sorts as the numbers do.
  if (a.kind === 'Int' && typeof value === 'number' && Number.isInteger(value))
    return a.sequence && value >= 0 ? String(value).padStart(a.sequence.pad, '0') : String(value);
  if (typeof value !== 'string' || value.length === 0) throw badUserInput(`${what} is part of the key: give it`, what);
  if (value.includes('#')) throw badUserInput(`${what} may not contain '#': it is part of the key`, what);
  return value;
}

/** The values of the fields an item's key holds (`sentAt`), from the arguments naming them; undefined for a type keyed by id alone. */
export function keyFieldValues(keyArguments: Record<string, string>, args: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(keyArguments);
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([field, argument]) => [field, args[argument]]));
}

/** A rename (`propagatingSince`) or a delete (`deletingAt`) is still being carried to the copies. */
export const PROPAGATING_ATTRS = ['propagatingSince', 'deletingAt'] as const;

/** What an extension adds to a record from the stored item (a sharded parent's layout). */
export type RecordExtension = (record: ItemRecord, item: Item) => void;

export function compileItemPlan(type: ItemType, keys: TableKeys, extensions: readonly RecordExtension[] = []): ItemPlan {
  const parentField = type.parent?.field ?? null;
  const parentProperty = parentField === null ? null : parentIdProperty(parentField);
  const requiredFields = type.attributes.filter((a) => a.required).map((a) => a.name);
  const optionalFields = type.attributes.filter((a) => !a.required).map((a) => a.name);
  const counters = type.relations.flatMap((r) => (r.counter ? [r.counter] : []));
  const keyFields = type.keyFields.map((f) => type.attributes.find((a) => a.name === f)!);
  const values = (id: string, parentId?: string, fields?: Readonly<Record<string, unknown>>): Record<string, string> => {
    const v: Record<string, string> = { id };
    if (parentField !== null) {
      // A key holding the parent's key values may be given them instead of the parent's id.
      invariant(parentId !== undefined || type.parent!.keys, `${type.name} ${id} needs its parent's id`);
      if (parentId !== undefined) v[parentField] = parentId;
    }
    const fromParent = parentId !== undefined ? parentKeyValues(type, parentId) : {};
    for (const a of keyFields) v[a.name] = fromParent[a.name] ?? keyText(a, fields?.[a.name], a.name);
    return v;
  };
  // A cased key cannot give back the values it holds: they are read from the attributes the create stored them under.
  const cased = type.pk.casing !== 'NONE';
  const readers =
    type.derivedId !== null
      ? derivedKeyReaders(type, keys, parentField, cased ? storedValues(type) : null)
      : cased
        ? storedIdReaders(type, compileKeyReaders(type, keys, parentField))
        : compileKeyReaders(type, keys, parentField);
  const { idOf } = readers;
  const parentOf = type.parent?.keys ? parentFromKeyValues(type, keys, type.parent.keys, cased ? storedValues(type) : null) : readers.parentOf;
  const excludes = type.skExcludes ?? [];
  const foreign = (sk: unknown) => typeof sk === 'string' && excludes.some((p) => sk.startsWith(p));
  const ids = (item: Item) => {
    if (excludes.length > 0 && foreign(item[keys.sk])) return null;
    const id = idOf(item);
    if (id === undefined || id === null) return null;
    return { id, parentId: parentOf(item) };
  };
  const derived = type.derivedId === null ? null : derivedIds(type, keyFields);
  const built =
    (derived &&
      ((id: string) => {
        const v = derived.values(id);
        return { PK: type.pk.fill(v), SK: type.sk.fill(v) };
      })) ??
    (type.pk.casing === 'NONE' ? compileKey(type, parentField) : null) ??
    ((id: string, parentId?: string, fields?: Readonly<Record<string, unknown>>) => {
      const v = values(id, parentId, fields);
      return { PK: type.pk.fill(v), SK: type.sk.fill(v) };
    });
  // A bare sort key may not take the prefix of another type in its partition: that item would be read as the other's.
  const key: ItemPlan['key'] =
    excludes.length === 0
      ? built
      : (id, parentId, fields) => {
          const k = built(id, parentId, fields);
          if (foreign(k.SK))
            throw badUserInput(
              `${type.name} id ${id} may not begin with ${excludes.map((p) => `"${p}"`).join(' or ')}: the keys of other items in its partition do`,
              'id',
            );
          return k;
        };
  const notOfType = (item: Item) => invariant(false, `expected a ${type.name} item, got ${JSON.stringify(keys.keyOf(item))}`);
  return {
    name: type.name,
    type,
    requiredFields,
    optionalFields,
    flags: type.flags,
    parentIdProperty: parentProperty,
    counters,
    derived,
    checkId: derived
      ? (value, argument = 'id') => (derived.values(value, argument), value as string)
      : (value, argument = 'id') => validateId(value as string, argument),
    key,
    ids,
    // A cased key cannot give back a field it holds: such a field is read from its attribute alone.
    map: compileMap(
      type,
      parentProperty,
      counters,
      idOf,
      parentOf,
      notOfType,
      extensions,
      type.pk.casing === 'NONE' ? keyFieldReader(type, keys) : () => undefined,
    ),
  };
}

/**
 * The ids in a stored item's keys, read from the table's key attributes by
 * their declared names, compiled in as literal properties (as the default
 * `item.PK` was): idOf is the id (both keys must match; a placeholder in the
 * sort key wins over the same one in the partition key), parentOf the
 * parent's id of a child type.
 */
function compileKeyReaders(type: ItemType, keys: TableKeys, parentField: string | null) {
  const pk = `item[${JSON.stringify(keys.pk)}]`;
  const sk = `item[${JSON.stringify(keys.sk)}]`;
  const body = [
    'return {',
    '  idOf(item) {',
    `    const inPk = pkTemplate.valueOf(${pk}, "id");`,
    '    if (inPk === undefined) return undefined;',
    `    const inSk = skTemplate.valueOf(${sk}, "id");`,
    '    if (inSk === undefined) return undefined;',
    '    return inSk ?? inPk;',
    '  },',
    '  parentOf(item) {',
    parentField === null ? '    return null;' : `    return skTemplate.valueOf(${sk}, parentField) ?? pkTemplate.valueOf(${pk}, parentField) ?? null;`,
    '  },',
    '};',
  ].join('\n');
  const make = new Function('pkTemplate', 'skTemplate', 'parentField', body) as (
    pkTemplate: ItemType['pk'],
    skTemplate: ItemType['sk'],
    parentField: string | null,
  ) => { idOf(item: Item): string | null | undefined; parentOf(item: Item): string | null };
  return make(type.pk, type.sk, parentField);
}

/** A derived id made from a key's values and read back (plan/derivedId.ts). */
function derivedIds(type: ItemType, keyFields: readonly Attribute[]): DerivedIds {
  const order = type.derivedId!;
  const parentField = type.parent?.field ?? null;
  const fields = new Map(keyFields.map((a) => [a.name, a]));
  const parentKeys = type.parent?.keys ?? null;
  return {
    id(given, names = {}) {
      // The parent's id given for the parent's key values the key holds (ItemType.parent.keys).
      const values =
        parentKeys && parentField !== null && given[parentField] !== undefined ? fromParentId(type, given, names[parentField] ?? parentField) : given;
      const texts = order.map((p) => {
        const what = names[p] ?? p;
        const a = fields.get(p);
        if (a) return keyText(a, values[p], what);
        invariant(p === parentField, `${type.name}: placeholder {${p}} is neither a key field nor the parent`);
        if (typeof values[p] !== 'string') throw badUserInput(`${what} is part of the key: give it`, what);
        return validateId(values[p] as string, what);
      });
      checkKeyBytes(type, Object.fromEntries(order.map((p, i) => [p, texts[i]!])), (p) => names[p] ?? p);
      return formatDerivedId(texts);
    },
    values(id, argument = 'id') {
      const parts = parseDerivedId(id, order.length);
      if (parts === null) throw badUserInput(`${argument} is not an id of ${type.name} (an id read from one of its items)`, argument);
      const values = Object.fromEntries(order.map((p, i) => [p, parts[i]!]));
      checkKeyBytes(type, values, () => argument);
      return values;
    },
  };
}

/** DynamoDB's largest partition and sort key values, in UTF-8 bytes. */
export const KEY_BYTES = { pk: 2048, sk: 1024 } as const;

/**
 * BAD_USER_INPUT, before any request, when `values` make a key of `type`
 * longer than DynamoDB holds (no item can have it): naming the argument of
 * the longest value in that key (`argumentOf`), not an error of the table.
 */
function checkKeyBytes(type: ItemType, values: Readonly<Record<string, string>>, argumentOf: (placeholder: string) => string): void {
  for (const [side, template] of [
    ['pk', type.pk],
    ['sk', type.sk],
  ] as const) {
    const bytes = Buffer.byteLength(template.fill(values), 'utf8');
    if (bytes <= KEY_BYTES[side]) continue;
    const longest = [...template.placeholders].sort((a, b) => Buffer.byteLength(values[b]!, 'utf8') - Buffer.byteLength(values[a]!, 'utf8'))[0]!;
    const what = argumentOf(longest);
    throw badUserInput(
      `${what} makes ${type.name}'s ${side === 'pk' ? 'partition' : 'sort'} key ${bytes} bytes long, above DynamoDB's ${KEY_BYTES[side]}: no ${type.name} has it`,
      what,
    );
  }
}

/**
 * A child's fields holding its parent's key values (ItemType.parent.keys),
 * read from the parent's derived id; none for a child whose key holds the
 * parent's id. BAD_USER_INPUT naming `argument` when it is no id of the parent.
 */
export function parentKeyValues(type: ItemType, parentId: string, argument = type.parent?.field ?? 'parent'): Record<string, string> {
  if (!type.parent?.keys) return {};
  return fromParentId(type, { [type.parent.field]: parentId }, argument) as Record<string, string>;
}

/** `values` with the parent's key values read from the parent's id it holds; BAD_USER_INPUT naming `argument` when that is no id of the parent. */
function fromParentId(type: ItemType, values: Readonly<Record<string, unknown>>, argument: string): Record<string, unknown> {
  const keys = type.parent!.keys!;
  const parts = parseDerivedId(values[type.parent!.field], keys.length);
  if (parts === null) throw badUserInput(`${argument} is not an id of ${type.parent!.type} (an id read from one of its items)`, argument);
  return { ...values, ...Object.fromEntries(keys.map((k, i) => [k, parts[i]!])) };
}

/** The parent's id among a child's key values (by field): the parent field's, or the id the parent's key values make (ItemType.parent.keys). */
export function parentIdOf(type: ItemType, values: Readonly<Record<string, string>>): string | undefined {
  const parent = type.parent;
  if (!parent) return undefined;
  return parent.keys ? formatDerivedId(parent.keys.map((k) => values[k]!)) : values[parent.field];
}

/** parentOf of a child whose key holds its parent's key values: the parent's derived id made from them, as the parent's own keys give it. */
function parentFromKeyValues(
  type: ItemType,
  keys: TableKeys,
  parentKeys: readonly string[],
  stored: ((item: Item, placeholder: string, inKey: string) => string) | null,
): (item: Item) => string | null {
  return (item) => {
    const inPk = type.pk.match(item[keys.pk]);
    if (!inPk || parentKeys.some((k) => inPk[k] === undefined)) return null;
    return formatDerivedId(parentKeys.map((k) => (stored === null ? inPk[k]! : stored(item, k, inPk[k]!))));
  };
}

/**
 * idOf/parentOf of a type with a derived id: the id made from every
 * placeholder's value in the keys (each through `stored` where the keys
 * are cased: storedValues).
 */
function derivedKeyReaders(
  type: ItemType,
  keys: TableKeys,
  parentField: string | null,
  stored: ((item: Item, placeholder: string, inKey: string) => string) | null,
) {
  const order = type.derivedId!;
  return {
    idOf(item: Item): string | undefined {
      const inPk = type.pk.match(item[keys.pk]);
      const inSk = inPk && type.sk.match(item[keys.sk]);
      if (!inPk || !inSk) return undefined;
      return formatDerivedId(order.map((p) => (stored === null ? (inSk[p] ?? inPk[p]!) : stored(item, p, inSk[p] ?? inPk[p]!))));
    },
    parentOf(item: Item): string | null {
      if (parentField === null) return null;
      const inKey = type.sk.valueOf(item[keys.sk], parentField) ?? type.pk.valueOf(item[keys.pk], parentField) ?? null;
      return inKey === null || stored === null ? inKey : stored(item, parentField, inKey);
    },
  };
}

/**
 * A key field's value read back from the item's keys (an item another
 * program wrote may hold it there alone): the sort key's placeholder wins,
 * an Int is read as a number. Undefined when the keys do not hold it.
 */
function keyFieldReader(type: ItemType, keys: TableKeys): (item: Item, field: string) => unknown {
  const kinds = new Map(type.attributes.map((a) => [a.name, a.kind]));
  return (item, field) => {
    const text = type.sk.valueOf(item[keys.sk], field) ?? type.pk.valueOf(item[keys.pk], field);
    if (typeof text !== 'string') return undefined;
    return kinds.get(field) === 'Int' ? Number(text) : text;
  };
}

/**
 * key(): an id (and the parent's id, for a child type) → the item's key, as
 * one function per type made at plan time: each key value is its
 * template's literals (JSON string literals) and the ids concatenated, as a
 * hand-written `USER#${id}` template literal is, with no values object
 * and no walk of the template's parts per call. Null when a template names
 * a placeholder other than `id` and the parent's field (the generic fill
 * then serves).
 */
function compileKey(type: ItemType, parentField: string | null): ((id: string, parentId?: string) => ItemKey) | null {
  const expression = (template: ItemType['pk']): string | null => {
    const terms: string[] = [];
    for (const part of template.parts) {
      if ('literal' in part) terms.push(JSON.stringify(part.literal));
      else if (part.placeholder === 'id') terms.push('id');
      else if (part.placeholder === parentField) terms.push('parentId');
      else return null;
    }
    return terms.length === 0 ? '""' : terms.join(' + ');
  };
  const pk = expression(type.pk);
  const sk = expression(type.sk);
  if (pk === null || sk === null) return null;
  const body = [
    'return function key(id, parentId) {',
    // What fill() refuses: a missing value.
    '  if (id === undefined) noId();',
    parentField !== null ? '  if (parentId === undefined) needsParent(id);' : '',
    `  return { PK: ${pk}, SK: ${sk} };`,
    '};',
  ].join('\n');
  const needsParent = (id: string) => invariant(false, `${type.name} ${id} needs its parent's id`);
  const noId = () => invariant(false, `template ${type.pk.source} needs {id}`);
  const make = new Function('needsParent', 'noId', body) as (n: typeof needsParent, i: typeof noId) => (id: string, parentId?: string) => ItemKey;
  return make(needsParent, noId);
}

/**
 * map(): a stored item → its record, as one object literal of the type's
 * properties in a fixed order (id, complete, the parent's id, attributes,
 * counters, flags), compiled once per type. Every record of a type then has
 * the same shape from its allocation on, as hand-written mappers' literals
 * do: no per-item loop over the attributes, no property added one at a time
 * by a computed name. Property names go into the code as JSON string
 * literals. A value of another type, or a text that is none of an enum's
 * values, is absent: null when optional, undefined when required.
 */
function compileMap(
  type: ItemType,
  parentProperty: string | null,
  counters: readonly string[],
  idOf: (item: Item) => string | null | undefined,
  parentOf: (item: Item) => string | null,
  notOfType: (item: Item) => void,
  extensions: readonly RecordExtension[],
  fromKey: (item: Item, field: string) => unknown,
): (item: Item) => ItemRecord {
  const key = (name: string) => propertyLiteral(name, type.name);
  const enums: ReadonlySet<string>[] = [];
  const decoders: ((value: unknown) => unknown)[] = [];
  const properties: string[] = [`"id": id`, `"complete": true`];
  if (parentProperty !== null) properties.push(`${key(parentProperty)}: parentOf(item)`);
  for (const a of type.attributes) {
    const at = `item[${key(a.storedAs)}]`;
    if (a.shape) {
      // A map or list: rebuilt under the fields' names (records.ts valueDecoder).
      decoders.push(valueDecoder(a.shape));
      properties.push(`${key(a.name)}: decoders[${decoders.length - 1}](${at}) ?? ${a.required ? 'undefined' : 'null'}`);
      continue;
    }
    // A field the key holds is read back from the key when the item lacks it.
    const absent = type.keyFields.includes(a.name) ? `fromKey(item, ${key(a.name)})` : a.required ? 'undefined' : 'null';
    properties.push(`${key(a.name)}: ${kindTest(a, at, enums)} ? ${at} : ${absent}`);
  }
  for (const counter of counters) properties.push(`${key(counter)}: typeof item[${key(counter)}] === "number" ? item[${key(counter)}] : undefined`);
  const flags = type.flags.length > 0;
  for (const flag of type.flags) properties.push(`${key(flag)}: on`);
  const body = [
    'return function map(item) {',
    '  const id = idOf(item);',
    '  if (id === undefined || id === null) notOfType(item);',
    // Inline, as PROPAGATING_ATTRS lists them: no closure and no array walk per record.
    flags ? `  const on = ${PROPAGATING_ATTRS.map((a) => `item[${JSON.stringify(a)}] !== undefined`).join(' || ')};` : '',
    `  const record = { ${properties.join(', ')} };`,
    '  for (let i = 0; i < extensions.length; i++) extensions[i](record, item);',
    '  return record;',
    '};',
  ].join('\n');
  const make = new Function('idOf', 'parentOf', 'notOfType', 'enums', 'extensions', 'fromKey', 'decoders', body) as (
    ...args: unknown[]
  ) => (item: Item) => ItemRecord;
  return make(idOf, parentOf, notOfType, enums, extensions, fromKey, decoders);
}
