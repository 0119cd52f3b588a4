/**
 * @query(from, until): a connection narrowed to a range of its sort key.
 *
 * The arguments compare with the sort key's text from its first
 * placeholder on: with sort keys `msg#{sentAt}#{id}` and from
 * "2026-03-02", the read starts at `msg#2026-03-02`; until stops before
 * `msg#<until>`. Read as a filled range (connections/filledRange.ts), so
 * cursors are bound to the arguments. Bad arguments are BAD_USER_INPUT.
 */
import type { Collection } from '../dynamo/collection.js';
import { partitionLabel, prefixEnd, rangeStart } from '../dynamo/collection.js';
import type { QueryBounds } from '../declaration/model.js';
import { badUserInput } from '../errors.js';
import { validateText } from './arguments.js';
import type { RangeSource } from './sources.js';

/** What cursors of a bounded read are bound to ('' without bounds: the plain collection's cursors). */
export function boundsBinding(bounds: QueryBounds, args: Record<string, unknown>): string {
  const from = bounds.from === null ? null : validateText(args[bounds.from], bounds.from);
  const until = bounds.until === null ? null : validateText(args[bounds.until], bounds.until);
  return from === null && until === null ? '' : JSON.stringify([from, until]);
}

/** The arguments' bounds, null when neither is given; an empty range is BAD_USER_INPUT. */
function boundsOf(bounds: QueryBounds, args: Record<string, unknown>): { from: string | null; until: string | null } | null {
  const from = bounds.from === null ? null : validateText(args[bounds.from], bounds.from);
  const until = bounds.until === null ? null : validateText(args[bounds.until], bounds.until);
  if (from === null && until === null) return null;
  if (from !== null && until !== null && from >= until) {
    throw badUserInput(`${bounds.until} (${until}) must come after ${bounds.from} (${from}): the range is empty`, bounds.until!);
  }
  return { from, until };
}

/**
 * `collection` narrowed to the arguments' range, read as a collection
 * (positions are whole start keys): for an index whose sort key may repeat
 * (a natural attribute such as `CreatedAt`), where a filled range's
 * sort-key positions would skip items sharing one. Unchanged when neither
 * bound is given.
 */
export function boundedCollection(collection: Collection, bounds: QueryBounds, args: Record<string, unknown>): Collection {
  const given = boundsOf(bounds, args);
  if (given === null) return collection;
  const { prefix } = collection;
  const lo = given.from === null ? rangeStart(prefix) : prefix + given.from;
  const hi = given.until === null ? prefixEnd(prefix) : prefix + given.until;
  return { ...collection, range: { lo, hi, binding: boundsBinding(bounds, args) } };
}

/** The narrowed read of `collection` for `args`, or null when neither bound is given (the plain collection). */
export function boundedSource(collection: Collection, bounds: QueryBounds, args: Record<string, unknown>): RangeSource | null {
  const given = boundsOf(bounds, args);
  if (given === null) return null;
  const { from, until } = given;
  const { prefix } = collection;
  return {
    name: collection.name,
    partition: partitionLabel(collection.pk, collection.pkMore),
    ...(collection.index === undefined ? {} : { index: collection.index }),
    pkAttr: collection.pkAttr,
    skAttr: collection.skAttr,
    pk: collection.pk,
    ...(collection.pkMore === undefined ? {} : { pkMore: collection.pkMore }),
    lo: from === null ? rangeStart(prefix) : prefix + from,
    // BETWEEN is inclusive: every sort key in the range continues past `prefix + until`, so none equals it.
    hi: until === null ? prefixEnd(prefix) : prefix + until,
    filter: null,
    binding: boundsBinding(bounds, args),
    ...(collection.descending ? { descending: true } : {}),
  };
}
