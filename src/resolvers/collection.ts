/**
 * The resolvers of collections (plan/collectionPlan.ts): a connection over
 * a union or interface of types sharing a partition, on Query (the
 * arguments name the partition) or on a type (the parent names it). Each
 * page is one Query through the loaders, as any item collection's, so the
 * look-ahead's read is found again; totalCount is counted within the page
 * read budget. The union's or interface's resolveType reads the type each
 * node was resolved to from its key.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import type { ConnectionArgs } from '../connections/args.js';
import { readConnection } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import type { CollectionPlan } from '../plan/collectionPlan.js';
import type { Collection } from '../dynamo/collection.js';
import type { ItemRecord } from '../plan/records.js';
import { countRange } from './countRange.js';

type Resolver<P> = (parent: P, args: Record<string, unknown>, ctx: Context, info: GraphQLResolveInfo) => unknown;

/** The members in the partition: the range counted, less what it holds of other types (counted alongside). */
async function countMembers(ctx: Context, plan: CollectionPlan, collection: Collection): Promise<number> {
  const { whole, minus } = plan.counted(collection);
  const [all, ...others] = await Promise.all([countRange(ctx, whole), ...minus.map((source) => countRange(ctx, source))]);
  return others.reduce((n, other) => n - other, all!);
}

const page = (ctx: Context, plan: CollectionPlan, values: readonly string[], args: Record<string, unknown>) => {
  const collection = plan.collection(values);
  return readConnection(singleCollection, collection, ctx.cursors, ctx.loaders, args as ConnectionArgs, plan.edge, () => countMembers(ctx, plan, collection));
};

/** A root field: its arguments fill the partition's placeholders (BAD_USER_INPUT for a bad one, before any request). */
export const rootCollectionResolver =
  (plan: CollectionPlan): Resolver<unknown> =>
  (_, args, ctx) =>
    page(ctx, plan, plan.values(null, args)!, args);

/** A field of a type: the parent's own values name the partition (its whole record read when a partial one lacks them). */
export function collectionResolver(plan: CollectionPlan, full: (r: ItemRecord, ctx: Context) => Promise<ItemRecord>): Resolver<ItemRecord> {
  return (r, args, ctx) => {
    const values = plan.values(r, args);
    if (values !== undefined) return page(ctx, plan, values, args);
    return full(r, ctx).then((whole) => page(ctx, plan, plan.values(whole, args) ?? [], args));
  };
}

/** The member type of a node: tagged by the collection's edge (`__typename`). */
export const resolveMemberType = (record: { __typename?: unknown }): string | undefined =>
  typeof record.__typename === 'string' ? record.__typename : undefined;
