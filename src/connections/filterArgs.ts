/**
 * Checks of the arguments that narrow a list (a @catalog's prefix search,
 * a @range's instants, a @where's text) and the canonical form cursors are
 * bound to (plan/bindings.ts, plan/rangePlan.ts). A caller's mistake
 * is BAD_USER_INPUT here, before any DynamoDB request: argumentCheck.ts
 * runs these over the whole operation before execution, and the resolvers
 * again.
 */
import { badUserInput } from '../errors.js';
import { sortableInstant, sortableText } from '../dynamo/keys.js';
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
export function validateDateRange(afterValue: unknown, beforeValue: unknown, afterName: string, beforeName: string): DateRange {
  const instant = (value: unknown, name: string) => {
    if (value == null) return null;
    const iso = sortableInstant(value);
    if (iso === null) throw badUserInput(`${name} must be an ISO-8601 UTC timestamp between years 0000 and 9999`, name);
    return iso;
  };
  const after = instant(afterValue, afterName);
  const before = instant(beforeValue, beforeName);
  if (after !== null && before !== null && after >= before) {
    throw badUserInput(`${beforeName} (${before}) must be later than ${afterName} (${after}): the range is empty or inverted`, beforeName);
  }
  return { after, before };
}

/** An equality filter's text (a @where argument): 1 to MAX_TEXT_LENGTH characters, or null when not given. */
export function validateText(value: unknown, argumentName: string): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_LENGTH) {
    throw badUserInput(`${argumentName} must be 1 to ${MAX_TEXT_LENGTH} characters`, argumentName);
  }
  return value;
}

/** What cursors of a catalog list are bound to: the catalog (its @catalog `key`) and the search prefix. */
export const catalogGroup = (catalogKey: string, sortablePrefix: string | null): string =>
  sortablePrefix === null ? catalogKey : `${catalogKey}?prefix=${sortablePrefix}`;
