/**
 * buildResolvers(): the resolver map of a model, from its plan: the root
 * fields, every item type, every connection type, PageInfo and DateTime,
 * the node interface and the @me type when the model declares them.
 * Nothing here names a type of a particular model.
 */
import type { Resolvers } from '../__generated__/resolvers.js';
import type { Plan } from '../plan/plan.js';
import { meFields, queryResolvers, type NodeRecord } from './Query.js';
import { mutationResolvers } from './Mutation.js';
import { itemTypeResolvers } from './itemType.js';
import { DateTime } from './DateTime.js';
import { connectionTypeResolvers, PageInfo } from './Connection.js';

export function buildResolvers(plan: Plan): Resolvers {
  const map: Record<string, unknown> = { DateTime, PageInfo, Query: queryResolvers(plan) };
  if (plan.mutations.length > 0) map.Mutation = mutationResolvers(plan);
  for (const item of plan.items.values()) map[item.name] = itemTypeResolvers(item, plan.relationsOf.get(item.name) ?? []);
  for (const relation of plan.relations.values()) map[relation.typeName] = connectionTypeResolvers;
  for (const catalog of plan.catalogs) map[catalog.connectionType] = connectionTypeResolvers;
  if (plan.node) map[plan.node.interface] = { __resolveType: (record: NodeRecord) => record.__typename };
  if (plan.me) map[plan.me.type] = meFields(plan);
  return map as Resolvers;
}
