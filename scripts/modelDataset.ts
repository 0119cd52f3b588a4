/**
 * A synthetic data set for whatever model is declared (SCHEMA_FILE), in
 * that model's table layout, for `npm run seed`.
 *
 * In:  the model's plan and a shape: how many items of each top-level type
 *      (`--count User=1000`), how many children or edges per item of a
 *      relation (`--per User.orders=5`, `--per User.groups=3`, or the
 *      inverse side `--per Group.members=40`), how ids are made per type
 *      (`--ids Order=date`), and a seed.
 * Out: every item, and the counts per type and relation.
 *
 * Invariants (what the gateway's own writes keep, and test/support's layout
 * check verifies): keys from the plan's templates; inverted types carry
 * GSI1PK = SK, GSI1SK = PK (the table's keys, as @table names them); every
 * edge is keyed as its relation declares, with GSI1 keys where an inverse
 * side reads GSI1 and its mirror beside it for a mirrored pair, and carries
 * its copies of the node fields and its @createdAt; counters equal the children and edges
 * written; an edge leading to a write-sharded parent carries the copy of
 * its (absent = 1) shard count; @catalog types carry their GSI2 entry and
 * each catalog shard its counter item; types keyed by instant their GSI2 keys.
 * The same shape and seed give the same items.
 *
 * Values: text fields `<Type> <n>` (`email` fields `<id>@example.com`),
 * numbers small and random, DateTime fields and @createdAt the item's
 * instant (a minute apart in the order written), enums their first value.
 * Ids: `seq` (`<type><n>`, zero-padded: the default of top-level types),
 * `ulid` (time-ordered, as the gateway generates them: the default of
 * child types), `date` (yyyy-mm-dd, one a day from 2025-01-01 per parent,
 * for ids that are dates such as the example model's orders).
 */
import { Kind, type DocumentNode, type TypeNode } from 'graphql';
import { encodeTime } from 'ulid';
import type { Item } from '../src/dynamo/batchGet.js';
import { CATALOG_COUNT_ATTR, catalogEntryKeys, catalogEntryShard, catalogShardCounterKey, sortableInstant } from '../src/dynamo/keys.js';
import { writtenBeside, type Attribute } from '../src/declaration/model.js';
import type { Plan } from '../src/plan/plan.js';
import type { ItemPlan } from '../src/plan/itemPlan.js';
import type { RelationPlan } from '../src/plan/relationPlan.js';
import { writePlanOf } from '../src/writes/writePlan.js';

export type IdStyle = 'seq' | 'ulid' | 'date';
export const ID_STYLES: readonly IdStyle[] = ['seq', 'ulid', 'date'];

export interface ModelShape {
  /** Items of each top-level type (no @parent); default DEFAULT_COUNT. */
  counts: Record<string, number>;
  /** Children or edges per owner item, by `Owner.field`; default DEFAULT_PER. */
  per: Record<string, number>;
  ids: Record<string, IdStyle>;
  seed: number;
}

export const DEFAULT_COUNT = 100;
export const DEFAULT_PER = 3;

export interface ModelDataset {
  items: Item[];
  /** Items per type and edges per (base) relation. */
  counts: Record<string, number>;
  /** Ids of each top-level type's items, in the order written. */
  ids: Record<string, string[]>;
}

/** Problems with a shape for this model (unknown types or relations, counts of child types, …): one line each. */
export function shapeProblems(plan: Plan, shape: ModelShape): string[] {
  const problems: string[] = [];
  for (const type of Object.keys(shape.counts)) {
    const item = plan.items.get(type);
    if (!item) problems.push(`--count ${type}: the model has no @item type ${type} (it has ${[...plan.items.keys()].join(', ')})`);
    else if (item.type.parent)
      problems.push(`--count ${type}: ${type} is a child of ${item.type.parent.type}: give --per ${item.type.parent.type}.<its @children field> instead`);
  }
  for (const [path] of Object.entries(shape.per)) {
    if (!plan.relations.has(path))
      problems.push(`--per ${path}: the model has no @children or @edges field ${path} (it has ${[...plan.relations.keys()].join(', ')})`);
  }
  for (const relation of plan.relations.values()) {
    const inverse = inverseOf(plan, relation);
    if (inverse && shape.per[relation.path] !== undefined && shape.per[inverse.path] !== undefined) {
      problems.push(`--per ${relation.path} and --per ${inverse.path} name the same edges: give one of them`);
    }
  }
  for (const type of Object.keys(shape.ids)) {
    if (!plan.items.has(type)) problems.push(`--ids ${type}: the model has no @item type ${type}`);
  }
  return problems;
}

