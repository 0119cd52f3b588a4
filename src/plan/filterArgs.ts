/**
 * Checks of the arguments that narrow a connection (a catalog's prefix
 * search, a @range's instant range, its @where equality filters). A
 * caller's mistake is BAD_USER_INPUT here, before any DynamoDB request:
 * the argument check runs these (through bindings.ts) over the whole
 * operation before execution, and the resolvers again. What cursors are
 * bound to is built from the checked values (bindings.ts, rangePlan.ts).
 */
import { badUserInput } from '../errors.js';
import { sortableInstant, sortableText } from '../dynamo/keys.js';

export const MAX_PREFIX_LENGTH = 100;
/** The longest text a stored text attribute, or an equality filter on one, may hold. */
export const MAX_TEXT_LENGTH = 200;

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
export function validateDateRange(after: unknown, before: unknown, afterName: string, beforeName: string): DateRange {
  const instant = (value: unknown, name: string) => {
    if (value == null) return null;
    const iso = sortableInstant(value);
    if (iso === null) throw badUserInput(`${name} must be an ISO-8601 UTC timestamp between years 0000 and 9999`, name);
    return iso;
  };
  const from = instant(after, afterName);
  const until = instant(before, beforeName);
  if (from !== null && until !== null && from >= until) {
    throw badUserInput(`${beforeName} (${until}) must be later than ${afterName} (${from}): the range is empty or inverted`, beforeName);
  }
  return { after: from, before: until };
}

/** An equality filter's text: 1 to MAX_TEXT_LENGTH characters, or null when not given. */
export function validateText(value: unknown, argumentName: string): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_LENGTH) {
    throw badUserInput(`${argumentName} must be 1 to ${MAX_TEXT_LENGTH} characters`, argumentName);
  }
  return value;
}
