import type { ProductResolvers } from '../__generated__/resolvers.js';
import { productParts } from '../model/collections.js';
import { toPart } from '../model/mappers.js';
import { readConnection } from '../pagination.js';
import { complete, required } from './complete.js';

export const Product: ProductResolvers = {
  id: (p) => p.id,
  name: async (p, _, ctx) => p.name ?? required((await complete(p, 'Product', ctx.loaders.product)).name, 'name'),
  parts: (p, args, ctx) => {
    const collection = productParts(p.id);
    return readConnection(ctx, collection, args, (item, cursor) => ({ cursor, node: toPart(item) }), async () => {
      const full = await complete(p, 'Product', ctx.loaders.product);
      return full.partCount ?? ctx.loaders.count.load(collection);
    });
  },
};
