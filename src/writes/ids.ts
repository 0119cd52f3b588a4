/**
 * Ids for entities created without one: ULIDs from a monotonic factory, so
 * ids made in the same millisecond still sort in creation order (children
 * list oldest first, docs/table.md). Crockford base32: never contains `#`.
 */
import { monotonicFactory } from 'ulid';
import { validateId } from '../connections/args.js';
import type { Plan } from '../plan/plan.js';

const next = monotonicFactory();

export const newId = (): string => next();

/** The id the caller gave (validated), or a new one. */
export const idOrNew = (id: string | null | undefined, argumentName = 'input.id'): string => (id == null ? newId() : validateId(id, argumentName));

/** An id of an item of `typeName` given in `argumentName`, checked by its type's rule (a derived id's, or the id rules; a keyless type's are the id rules). */
export const checkedId = (plan: Plan, typeName: string, value: unknown, argumentName: string): string =>
  plan.items.get(typeName)?.checkId(value, argumentName) ?? validateId(value as string, argumentName);
