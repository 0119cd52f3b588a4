/**
 * buildResolvers(): the resolver map of a model, from its plan: the root
 * fields, every item type, every connection type, PageInfo and DateTime,
 * the node interface and the caller's type (@get(by: CALLER)) when the model declares them,
 * and the stored text of enum values stored otherwise than their names.
 * Nothing here names a type of a particular model.
 */
import { isObjectType } from 'graphql';
import type { Plan } from '../plan/plan.js';
import { meFields, queryResolvers, type NodeRecord } from './Query.js';
import { mutationResolvers } from './Mutation.js';
import { itemTypeResolvers, type LoadById } from './itemType.js';
import { DateTime } from './DateTime.js';
import { connectionTypeResolvers, PageInfo } from './Connection.js';
import { compileRules } from '../auth/compileRules.js';
import { resolveMemberType } from './collection.js';
import { compileItemPlan } from '../plan/itemPlan.js';
import { keylessItemType } from '../declaration/relations.js';
import { guardedAttributes } from '../subscriptions/redaction.js';
import { storedEnumTexts } from '../declaration/storedText.js';

/**
 * The item types whose records may be partial (`complete: false`): the
 * nodes of @edges connections, built from an edge's copies, the parents of
 * child types, built from the child's key, and the targets of references,
 * built from the referred id, and the types whose images on Redis lose
 * guarded fields (subscriptions/redaction.ts). Every other type's records
 * come from its items themselves.
 */
function partialTypes(plan: Plan): Set<string> {
  const partial = new Set<string>();
  for (const relation of plan.relations.values()) if (relation.relation.kind === 'edges') partial.add(relation.node.name);
  for (const item of plan.items.values()) if (item.type.parent) partial.add(item.type.parent.type);
  // A reference's record is the referred id alone.
  for (const item of plan.items.values()) {
    for (const a of item.type.attributes) {
      const referred = a.reference ?? a.references;
      if (referred && !referred.keyless) partial.add(referred.type);
    }
  }
  for (const type of guardedAttributes(plan.model, compileRules(plan.model)).keys()) partial.add(type);
  return partial;
}

/**
 * A resolver map of any model: field resolvers by type name, or a scalar.
 * Its types are the model's, known only at start-up, so the map is typed
 * by shape; each resolver types its own record (plan/records.ts).
 */
export type ResolverMap = Record<string, object>;

/** The fields of a connection type (none for a type the schema lacks). */
const connectionTypeOf = (type: unknown): Record<string, unknown> => (isObjectType(type) ? type.getFields() : {});

export function buildResolvers(plan: Plan): ResolverMap {
  // A reference's target by its id: an inverted child type by its sort key, any other by its key.
  const loadReferred: LoadById = (type, id, ctx) => {
    const spec = plan.item(type);
    return spec.type.inverted && spec.type.parent ? ctx.loaders.bySortKey.load({ spec, id }) : ctx.loaders.entity(spec, id);
  };
  const map: ResolverMap = { Query: queryResolvers(plan) };
  // Resolvers only for the types the model declares: a model without dates declares no DateTime.
  const declared = plan.model.schema.getTypeMap();
  if (declared.DateTime) map.DateTime = DateTime;
  if (declared.PageInfo) map.PageInfo = PageInfo;
  if (plan.mutations.length > 0) map.Mutation = mutationResolvers(plan);
  const partial = partialTypes(plan);
  for (const item of plan.items.values()) {
    const collections = plan.collectionsOf.get(item.name) ?? [];
    map[item.name] = itemTypeResolvers(item, plan.relationsOf.get(item.name) ?? [], { alwaysComplete: !partial.has(item.name), loadReferred, collections });
  }
  // A keyless type's connections (its id is a plain property of its records).
  for (const name of plan.model.keyless.keys()) {
    const relations = plan.relationsOf.get(name) ?? [];
    const collections = plan.collectionsOf.get(name) ?? [];
    if (relations.length > 0 || collections.length > 0)
      map[name] = itemTypeResolvers(compileItemPlan(keylessItemType(name), plan.keys), relations, { alwaysComplete: true, collections });
  }
  // totalCount where the connection type declares it (a declared connection type may leave it out).
  const connectionType = (name: string) => (connectionTypeOf(declared[name]).totalCount ? connectionTypeResolvers : {});
  for (const relation of plan.relations.values()) map[relation.typeName] = connectionType(relation.typeName);
  for (const catalog of plan.catalogs) map[catalog.connectionType] = connectionType(catalog.connectionType);
  for (const query of plan.queries) map[query.field.connectionType] = connectionType(query.field.connectionType);
  for (const collection of plan.collections.values()) {
    map[collection.typeName] = connectionType(collection.typeName);
    // Each node was tagged with its member type by the collection's edge.
    map[collection.field.node] = { __resolveType: resolveMemberType };
  }
  if (plan.node) map[plan.node.interface] = { __resolveType: (record: NodeRecord) => record.__typename };
  if (plan.me) map[plan.me.type] = meFields(plan);
  // Enum values stored as other text (`in-progress`): graphql's internal values, so resolvers see the stored text.
  Object.assign(map, storedEnumTexts(plan.model.schema));
  return map;
}
