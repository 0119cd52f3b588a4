/**
 * @create: a new item of any type, from its plan (docs/mutations.md).
 *
 * Top-level type: one conditional PutItem, in a transaction with its
 * catalog shard's counter (a @catalog type) or its counter items at 0
 * (created write-sharded). An existing id is CONFLICT; without an id a
 * ULID is generated. Child type: the child and the parent's counter in one
 * transaction, the parent read first (consistently) to learn whether its
 * counter exists, and required to exist and not be being deleted, so no
 * child is added behind a cascade's back (NOT_FOUND otherwise).
 *
 * An inverted child's id is also its GSI1 partition, so an explicit id is
 * claimed by a uniqueness item (keys.ts `idClaimKey`) in the same
 * transaction: of two creates giving one id to different parents exactly
 * one succeeds; items written without a claim are caught by a GSI1 Query
 * first. Generated ids never collide and need neither.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import { readRange, type Collection } from '../dynamo/collection.js';
import { catalogEntryKeys, GSI1, idClaimKey, sortableInstant, type ItemKey, type TableKeys } from '../dynamo/keys.js';
import { conflict, notFound } from '../errors.js';
import { validateId } from '../connections/args.js';
import type { ItemRecord } from '../plan/records.js';
import { storedName, writtenBeside, type Attribute, type IndexPlacement, type ItemType } from '../declaration/model.js';
import { keyText } from '../plan/itemPlan.js';
import type { Plan } from '../plan/plan.js';
import type { ReadPort } from '../dynamo/readPort.js';
import { absent, counterOrCheck, DELETING_ATTR } from './conditions.js';
import { putNewWith } from './catalog.js';
import { idOrNew } from './ids.js';
import { attributeValue, shardsInput } from './input.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, planOf, readsOf, type Store } from './store.js';
import { retryConflicts, tryTransact } from './transact.js';
import { writePlanOf, type TypeWrites } from './writePlan.js';

export const isConditionFailed = (err: unknown) =>
  (err as { name?: string })?.name === 'ConditionalCheckFailedException';

/** Puts `item` unless an item with its key exists (then CONFLICT naming `what`). */
export async function putNew(store: Store, item: Item, what: string): Promise<void> {
  try {
    await retryConflicts(store, () =>
      store.doc.send(
        new PutCommand({ TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: store.plan.keys.pkName }),
      ),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw conflict(`${what} already exists`);
    throw err;
  }
}

/**
 * The stored item of a new `t` with id `id` (and parent id): keys, index
 * entries, attributes from `input` (checked), @createdAt times, counters at 0.
 * Returns it with the counter items of a write-sharded one.
 */
/**
 * The key attributes an item writes for one @indexed placement: each
 * written template filled from the item's id, its parent's id and its
 * stored fields (read under their stored names). A template whose field
 * the item lacks writes nothing: the item stays out of that index (sparse).
 */
export function indexKeysOf(placement: IndexPlacement, id: string, parentId: string | undefined, type: ItemType, item: Item): Item {
  const parentField = type.parent?.field ?? null;
  const keys: Item = {};
  for (const part of [...placement.pk, ...placement.sk]) {
    if (!part.written) continue;
    const values: Record<string, string> = {};
    let complete = true;
    for (const p of part.template.placeholders) {
      const value = p === 'id' ? id : p === parentField ? parentId : item[storedName(type, p)];
      if (value === undefined || value === null) complete = false;
      else values[p] = String(value);
    }
    if (!complete) return {};
    keys[part.attribute] = part.template.fill(values);
  }
  return keys;
}

/** A key field's stored value: its key text, as the number it is for an Int. */
function keyFieldValue(a: Attribute, value: unknown, what: string): unknown {
  const text = keyText(a, value, what);
  return a.kind === 'Int' ? value : text;
}

export function newItem(t: TypeWrites, keys: TableKeys, id: string, parentId: string | undefined, input: Record<string, unknown>) {
  const type = t.item.type;
  const fields: Item = {};
  const stored: Item = {};
  const now = new Date().toISOString();
  for (const a of type.attributes) {
    const value = a.createdAt && input[a.name] === undefined ? now : attributeValue(a, input[a.name], `input.${a.name}`);
    if (value === null || value === undefined) continue;
    // A field the key holds is stored as the key writes it (a DateTime with fixed width), so both read alike.
    const v = type.keyFields.includes(a.name) ? keyFieldValue(a, value, `input.${a.name}`) : value;
    fields[a.name] = v;
    stored[a.storedAs] = v;
  }
  // The key templates read fields by name; the item holds them under their stored names.
  const key = t.item.key(id, parentId, fields);
  const item: Item = Object.assign(keys.key(key), stored);
  Object.assign(item, writtenBeside(type, id, parentId));
  if (type.inverted) {
    item.GSI1PK = key.SK;
    item.GSI1SK = key.PK;
  }
  for (const placement of type.indexed) Object.assign(item, indexKeysOf(placement, id, parentId, type, item));
  if (t.catalog) {
    const text = item[storedName(type, t.catalog.field.by)];
    if (typeof text === 'string') Object.assign(item, catalogEntryKeys(t.catalog.spec, id, text));
  }
  if (type.byInstant) {
    const instant = sortableInstant(item[storedName(type, type.byInstant.by)]);
    const values: Record<string, string> = { id };
    if (type.parent && parentId !== undefined) values[type.parent.field] = parentId;
    if (instant !== null) Object.assign(item, { GSI2PK: type.byInstant.pk.fill(values), GSI2SK: `${instant}#${id}` });
  }
  const shards = t.sharding ? shardsInput(input[t.sharding.count] as number | null | undefined, `input.${t.sharding.count}`, t.sharding.max) : 1;
  const also: Item[] = [];
  for (const counter of t.item.counters) {
    if (t.sharding && counter === t.sharding.counter && shards > 1) continue;
    item[counter] = 0;
  }
  if (t.sharding && shards > 1) {
    // Its count lives in the counter items: the item carries the shard count and no counter.
    item[t.sharding.count] = shards;
    for (let k = 0; k < shards; k++) {
      also.push({ ...keys.key(t.sharding.counterKey(id, k)), ...(t.sharding.counter ? { [t.sharding.counter]: 0 } : {}) });
    }
  }
  return { item, also };
}

/**
 * The ids of the item `id` of an inverted child type, found by its id alone
 * with one Query of GSI1 (GSI1PK = its sort key); null when there is none.
 */
export function findInverted(store: Store, typeName: string, id: string): Promise<{ id: string; parentId: string } | null> {
  return findInvertedIn(readsOf(store), store.tableName, planOf(store), typeName, id);
}

/** findInverted through a read port of its own (the table check reads so, with no store). */
export async function findInvertedIn(reads: ReadPort, tableName: string, model: Plan, typeName: string, id: string): Promise<{ id: string; parentId: string } | null> {
  const plan = model.item(typeName);
  const parentPlan = model.item(plan.type.parent!.type);
  const byId: Collection = { name: `${typeName}.id`, index: GSI1, pkAttr: 'GSI1PK', skAttr: 'GSI1SK', pk: plan.type.sk.fill({ id }), prefix: parentPlan.type.pk.prefix, table: model.keys.names };
  const [found] = await readRange(reads, tableName, { collection: byId, forward: true, limit: 1 });
  const ids = found ? plan.ids(found) : null;
  return ids && ids.parentId !== null ? { id: ids.id, parentId: ids.parentId } : null;
}

/**
 * The key of a parent item by its id: a top-level type's from its
 * template; a parent that is itself a child type (inverted: the model
 * check requires it) found by its id alone. NOT_FOUND when there is none.
 */
export async function parentKeyOf(store: Store, parentType: string, parentId: string): Promise<ItemKey> {
  const parentPlan = planOf(store).item(parentType);
  // A derived id holds its parent's id too: found by its id alone.
  if (!parentPlan.type.parent || parentPlan.derived) return parentPlan.key(parentId);
  const found = await findInverted(store, parentType, parentId);
  if (!found) throw notFound(`${parentType} ${parentId} not found`);
  return parentPlan.key(parentId, found.parentId);
}

/**
 * A new item's id: the one the input gives (validated) or a new one; for a
 * type whose key names no {id}, the id its key's values make (the parent's
 * id and the input's key fields).
 */
function newIdOf(t: TypeWrites, parentId: string | undefined, input: Record<string, unknown>): string {
  const derived = t.item.derived;
  if (!derived) return idOrNew(input.id as string | null | undefined);
  const parentField = t.item.type.parent?.field;
  const values: Record<string, unknown> = { ...input };
  if (parentField !== undefined) values[parentField] = parentId;
  return derived.id(values, Object.fromEntries(t.item.type.keyFields.map((f) => [f, `input.${f}`])));
}

/** Creates an item of `typeName` from `input` (under the parent `parentId` for a child type); returns its record. */
export async function createItem(
  store: Store,
  typeName: string,
  input: Record<string, unknown>,
  parent?: { id: unknown; argument: string },
): Promise<ItemRecord> {
  const t = writePlanOf(planOf(store)).type(typeName);
  if (t.item.type.parent) {
    if (!parent) throw new Error(`Invariant violation: ${typeName} is created under a parent`);
    return createChild(store, t, validateId(parent.id as string, parent.argument), input);
  }
  const id = newIdOf(t, undefined, input);
  const { item, also } = newItem(t, store.plan.keys, id, undefined, input);
  const what = `${typeName} ${id}`;
  if (t.catalog || also.length > 0) await putNewWith(store, item, what, t.catalog ? { spec: t.catalog.spec, id } : null, also);
  else await putNew(store, item, what);
  return t.item.map(item);
}

async function createChild(store: Store, t: TypeWrites, parentId: string, input: Record<string, unknown>): Promise<ItemRecord> {
  const parentType = t.item.type.parent!;
  // A keyless parent has no item to check or count in: the child is put on its own.
  if (!planOf(store).items.has(parentType.type)) return createUnderKeyless(store, t, parentId, input);
  const parentPlan = planOf(store).item(parentType.type);
  const id = newIdOf(t, parentId, input);
  const keys = store.plan.keys;
  const { item } = newItem(t, keys, id, parentId, input);
  const key = keys.keyOf(item);
  const what = `${t.item.name} ${id}`;
  const explicit = input.id != null;
  let unique: Item | undefined;
  if (t.item.type.inverted && explicit) {
    const byId: Collection = { name: `${t.item.name}.id`, index: GSI1, pkAttr: 'GSI1PK', skAttr: 'GSI1SK', pk: key.SK, prefix: parentPlan.type.pk.prefix, table: keys.names };
    const [existing] = await readRange(readsOf(store), store.tableName, { collection: byId, forward: true, limit: 1 });
    if (existing) throw conflict(`${what} already exists`);
    unique = { ...keys.key(idClaimKey(t.item.type.sk.prefix, t.item.type.sk.cased(id))), ...(t.item.parentIdProperty ? { [t.item.parentIdProperty]: parentId } : {}) };
  }
  const parentKey = await parentKeyOf(store, parentType.type, parentId);
  const counter = t.parentRelation?.counter ?? null;
  await untilFresh(store, async () => {
    const seen = await getItem(store, parentKey);
    // A parent being deleted (its cascade under way, perhaps in the stream processor) takes no new children:
    // one added behind the cascade's back would outlive it.
    if (seen === null || seen[DELETING_ATTR] !== undefined) throw notFound(`${parentPlan.name} ${parentId} not found`);
    const cancelled = await tryTransact(store, [
      { Put: { TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName } },
      counterOrCheck(store.tableName, keys, { key: parentKey, seen, counter, delta: 1, also: [absent(DELETING_ATTR)] }),
      ...(unique ? [{ Put: { TableName: store.tableName, Item: unique, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName } }] : []),
    ]);
    if (cancelled === null) return seen;
    if (cancelled.failed(0) || (unique && cancelled.failed(2))) throw conflict(`${what} already exists`);
    // The parent was deleted, or its counter appeared or vanished: read again.
    if (cancelled.failed(1)) return READ_AGAIN;
    throw cancelled;
  });
  return t.item.map(item);
}

async function createUnderKeyless(store: Store, t: TypeWrites, parentId: string, input: Record<string, unknown>): Promise<ItemRecord> {
  const id = newIdOf(t, parentId, input);
  const { item } = newItem(t, store.plan.keys, id, parentId, input);
  await putNew(store, item, `${t.item.name} ${id}`);
  return t.item.map(item);
}
