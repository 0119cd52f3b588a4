/**
 * What the writes need to know about a model, derived once from its plan
 * (kept with the plan: `plan.view`): for each item type, the copies of its fields that
 * edges carry and where those edges are, its edges and children (what a
 * delete removes), its catalog and its sharded relation; for each @edges
 * relation, the pair of sides a link writes.
 *
 * Copies and versions (docs/stream.md): a copied field `f` keeps its
 * version in `<f>Version` on the item; an edge's copy `<a>` keeps the
 * version it was taken at in `<a>Version`. Every rename that changes the
 * value increments the item's version, and a copy is only ever replaced
 * by one of a higher version, so racing renames and replayed stream
 * records converge on the last rename.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import type { CatalogSpec, ItemKey } from '../dynamo/keys.js';
import { storedName, type Attribute, type CatalogField, type EdgeKey } from '../declaration/model.js';
import { invariant } from '../errors.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import type { Plan } from '../plan/plan.js';
import type { RelationPlan } from '../plan/relationPlan.js';
import type { Sharding } from '../plan/sharding.js';
import { edgeReadOf } from '../plan/relationPlan.js';
import { writesGsi1Keys } from '../declaration/edgeLayout.js';
import type { KeyTemplate } from '../declaration/template.js';
import { GSI1_PK } from '../declaration/layout.js';

/** A field of an item copied onto edges, and the edges that carry it. */
export interface CopySource {
  /** The item's attribute holding the copied field (its stored name, @attribute(name:)). */
  field: string;
  versionAttr: string;
  /** On the edge: the copy and the item version it was taken at. */
  copyAttr: string;
  copyVersionAttr: string;
  /** The item's own relation whose edges carry the copy. */
  via: RelationPlan;
}

/** One set of edges a delete of the item removes, with the counter of the item at each edge's other end. */
export interface EdgeSide {
  relation: RelationPlan;
  /** The other item of a mirrored pair, deleted with the edge (null: the edge is one item). */
  mirrorKey(edge: Item): ItemKey | null;
  /** The collections holding the item's edges, as its stored item (null when absent) lays them out. */
  collections(id: string, item: Item | null): readonly Collection[];
  /** The item counting the edge at the other end, and its counter (null: no counter there). */
  otherKey(edge: Item): ItemKey;
  otherCounter: string | null;
  /** The other end when it is a child type: its key needs its parent's id, found by its id (otherId) instead of otherKey. */
  otherChild: { plan: ItemPlan; id(edge: Item): string } | null;
}

/** A reference counted on the item it refers to (@attribute(counter:)): each create adds 1 there, each delete takes 1 away. */
export interface CountedReference {
  field: Attribute;
  target: ItemPlan;
  counter: string;
  /** The referring item's key holds the referred id: a delete by key knows it without reading the item. */
  inKey: boolean;
}

/**
 * An index key attribute the type writes from a template (@indexed with
 * templates): an update that changes one of `fields` writes it again, in
 * the same UpdateItem (REMOVE when one of them is cleared: a sparse index
 * drops the item).
 */
export interface IndexKeyPart {
  index: string;
  attribute: string;
  template: KeyTemplate;
  /** The stored fields it holds besides the id, the parent and the table key's fields (which an update knows). */
  fields: readonly Attribute[];
}

export interface TypeWrites {
  item: ItemPlan;
  /** References of the type counted on their targets. */
  counted: readonly CountedReference[];
  /** The field numbered from the parent's sequence at create (@attribute(sequence:)), if any. */
  sequence: { field: Attribute; attribute: string } | null;
  indexParts: readonly IndexKeyPart[];
  /** Counters other types keep on this type's items: each starts at 0 when an item is created. */
  keptCounters: readonly string[];
  /**
   * A delete removes the item alone (one DeleteItem, or one transaction
   * with the counts of its references): no edges, children, catalog entry
   * or shard counters go with it.
   */
  alone: boolean;
  catalog: { field: CatalogField; spec: CatalogSpec } | null;
  copies: readonly CopySource[];
  /** The edges of the item (each @edges relation of the type) and its children (each @children one). */
  sides: readonly EdgeSide[];
  /** The type's write-sharded relation (@edges(shards)), if any. */
  sharding: Sharding | null;
  /** The @children relation of the parent holding items of this type (child types). */
  parentRelation: RelationPlan | null;
}