/** mulberry32: a small seeded PRNG (values in [0, 1)). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The instant a data set's clock starts at. */
export const BASE = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
export const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** A ULID of `instant` with its random part from `random`: time-ordered, as the gateway generates them. */
export const ulidAt = (instant: number, random: () => number): string =>
  encodeTime(instant, 10) + Array.from({ length: 16 }, () => CROCKFORD[Math.floor(random() * 32)]).join('');

/**
 * The catalog counter items that match `items`: one per shard of each
 * @catalog of the plan, counting the entries (items of the listed type
 * carrying its GSI2 partition) in that shard. For loading a data set in one
 * go; live writes change the counters in their own transactions.
 */
export function catalogCounterItemsOf(plan: Plan, items: readonly Item[]): Item[] {
  const out: Item[] = [];
  for (const field of plan.catalogs) {
    const { spec } = plan.catalogOf(field.type)!;
    const type = plan.item(field.type);
    const perShard = new Array<number>(spec.shards).fill(0);
    for (const item of items) {
      if (typeof item.GSI2PK !== 'string' || !item.GSI2PK.startsWith(`${spec.key}#`)) continue;
      const ids = type.ids(item);
      if (ids) perShard[catalogEntryShard(spec, ids.id)]++;
    }
    perShard.forEach((count, shard) => out.push({ ...plan.keys.key(catalogShardCounterKey(spec, shard)), [CATALOG_COUNT_ATTR]: count }));
  }
  return out;
}

/** The first value of each enum the model declares, by enum name. */
function firstEnumValues(document: DocumentNode): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of document.definitions) {
    if (d.kind === Kind.ENUM_TYPE_DEFINITION && d.values?.length) out.set(d.name.value, d.values[0].name.value);
  }
  return out;
}

/** The named type of field `field` of object type `type` in the document (for enum attributes). */
function fieldTypeName(document: DocumentNode, type: string, field: string): string | null {
  const unwrap = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : unwrap(t.type));
  for (const d of document.definitions) {
    if (d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === type) {
      const f = d.fields?.find((x) => x.name.value === field);
      return f ? unwrap(f.type) : null;
    }
  }
  return null;
}

/** A data set being built: its seeded randomness and clock, the items made so far (by type, in order) and the counts. */
interface Building {
  plan: Plan;
  shape: ModelShape;
  random: () => number;
  enums: Map<string, string>;
  clock: number;
  /** Stored items by type, with their ids (and parents' ids), in the order made. */
  made: Map<string, { item: Item; id: string; parentId?: string }[]>;
  items: Item[];
  counts: Record<string, number>;
}

const nextInstant = (b: Building) => BASE + b.clock++ * 60_000;

/** An attribute's value for item `id` (the `ordinal`-th of its kind); null: left out. */
function valueOf(b: Building, owner: string, a: Attribute, { id, ordinal, instant }: { id: string; ordinal: number; instant: number }): unknown {
  switch (a.kind) {
    case 'Int':
      return 1 + Math.floor(b.random() * 9);
    case 'Float':
      return Math.round(b.random() * 50000) / 100;
    case 'Boolean':
      return false;
    case 'DateTime':
      return new Date(instant).toISOString();
    case 'Map':
    case 'List':
      return null;
    case 'enum':
      return b.enums.get(fieldTypeName(b.plan.model.document, owner, a.name) ?? '') ?? null;
    default:
      return /email/i.test(a.name) ? `${id}@example.com` : `${owner} ${ordinal}`;
  }
}

