/**
 * @create: a new item of any type, from its plan (docs/mutations.md).
 *
 * What it writes, in as few requests as hold it atomically:
 * - the item, on attribute_not_exists of the table key (an existing id is
 *   CONFLICT; without an id a ULID is generated, or, for a key without
 *   {id}, the id is derived from the key's values);
 * - a child type's parent: its @children counter +1, or, without one, a
 *   check that it exists; either on the condition that it is not being
 *   deleted, so no child is added behind a cascade's back (NOT_FOUND);
 * - each counted reference's count on the referred item +1 (NOT_FOUND
 *   when that item is absent);
 * - a @catalog type's shard counter, a write-sharded type's counter items.
 * Alone: one PutItem; with any of the others: one TransactWriteItems, the
 * counting items not read first (counts.ts). A sequence's number is taken
 * from the parent before, with one UpdateItem.
 *
 * An inverted child's id is also its GSI1 partition, so an explicit id is
 * claimed by a uniqueness item (keys.ts `idClaimKey`) in the same
 * transaction: of two creates giving one id to different parents exactly
 * one succeeds; items written without a claim are caught by a GSI1 Query
 * first. Generated ids never collide and need neither.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import { readRange, type Collection } from '../dynamo/collection.js';
import { catalogEntryKeys, GSI1, idClaimKey, sortableInstant, type ItemKey } from '../dynamo/keys.js';
import { badUserInput, conflict, invariantViolation, notFound } from '../errors.js';
import type { ItemRecord } from '../plan/records.js';
import { storedName, writtenBeside, type Attribute, type IndexPlacement, type ItemType } from '../declaration/model.js';
import { KEY_BYTES, keyText } from '../plan/itemPlan.js';
import type { Plan } from '../plan/plan.js';
import type { ReadPort } from '../dynamo/readPort.js';
import { DELETING_ATTR } from './conditions.js';
import { catalogCounterChange, putNewWith } from './catalog.js';
import { countedMoves, transactWithCounts, type CountMove } from './counts.js';
import { checkedId, idOrNew } from './ids.js';
import { attributeValue, shardsInput } from './input.js';
import { planOf, readsOf, type Store } from './store.js';
import { retryConflicts } from './transact.js';
import { writePlanOf, type TypeWrites } from './writePlan.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

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
 * The key attributes an item writes for one @indexed placement: each
 * written template filled from the item's id, its parent's id and its
 * stored fields (read under their stored names). A template whose field
 * the item lacks writes nothing, so the item stays out of that index (a
 * sparse index); the placement's other key attributes are written all the
 * same, so an update that sets the missing field (update.ts) writes the
 * one attribute it makes and the item enters the index.
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
      else values[p] = templateText(type, p, value);
    }
    if (complete) keys[part.attribute] = part.template.fill(values);
  }
  return keys;
}

/** A field's value as an index key template writes it: a sequence's number zero-padded (so it sorts), a table key's field as that key holds it, anything else as its text. */
export function templateText(type: ItemType, field: string, value: unknown): string {
  const a = type.attributes.find((x) => x.name === field);
  // A table key's field as the key writes it (a DateTime argument in any precision, a sequence's padding).
  return a && (a.sequence || type.keyFields.includes(field)) ? keyText(a, value, field) : String(value);
}

/** BAD_USER_INPUT when the values a create gives make a key DynamoDB would refuse (too long), before any request. */
function checkKeySize(key: ItemKey, what: string): void {
  for (const [name, value] of [['pk', key.PK], ['sk', key.SK]] as const) {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > KEY_BYTES[name]) throw badUserInput(`${what}: the values given make a ${name === 'pk' ? 'partition' : 'sort'} key of ${bytes} bytes, above DynamoDB's ${KEY_BYTES[name]}: shorten the values the key holds`);
  }
}