/** The two sides of an @edges relation, as a link writes them. */
export interface EdgePair {
  /** The base side: edges in the owner's partition, sort key = the node's partition key. */
  base: RelationPlan;
  /** The inverse side (read through GSI1), when declared. */
  inverse: RelationPlan | null;
  owner: ItemPlan;
  node: ItemPlan;
  /** Copies of node fields (base side's copy) and of owner fields (inverse side's copy); `from`: the copied item's attribute. */
  nodeCopies: readonly EdgeCopy[];
  ownerCopies: readonly EdgeCopy[];
  edgeAttributes: readonly Attribute[];
  ownerCounter: string | null;
  nodeCounter: string | null;
  sharding: Sharding | null;
  /** Keyless ends have no item: nothing of them is read, checked or counted. */
  ownerKeyless: boolean;
  nodeKeyless: boolean;
  /** Whether the edge item carries GSI1 keys (an inverse side reads it through GSI1). */
  gsi1: boolean;
  /**
   * The base edge item's key, and a mirrored pair's other item's (null: no
   * mirror); `values`: the edge fields the keys hold and the edge's own id
   * (`id`), as stored.
   */
  edgeKey(ownerId: string, nodeId: string, values?: Readonly<Record<string, string>>): ItemKey;
  mirrorKey(ownerId: string, nodeId: string, values?: Readonly<Record<string, string>>): ItemKey | null;
  /** Edge fields held by the base item's key and by the mirror's (read back from it, so not stored on that item). */
  baseHeld: ReadonlySet<string>;
  mirrorHeld: ReadonlySet<string>;
  /** Edge fields either key holds: a link sets them, an unlink needs them to find the pair. */
  keyFields: readonly string[];
  /** Each link is an edge of its own, with an id (generated unless given) in its keys. */
  ownId: boolean;
  /** The owner's and node's ids of a base edge item or of its mirror, read from its keys; null for any other item. */
  ends(keys: Item): { ownerId: string; nodeId: string } | null;
}

/** A copy an edge carries: the copied field, the item attribute holding it (its stored name) and the edge attribute holding the copy. */
export interface EdgeCopy {
  field: string;
  from: string;
  attribute: string;
}

export interface WritePlan {
  type(name: string): TypeWrites;
  /** The pair of the relation `Owner.field` (either side). */
  pair(path: string): EdgePair;
  /** Types whose items the stream processor follows: those with copies, edges or children. */
  followed: readonly TypeWrites[];
  pairs: readonly EdgePair[];
}

export const versionAttr = (field: string): string => `${field}Version`;

/** The pair of an @edges relation's base side `r` and its inverse side, if declared. */
function edgePairOf(plan: Plan, r: RelationPlan, inverse: RelationPlan | null): EdgePair {
  const model = plan.model;
  const edges = r.relation;
  invariant(edges.kind === 'edges', `${r.path} is not an @edges relation`);
  const baseKey = edgeReadOf(edges, model, plan.keys).key;
  const inverseEdges = inverse?.relation.kind === 'edges' ? inverse.relation : null;
  const mirror = inverseEdges ? inverseEdges.key : null;
  const edgeKey = (ownerId: string, nodeId: string, values: Readonly<Record<string, string>> = {}): ItemKey => ({
    PK: baseKey.pk.fill({ id: ownerId }),
    SK: baseKey.sk.fill({ ...values, [baseKey.node]: nodeId }),
  });
  const mirrorKey = (ownerId: string, nodeId: string, values: Readonly<Record<string, string>> = {}): ItemKey | null =>
    mirror ? { PK: mirror.pk.fill({ id: nodeId }), SK: mirror.sk.fill({ ...values, [mirror.node]: ownerId }) } : null;
  const heldBy = (k: EdgeKey | null) => new Set(k === null ? [] : [...k.fields, ...(k.ownId ? ['id'] : [])]);
  const baseHeld = heldBy(baseKey);
  const mirrorHeld = heldBy(mirror);
  const attributes = new Map<string, Attribute>();
  for (const a of edges.edgeAttributes) attributes.set(a.name, a);
  if (inverseEdges) for (const a of inverseEdges.edgeAttributes) if (!attributes.has(a.name)) attributes.set(a.name, a);
  const sharded = inverse !== null && inverseEdges !== null && inverseEdges.sharded !== null;
  return {
    base: r,
    inverse,
    owner: r.owner,
    node: r.node,
    nodeCopies: edges.copies.map((c) => ({ ...c, from: storedName(r.node.type, c.field) })),
    ownerCopies: inverseEdges ? inverseEdges.copies.map((c) => ({ ...c, from: storedName(r.owner.type, c.field) })) : [],
    edgeAttributes: [...attributes.values()],
    ownerCounter: r.counter,
    nodeCounter: inverse?.counter ?? null,
    sharding: sharded ? plan.sharding(inverse) : null,
    ownerKeyless: model.keyless.has(r.owner.name),
    nodeKeyless: model.keyless.has(r.node.name),
    gsi1: writesGsi1Keys(edges, inverseEdges),
    edgeKey,
    mirrorKey,
    baseHeld,
    mirrorHeld,
    keyFields: [...new Set([...baseHeld, ...mirrorHeld])],
    ownId: baseKey.ownId,
    ends: (keys) => {
      const base = r.member(keys);
      if (base) return { ownerId: base.parentId, nodeId: base.childId };
      const mirrored = mirror ? inverse!.member(keys) : null;
      return mirrored ? { ownerId: mirrored.childId, nodeId: mirrored.parentId } : null;
    },
  };
}