/** An item of `type` with its attributes, index keys, counters at 0 and catalog entry. */
function make(b: Building, type: ItemPlan, at: { id: string; ordinal: number; instant: number; parentId?: string }): Item {
  const { plan } = b;
  const { id, parentId } = at;
  const key = type.key(id, parentId);
  const item: Item = plan.keys.key(key);
  for (const a of type.type.attributes) {
    const v = valueOf(b, type.name, a, at);
    if (v !== null && v !== undefined) item[a.storedAs] = v;
  }
  Object.assign(item, writtenBeside(type.type, id, parentId));
  if (type.type.inverted) Object.assign(item, { GSI1PK: key.SK, GSI1SK: key.PK });
  for (const counter of type.counters) item[counter] = 0;
  const byInstant = type.type.byInstant;
  if (byInstant) {
    const sortable = sortableInstant(item[byInstant.by]);
    const parentField = type.type.parent?.field;
    if (sortable !== null)
      Object.assign(item, { GSI2PK: byInstant.pk.fill({ id, ...(parentField ? { [parentField]: parentId! } : {}) }), GSI2SK: `${sortable}#${id}` });
  }
  const catalog = plan.catalogOf(type.name);
  if (catalog && typeof item[catalog.field.by] === 'string') Object.assign(item, catalogEntryKeys(catalog.spec, id, item[catalog.field.by] as string));
  const list = b.made.get(type.name) ?? [];
  list.push({ item, id, parentId });
  b.made.set(type.name, list);
  b.items.push(item);
  b.counts[type.name] = (b.counts[type.name] ?? 0) + 1;
  return item;
}

function idOf(b: Building, type: ItemPlan, n: number, instant: number, width: number): string {
  const style = b.shape.ids[type.name] ?? (type.type.parent ? 'ulid' : 'seq');
  if (style === 'date') return new Date(BASE + n * DAY).toISOString().slice(0, 10);
  if (style === 'ulid') return ulidAt(instant, b.random);
  return `${type.name[0].toLowerCase()}${type.name.slice(1)}${pad(n, width)}`;
}

/** `count` items of `type` (under `parentId`, for a child type). */
function makeMany(b: Building, type: ItemPlan, count: number, parentId?: string): void {
  const width = Math.max(4, String(count).length);
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const instant = nextInstant(b);
    make(b, type, { id: idOf(b, type, ordinal, instant, width), ordinal, instant, parentId });
  }
}

/** Children: every item of the owner type gets `per` children, level by level. */
function makeChildren(b: Building): void {
  const childRelations = [...b.plan.relations.values()].filter((r) => r.relation.kind === 'children');
  const done = new Set<string>();
  while (done.size < childRelations.length) {
    // A relation is ready once its owner's items exist: top-level owners at once, child owners after the relation making them.
    const ready = childRelations.filter(
      (r) => !done.has(r.path) && (!r.owner.type.parent || childRelations.some((c) => done.has(c.path) && c.node.name === r.owner.name)),
    );
    if (ready.length === 0) break;
    for (const relation of ready) {
      done.add(relation.path);
      const per = b.shape.per[relation.path] ?? DEFAULT_PER;
      for (const owner of b.made.get(relation.owner.name) ?? []) {
        makeMany(b, relation.node, per, owner.id);
        if (relation.counter) owner.item[relation.counter] = per;
      }
    }
  }
}

