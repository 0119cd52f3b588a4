/**
 * Checks of the arguments that narrow a list (prefix search, date range,
 * status) and the canonical form cursors are bound to. A caller's mistake
 * is BAD_USER_INPUT here, before any DynamoDB request: argumentCheck.ts
 * runs these over the whole operation before execution, and the resolvers
 * again.
 */
import { catalogGroup, validateDateRange, validatePrefix, validateText, type DateRange } from '../plan/arguments.js';

export { MAX_PREFIX_LENGTH, catalogGroup, validateDateRange, validatePrefix, validateText, type DateRange } from '../plan/arguments.js';

export const validateStatus = (status: unknown): string | null => validateText(status, 'status');

export interface OrderFilter {
  range: DateRange;
  status: string | null;
}

/** The order filter of Customer.orders, or null when none of its arguments is given (the plain collection). */
export function validateOrderFilter(args: { placedAfter?: unknown; placedBefore?: unknown; status?: unknown }): OrderFilter | null {
  const range = validateDateRange(args.placedAfter, args.placedBefore);
  const status = validateStatus(args.status);
  if (range.after === null && range.before === null && status === null) return null;
  return { range, status };
}

/**
 * Where a connection's cursors carry the arguments they are bound to, and
 * the value expected there for `args`: the group (`p`) of a catalog list
 * (model/collections.ts `catalogList`), the argument binding (`a`) of
 * filtered orders, '' for connections without such arguments. Refuses bad
 * arguments (BAD_USER_INPUT).
 */
export function cursorBinding(connection: string, args: Record<string, unknown>): { field: 'p' | 'a'; value: string } {
  switch (connection) {
    case 'Query.courses':
      return { field: 'p', value: catalogGroup('COURSE', args.titlePrefix == null ? null : validatePrefix(args.titlePrefix, 'titlePrefix')) };
    case 'Query.students':
      return { field: 'p', value: catalogGroup('STUDENT', args.namePrefix == null ? null : validatePrefix(args.namePrefix, 'namePrefix')) };
    case 'Customer.orders': {
      const filter = validateOrderFilter(args);
      return { field: 'a', value: filter === null ? '' : orderFilterBinding(filter) };
    }
    default:
      return { field: 'a', value: '' };
  }
}

/** What cursors of filtered orders are bound to. */
export const orderFilterBinding = (filter: OrderFilter): string =>
  JSON.stringify([filter.range.after, filter.range.before, filter.status]);
