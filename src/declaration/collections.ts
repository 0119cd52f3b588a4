/**
 * Phase 6b: collections. A connection field whose node type is a union or
 * an interface of item types, bound by @query, lists the items of every
 * member in one partition of the table or of an index (`index:`), in key
 * order, one Query a page. The members must share the partition: their pk
 * templates there equal up to placeholder names (residents.ts). The page's
 * key condition is the partition, and on the sort key the narrowest range
 * covering every member: their common literal prefix (begins_with), else a
 * BETWEEN from the lowest member's prefix to past the highest one's.
 *
 * What else the partition holds inside that range is decided here, once:
 * a kind of item a partition holds one of at most (`META`, or a sort key
 * naming only what the partition key does) is read past, each page asking
 * for one item more per such kind; a type or
 * an edge kind with many items a partition is refused (its items would
 * cost reads without bound): include it in the node type, or give it a
 * sort-key prefix outside the range. Two members whose keys could match
 * the same text are refused by the partition check (partitions.ts).
 *
 * On Query the arguments fill the partition's placeholders by the name of
 * any member's placeholder there (`owner`/`ownerId`, `repoOwner`/…); on a
 * type, the parent fills them: with its own key's values where the parent
 * type is itself in that partition, with its id where every member names
 * it (its @parent field, or a reference to its type), else an argument.
 */
