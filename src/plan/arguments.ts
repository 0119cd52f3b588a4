/**
 * Checks of the arguments the plan's fields take: ids (every root field,
 * connection parent and mutation), search prefixes, date ranges and
 * equality filters. A caller's mistake is BAD_USER_INPUT here, before any
 * DynamoDB request. They live with the plan, below the connections and the
 * writes that both call them (connections/args.ts re-exports the id
 * check).
 */
import { badUserInput } from '../errors.js';
import { sortableInstant, sortableText } from '../dynamo/keys.js';
import { MAX_ID_LENGTH, MAX_TEXT_LENGTH } from '../declaration/itemSize.js';

// The limits live with the model, whose start-up check bounds an item's size by them.
export { MAX_ID_LENGTH, MAX_TEXT_LENGTH };

/** A UTF-16 surrogate that is not part of a pair: not a character, and not storable as UTF-8. */
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Ids are non-empty, at most 128 characters, well-formed Unicode, and never
 * contain `#` (the key separator). A lone surrogate has no UTF-8 form:
 * DynamoDB would store `x\ud800` and `x\udbff` as the same key.
 */
export function validateId(id: string, argumentName = 'id'): string {
  if (id.length === 0) throw badUserInput(`${argumentName} must not be empty`, argumentName);
  if (LONE_SURROGATE.test(id)) throw badUserInput(`${argumentName} must be well-formed Unicode (it holds a lone surrogate)`, argumentName);
  if (id.length > MAX_ID_LENGTH) {
    throw badUserInput(`${argumentName} must be at most ${MAX_ID_LENGTH} characters; got ${id.length}`, argumentName);
  }
  if (id.includes('#')) throw badUserInput(`${argumentName} must not contain "#"`, argumentName);
  return id;
}

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

/** An equality filter's text (`status`): 1 to MAX_TEXT_LENGTH characters, or null when not given. */
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
