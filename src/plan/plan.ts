/**
 * compilePlan(): the model → the plans the request path runs. Compiled once
 * per process (per model), handed to the server, the loaders' callers, the
 * writes and the stream processor; nothing on the request path reads the
 * declaration again.
 *
 * Terminology: an item plan (itemPlan.ts) per @item type, a relation plan
 * (relationPlan.ts) per connection field of an item type, by `Owner.field`.
 */
import type { CatalogField, GetField, MeField, Model, MutationField, NodeField, QueryField } from '../declaration/model.js';
import { compileQueryPlan, type QueryPlan } from './queryPlan.js';
import { keylessItemType } from '../declaration/relations.js';
import { invariant } from '../errors.js';
import { compileItemPlan, type ItemPlan, type RecordExtension } from './itemPlan.js';
import { compileRelationPlan, edgeReadOf, type EdgeNodeExtension, type RelationPlan } from './relationPlan.js';
import { tableKeys, type CatalogSpec, type TableKeys } from '../dynamo/keys.js';
import { compileSharding, type Sharding } from './sharding.js';
import type { TableShape } from '../dynamo/table.js';
import { tableShapeOf } from '../declaration/layout.js';
import { residentsOf } from '../declaration/residents.js';
import { compileCollectionPlan, type CollectionPlan } from './collectionPlan.js';

export interface Plan {
  model: Model;
  /** The table's key attributes and indexes, as the model declares them (start-up creates or checks the table by it). */
  table: TableShape;
  /** The table's key attribute names: every key and item the engine sends or reads uses them. */
  keys: TableKeys;
  items: ReadonlyMap<string, ItemPlan>;
  relations: ReadonlyMap<string, RelationPlan>;
  /** Relation plans of each item type, in declaration order. */
  relationsOf: ReadonlyMap<string, readonly RelationPlan[]>;
  gets: readonly GetField[];
  catalogs: readonly CatalogField[];
  /** @query root fields. */
  queries: readonly QueryPlan[];
  /** Connections over a union or interface of types sharing a partition, by `Owner.field`, root fields included. */
  collections: ReadonlyMap<string, CollectionPlan>;
  /** The collections on each type (by the type's name; the Query type's name for root fields). */
  collectionsOf: ReadonlyMap<string, readonly CollectionPlan[]>;
  /** The @get(by: NODE) root field (any item by its global id, globalId.ts) and the @get(by: CALLER) one, when declared. */
  node: NodeField | null;
  me: MeField | null;
  mutations: readonly MutationField[];
  /** The item plan of `type`; an unknown name is our own bug (the model was checked). */
  item(type: string): ItemPlan;
  relation(path: string): RelationPlan;
  /** The @catalog listing items of `type`, with its key layout, or null. */
  catalogOf(type: string): { field: CatalogField; spec: CatalogSpec } | null;
  /** The write-sharded relation of `type` (the inverse @edges side whose edges it may spread), or null. */
  shardedOf(type: string): RelationPlan | null;
  /** The sharding of a write-sharded relation (an inverse @edges side declared `sharded`). */
  sharding(relation: RelationPlan): Sharding;
  /**
   * The view `make` derives from this plan, made on first use and kept with
   * the plan: how the layers above the plan (write plans, argument rules)
   * hold what they derive from the model, with no cache of their own.
   */
  view<T>(make: (plan: Plan) => T): T;
}

const plans = new WeakMap<Model, Plan>();

/** The views of one plan made on first use and kept with it: shardings by relation path (most models have none), and `plan.view`'s. */
function lazyViews(planOf: () => Plan): Pick<Plan, 'sharding' | 'view'> {
  const shardings = new Map<string, Sharding>();
  const views = new Map<(plan: Plan) => unknown, unknown>();
  return {
    sharding: (relation) => {
      let made = shardings.get(relation.path);
      if (!made) shardings.set(relation.path, (made = compileSharding(relation)));
      return made;
    },
    view: <T>(make: (plan: Plan) => T): T => {
      if (!views.has(make)) views.set(make, make(planOf()));
      return views.get(make) as T;
    },
  };
}