/** The side of an item's own @edges relation `r` (either end of `pair`): where its edges are and what a delete undoes. */
function edgeSideOf(plan: Plan, r: RelationPlan, pair: EdgePair): EdgeSide {
  const keys = plan.keys;
  const isBase = pair.base === r;
  const other = isBase ? pair.node : pair.owner;
  // The other end's id, from the edge's keys as this side reads them.
  const otherId = (edge: Item) => {
    const ids = r.member(edge);
    invariant(ids !== null, `edge ${JSON.stringify(keys.keyOf(edge))} is not an edge of ${r.path}`);
    return ids.childId;
  };
  const mirrored = pair.inverse?.relation.kind === 'edges' && pair.inverse.relation.key !== null;
  const rSharding = !isBase && pair.sharding ? pair.sharding : null;
  return {
    relation: r,
    collections: (id, stored) =>
      rSharding ? rSharding.partitions(id, rSharding.layoutOf(stored)).map((pk) => rSharding.partitionCollection(id, pk)) : [r.collection(id)],
    // The other end's count for this edge may sit in one of its counter shards: the one of the edge's partition.
    otherKey: (edge) =>
      isBase && pair.sharding ? pair.sharding.partitionCounterKey(otherId(edge), edge[GSI1_PK]) : other.key(otherId(edge)),
    otherCounter: isBase ? pair.nodeCounter : pair.ownerCounter,
    otherChild: other.type.parent && !plan.model.keyless.has(other.name) ? { plan: other, id: otherId } : null,
    // A mirrored pair: this side's item and the other's go together.
    mirrorKey: (edge) => {
      if (!mirrored) return null;
      const values = keyValuesOf(pair, r, edge);
      return isBase ? pair.mirrorKey(r.member(edge)!.parentId, otherId(edge), values) : pair.edgeKey(otherId(edge), r.member(edge)!.parentId, values);
    },
  };
}

/** What writes of one item type need: its copies, the sides of its edges and children, catalog, sharding and parent. */
function typeWritesOf(plan: Plan, item: ItemPlan, pairOfSide: (r: RelationPlan) => EdgePair | undefined): TypeWrites {
  const own = plan.relationsOf.get(item.name) ?? [];
  const shardedRelation = own.find((r) => r.relation.kind === 'edges' && r.relation.sharded !== null) ?? null;
  const catalogField = plan.catalogs.find((c) => c.type === item.name) ?? null;
  const copies: CopySource[] = [];
  const sides: EdgeSide[] = [];
  for (const r of own) {
    // A @query field on a type lists what it does not own: a delete leaves it.
    if (r.relation.kind === 'children' && !r.relation.owned) continue;
    if (r.relation.kind === 'children') {
      sides.push({ relation: r, collections: (id) => [r.collection(id)], otherKey: (edge) => plan.keys.keyOf(edge), otherCounter: null, otherChild: null, mirrorKey: () => null });
      continue;
    }
    const pair = pairOfSide(r);
    if (!pair) continue;
    sides.push(edgeSideOf(plan, r, pair));
    // The fields of this type copied onto these edges: the other side's copy declaration.
    for (const c of pair.base === r ? pair.ownerCopies : pair.nodeCopies) {
      copies.push({ field: c.from, versionAttr: versionAttr(c.from), copyAttr: c.attribute, copyVersionAttr: versionAttr(c.attribute), via: r });
    }
  }
  const parentRelation = item.type.parent
    ? ((plan.relationsOf.get(item.type.parent.type) ?? []).find((r) => r.relation.kind === 'children' && r.relation.owned && r.node.name === item.name) ?? null)
    : null;
  const type = item.type;
  const known = new Set(['id', ...(type.parent ? [type.parent.field] : []), ...type.keyFields]);
  const keyPlaceholders = new Set([...type.pk.placeholders, ...type.sk.placeholders]);
  const counted = type.attributes.flatMap((a) =>
    a.counter !== undefined && a.reference ? [{ field: a, target: plan.item(a.reference.type), counter: a.counter, inKey: keyPlaceholders.has(a.name) }] : [],
  );
  const sequenced = type.attributes.find((a) => a.sequence !== undefined);
  return {
    item,
    counted,
    sequence: sequenced ? { field: sequenced, attribute: sequenced.sequence!.attribute } : null,
    indexParts: type.indexed.flatMap((placement) =>
      [...placement.pk, ...placement.sk].flatMap((part) => {
        const fields = part.template.placeholders.filter((p) => !known.has(p)).map((p) => type.attributes.find((a) => a.name === p)!);
        return part.written && fields.length > 0 ? [{ index: placement.index, attribute: part.attribute, template: part.template, fields }] : [];
      }),
    ),
    keptCounters: (type.countedBy ?? []).map((c) => c.counter),
    alone: sides.length === 0 && catalogField === null && shardedRelation === null,
    catalog: catalogField ? { field: catalogField, spec: { key: catalogField.key, sortKey: catalogField.sortKey, shards: catalogField.shards } } : null,
    copies,
    sides,
    sharding: shardedRelation ? plan.sharding(shardedRelation) : null,
    parentRelation,
  };
}

