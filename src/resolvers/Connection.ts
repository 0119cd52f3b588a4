/** Resolvers shared by every connection type: lazy pageInfo checks and totalCount. */
import type { Resolvers } from '../__generated__/resolvers.js';

const lazy = (v: boolean | (() => Promise<boolean>)) => (typeof v === 'function' ? v() : v);

export const PageInfo: Resolvers['PageInfo'] = {
  hasNextPage: (p) => lazy(p.hasNextPage),
  hasPreviousPage: (p) => lazy(p.hasPreviousPage),
};

/** Every connection type of the model (one per connection field): totalCount computed only when selected. */
export const connectionTypeResolvers = { totalCount: (c: { totalCount: () => Promise<number> }) => c.totalCount() };
