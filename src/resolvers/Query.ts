import type { QueryResolvers } from '../__generated__/resolvers.js';
import { validateId } from '../validation.js';

export const Query: QueryResolvers = {
  student: (_, { id }, ctx) => ctx.loaders.student(validateId(id)),
  course: (_, { id }, ctx) => ctx.loaders.course(validateId(id)),
  customer: (_, { id }, ctx) => ctx.loaders.customer(validateId(id)),
  order: (_, { id }, ctx) => ctx.loaders.order.load(validateId(id)),
  product: (_, { id }, ctx) => ctx.loaders.product(validateId(id)),
};