/** The write plan of `plan`, made once and kept with it. */
export const writePlanOf = (plan: Plan): WritePlan => plan.view(compileWritePlan);

function compileWritePlan(plan: Plan): WritePlan {
  const inverseOf = (base: RelationPlan): RelationPlan | null =>
    [...plan.relations.values()].find(
      (r) => r.relation.kind === 'edges' && r.relation.direction === 'inverted' && r.owner.name === base.node.name && r.relation.inverse === base.field,
    ) ?? null;
  const pairs = new Map<string, EdgePair>();
  for (const r of plan.relations.values()) {
    if (r.relation.kind === 'edges' && r.relation.direction === 'base') pairs.set(r.path, edgePairOf(plan, r, inverseOf(r)));
  }
  const pairOfSide = (r: RelationPlan): EdgePair | undefined =>
    r.relation.kind === 'edges' && r.relation.direction === 'inverted'
      ? [...pairs.values()].find((p) => p.inverse === r)
      : pairs.get(r.path);
  const types = new Map<string, TypeWrites>();
  for (const item of plan.items.values()) types.set(item.name, typeWritesOf(plan, item, pairOfSide));
  const writes: WritePlan = {
    type: (name) => {
      const found = types.get(name);
      invariant(found, `no item type ${name} in the model`);
      return found;
    },
    pair: (path) => {
      const r = plan.relation(path);
      const found = pairOfSide(r);
      invariant(found, `${path} is not an @edges relation with a base side`);
      return found;
    },
    followed: [...types.values()].filter((t) => t.copies.length > 0 || t.sides.length > 0),
    pairs: [...pairs.values()],
  };
  return writes;
}

/** The collections holding the edges that carry `copy` for the item `id` as stored. */
export function copyCollections(t: TypeWrites, copy: CopySource, id: string, stored: Item | null): readonly Collection[] {
  const side = t.sides.find((s) => s.relation === copy.via);
  invariant(side, `no edges of ${copy.via.path}`);
  return side.collections(id, stored);
}

/**
 * The key-held edge fields (and own id) of one item of a pair, as `side`
 * reads it: from its sort key where its template holds them, else from
 * the stored attributes (a field only the other item's key holds).
 */
export function keyValuesOf(pair: EdgePair, side: RelationPlan, edge: Item): Record<string, string> {
  if (pair.keyFields.length === 0) return {};
  const isBase = side === pair.base;
  const held = isBase ? pair.baseHeld : pair.mirrorHeld;
  const relation = side.relation;
  invariant(relation.kind === 'edges', `${side.path} is no @edges side`);
  const fromKey = relation.key?.sk.match(side.keys.keyOf(edge).SK) ?? {};
  const values: Record<string, string> = {};
  for (const name of pair.keyFields) {
    const attribute = pair.edgeAttributes.find((a) => a.name === name);
    const value = held.has(name) ? fromKey[name] : edge[attribute?.storedAs ?? name];
    invariant(typeof value === 'string', `the edge ${JSON.stringify(side.keys.keyOf(edge))} of ${side.path} holds no ${name}`);
    values[name] = value;
  }
  return values;
}
