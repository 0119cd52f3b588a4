import type { GraphQLResolveInfo } from 'graphql';
import type { QueryResolvers } from '../__generated__/resolvers.js';
import type { Context } from '../graphql/context.js';
import { entities } from '../model/entities.js';
import { validateId } from '../connections/args.js';
import { loadEntity } from './lookahead.js';

/** One root field per entity (`student(id)`, …), reading ahead for its selected connection. */
const entityFields = Object.fromEntries(
  entities.map((entity) => [
    entity.rootField,
    (_: unknown, { id }: { id: string }, ctx: Context, info: GraphQLResolveInfo) =>
      loadEntity(ctx, info, entity, validateId(id)),
  ]),
) as QueryResolvers;

export const Query: QueryResolvers = {
  ...entityFields,
  order: (_, { id }, ctx) => ctx.loaders.order.load(validateId(id)),
};
