/**
 * Writes that name a child item (a type with a @parent): where it is, and
 * its @delete.
 *
 * locate(): a child's key needs its parent's id, given as the `parent`
 * argument; an inverted child type may leave it out and is found by its
 * id alone with one GSI1 Query (eventually consistent: a child created a
 * moment ago may be NOT_FOUND; the write that follows is conditional on
 * the table either way).
 * deleteChild(): the child, the parent's counter (the parent not read:
 * counts.ts) and an inverted type's id claim (create.ts), in one
 * transaction (remove.ts). A child with children of its own is marked and
 * emptied first (cascade.ts).
 */
import { idClaimKey, type ItemKey } from '../dynamo/keys.js';
import { notFound } from '../errors.js';
import { validateId } from '../connections/args.js';
import { findInverted, parentKeyOf } from './create.js';
import { removeAlone } from './remove.js';
import { planOf, type Store } from './store.js';
import type { TypeWrites } from './writePlan.js';
import { parentIdOf } from '../plan/itemPlan.js';

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
    return { key: t.item.key(id), parentId: parentIdOf(type, values) };
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

/**
 * The values an item's key holds, by field: a derived id's values, else
 * the fields given to find it (and its parent's id): where a delete finds
 * the referred ids of counted references the key holds.
 */
export function keyValuesOf(t: TypeWrites, id: string, located: Located, fields?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (t.item.derived) return t.item.derived.values(id);
  const parentField = t.item.type.parent?.field;
  return { ...fields, id, ...(parentField !== undefined && located.parentId !== undefined ? { [parentField]: located.parentId } : {}) };
}

/**
 * Deletes the child at `located` with its parent's counter and its
 * counted references' counts, in one transaction (one DeleteItem when
 * neither moves: no counter, or a keyless parent); returns its id.
 */
export async function deleteChild(store: Store, t: TypeWrites, id: string, located: Located, fields?: Readonly<Record<string, unknown>>): Promise<string> {
  const type = t.item.type;
  const what = `${type.name} ${id}`;
  // Only a counter on the parent moves with a child's delete: without one, the delete is the child's alone (an orphan's too).
  const counter = t.parentRelation?.counter ?? null;
  const parentKey = counter !== null && planOf(store).items.has(type.parent!.type) ? await parentKeyOf(store, type.parent!.type, located.parentId!) : null;
  await removeAlone(store, {
    t,
    id,
    key: located.key,
    keyValues: keyValuesOf(t, id, located, fields),
    ...(parentKey ? { parent: { key: parentKey, counter, delta: -1, needed: `${what} not found` } } : {}),
    // The id claim goes with it, so the id can be used again.
    ...(type.inverted ? { also: [idClaimKey(type.sk.prefix, type.sk.cased(id))] } : {}),
  });
  return id;
}