export function compilePlan(model: Model): Plan {
  const cached = plans.get(model);
  if (cached) return cached;
  // The write-sharded relation of each write-sharded parent type (compiled below; the extensions run later).
  const shardedRelation = new Map<string, RelationPlan>();
  const { sharding, view } = lazyViews(() => plan);
  const shardedTypes = new Set(
    [...model.relations.values()].flatMap((r) => (r.kind === 'edges' && r.sharded ? [r.owner] : [])),
  );
  // A write-sharded parent's records carry its layout; an edge leading to one may carry a copy of it.
  const layoutOfRecord =
    (type: string): RecordExtension =>
    (record, item) => {
      record.layout = sharding(shardedRelation.get(type)!).layoutOf(item);
    };
  const layoutFromEdge =
    (type: string): EdgeNodeExtension =>
    (node, edge) => {
      const layout = sharding(shardedRelation.get(type)!).edgeLayout(edge);
      if (layout) node.layout = layout;
    };
  const keys = tableKeys(model.layout);
  const items = new Map<string, ItemPlan>();
  for (const type of model.items.values()) {
    items.set(type.name, compileItemPlan(type, keys, shardedTypes.has(type.name) ? [layoutOfRecord(type.name)] : []));
  }
  // Keyless owners of connections: a plan of their id alone (they have no item; nothing reads their keys).
  const keylessOwners = new Map([...model.keyless.keys()].map((name) => [name, compileItemPlan(keylessItemType(name), keys)] as const));
  const relations = new Map<string, RelationPlan>();
  const relationsOf = new Map<string, RelationPlan[]>();
  // What each partition holds: where an entity sorts beside a connection's page, what a collection reads past.
  const partitions = residentsOf(model.items, model.relations, model.layout);
  for (const relation of model.relations.values()) {
    // An edge may lead to a keyless type: its plan is its id alone.
    const nodeType = model.items.get(relation.node) ?? keylessItemType(relation.node);
    const extensions = relation.kind === 'edges' && shardedTypes.has(relation.node) ? [layoutFromEdge(relation.node)] : [];
    const edgeRead = relation.kind === 'edges' ? edgeReadOf(relation, model, keys) : null;
    const plan = compileRelationPlan(relation, {
      owner: items.get(relation.owner) ?? keylessOwners.get(relation.owner)!,
      node: items.get(relation.node) ?? keylessOwners.get(relation.node)!,
      nodeType,
      layout: model.layout,
      keys,
      nodeExtensions: extensions,
      edgeRead,
      ...(model.items.has(relation.owner) ? { partitions } : {}),
    });
    relations.set(relation.path, plan);
    relationsOf.set(relation.owner, [...(relationsOf.get(relation.owner) ?? []), plan]);
    if (relation.kind === 'edges' && relation.sharded) shardedRelation.set(relation.owner, plan);
  }
  const collections = new Map<string, CollectionPlan>();
  const collectionsOf = new Map<string, CollectionPlan[]>();
  for (const field of model.collections.values()) {
    const members = field.members.map((m) => items.get(m.type)!);
    const compiled = compileCollectionPlan(field, members, model.items.get(field.owner) ?? null, partitions, model.layout, keys);
    collections.set(field.path, compiled);
    collectionsOf.set(field.owner, [...(collectionsOf.get(field.owner) ?? []), compiled]);
  }
  const plan: Plan = {
    model,
    collections,
    collectionsOf,
    table: tableShapeOf(model),
    keys,
    items,
    relations,
    relationsOf,
    gets: model.queries.filter((q): q is GetField => q.kind === 'get'),
    catalogs: model.queries.filter((q): q is CatalogField => q.kind === 'catalog'),
    queries: model.queries.filter((q): q is QueryField => q.kind === 'query').map((q) => compileQueryPlan(q, items.get(q.type)!, model.layout, keys)),
    node: model.queries.find((q): q is NodeField => q.kind === 'node') ?? null,
    me: model.queries.find((q): q is MeField => q.kind === 'me') ?? null,
    mutations: model.mutations,
    item: (type) => {
      const found = items.get(type);
      invariant(found, `no item type ${type} in the model`);
      return found;
    },
    catalogOf: (type) => {
      const field = model.queries.find((q): q is CatalogField => q.kind === 'catalog' && q.type === type);
      return field ? { field, spec: { key: field.key, sortKey: field.sortKey, shards: field.shards } } : null;
    },
    sharding,
    view,
    shardedOf: (type) => (relationsOf.get(type) ?? []).find((r) => r.sharded !== null) ?? null,
    relation: (path) => {
      const found = relations.get(path);
      invariant(found, `no relation ${path} in the model`);
      return found;
    },
  };
  plans.set(model, plan);
  return plan;
}
