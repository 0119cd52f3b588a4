/** The children of one-to-many collections and their way back to the parent. */
import type { OrderResolvers, PartResolvers } from '../__generated__/resolvers.js';

export const Order: OrderResolvers = {
  // The parent is known from the order's own key; its other fields load on demand.
  customer: (o) => ({ id: o.customerId, complete: false }),
};

export const Part: PartResolvers = {
  product: (p) => ({ id: p.productId, complete: false }),
};
