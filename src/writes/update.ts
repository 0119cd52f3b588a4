/**
 * @update: an item of any type (NOT_FOUND when absent or being deleted) and
 * the copies of its changed fields on every edge that carries them
 * (docs/mutations.md, "Renames").
 *
 * A change of a copied field reads the item first (consistently), writes
 * only what changes, and increments the field's version. With a stream the
 * request is one UpdateItem (value, version, `propagatingSince`) and the
 * stream processor updates the copies. Without one, up to `atomicEdges`
 * edges change with the item in one transaction; beyond that the copies are
 * fanned out convergently: each edge conditioned on existing, edges already
 * current skipped, and the item read again afterwards so that the last
 * rename's value is what every edge ends with.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import { catalogEntrySortKey, sortableInstant, type ItemKey, type TableKeys } from '../dynamo/keys.js';
import { badUserInput, notFound } from '../errors.js';
import type { ItemRecord } from '../plan/records.js';
import { storedName } from '../declaration/model.js';
import { DELETING_ATTR, PROPAGATING_ATTR } from './conditions.js';
import { isConditionFailed } from './create.js';
import { editEdge, isStale, settleCopies, type Copy } from './copies.js';
import { edgePage } from './fanOut.js';
import { attributeValue } from './input.js';
import { keyValuesOf, locate } from './child.js';
import { templateText } from './create.js';
import { checkedId } from './ids.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, optionsOf, planOf, type Store } from './store.js';
import { retryConflicts, tryTransact } from './transact.js';
import { copyCollections, writePlanOf, type CopySource, type IndexKeyPart, type TypeWrites } from './writePlan.js';

/** Absent, or on its way out (a cascade delete has started): no new edges or changes for it. */
export const gone = (item: Item | null): boolean => item === null || item[DELETING_ATTR] !== undefined;

interface Change {
  set: Record<string, unknown>;
  remove: string[];
  /** Attributes incremented by one (absent counts as 0): the version of a copied value that changes. */
  increment?: string[];
}

