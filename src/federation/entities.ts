/**
 * `_entities(representations:)`: each representation → the entity it names,
 * read through the request's loaders, in representation order
 * (docs/federation.md). Every item read of one tick is one loader batch, so
 * N representations of item types found by their table key cost
 * ceil(N/100) BatchGetItem (one GetItem for one); a key of a declared index
 * costs one Query per distinct representation; a keyless type none.
 *
 * A representation is checked before anything is read for it: an object
 * with the __typename of an entity here, the fields of one of its
 * resolvable keys, values of the key fields' kinds (ids and key text as
 * any argument's). A bad one is BAD_USER_INPUT at its index (the error's
 * path ends in it, its message names it), costs no request and leaves the
 * others answered. The rule of the type's own @get field (else its id's)
 * is checked as a read of that field would be, before the read; a refused
 * representation is FORBIDDEN at its index and reads nothing.
 *
 * A found entity's record carries the representation's values of the
 * type's @external fields (what @requires fields were declared for) and its
 * __typename (the _Entity union's resolveType).
 */
import { GraphQLError } from 'graphql';
import type { Context } from '../context.js';
import type { Entity, EntityKey, ItemType, KeyField, KeyLookup } from '../declaration/model.js';
import { badUserInput, forbidden } from '../errors.js';
import { validateId } from '../plan/arguments.js';
import { keyText, type ItemPlan } from '../plan/itemPlan.js';
import type { ItemRecord } from '../plan/records.js';
import type { Plan } from '../plan/plan.js';
import type { Collection } from '../dynamo/collection.js';
import { mayRead, readsEverything } from '../auth/rules.js';

type Representation = Record<string, unknown>;
/** A found entity's record: its item's record, or a keyless type's id, with __typename. */
export type EntityRecord = Record<string, unknown> & { __typename: string };

/** One resolvable key of one entity type, compiled: its values read from a representation, and the read they make. */
interface KeyReader {
  key: EntityKey;
  /** The read of the entity the representation names, or a throw (BAD_USER_INPUT) for a value of the wrong kind. */
  find(rep: Representation, ctx: Context): { args: Record<string, unknown>; load: () => Promise<Record<string, unknown> | null> };
}

interface EntityReader {
  entity: Entity;
  keys: readonly KeyReader[];
  /** The root field whose rule a read of this type follows, or null (its id field's). */
  get: string | null;
}

const isObject = (value: unknown): value is Representation => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Does the representation hold a value for every field of the selection (nested fields too)? */
function holds(rep: Representation, selection: readonly KeyField[]): boolean {
  return selection.every(({ field, sub }) => {
    const value = rep[field];
    if (value === undefined || value === null) return false;
    return sub === null || (isObject(value) && holds(value, sub));
  });
}

/** An id as GraphQL's ID takes it (text, or an integer), checked as every id is. */
function idValue(value: unknown, path: string): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return validateId(String(value), path);
  if (typeof value !== 'string') throw badUserInput(`${path} must be an ID`, path);
  return validateId(value, path);
}

/** A scalar key field's value as its kind takes it (keyText then writes it as the key holds it). */
function scalarValue(item: ItemType, field: string, value: unknown, path: string): string | number {
  const a = item.attributes.find((x) => x.name === field)!;
  if (a.kind === 'Int') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badUserInput(`${path} must be an Int`, path);
    return value;
  }
  if (a.kind === 'ID') return idValue(value, path);
  if (typeof value !== 'string') throw badUserInput(`${path} must be ${a.kind === 'enum' ? 'one of the enum values' : `a ${a.kind}`}`, path);
  if (a.values && !a.values.includes(value)) throw badUserInput(`${path} must be one of ${a.values.join(', ')}`, path);
  return value;
}

/** The values of a key's fields in a representation, by field: scalars, ids, and the ids references select. */
function readValues(plan: Plan, item: ItemType, selection: readonly KeyField[], rep: Representation, at: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const { field, sub } of selection) {
    const path = at === '' ? field : `${at}.${field}`;
    if (field === 'id') values.id = idValue(rep[field], path);
    else if (sub === null) values[field] = scalarValue(item, field, rep[field], path);
    else {
      const referred = item.parent?.field === field ? item.parent.type : item.attributes.find((a) => a.name === field)!.reference!.type;
      values[field] = referredId(plan, referred, sub, rep[field], path);
    }
  }
  return values;
}

