/**
 * Writes that name a child item (a type with a @parent): where it is, and
 * its @delete.
 *
 * locate(): a child's key needs its parent's id, given as the `parent`
 * argument; an inverted child type may leave it out and is found by its
 * id alone with one GSI1 Query (eventually consistent: a child created a
 * moment ago may be NOT_FOUND; the write that follows is conditional on
 * the table either way).
 * deleteChild(): the child, the parent's counter (the parent read first,
 * consistently) and an inverted type's id claim (create.ts), in one
 * transaction. A child with children of its own is marked and emptied
 * first (cascade.ts).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { idClaimKey, type ItemKey } from '../dynamo/keys.js';
import { notFound } from '../errors.js';
import { validateId } from '../connections/args.js';
import { counterOrCheck } from './conditions.js';
import { findInverted, isConditionFailed, parentKeyOf } from './create.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, planOf, type Store } from './store.js';
import { tryTransact } from './transact.js';
import type { TypeWrites } from './writePlan.js';

export interface Located {
  key: ItemKey;
  parentId: string | undefined;
}

/**
 * The key of the item `id` of `t` (under `parentId`, for a child type; with
 * `fields`, the values of the fields its key holds); NOT_FOUND when an
 * inverted child is not found by its id.
 */
export async function locate(
  store: Store,
  t: TypeWrites,
  id: string,
  parentId: unknown,
  parentArgument: string | null,
  fields?: Readonly<Record<string, unknown>>,
): Promise<Located> {
  const type = t.item.type;
  if (t.item.derived) {
    // The id holds the parent's id: an argument naming another parent is not read.
    const values = t.item.derived.values(id);
    return { key: t.item.key(id), parentId: type.parent ? values[type.parent.field] : undefined };
  }
  if (!type.parent) return { key: t.item.key(id, undefined, fields), parentId: undefined };
  if (typeof parentId === 'string') {
    const parent = validateId(parentId, parentArgument ?? type.parent.field);
    return { key: t.item.key(id, parent, fields), parentId: parent };
  }
  const found = await findInverted(store, type.name, id);
  if (!found) throw notFound(`${type.name} ${id} not found`);
  return { key: t.item.key(id, found.parentId), parentId: found.parentId };
}

/** Deletes the child at `located` with its parent's counter; returns its id. */
export async function deleteChild(store: Store, t: TypeWrites, id: string, located: Located): Promise<string> {
  const type = t.item.type;
  const keys = store.plan.keys;
  if (!planOf(store).items.has(type.parent!.type)) {
    // A keyless parent holds no counter: the child goes on its own.
    try {
      await store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: keys.key(located.key), ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: keys.pkName }));
    } catch (err) {
      if (isConditionFailed(err)) throw notFound(`${type.name} ${id} not found`);
      throw err;
    }
    return id;
  }
  const parentKey = await parentKeyOf(store, type.parent!.type, located.parentId!);
  const counter = t.parentRelation?.counter ?? null;
  const what = `${type.name} ${id}`;
  const claim = type.inverted ? idClaimKey(type.sk.prefix, type.sk.cased(id)) : null;
  await untilFresh(store, async () => {
    const seen = await getItem(store, parentKey);
    if (seen === null) throw notFound(`${what} not found`);
    const cancelled = await tryTransact(store, [
      { Delete: { TableName: store.tableName, Key: keys.key(located.key), ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: keys.pkName } },
      counterOrCheck(store.tableName, keys, { key: parentKey, seen, counter, delta: -1 }),
      ...(claim ? [{ Delete: { TableName: store.tableName, Key: keys.key(claim) } }] : []),
    ]);
    if (cancelled === null) return true;
    if (cancelled.failed(0)) throw notFound(`${what} not found`);
    // The parent changed (its counter appeared or vanished, or it was deleted): read again.
    if (cancelled.failed(1)) return READ_AGAIN;
    throw cancelled;
  });
  return id;
}