/** The UpdateItem parameters of an entity change, conditional on the entity existing and not being deleted. */
function entityUpdate(tableName: string, keys: TableKeys, key: ItemKey, change: Change) {
  const names: Record<string, string> = { '#pk': keys.pk, '#deleting': DELETING_ATTR };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(change.set).map(([attr, value], i) => {
    names[`#s${i}`] = attr;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  for (const [i, attr] of (change.increment ?? []).entries()) {
    names[`#i${i}`] = attr;
    values[':zero'] = 0;
    values[':one'] = 1;
    sets.push(`#i${i} = if_not_exists(#i${i}, :zero) + :one`);
  }
  const removes = change.remove.map((attr, i) => {
    names[`#r${i}`] = attr;
    return `#r${i}`;
  });
  return {
    TableName: tableName,
    Key: keys.key(key),
    UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
      .filter(Boolean)
      .join(' '),
    ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#deleting)',
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

const isEmpty = (change: Change) =>
  Object.keys(change.set).length === 0 && change.remove.length === 0 && (change.increment ?? []).length === 0;

function applied(item: Item, change: Change): Item {
  const next = { ...item, ...change.set };
  for (const attr of change.remove) delete next[attr];
  for (const attr of change.increment ?? []) next[attr] = (typeof item[attr] === 'number' ? (item[attr] as number) : 0) + 1;
  return next;
}

/**
 * The part of `change` that changes `entity`; a new value of a copied
 * attribute also increments its version (and, with a stream, marks the
 * entity as propagating).
 */
function effective(entity: Item, change: Change, copied: readonly CopySource[], stream: boolean): Change {
  const set = Object.fromEntries(Object.entries(change.set).filter(([attr, value]) => entity[attr] !== value));
  const remove = change.remove.filter((attr) => entity[attr] !== undefined);
  const increment = [...new Set(copied.filter((c) => set[c.field] !== undefined).map((c) => c.versionAttr))];
  if (increment.length > 0 && stream) set[PROPAGATING_ATTR] = new Date().toISOString();
  return { set, remove, increment };
}

/** The entity alone: one conditional UpdateItem (never for an empty change). Returns the entity as updated. */
async function updateEntity(store: Store, key: ItemKey, what: string, change: Change): Promise<Item> {
  try {
    const out = await retryConflicts(store, () =>
      store.doc.send(new UpdateCommand({ ...entityUpdate(store.tableName, store.plan.keys, key, change), ReturnValues: 'ALL_NEW' })),
    );
    return out.Attributes!;
  } catch (err) {
    if (isConditionFailed(err)) throw notFound(`${what} not found`);
    throw err;
  }
}

/**
 * The entity and every stale copy in one transaction, when the edges fit.
 * Returns the entity as updated, or null when they do not fit (or edges kept
 * vanishing under it) and the caller must fan out instead.
 */
async function updateAtomically(store: Store, key: ItemKey, what: string, change: Change, copy: Copy): Promise<Item | null> {
  const { atomicEdges } = optionsOf(store);
  // Only one collection fits one read: a sharded parent's copies always fan out.
  if (atomicEdges <= 0 || copy.edges.length !== 1) return null;
  return untilFresh(
    store,
    async () => {
      const [entity, edges] = await Promise.all([getItem(store, key), edgePage(store, copy.edges[0]!, atomicEdges + 1)]);
      if (entity === null || gone(entity)) throw notFound(`${what} not found`);
      if (edges.next !== undefined || edges.items.length > atomicEdges) return null;
      const stale = edges.items.filter((edge) => isStale(edge, copy));
      const cancelled = await tryTransact(store, [
        { Update: entityUpdate(store.tableName, store.plan.keys, key, change) },
        ...stale.map((edge) => ({ Update: editEdge(store.tableName, store.plan.keys, edge, copy) })),
      ]);
      if (cancelled === null) return applied(entity, change);
      if (cancelled.failed(0)) throw notFound(`${what} not found`);
      // An edge was deleted between the read and the transaction: read again.
      return READ_AGAIN;
    },
    () => null,
  );
}

/** Reads the entity: NOT_FOUND when it is absent or being deleted. */
async function current(store: Store, key: ItemKey, what: string): Promise<Item> {
  const entity = await getItem(store, key);
  if (entity === null || gone(entity)) throw notFound(`${what} not found`);
  return entity;
}

/**
 * Updates the entity and the copies of the changed copied fields
 * (`copied`, with the values requested).
 */
async function update(
  store: Store,
  key: ItemKey,
  id: string,
  what: string,
  requested: Change,
  copied: readonly { source: CopySource; value: string }[],
  collectionsOf: (source: CopySource, entity: Item) => readonly Collection[],
): Promise<Item> {
  const stream = store.fanOut === 'stream';
  // No copied value in the input: nothing to compare or propagate, the entity alone in one UpdateItem.
  // An input that sets nothing (`input: {}`) changes nothing: the entity as it is.
  if (copied.length === 0) return isEmpty(requested) ? current(store, key, what) : updateEntity(store, key, what, requested);
  const entity = await current(store, key, what);
  const change = effective(entity, requested, copied.map((c) => c.source), stream);
  if (stream) return isEmpty(change) ? entity : updateEntity(store, key, what, change);

  // One Copy per relation whose edges carry copies of the changed fields.
  const byRelation = new Map<string, Copy>();
  for (const { source, value } of copied) {
    const known = byRelation.get(source.via.path);
    const field = { attr: source.field, value, copyAttr: source.copyAttr };
    byRelation.set(source.via.path, known ? { ...known, fields: [...known.fields, field] } : { fields: [field], edges: collectionsOf(source, entity) });
  }
  const copies = [...byRelation.values()];
  // The value is already the entity's: only copies a crashed fan-out missed may need it.
  const atomically = isEmpty(change) || copies.length !== 1 ? null : await updateAtomically(store, key, what, change, copies[0]!);
  const updated = atomically ?? (isEmpty(change) ? entity : await updateEntity(store, key, what, change));
  let latest: Item | null = null;
  for (const copy of copies) latest = await settleCopies(store, key, copy);
  // The entity as this update left it; newer when a concurrent write has changed it since.
  const changedField = copies[0]!.fields[0]!.attr;
  return latest && latest[changedField] !== undefined && !gone(latest) ? latest : updated;
}

/**
 * The index key attributes an update input changes (update.ts writes them
 * again in its UpdateItem): those written from a template holding a field
 * the input gives. Such a template's other fields must be given with it:
 * the attribute is written whole, from values the request holds (no read),
 * so a part of them is BAD_USER_INPUT before any request, naming the
 * missing ones, as ElectroDB refuses a patch of part of a key's composite
 * attributes. (The model check makes sure the input can hold them.)
 */
function touchedKeyParts(t: TypeWrites, input: Record<string, unknown>): IndexKeyPart[] {
  const touched: IndexKeyPart[] = [...touchedShapes(t, input)];
  for (const part of t.indexParts) {
    if (part.when) continue;
    const given = part.fields.filter((f) => input[f.name] !== undefined);
    if (given.length === 0) continue;
    const missing = part.fields.filter((f) => input[f.name] === undefined).map((f) => f.name);
    if (missing.length > 0) {
      const named = given.map((f) => `input.${f.name}`).join(', ');
      throw badUserInput(
        `${named} ${given.length === 1 ? 'is' : 'are'} in ${t.item.name}'s key in the index ${part.index} ("${part.template.source}"), written whole: give ${missing.map((m) => `input.${m}`).join(', ')} too`,
        `input.${missing[0]}`,
      );
    }
    touched.push(part);
  }
  return touched;
}

/**
 * The parts of when: shapes an update input touches (its when field, or a
 * field of either shape's keys): the input must give the when field (set,
 * or null to clear it), since the request reads nothing to learn which
 * shape the item is in; then the shape that holds is written whole, its
 * fields given or known as for any index key (BAD_USER_INPUT otherwise).
 * Both shapes write the index's own attributes, so the one written
 * replaces the other's key in the same UpdateItem.
 */
function touchedShapes(t: TypeWrites, input: Record<string, unknown>): IndexKeyPart[] {
  const shaped = t.indexParts.filter((p) => p.when);
  const touched: IndexKeyPart[] = [];
  for (const index of new Set(shaped.map((p) => p.index))) {
    const parts = shaped.filter((p) => p.index === index);
    const when = parts[0]!.when!.field;
    const given = parts.some((p) => p.fields.some((f) => input[f.name] !== undefined)) || input[when.name] !== undefined;
    if (!given) continue;
    if (input[when.name] === undefined) {
      throw badUserInput(`${t.item.name}'s key in the index ${index} has shapes chosen by ${when.name}: an update changing a field of that key gives input.${when.name} too (null when it is not set)`, `input.${when.name}`);
    }
    const set = input[when.name] !== null;
    for (const part of parts.filter((p) => p.when!.set === set)) {
      const missing = part.fields.filter((f) => input[f.name] === undefined || input[f.name] === null).map((f) => `input.${f.name}`);
      if (missing.length > 0) {
        throw badUserInput(`${t.item.name}'s key in the index ${index} is then "${part.template.source}", written whole: give ${missing.join(', ')}`, missing[0]!);
      }
      touched.push(part);
    }
  }
  return touched;
}

/**
 * The index key attributes of `parts` in `change`: each filled from the
 * changed fields (as stored) and what the key holds (id, parent, key
 * fields); removed when one of its fields is cleared, so the item leaves
 * that index.
 */
function moveInIndexes(t: TypeWrites, parts: readonly IndexKeyPart[], change: Change, keyValues: Readonly<Record<string, unknown>>): void {
  const type = t.item.type;
  for (const part of parts) {
    if (part.fields.some((f) => change.remove.includes(f.storedAs))) {
      change.remove.push(part.attribute);
      continue;
    }
    const values: Record<string, string> = {};
    for (const p of part.template.placeholders) {
      const field = part.fields.find((f) => f.name === p);
      values[p] = templateText(type, p, field ? change.set[field.storedAs] : keyValues[p]);
    }
    change.set[part.attribute] = part.template.fill(values);
  }
}

function required(value: unknown, argumentName: string): unknown {
  if (value === null) throw badUserInput(`${argumentName} cannot be null (it can be changed, not cleared)`, argumentName);
  return value;
}

/**
 * Updates the item `id` of `typeName` with `input` (absent fields are left
 * as they are; null clears an optional one); returns its record.
 */
export async function updateItem(
  store: Store,
  typeName: string,
  id: string,
  input: Record<string, unknown>,
  parent: { id: unknown; argument: string | null; fields?: Readonly<Record<string, unknown>> } = { id: undefined, argument: null },
): Promise<ItemRecord> {
  const plan = planOf(store);
  const t = writePlanOf(plan).type(typeName);
  t.item.checkId(id);
  const keyParts = touchedKeyParts(t, input);
  const change: Change = { set: {}, remove: [] };
  const referredId = (target: string, value: unknown, name: string) => checkedId(plan, target, value, name);
  for (const a of t.item.type.attributes) {
    const given = input[a.name];
    if (given === undefined) continue;
    const argumentName = `input.${a.name}`;
    // The change names stored attributes (@attribute(name:)), as the item holds them.
    if (a.required) change.set[a.storedAs] = attributeValue(a, required(given, argumentName), argumentName, referredId);
    else if (given === null) change.remove.push(a.storedAs);
    else change.set[a.storedAs] = attributeValue(a, given, argumentName, referredId);
  }
  // The catalog entry moves with its field (same shard: it depends on the id). GSI2PK is left as it is:
  // an item not yet indexed stays out of the index (and its counter) until `npm run migrate` adds it.
  const by = t.catalog ? storedName(t.item.type, t.catalog.field.by) : undefined;
  if (by !== undefined && typeof change.set[by] === 'string') {
    change.set.GSI2SK = catalogEntrySortKey(t.catalog!.spec, id, change.set[by] as string);
  }
  // An item keyed by instant in GSI2: its sort key follows the instant field (GSI2PK depends on the keys alone).
  const byInstant = t.item.type.byInstant;
  const instant = byInstant ? sortableInstant(change.set[storedName(t.item.type, byInstant.by)]) : null;
  if (instant !== null) change.set.GSI2SK = `${instant}#${id}`;
  const copied = t.copies.flatMap((source) =>
    typeof change.set[source.field] === 'string' ? [{ source, value: change.set[source.field] as string }] : [],
  );
  // A child's key holds its parent's id (child.ts finds an inverted child's parent when it is not given).
  const located = await locate(store, t, id, parent.id, parent.argument, parent.fields);
  const key = located.key;
  if (keyParts.length > 0) moveInIndexes(t, keyParts, change, keyValuesOf(t, id, located, parent.fields));
  const stored = await update(store, key, id, `${typeName} ${id}`, change, copied, (source, entity) => copyCollections(t, source, id, entity));
  return t.item.map(stored);
}
