/**
 * Argument checks shared by resolvers. A caller's mistake becomes
 * `BAD_USER_INPUT` here, before any DynamoDB request.
 */
import { badUserInput } from '../errors.js';

export { MAX_ID_LENGTH, validateId } from '../plan/arguments.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

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
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
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
