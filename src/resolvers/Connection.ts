/** Resolvers shared by every connection type: lazy pageInfo checks and totalCount. */
import type { PageInfoRecord } from '../plan/records.js';

const lazy = (v: boolean | (() => Promise<boolean>)) => (typeof v === 'function' ? v() : v);

export const PageInfo = {
  hasNextPage: (p: PageInfoRecord) => lazy(p.hasNextPage),
  hasPreviousPage: (p: PageInfoRecord) => lazy(p.hasPreviousPage),
};

/** Every connection type of the model (one per connection field): totalCount computed only when selected. */
export const connectionTypeResolvers = { totalCount: (c: { totalCount: () => Promise<number> }) => c.totalCount() };
