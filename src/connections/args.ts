/**
 * Argument checks shared by resolvers. A caller's mistake becomes
 * `BAD_USER_INPUT` here, before any DynamoDB request.
 */
import { badUserInput } from '../errors.js';

export const MAX_ID_LENGTH = 128;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** A UTF-16 surrogate that is not part of a pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;

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

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Page request after validation: `size` items read `forward` or backward. */
export interface PageRequest {
  size: number;
  forward: boolean;
  after: string | null;
  before: string | null;
}

export function validateConnectionArgs(args: ConnectionArgs): PageRequest {
  const { first, last } = args;
  if (first != null && last != null) {
    throw badUserInput('Pass either "first" or "last", not both', 'first');
  }
  for (const [name, value] of [['first', first], ['last', last]] as const) {
    if (value != null && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw badUserInput(`"${name}" must be between 0 and ${MAX_PAGE_SIZE}; got ${value}`, name);
    }
  }
  return {
    size: first ?? last ?? DEFAULT_PAGE_SIZE,
    forward: last == null,
    after: args.after ?? null,
    before: args.before ?? null,
  };
}