/** The id of the `type` a reference's selection names: its `id`, or the id derived from the fields selected. */
function referredId(plan: Plan, type: string, sub: readonly KeyField[], value: unknown, path: string): string {
  if (!isObject(value)) throw badUserInput(`${path} must be an object selecting ${sub.map((f) => f.field).join(' ')}`, path);
  if (sub.length === 1 && sub[0]!.field === 'id') return idValue(value.id, `${path}.id`);
  const target = plan.item(type);
  const values = readValues(plan, target.type, sub, value, path);
  return target.derived!.id(values, Object.fromEntries(Object.keys(values).map((p) => [p, `${path}.${p}`])));
}

/** The key values as the key holds them (keyText), for an index key's templates. */
function keyValues(item: ItemPlan, values: Record<string, string | number>): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    const a = item.type.attributes.find((x) => x.name === field);
    text[field] = a && !a.reference ? keyText(a, value, field) : String(value);
  }
  return text;
}

/** The one read each kind of key lookup makes (docs/federation.md, "What a representation costs"). */
function compileKey(plan: Plan, item: ItemPlan, key: EntityKey, lookup: KeyLookup): KeyReader {
  const type = item.type;
  const names = (values: Record<string, unknown>) => Object.fromEntries(Object.keys(values).map((p) => [p, p]));
  const record = (found: ItemRecord | null) => found as Record<string, unknown> | null;
  if (lookup.kind === 'id') {
    return {
      key,
      find(rep, ctx) {
        const { id } = readValues(plan, type, key.selection, rep, '') as { id: string };
        if (item.derived) return { args: { id, ...item.derived.values(id) }, load: () => ctx.loaders.entity(item, id).then(record) };
        if (type.parent) return { args: { id }, load: () => ctx.loaders.bySortKey.load({ spec: item, id }).then(record) };
        return { args: { id }, load: () => ctx.loaders.entity(item, id).then(record) };
      },
    };
  }
  if (lookup.kind === 'key') {
    const parentField = type.parent?.field;
    return {
      key,
      find(rep, ctx) {
        const values = readValues(plan, type, key.selection, rep, '');
        if (item.derived) {
          const id = item.derived.id(values, names(values));
          return { args: { id, ...values }, load: () => ctx.loaders.entity(item, id).then(record) };
        }
        const fields = type.keyFields.length > 0 ? Object.fromEntries(type.keyFields.map((f) => [f, values[f]])) : undefined;
        // A key holding the parent's key values (ItemType.parent.keys) is found by them, without the parent's id.
        const parentId = parentField === undefined || values[parentField] === undefined ? undefined : String(values[parentField]);
        // spec.key checks the key fields' text as any argument's (BAD_USER_INPUT) before anything is read.
        item.key(String(values.id), parentId, fields);
        return { args: values, load: () => ctx.loaders.entity(item, String(values.id), parentId, fields).then(record) };
      },
    };
  }
  const placement = type.indexed.find((p) => p.index === (lookup as { index: string }).index)!;
  const [pk, ...pkMore] = placement.pk;
  const sk = placement.sk[0];
  return {
    key,
    find(rep, ctx) {
      const values = keyValues(item, readValues(plan, type, key.selection, rep, ''));
      const skValue = sk?.template.fill(values);
      const collection: Collection = {
        name: `${type.name}@${placement.index}`,
        index: placement.index,
        pkAttr: pk!.attribute,
        pk: pk!.template.fill(values),
        ...(pkMore.length > 0 ? { pkMore: pkMore.map((p) => ({ attr: p.attribute, value: p.template.fill(values) })) } : {}),
        // Without a sort key any item of the partition is the one; with one, exactly the key's value (BETWEEN v AND v\0).
        skAttr: sk?.attribute ?? plan.keys.sk,
        prefix: skValue ?? '',
        ...(skValue === undefined ? {} : { range: { lo: skValue, hi: `${skValue}\u0000`, binding: '' } }),
        table: plan.keys.names,
        accepts: (found) => item.ids(found) !== null,
      };
      return {
        args: values,
        load: () => ctx.loaders.range.load({ collection, forward: true, limit: 1 }).then(([found]) => (found ? item.map(found) : null)),
      };
    },
  };
}

