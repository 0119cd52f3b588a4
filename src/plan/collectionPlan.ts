/**
 * A collection's plan (declaration/collections.ts): the partition its
 * slots' values name, read as one item collection over the members'
 * sort-key range (one Query a page, the singletons of other types read
 * past), each item resolved to its member type by its keys, and the count
 * of the range for totalCount.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import { partitionLabel } from '../dynamo/collection.js';
import type { TableKeys } from '../dynamo/keys.js';
import type { CollectionField, ItemType, Layout } from '../declaration/model.js';
import type { IndexPartitions } from '../declaration/residents.js';
import { intervalOf, prefixInterval, shapeOf } from '../declaration/residents.js';
import { invariant } from '../errors.js';
import { keyText, type ItemPlan } from './itemPlan.js';
import { parentIdProperty, type ItemRecord } from './records.js';
import type { RangeSource } from './sources.js';
import { compileBeside, type Beside } from './beside.js';

export interface CollectionPlan {
  field: CollectionField;
  /** `Owner.field`: cursors are bound to it. */
  path: string;
  /** The GraphQL connection type. */
  typeName: string;
  /** The partition its placeholders' values (in the slots' order) name. */
  collection(values: readonly string[]): Collection;
  /**
   * Each placeholder's value, in the slots' order: an argument's
   * (BAD_USER_INPUT for a bad one), or a field of the parent (its id, a
   * field of its key, its own parent's id); undefined when the parent's
   * record lacks one (a partial record: read it whole).
   */
  values(parent: Readonly<Record<string, unknown>> | null, args: Record<string, unknown>): string[] | undefined;
  /** The member an item of the partition is, or null (another program's item, another type's). */
  memberOf(item: Item): ItemPlan | null;
  /** A member's item → its edge, the node tagged with its type for the union's or interface's resolveType. */
  edge(item: Item): { node: ItemRecord };
  /**
   * What totalCount counts (Select: COUNT reads within the page read budget):
   * the range, less the keys inside it that are no member's (another type's
   * one item a partition, each counted on its own: a filter cannot name a key).
   */
  counted(collection: Collection): { whole: RangeSource; minus: RangeSource[] };
  /** On a type: how one of its entities and the first page are read in one Query, or null. */
  beside: Beside | null;
}

/** An argument filling a placeholder no member stores as a field (`{id}`, a parent's): text. */
const TEXT = { kind: 'String' } as const;

export function compileCollectionPlan(
  field: CollectionField,
  members: readonly ItemPlan[],
  owner: ItemType | null,
  partitions: ReadonlyMap<string | null, IndexPartitions>,
  layout: Layout,
  keys: TableKeys,
): CollectionPlan {
  const { index, pkAttr, skAttr, prefix, range, passes, path } = field;
  const template = field.members[0]!.pk;
  const byName = new Map(members.map((m) => [m.name, m]));
  const ordered = field.members.map((m) => ({ plan: byName.get(m.type)!, sk: m.sk }));
  invariant(
    ordered.every((m) => m.plan),
    `${path}: a member has no plan`,
  );
  const memberOf = (item: Item): ItemPlan | null => {
    const sk = item[skAttr];
    for (const m of ordered) if (m.sk.match(sk) !== null && m.plan.ids(item) !== null) return m.plan;
    return null;
  };
  const table = keys.names;
  const where = {
    ...(index === null ? {} : { index }),
    ...(field.descending ? { descending: true } : {}),
    ...(range === null ? {} : { range: { ...range, binding: '' } }),
  };
  /** A template of the partition's shape filled with the slots' values (each template names them its own way). */
  const fill = (pk: typeof template, t: typeof template, values: readonly string[]) =>
    t.fill(Object.fromEntries(pk.placeholders.map((p, i) => [p, values[i]!])));
  const collection = (values: readonly string[]): Collection => ({
    name: path,
    pkAttr,
    skAttr,
    pk: fill(template, template, values),
    prefix,
    table,
    accepts: (item) => memberOf(item) !== null,
    ...where,
    ...(passes.length > 0 ? { passes: passes.map((p) => fill(p.pk, p.sk, values)) } : {}),
  });
  const whole = range ?? prefixInterval(prefix);
  // BETWEEN counts the range's far end too: an item there is another kind's where a resident's keys may take that value.
  const residents = partitions.get(index)?.get(shapeOf(template)) ?? [];
  const farEnd = residents.some((r) => intervalOf(r.sk).lo <= whole.hi && whole.hi < intervalOf(r.sk).hi);
  return {
    field,
    path,
    typeName: field.connectionType,
    collection,
    values: slotValues(field, members),
    memberOf,
    edge: (item) => {
      const member = memberOf(item);
      invariant(member, `${path}: the item ${JSON.stringify(keys.keyOf(item))} is none of its members`);
      const node = member.map(item);
      node.__typename = member.name;
      return { node };
    },
    counted(c) {
      const source = (lo: string, hi: string): RangeSource => ({
        name: c.name,
        partition: partitionLabel(c.pk),
        ...(c.index === undefined ? {} : { index: c.index }),
        pkAttr,
        skAttr,
        pk: c.pk,
        lo,
        hi,
        filter: null,
        binding: '',
      });
      // Keys a FilterExpression cannot name: each one read past is counted on its own and taken off.
      const excluded = [...(c.passes ?? []), ...(farEnd ? [whole.hi] : [])];
      return { whole: source(whole.lo, whole.hi), minus: excluded.map((key) => source(key, key)) };
    },
    beside: owner === null ? null : compileBeside(owner, { index, pk: template, range: whole }, partitions, layout),
  };
}

/** The values naming a collection's partition for one parent and the arguments (undefined when the parent lacks one). */
function slotValues(field: CollectionField, members: readonly ItemPlan[]): CollectionPlan['values'] {
  // The kind of the field an argument fills, from the first member holding it: a DateTime is written in its key's form.
  const argumentKinds = field.slots.map((slot, i) => {
    if (!('argument' in slot)) return null;
    for (const m of field.members) {
      const a = members.find((p) => p.name === m.type)!.type.attributes.find((x) => x.name === m.pk.placeholders[i]);
      if (a) return a;
    }
    return null;
  });
  return (parent, args) => {
    const values: string[] = [];
    for (let i = 0; i < field.slots.length; i++) {
      const slot = field.slots[i]!;
      if ('argument' in slot) {
        values.push(keyText(argumentKinds[i] ?? TEXT, args[slot.argument], slot.argument));
        continue;
      }
      const value = parent?.[slot.parentField] ?? parent?.[parentIdProperty(slot.parentField)];
      if (typeof value === 'string') values.push(value);
      else if (typeof value === 'number') values.push(String(value));
      else return undefined;
    }
    return values;
  };
}
