import type { CustomerResolvers } from '../__generated__/resolvers.js';
import { customerOrders, customerOrdersByDate } from '../model/collections.js';
import { toOrder } from '../model/mappers.js';
import { readConnection } from '../connections/connection.js';
import { readRangeConnection } from '../connections/rangeConnection.js';
import { validateOrderFilter } from '../connections/filterArgs.js';
import { countFilled } from '../dynamo/filledRange.js';
import { badUserInput } from '../graphql/errors.js';
import { complete, required } from './complete.js';

export const Customer: CustomerResolvers = {
  id: (c) => c.id,
  name: (c, _, ctx) => c.name ?? complete(c, 'Customer', ctx.loaders.customer).then((full) => required(full.name, 'name')),
  email: (c, _, ctx) => (c.complete ? (c.email ?? null) : complete(c, 'Customer', ctx.loaders.customer).then((full) => full.email ?? null)),
  orders: (c, args, ctx, info) => {
    const filter = validateOrderFilter(args);
    const toEdge = (item: Record<string, unknown>) => ({ node: toOrder(item) });
    if (filter === null) {
      const collection = customerOrders(c.id);
      return readConnection(ctx, collection, args, toEdge, async () => {
        const full = await complete(c, 'Customer', ctx.loaders.customer);
        return full.orderCount ?? ctx.loaders.count.load(collection);
      });
    }
    // By date and/or status: GSI2, ordered by placedAt; totalCount counts the matches within the read budget.
    const source = customerOrdersByDate(c.id, filter);
    return readRangeConnection(ctx, info, source, args, toEdge, async () => {
      const count = await countFilled(ctx.doc, ctx.tableName, { ...source, budget: ctx.pageReadBudget });
      if (count === null) {
        throw badUserInput(
          `totalCount of these orders would read more than ${ctx.pageReadBudget} read units; narrow the date range or leave totalCount out`,
          'totalCount',
        );
      }
      return count;
    });
  },
};