/** The readers of every entity type, by name. */
function compileReaders(plan: Plan): Map<string, EntityReader> {
  const readers = new Map<string, EntityReader>();
  for (const entity of plan.model.federation?.entities.values() ?? []) {
    const item = entity.kind === 'item' ? plan.item(entity.name) : null;
    const keys: KeyReader[] = [];
    for (const key of entity.keys) {
      if (!key.lookup) continue;
      if (key.lookup.kind === 'representation') {
        keys.push({
          key,
          find(rep) {
            const id = idValue(rep.id, 'id');
            return { args: { id }, load: async () => ({ id }) };
          },
        });
      } else keys.push(compileKey(plan, item!, key, key.lookup));
    }
    const get = plan.gets.find((g) => g.type === entity.name && !g.keyless)?.field ?? null;
    readers.set(entity.name, { entity, keys, get });
  }
  return readers;
}

/** A caller's mistake in one representation: BAD_USER_INPUT whose message names its index. */
function atIndex(index: number, error: unknown): Error {
  if (error instanceof GraphQLError && error.extensions.code === 'BAD_USER_INPUT') {
    return badUserInput(`representations[${index}]: ${error.message}`, 'representations');
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The rule of the type's own @get field (or, without one, of its id) allows this read? */
function allowed(ctx: Context, reader: EntityReader, args: Record<string, unknown>): boolean {
  if (readsEverything(ctx.identity)) return true;
  return reader.get !== null
    ? mayRead(ctx.rules, ctx.identity, 'Query', reader.get, {}, args)
    : mayRead(ctx.rules, ctx.identity, reader.entity.name, 'id', args, {});
}

/** A rule decided on the result (an OWNER rule on a result field), as the @get field's guard decides it. */
function allowedResult(ctx: Context, reader: EntityReader, found: Record<string, unknown>): boolean {
  if (readsEverything(ctx.identity) || reader.get === null) return true;
  const rule = ctx.rules?.ruleFor('Query', reader.get);
  return !rule?.allowsResult || rule.allowsResult(ctx.identity, found);
}

function resolveOne(readers: Map<string, EntityReader>, rep: unknown, index: number, ctx: Context): Promise<EntityRecord | null> {
  if (!isObject(rep)) throw badUserInput('is not an object');
  const typename = rep.__typename;
  if (typeof typename !== 'string') throw badUserInput('has no __typename');
  const reader = readers.get(typename);
  if (!reader) throw badUserInput(`__typename "${typename}" is no entity of this subgraph`);
  if (reader.keys.length === 0) throw badUserInput(`${typename} is found by no key here (its @key is resolvable: false)`);
  const key = reader.keys.find((k) => holds(rep, k.key.selection));
  if (!key) throw badUserInput(`lacks the fields of a key of ${typename}: ${reader.keys.map((k) => `"${k.key.fields}"`).join(' or ')}`);
  const { args, load } = key.find(rep, ctx);
  const refused = () =>
    forbidden(
      `representations[${index}]: not allowed to read ${typename}${reader.get ? ` (Query.${reader.get})` : ''}`,
      ctx.rules?.ruleFor(reader.get ? 'Query' : typename, reader.get ?? 'id')?.name ?? 'admins',
    );
  if (!allowed(ctx, reader, args)) throw refused();
  const external = reader.entity.external;
  return load().then((found) => {
    if (found === null) return null;
    if (!allowedResult(ctx, reader, found)) throw refused();
    const record: EntityRecord = { ...found, __typename: typename };
    // The owning subgraph's values of @external fields: what this model's @requires fields were declared for.
    for (const field of external) if (rep[field] !== undefined) record[field] = rep[field];
    return record;
  });
}

/** The `_entities` resolver of a plan: one answer per representation, each a record, null, or an error at its index. */
export function entitiesResolver(plan: Plan) {
  const readers = compileReaders(plan);
  return (_: unknown, args: { representations: readonly unknown[] }, ctx: Context): (Promise<EntityRecord | null> | Error)[] =>
    args.representations.map((rep, index) => {
      try {
        return resolveOne(readers, rep, index, ctx).catch((error: unknown) => Promise.reject(atIndex(index, error)));
      } catch (error) {
        return atIndex(index, error);
      }
    });
}
