/**
 * Root fields from the model: each @get reads one item (looking ahead for
 * its selected connection), or, for an inverted type, finds it by its sort
 * key through GSI1; each @catalog reads its sharded GSI2 list.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import { validateId } from '../connections/args.js';
import { loadEntity } from './lookahead.js';
import { readCatalog } from './catalog.js';
import type { Plan } from '../plan/plan.js';

type RootResolver = (root: unknown, args: Record<string, unknown>, ctx: Context, info: GraphQLResolveInfo) => unknown;

export function queryResolvers(plan: Plan): Record<string, RootResolver> {
  const fields: Record<string, RootResolver> = {};
  for (const get of plan.gets) {
    const item = plan.item(get.type);
    const idArg = get.arguments.id;
    const parentField = item.type.parent?.field;
    const parentArg = parentField === undefined ? undefined : get.arguments[parentField];
    if (item.type.inverted) {
      fields[get.field] = (_, args, ctx) => ctx.loaders.bySortKey.load({ spec: item, id: validateId(args[idArg] as string, idArg) });
    } else if (parentArg !== undefined) {
      fields[get.field] = (_, args, ctx) =>
        ctx.loaders.entity(item, validateId(args[idArg] as string, idArg), validateId(args[parentArg] as string, parentArg));
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
  return fields;
}
