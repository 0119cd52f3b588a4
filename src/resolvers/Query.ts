/**
 * Root fields from the model: each @get reads one item (looking ahead for
 * its selected connection), or, for an inverted type, finds it by its sort
 * key through GSI1; each @catalog reads its sharded GSI2 list;
 * @get(by: NODE) reads the item a global id names (one GetItem through the
 * item loader, batched with the tick's other entity reads);
 * @get(by: CALLER) answers an object whose fields (meFields) read the
 * caller's own items.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import { validateId } from '../connections/args.js';
import { loadEntity } from './lookahead.js';
import { readCatalog } from './catalog.js';
import type { Plan } from '../plan/plan.js';
import { readGlobalId } from '../plan/globalId.js';
import { keyFieldValues, type ItemPlan } from '../plan/itemPlan.js';
import type { ItemRecord } from '../plan/records.js';
import { readConnection } from '../connections/engine.js';
import { singleCollection } from '../connections/singleCollection.js';
import { filledRange } from '../connections/filledRange.js';
import type { ConnectionArgs } from '../connections/args.js';
import { partitionLabel, prefixEnd, rangeStart } from '../dynamo/collection.js';
import { filledReads } from './itemType.js';
import { countRange } from './countRange.js';
import { rootCollectionResolver } from './collection.js';

/** What `me` answers: who is asking (its fields read their items). Null for a caller without a token. */
export interface MeRecord {
  owns: ReadonlyMap<string, string>;
}

/** The record of a node, tagged with its type for the node interface's resolveType. */
export type NodeRecord = ItemRecord & { __typename: string };

type RootResolver = (root: unknown, args: Record<string, unknown>, ctx: Context, info: GraphQLResolveInfo) => unknown;

/** A top-level item by its id, with the first page of a selected connection where one Query reads both (look-ahead). */
const entityOf = (ctx: Context, info: GraphQLResolveInfo, item: ItemPlan, id: string) =>
  item.type.parent ? ctx.loaders.entity(item, id) : loadEntity(ctx, info, item, id);