/** Edges of a base @edges relation: one item per relationship, in the owner's partition (and its mirror's, if declared). */
function makeEdges(b: Building, relation: RelationPlan): void {
  const { plan, shape } = b;
  const r = relation.relation;
  if (r.kind !== 'edges') return;
  const inverse = inverseOf(plan, relation);
  const owners = b.made.get(relation.owner.name) ?? [];
  const nodes = b.made.get(relation.node.name) ?? [];
  const pairs: [number, number][] = [];
  if (inverse && shape.per[inverse.path] !== undefined) {
    // Given from the other side: each node item gets `per` owners.
    const per = Math.min(shape.per[inverse.path], owners.length);
    nodes.forEach((_, ni) => pickDistinct(b.random, owners.length, per).forEach((oi) => pairs.push([oi, ni])));
  } else {
    const per = Math.min(shape.per[relation.path] ?? DEFAULT_PER, nodes.length);
    owners.forEach((_, oi) => pickDistinct(b.random, nodes.length, per).forEach((ni) => pairs.push([oi, ni])));
  }
  const layoutCopy = inverse?.relation.kind === 'edges' ? (inverse.relation.sharded?.copy ?? null) : null;
  const pair = writePlanOf(plan).pair(relation.path);
  for (const [ordinal, [oi, ni]] of pairs.entries()) {
    const owner = owners[oi];
    const node = nodes[ni];
    const instant = nextInstant(b);
    // Keyed as the model declares (the owner's and node's PKs by default), with GSI1 keys where an inverse side reads them.
    const key = pair.edgeKey(owner.id, node.id);
    const edge: Item = { ...plan.keys.key(key), ...(pair.gsi1 ? { GSI1PK: key.SK, GSI1SK: key.PK } : {}) };
    for (const a of r.edgeAttributes) {
      const v = valueOf(b, r.edgeType, a, { id: `${owner.id}-${node.id}`, ordinal, instant });
      if (v !== null && v !== undefined) edge[a.storedAs] = v;
    }
    for (const copy of r.copies) if (node.item[copy.field] !== undefined) edge[copy.attribute] = node.item[copy.field];
    if (inverse?.relation.kind === 'edges') {
      for (const copy of inverse.relation.copies) if (owner.item[copy.field] !== undefined) edge[copy.attribute] = owner.item[copy.field];
    }
    if (layoutCopy) edge[layoutCopy] = 1;
    if (relation.counter) owner.item[relation.counter] = (owner.item[relation.counter] as number) + 1;
    if (inverse?.counter) node.item[inverse.counter] = (node.item[inverse.counter] as number) + 1;
    b.items.push(edge);
    // A mirrored pair's other item: the same attributes under the mirror's key.
    const mirror = pair.mirrorKey(owner.id, node.id);
    if (mirror)
      b.items.push({ ...Object.fromEntries(Object.entries(edge).filter(([k]) => k !== plan.keys.pk && k !== plan.keys.sk)), ...plan.keys.key(mirror) });
  }
  b.counts[relation.path] = pairs.length;
}

export function buildModelDataset(plan: Plan, shape: ModelShape): ModelDataset {
  const problems = shapeProblems(plan, shape);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const b: Building = { plan, shape, random: prng(shape.seed), enums: firstEnumValues(plan.model.document), clock: 0, made: new Map(), items: [], counts: {} };
  // Top-level types first, in declaration order.
  for (const type of plan.items.values()) if (!type.type.parent) makeMany(b, type, shape.counts[type.name] ?? DEFAULT_COUNT);
  makeChildren(b);
  for (const relation of plan.relations.values()) {
    if (relation.relation.kind === 'edges' && relation.relation.direction === 'base') makeEdges(b, relation);
  }
  // Catalog counters: one item per shard of each @catalog, counting its entries.
  b.items.push(...catalogCounterItemsOf(plan, b.items));
  const ids: Record<string, string[]> = {};
  for (const type of plan.items.values()) if (!type.type.parent) ids[type.name] = (b.made.get(type.name) ?? []).map((m) => m.id);
  return { items: b.items, counts: b.counts, ids };
}

/** The inverse (GSI1) side of a base @edges relation, when the model declares one. */
function inverseOf(plan: Plan, base: RelationPlan): RelationPlan | null {
  if (base.relation.kind !== 'edges' || base.relation.direction !== 'base') return null;
  // `inverse` holds the inverseOf argument: the base side's field name on the inverse side's node type.
  return (
    [...plan.relations.values()].find(
      (r) => r.relation.kind === 'edges' && r.relation.direction === 'inverted' && r.node.name === base.owner.name && r.relation.inverse === base.field,
    ) ?? null
  );
}

/** `k` distinct indexes of [0, n), in ascending order. */
function pickDistinct(random: () => number, n: number, k: number): number[] {
  const chosen = new Set<number>();
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  while (chosen.size < k) chosen.add(Math.floor(random() * n));
  return [...chosen].sort((a, b) => a - b);
}

/** The relation plans a shape's `per` may name (for the usage text). */
export const relationPaths = (plan: Plan): string[] => [...plan.relations.values()].map((r: RelationPlan) => r.path);
