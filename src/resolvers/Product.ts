import type { ProductResolvers } from '../__generated__/resolvers.js';
import { productParts } from '../model/collections.js';
import { toPart } from '../model/mappers.js';
import { readConnection } from '../connections/connection.js';
import { complete, required } from './complete.js';

export const Product: ProductResolvers = {
  id: (p) => p.id,
  name: (p, _, ctx) => p.name ?? complete(p, 'Product', ctx.loaders.product).then((full) => required(full.name, 'name')),
  parts: (p, args, ctx) => {
    const collection = productParts(p.id);
    return readConnection(ctx, collection, args, (item) => ({ node: toPart(item) }), async () => {
      const full = await complete(p, 'Product', ctx.loaders.product);
      return full.partCount ?? ctx.loaders.count.load(collection);
    });
  },
};
