/**
 * Phase 5c: what a create or delete writes besides its item, declared on
 * the item's fields (docs/model.md, "Counters on references and
 * sequences"):
 * - @attribute(counter:) on a reference: the referred item keeps the count
 *   of the items referring to it, moved in the transaction of each create
 *   and delete of one. The referred type must be found by its id alone
 *   with no read (a top-level type, or one whose id is derived from its
 *   key), so the count is one item of the transaction; the counter is an
 *   attribute of that item no other meaning holds (a field of it only
 *   when an Int, which no input then sets).
 * - @attribute(sequence:, pad:) on an Int field of a child type: the
 *   parent's attribute holding the last number given; a create takes the
 *   next one (UpdateItem ADD, before the item is put).
 * Each mistake is one problem naming the field and the argument.
 */
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { ItemType } from './model.js';
import type { Problems } from './problems.js';
import { BOOKKEEPING_ATTRIBUTES, KEY_ATTRIBUTES } from './storedNames.js';

/** What else, on the item of `type`, an attribute named `name` already is; null when it is free. */
function meaningOf(type: ItemType, name: string, tableKeys: ReadonlySet<string>): string | null {
  if (KEY_ATTRIBUTES.includes(name as never) || tableKeys.has(name)) return 'a key attribute';
  if (BOOKKEEPING_ATTRIBUTES.includes(name as never)) return 'an attribute the gateway keeps';
  const relation = type.relations.find((r) => r.counter === name);
  if (relation) return `the counter of ${relation.path}`;
  for (const placement of type.indexed) {
    if ([...placement.pk, ...placement.sk].some((p) => p.written && p.attribute === name)) return `a key attribute of the index ${placement.index}`;
  }
  return null;
}

export function checkCountedReferences(schema: GraphQLSchema, items: ReadonlyMap<string, ItemType>, tableKeys: ReadonlySet<string>, problems: Problems): void {
  const node = (type: string, field: string) => (schema.getType(type) as GraphQLObjectType | undefined)?.getFields()[field]?.astNode;
  // What each counter or sequence claimed on its item type, in declaration order: a second claim of one name is refused.
  const claimed = new Map<string, string>();
  const claim = (target: ItemType, attribute: string, use: string, where: string, astNode: ReturnType<typeof node>): boolean => {
    const meaning = claimed.get(`${target.name}.${attribute}`) ?? meaningOf(target, attribute, tableKeys);
    if (meaning !== null) {
      problems.add(where, `${target.name}'s attribute ${attribute} is already ${meaning}: name it otherwise`, astNode);
      return false;
    }
    claimed.set(`${target.name}.${attribute}`, use);
    return true;
  };
  for (const item of items.values()) {
    for (const a of item.attributes) {
      const at = node(item.name, a.name);
      if (a.counter !== undefined && a.reference) {
        const where = `${item.name}.${a.name} @attribute(counter)`;
        const target = items.get(a.reference.type);
        if (!target) problems.add(where, `${a.reference.type} is keyless: it has no item to hold a counter`, at);
        else if (target.parent && !target.derivedId) {
          problems.add(
            where,
            `${target.name} is a child type, whose key needs its parent's id: a count is kept without a read only on a type found by its id alone (top-level, or with an id derived from its key)`,
            at,
          );
        } else {
          const field = target.attributes.find((f) => f.storedAs === a.counter);
          if (field && (field.kind !== 'Int' || field.shape || field.reference)) {
            problems.add(
              where,
              `${target.name}.${field.name} is stored under ${a.counter} and is ${field.kind}: a counter is an Int field, or an attribute no field names`,
              at,
            );
          } else if (claim(target, a.counter, `the counter of ${item.name}.${a.name}`, where, at)) {
            (target.countedBy ??= []).push({ type: item.name, field: a.name, counter: a.counter });
          }
        }
      }
      if (a.sequence !== undefined) {
        const where = `${item.name}.${a.name} @attribute(sequence)`;
        const parent = item.parent ? items.get(item.parent.type) : undefined;
        if (!item.parent) problems.add(where, `${item.name} has no @parent: a sequence takes its numbers from an attribute of the parent item`, at);
        else if (!parent) problems.add(where, `${item.name}'s parent ${item.parent.type} is keyless: it has no item to hold the sequence`, at);
        else {
          const field = parent.attributes.find((f) => f.storedAs === a.sequence!.attribute);
          if (field)
            problems.add(where, `${parent.name}'s attribute ${a.sequence.attribute} is already the field ${parent.name}.${field.name}: name it otherwise`, at);
          else claim(parent, a.sequence.attribute, `the sequence of ${item.name}.${a.name}`, where, at);
        }
      }
    }
  }
}