import {
  isAbstractType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { CollectionField, CollectionPass, CollectionMember, CollectionSlot, ItemType, Layout } from './model.js';
import type { ModelReading } from './reading.js';
import type { Problems } from './problems.js';
import { connectionShape, unwrap, type Field } from './schemaShape.js';
import type { Annotations } from './annotations.js';
import { readAccess } from './access.js';
import { keyIn, numberSort } from './indexed.js';
import { intersects, intervalOf, prefixInterval, residentsOf, shapeOf, singular, type IndexPartitions, type KeyInterval } from './residents.js';

const PAGE_ARGUMENTS = ['first', 'after', 'last', 'before'];

/** Is this connection field one over a union or interface (a collection), read here and not as a relation? */
export function isCollectionField(field: Field): boolean {
  const shape = connectionShape(unwrap(field.type).named);
  return shape !== null && isAbstractType(shape.node);
}

export function readCollections(reading: ModelReading): Map<string, CollectionField> {
  const { schema, notes, items, relations, layout, problems, keyless } = reading;
  const collections = new Map<string, CollectionField>();
  const partitions = residentsOf(items, relations, layout);
  const query = schema.getQueryType();
  const owners: GraphQLObjectType[] = [
    ...(query ? [query] : []),
    ...[...items.keys(), ...keyless.keys()].map((name) => schema.getType(name) as GraphQLObjectType),
  ];
  for (const owner of owners) {
    for (const field of Object.values(owner.getFields())) {
      if (!isCollectionField(field)) continue;
      const read = readCollection(
        { schema, notes, items, layout, problems, partitions },
        owner,
        field,
        owner === query ? null : (items.get(owner.name) ?? null),
      );
      if (read) collections.set(read.path, read);
    }
  }
  return collections;
}

interface Reading {
  schema: GraphQLSchema;
  notes: Annotations;
  items: ReadonlyMap<string, ItemType>;
  layout: Layout;
  problems: Problems;
  partitions: ReadonlyMap<string | null, IndexPartitions>;
}

function readCollection(reading: Reading, owner: GraphQLObjectType, field: Field, ownerItem: ItemType | null): CollectionField | null {
  const { schema, notes, items, problems, layout } = reading;
  const path = `${owner.name}.${field.name}`;
  const shape = connectionShape(unwrap(field.type).named)!;
  const used = notes.field(field).uses.filter((d) => ['children', 'edges', 'query'].includes(d));
  const add = (where: string, message: string) => problems.add(where, message, field.astNode);
  if (used.length === 0 || used.some((d) => d !== 'query')) {
    const other = used.find((d) => d !== 'query');
    add(
      path,
      other
        ? `@${other} reads one item type; a connection over the ${kindOf(shape.node)} ${shape.node.name} is read with @query`
        : `no directive binds this connection field: add @query`,
    );
    return null;
  }
  const args = notes.field(field).read!;
  const index = args.index;
  const where = `${path} @query${index === null ? '' : `(index: "${index}")`}`;
  for (const name of ['from', 'until', 'filter'] as const) {
    if (args[name] !== undefined && args[name] !== null)
      add(`${where}(${name})`, `a collection over the ${kindOf(shape.node)} ${shape.node.name} reads whole partitions: ${name} is not supported on it`);
  }
  const argNames = field.args.map((a) => a.name);
  for (const name of PAGE_ARGUMENTS) if (!argNames.includes(name)) add(path, `a connection field takes first, after, last and before (missing ${name})`);
  const extra = Object.keys(shape.edge.getFields()).filter((f) => f !== 'cursor' && f !== 'node');
  if (extra.length > 0) add(`${shape.edge.name}.${extra[0]}`, `the edge type of a collection holds cursor and node only (its edges are the items themselves)`);
  if (index !== null && !layout.indexes.some((i) => i.name === index)) {
    add(where, `names no index the model declares (${layout.indexes.map((i) => i.name).join(', ') || 'none'})`);
    return null;
  }
  const members = readMembers(reading, shape.node, index, where, add);
  if (members === null) return null;
  const residents = reading.partitions.get(index)?.get(shapeOf(members[0]!.pk)) ?? [];
  const range = coveringRange(members);
  const passes: CollectionPass[] = [];
  for (const resident of residents) {
    if (resident.type !== null && members.some((m) => m.type === resident.type!.name)) continue;
    if (!intersects(intervalOf(resident.sk), range)) continue;
    // One item a partition at most: read past, each page asking for one more.
    if (singular(resident)) passes.push({ pk: resident.pk, sk: resident.sk });
    else {
      const fix = resident.type
        ? `add ${resident.name} to ${shape.node.name}, or give it a sort-key prefix outside that range`
        : `give these edges a sort-key prefix outside that range`;
      add(
        where,
        `the partition "${shapeOf(members[0]!.pk)}" of ${index ?? 'the table'} also holds ${resident.what}, whose sort keys fall inside the members' range ("${printable(range.lo)}" to "${printable(range.hi)}"): ${fix}`,
      );
    }
  }
  const slots = readSlots(reading, { field, path, where, ownerItem, owner: owner.name }, members, index, add);
  const prefix = commonPrefix(members.map((m) => m.sk.prefix));
  const whole = prefixInterval(prefix);
  const key = keyIn(items.get(members[0]!.type)!, index, layout)!;
  return {
    owner: owner.name,
    field: field.name,
    path,
    root: owner === schema.getQueryType(),
    connectionType: unwrap(field.type).named.name,
    edgeType: shape.edge.name,
    node: shape.node.name,
    index,
    pkAttr: key.pkAttr,
    skAttr: key.skAttr,
    members: orderForMatching(members),
    slots: slots ?? [],
    prefix,
    range: range.lo === whole.lo && range.hi === whole.hi ? null : range,
    passes,
    descending: args.order === 'DESCENDING',
    access: readAccess(notes.field(field).access, field, path, problems),
  };
}

const kindOf = (t: GraphQLNamedType) => (isUnionType(t) ? 'union' : 'interface');

/** Text with control characters escaped, for messages (a range may end in U+0000). */
const printable = (s: string) => JSON.stringify(s).slice(1, -1);

/** The member item types and their keys in the index, all in one partition shape; null when refused. */
function readMembers(
  reading: Reading,
  node: GraphQLNamedType,
  index: string | null,
  where: string,
  add: (where: string, message: string) => void,
): CollectionMember[] | null {
  const { schema, items, layout } = reading;
  const possible = isUnionType(node) ? node.getTypes() : isInterfaceType(node) ? schema.getPossibleTypes(node) : [];
  const members: CollectionMember[] = [];
  let ok = possible.length > 0;
  if (!ok) add(where, `the ${kindOf(node)} ${node.name} has no object type to list`);
  for (const t of possible) {
    const item = items.get(t.name);
    if (!item || !isObjectType(t)) {
      add(where, `${t.name} (in ${node.name}) is no @item type: a collection lists items`);
      ok = false;
      continue;
    }
    const key = keyIn(item, index, layout);
    if (!key) {
      add(
        where,
        `${t.name} (in ${node.name}) has no key with a sort attribute in ${index ?? 'the table'}, so it is in no partition there (declare it with @indexed)`,
      );
      ok = false;
    } else if (key.pkMore.length > 0 || key.skMore.length > 0) {
      add(where, `${t.name}'s key in ${index} has several attributes: a collection reads keys of one partition and one sort attribute`);
      ok = false;
    } else if (numberSort(item, key)) {
      add(where, `${t.name}'s sort key in ${index} holds numbers: a collection orders its members by the text of their sort keys`);
      ok = false;
    } else members.push({ type: item.name, pk: key.pk, sk: key.sk });
  }
  if (!ok) return null;
  const first = members[0]!;
  for (const m of members.slice(1)) {
    if (shapeOf(m.pk) !== shapeOf(first.pk)) {
      add(
        where,
        `${first.type} and ${m.type} (in ${node.name}) are in no one partition of ${index ?? 'the table'}: their partition keys there are "${first.pk.source}" and "${m.pk.source}"`,
      );
      ok = false;
    }
  }
  return ok ? members : null;
}

/** The range [lo, hi) covering every member's sort keys. */
function coveringRange(members: readonly CollectionMember[]): KeyInterval {
  const intervals = members.map((m) => intervalOf(m.sk));
  return {
    lo: intervals.map((i) => i.lo).reduce((a, b) => (b < a ? b : a)),
    hi: intervals.map((i) => i.hi).reduce((a, b) => (b > a ? b : a)),
  };
}

function commonPrefix(prefixes: readonly string[]): string {
  let common = prefixes[0]!;
  for (const p of prefixes) while (!p.startsWith(common)) common = common.slice(0, -1);
  // Never half a surrogate pair.
  return /[\ud800-\udbff]$/.test(common) ? common.slice(0, -1) : common;
}

/** Literal prefixes before a placeholder alone: a bare sort key (`{id}`) passes the others' prefixes by (skExcludes). */
const orderForMatching = (members: CollectionMember[]): CollectionMember[] => [...members].sort((a, b) => b.sk.prefix.length - a.sk.prefix.length);

/** Where each placeholder of the partition comes from; null (with problems) when one is filled by nothing. */
function readSlots(
  reading: Reading,
  on: { field: Field; path: string; where: string; ownerItem: ItemType | null; owner: string },
  members: readonly CollectionMember[],
  index: string | null,
  add: (where: string, message: string) => void,
): CollectionSlot[] | null {
  const { items, layout } = reading;
  const { field, path, where, ownerItem, owner } = on;
  const count = members[0]!.pk.placeholders.length;
  const argNames = field.args.map((a) => a.name);
  const usedArgs = new Set(PAGE_ARGUMENTS);
  const ownKey = ownerItem ? keyIn(ownerItem, index, layout) : null;
  const ownSlots = ownKey && ownKey.pkMore.length === 0 && shapeOf(ownKey.pk) === shapeOf(members[0]!.pk) ? ownKey.pk.placeholders : null;
  const slots: CollectionSlot[] = [];
  let ok = true;
  for (let i = 0; i < count; i++) {
    const names = [...new Set(members.map((m) => m.pk.placeholders[i]!))];
    if (ownSlots) {
      slots.push({ parentField: ownSlots[i]! });
      continue;
    }
    // Every member names the parent there: its @parent field, or a reference to the parent's type.
    const namesParent =
      !isRootOwner(reading, owner) &&
      members.every((m) => {
        const item = items.get(m.type)!;
        const p = m.pk.placeholders[i]!;
        return item.parent?.field === p ? item.parent.type === owner : item.attributes.some((a) => a.name === p && a.reference?.type === owner);
      });
    if (namesParent) {
      slots.push({ parentField: 'id' });
      continue;
    }
    const candidates = names.flatMap((n) => [n, `${n}Id`]);
    const given = candidates.filter((c) => argNames.includes(c));
    if (given.length === 1) {
      slots.push({ argument: given[0]! });
      usedArgs.add(given[0]!);
      const arg = field.args.find((a) => a.name === given[0])!;
      if (!isNonNullType(arg.type)) add(`${path}(${given[0]})`, `names the partition to read: make it non-null`);
      continue;
    }
    ok = false;
    const shape = shapeOf(members[0]!.pk);
    add(
      where,
      given.length === 0
        ? `no argument${ownerItem ? ` or value of ${owner}` : ''} fills {${names.join('}/{')}} of the partition "${shape}" (expected an argument ${candidates.join(' or ')})`
        : `${given.join(' and ')} both fill {${names.join('}/{')}} of the partition "${shape}": keep one`,
    );
  }
  for (const a of argNames) if (!usedArgs.has(a)) add(`${path}(${a})`, 'no directive reads this argument');
  return ok ? slots : null;
}

const isRootOwner = (reading: Reading, owner: string) => reading.schema.getQueryType()?.name === owner;
