import type { CustomerResolvers } from '../__generated__/resolvers.js';
import { customerOrders } from '../model/collections.js';
import { toOrder } from '../model/mappers.js';
import { readConnection } from '../connections/connection.js';
import { complete, required } from './complete.js';

export const Customer: CustomerResolvers = {
  id: (c) => c.id,
  name: (c, _, ctx) => c.name ?? complete(c, 'Customer', ctx.loaders.customer).then((full) => required(full.name, 'name')),
  email: (c, _, ctx) => (c.complete ? (c.email ?? null) : complete(c, 'Customer', ctx.loaders.customer).then((full) => full.email ?? null)),
  orders: (c, args, ctx) => {
    const collection = customerOrders(c.id);
    return readConnection(ctx, collection, args, (item) => ({ node: toOrder(item) }), async () => {
      const full = await complete(c, 'Customer', ctx.loaders.customer);
      return full.orderCount ?? ctx.loaders.count.load(collection);
    });
  },
};