export function queryResolvers(plan: Plan): Record<string, RootResolver> {
  const fields: Record<string, RootResolver> = {};
  for (const get of plan.gets) {
    if (get.keyless) {
      const idArg = get.arguments.id!;
      fields[get.field] = (_, args) => ({ id: validateId(args[idArg] as string, idArg) });
      continue;
    }
    const item = plan.item(get.type);
    const idArg = get.arguments.id;
    const parentField = item.type.parent?.field;
    const parentArg = parentField === undefined ? undefined : get.arguments[parentField];
    // The parent's id by its type's rule (a derived id may be longer than 128 characters).
    const parentItem = item.type.parent ? plan.items.get(item.type.parent.type) : undefined;
    const parentId = (value: unknown, name: string) => (parentItem ? parentItem.checkId(value, name) : validateId(value as string, name));
    const derived = item.derived;
    if (derived && idArg !== undefined) {
      // A derived id holds the key's values: one GetItem (key() says BAD_USER_INPUT for any other text), or with a page beside it.
      fields[get.field] = (_, args, ctx, info) => (derived.values(args[idArg], idArg), entityOf(ctx, info, item, args[idArg] as string));
    } else if (derived) {
      const names = get.arguments;
      fields[get.field] = (_, args, ctx, info) => {
        const values = Object.fromEntries(Object.entries(names).map(([p, a]) => [p, args[a]]));
        return entityOf(ctx, info, item, derived.id(values, names));
      };
    } else if (item.type.keyFields.length > 0) {
      // The key holds fields besides the ids (`msg#{sentAt}#{id}`): the arguments fill them.
      const keyArguments = Object.fromEntries(item.type.keyFields.map((f) => [f, get.arguments[f]!]));
      fields[get.field] = (_, args, ctx) =>
        ctx.loaders.entity(
          item,
          validateId(args[idArg] as string, idArg),
          parentArg === undefined ? undefined : parentId(args[parentArg], parentArg),
          keyFieldValues(keyArguments, args),
        );
    } else if (item.type.inverted) {
      fields[get.field] = (_, args, ctx) => ctx.loaders.bySortKey.load({ spec: item, id: validateId(args[idArg] as string, idArg) });
    } else if (parentArg !== undefined) {
      fields[get.field] = (_, args, ctx) => ctx.loaders.entity(item, validateId(args[idArg] as string, idArg), parentId(args[parentArg], parentArg));
    } else {
      fields[get.field] = (_, args, ctx, info) => loadEntity(ctx, info, item, validateId(args[idArg] as string, idArg));
    }
  }
  for (const catalog of plan.catalogs) {
    const item = plan.item(catalog.type);
    const prefixArgument = catalog.prefixArgument;
    fields[catalog.field] = (_, args, ctx, info) =>
      readCatalog(ctx, info, catalog, args as never, prefixArgument === null ? null : (args[prefixArgument] as string | null | undefined), item.map);
  }
  for (const collection of plan.collectionsOf.get(plan.model.schema.getQueryType()?.name ?? 'Query') ?? []) {
    fields[collection.field.field] = rootCollectionResolver(collection);
  }
  for (const query of plan.queries) {
    fields[query.field.field] = (_, args, ctx, info) => {
      const connectionArgs = args as ConnectionArgs;
      const narrowed = query.narrow(args);
      if (narrowed) {
        return readConnection(filledRange, narrowed, ctx.cursors, filledReads(ctx, info), connectionArgs, query.edge, () => countRange(ctx, narrowed));
      }
      const collection = query.collection(args);
      // totalCount of a partition with no counter: counted within the page read budget.
      const end = prefixEnd(collection.prefix);
      const { lo, hi } = collection.range ?? { lo: rangeStart(collection.prefix), hi: end };
      // Sort attributes fixed by arguments are equalities of the count's key condition, as the partition's are.
      const pkMore = collection.sortKey ? [...(collection.pkMore ?? []), ...collection.sortKey.fixed] : collection.pkMore;
      const whole = { ...collection, pkMore, partition: partitionLabel(collection.pk, collection.pkMore), lo, hi, filter: null, binding: '' };
      const count = async () => {
        const n = await countRange(ctx, whole);
        // A narrowed range excludes its far end, which BETWEEN counts.
        return n > 0 && hi !== end ? n - (await countRange(ctx, { ...whole, lo: hi })) : n;
      };
      return readConnection(singleCollection, collection, ctx.cursors, ctx.loaders, connectionArgs, query.edge, count);
    };
  }
  const node = plan.node;
  if (node) {
    const nodeItems = new Map([...plan.items].filter(([, item]) => item.type.globalId !== null));
    fields[node.field] = async (_, args, ctx): Promise<NodeRecord | null> => {
      const target = readGlobalId(nodeItems, args.id, 'id', node.idField);
      const record = await ctx.loaders.entity(target.item, target.id, target.parentId);
      return record && { ...record, __typename: target.item.name };
    };
  }
  if (plan.me) fields[plan.me.field] = (_, __, ctx): MeRecord | null => (ctx.identity.kind === 'caller' ? { owns: ctx.identity.owns } : null);
  return fields;
}

/** The fields of the @get(by: CALLER) type: each reads the caller's item of its type (which names a claim), or is null when the token names none. */
export function meFields(plan: Plan): Record<string, (me: MeRecord, args: unknown, ctx: Context, info: GraphQLResolveInfo) => unknown> {
  const fields: Record<string, (me: MeRecord, args: unknown, ctx: Context, info: GraphQLResolveInfo) => unknown> = {};
  for (const { field, type } of plan.me?.owners ?? []) {
    const item: ItemPlan = plan.item(type);
    fields[field] = (me, _, ctx, info) => {
      const id = me.owns.get(type);
      if (id === undefined) return null;
      return item.type.inverted && item.type.parent ? ctx.loaders.bySortKey.load({ spec: item, id }) : loadEntity(ctx, info, item, id);
    };
  }
  return fields;
}
