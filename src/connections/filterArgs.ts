/**
 * Checks of the arguments that narrow a list (prefix search, date range,
 * status) and the canonical form cursors are bound to. A caller's mistake
 * is BAD_USER_INPUT here, before any DynamoDB request: argumentCheck.ts
 * runs these over the whole operation before execution, and the resolvers
 * again.
 */
import { badUserInput } from '../errors.js';
import { sortableInstant, sortableText, type CatalogKind } from '../dynamo/keys.js';
import { MAX_TEXT_LENGTH } from '../writes/input.js';

export const MAX_PREFIX_LENGTH = 100;

/** A search prefix in its comparison form (dynamo/keys.ts `sortableText`); empty or over-long is refused. */
export function validatePrefix(value: unknown, argumentName: string): string {
  if (typeof value !== 'string') throw badUserInput(`${argumentName} must be a string`, argumentName);
  // A lone surrogate is no character: DynamoDB would compare its replacement, not it.
  if (/\p{Cs}/u.test(value)) throw badUserInput(`${argumentName} must be well-formed Unicode (it holds a lone surrogate)`, argumentName);
  if (value.length > MAX_PREFIX_LENGTH) {
    throw badUserInput(`${argumentName} must be at most ${MAX_PREFIX_LENGTH} characters; got ${value.length}`, argumentName);
  }
  const prefix = sortableText(value, { keepTrailingSpace: true });
  if (prefix.trim().length === 0) {
    throw badUserInput(`${argumentName} must contain a letter, digit or sign (it is compared without case, accents or extra spaces)`, argumentName);
  }
  return prefix;
}

export interface DateRange {
  /** Inclusive lower end, ISO-8601 UTC with milliseconds. */
  after: string | null;
  /** Exclusive upper end. */
  before: string | null;
}

/** `after ≤ instant < before`; an inverted or empty range is refused. Names: the arguments, for messages. */
export function validateDateRange(placedAfter: unknown, placedBefore: unknown, afterName = 'placedAfter', beforeName = 'placedBefore'): DateRange {
  const instant = (value: unknown, name: string) => {
    if (value == null) return null;
    const iso = sortableInstant(value);
    if (iso === null) throw badUserInput(`${name} must be an ISO-8601 UTC timestamp between years 0000 and 9999`, name);
    return iso;
  };
  const after = instant(placedAfter, afterName);
  const before = instant(placedBefore, beforeName);
  if (after !== null && before !== null && after >= before) {
    throw badUserInput(`${beforeName} (${before}) must be later than ${afterName} (${after}): the range is empty or inverted`, beforeName);
  }
  return { after, before };
}

/** An equality filter's text (`status`): 1 to MAX_TEXT_LENGTH characters, or null when not given. */
export function validateText(value: unknown, argumentName: string): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_LENGTH) {
    throw badUserInput(`${argumentName} must be 1 to ${MAX_TEXT_LENGTH} characters`, argumentName);
  }
  return value;
}

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

/** What cursors of a catalog list are bound to: the catalog and the search prefix. */
export const catalogGroup = (kind: CatalogKind, sortablePrefix: string | null): string =>
  sortablePrefix === null ? `CATALOG#${kind}` : `CATALOG#${kind}?prefix=${sortablePrefix}`;

/** What cursors of filtered orders are bound to. */
export const orderFilterBinding = (filter: OrderFilter): string =>
  JSON.stringify([filter.range.after, filter.range.before, filter.status]);