/** A key field's stored value: its key text, as the number it is for an Int. */
function keyFieldValue(a: Attribute, value: unknown, what: string): unknown {
  const text = keyText(a, value, what);
  return a.kind === 'Int' ? value : text;
}

/**
 * The stored item of a new `t` with id `id` (and parent id): keys, index
 * entries, attributes from `input` (checked), @createdAt times, counters at 0.
 * Returns it with the counter items of a write-sharded one.
 */
export function newItem(t: TypeWrites, plan: Plan, id: string, parentId: string | undefined, input: Record<string, unknown>) {
  const type = t.item.type;
  const keys = plan.keys;
  const fields: Item = {};
  const stored: Item = {};
  const now = new Date().toISOString();
  const referredId = (target: string, value: unknown, name: string) => checkedId(plan, target, value, name);
  for (const a of type.attributes) {
    const value = a.createdAt && input[a.name] === undefined ? now : attributeValue(a, input[a.name], `input.${a.name}`, referredId);
    if (value === null || value === undefined) continue;
    // A field the key holds is stored as the key writes it (a DateTime with fixed width), so both read alike.
    const v = type.keyFields.includes(a.name) ? keyFieldValue(a, value, `input.${a.name}`) : value;
    fields[a.name] = v;
    stored[a.storedAs] = v;
  }
  // The key templates read fields by name; the item holds them under their stored names.
  const key = t.item.key(id, parentId, fields);
  checkKeySize(key, `${type.name} ${id}`);
  const item: Item = Object.assign(keys.key(key), stored);
  Object.assign(item, writtenBeside(type, id, parentId));
  if (type.inverted) {
    item[GSI1_PK] = key.SK;
    item[GSI1_SK] = key.PK;
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
  for (const counter of t.keptCounters) item[counter] = 0;
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
 * with one Query of GSI1 (GSI1 pk = its sort key); null when there is none.
 */
export function findInverted(store: Store, typeName: string, id: string): Promise<{ id: string; parentId: string } | null> {
  return findInvertedIn(readsOf(store), store.tableName, planOf(store), typeName, id);
}

/** findInverted through a read port of its own (the table check reads so, with no store). */
export async function findInvertedIn(reads: ReadPort, tableName: string, model: Plan, typeName: string, id: string): Promise<{ id: string; parentId: string } | null> {
  const plan = model.item(typeName);
  const parentPlan = model.item(plan.type.parent!.type);
  const byId: Collection = { name: `${typeName}.id`, index: GSI1, pkAttr: GSI1_PK, skAttr: GSI1_SK, pk: plan.type.sk.fill({ id }), prefix: parentPlan.type.pk.prefix, table: model.keys.names };
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

/**
 * The next number of the parent's sequence (@attribute(sequence:)): one
 * UpdateItem ADD on the parent, which must exist and not be being deleted
 * (NOT_FOUND otherwise, nothing written). Taken before the item is put: a
 * create that fails afterwards leaves its number unused (a gap).
 */
async function nextNumber(store: Store, t: TypeWrites, parentKey: ItemKey, parentWhat: string): Promise<number> {
  const { field, attribute } = t.sequence!;
  const keys = store.plan.keys;
  try {
    const out = await retryConflicts(store, () =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: keys.key(parentKey),
          UpdateExpression: 'ADD #sequence :one',
          ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#deleting)',
          ExpressionAttributeNames: { '#sequence': attribute, '#pk': keys.pk, '#deleting': DELETING_ATTR },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    const n = out.Attributes?.[attribute] as number;
    const pad = field.sequence!.pad;
    // Its text must keep sorting as the numbers do: one digit more would sort before the rest.
    if (String(n).length > pad) throw conflict(`${t.item.name}: the sequence ${attribute} of ${parentWhat} is past ${'9'.repeat(pad)}, the largest number of ${pad} digits (${t.item.name}.${field.name} @attribute(pad: ${pad}))`);
    return n;
  } catch (err) {
    if (isConditionFailed(err)) throw notFound(`${parentWhat} not found`);
    throw err;
  }
}

/**
 * Creates an item of `typeName` from `input` (under the parent `parentId`
 * for a child type); returns its record. One PutItem, or one
 * TransactWriteItems when a count moves or a parent must exist
 * (writes/counts.ts: the parent and the referred items are not read
 * first); a sequence's number is taken before, with one UpdateItem.
 */
export async function createItem(
  store: Store,
  typeName: string,
  input: Record<string, unknown>,
  parent?: { id: unknown; argument: string },
): Promise<ItemRecord> {
  const t = writePlanOf(planOf(store)).type(typeName);
  const parentType = t.item.type.parent;
  if (parentType && !parent) invariantViolation(`${typeName} is created under a parent`);
  // A keyless parent has no item to check, count or number in.
  const parentPlan = parentType ? planOf(store).items.get(parentType.type) : undefined;
  const parentId = parentType ? checkedId(planOf(store), parentType.type, parent!.id, parent!.argument) : undefined;
  const parentKey = parentPlan ? await parentKeyOf(store, parentPlan.name, parentId!) : null;
  const parentWhat = `${parentType?.type} ${parentId}`;
  const given = t.sequence && parentKey ? { ...input, [t.sequence.field.name]: await nextNumber(store, t, parentKey, parentWhat) } : input;
  const id = newIdOf(t, parentId, given);
  const keys = store.plan.keys;
  const { item, also } = newItem(t, planOf(store), id, parentId, given);
  const what = `${typeName} ${id}`;
  const unique = parentPlan && t.item.type.inverted && input.id != null ? await claimOf(store, t, item, parentPlan, id, parentId!) : null;
  const moves: CountMove[] = [
    ...(parentKey ? [{ key: parentKey, counter: t.parentRelation?.counter ?? null, delta: 1, needed: `${parentWhat} not found`, live: true }] : []),
    ...countedMoves(t.counted, t.item.map(item), 1, true),
  ];
  if (moves.length === 0 && !unique) {
    if (t.catalog || also.length > 0) await putNewWith(store, item, what, t.catalog ? { spec: t.catalog.spec, id } : null, also);
    else await putNew(store, item, what);
    return t.item.map(item);
  }
  const put = (it: Item) => ({ Put: { TableName: store.tableName, Item: it, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: keys.pkName } });
  const own = [
    put(item),
    ...(unique ? [put(unique)] : []),
    ...(t.catalog ? [catalogCounterChange(store.tableName, keys, t.catalog.spec, id, 1)] : []),
    ...also.map((extra) => ({ Put: { TableName: store.tableName, Item: extra } })),
  ];
  await transactWithCounts(store, own, moves, (cancelled) => {
    if (cancelled.failed(0) || (unique && cancelled.failed(1))) throw conflict(`${what} already exists`);
  });
  return t.item.map(item);
}

/**
 * The uniqueness claim of an inverted child's explicit id (its id is also
 * its GSI1 partition): items written without a claim are caught by a GSI1
 * Query first (CONFLICT); the claim is put with the item.
 */
async function claimOf(store: Store, t: TypeWrites, item: Item, parentPlan: { type: ItemType }, id: string, parentId: string): Promise<Item> {
  const keys = store.plan.keys;
  const byId: Collection = { name: `${t.item.name}.id`, index: GSI1, pkAttr: GSI1_PK, skAttr: GSI1_SK, pk: keys.keyOf(item).SK, prefix: parentPlan.type.pk.prefix, table: keys.names };
  const [existing] = await readRange(readsOf(store), store.tableName, { collection: byId, forward: true, limit: 1 });
  if (existing) throw conflict(`${t.item.name} ${id} already exists`);
  return { ...keys.key(idClaimKey(t.item.type.sk.prefix, t.item.type.sk.cased(id))), ...(t.item.parentIdProperty ? { [t.item.parentIdProperty]: parentId } : {}) };
}
