/**
 * Ids for entities created without one: ULIDs from a monotonic factory, so
 * ids made in the same millisecond still sort in creation order (children
 * list oldest first, docs/table.md). Crockford base32: never contains `#`.
 */
import { monotonicFactory } from 'ulid';
import { validateId } from '../connections/args.js';

const next = monotonicFactory();

export const newId = (): string => next();

/** The id the caller gave (validated), or a new one. */
export const idOrNew = (id: string | null | undefined, argumentName = 'input.id'): string =>
  id == null ? newId() : validateId(id, argumentName);
