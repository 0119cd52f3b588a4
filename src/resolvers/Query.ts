import type { GraphQLResolveInfo } from 'graphql';
import type { QueryResolvers } from '../__generated__/resolvers.js';
import type { Context } from '../graphql/context.js';
import { entities } from '../model/entities.js';
import { validateId } from '../connections/args.js';
import { loadEntity } from './lookahead.js';
import { readCatalog } from './catalog.js';
import { toCourse, toStudent } from '../model/mappers.js';

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
  courses: (_, args, ctx, info) => readCatalog(ctx, info, 'COURSE', args, args.titlePrefix, 'titlePrefix', toCourse),
  students: (_, args, ctx, info) => readCatalog(ctx, info, 'STUDENT', args, args.namePrefix, 'namePrefix', toStudent),
};
