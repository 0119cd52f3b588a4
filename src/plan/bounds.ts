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
import type { KeyIn } from '../declaration/indexed.js';
import { badUserInput } from '../errors.js';
import { validateText } from './arguments.js';
import type { RangeSource } from './sources.js';

/** What cursors of a bounded read are bound to ('' without bounds: the plain collection's cursors). */
export function boundsBinding(bounds: QueryBounds, args: Record<string, unknown>): string {
  const from = bounds.from === null ? null : validateText(args[bounds.from], bounds.from);
  const until = bounds.until === null ? null : validateText(args[bounds.until], bounds.until);
  return from === null && until === null ? '' : JSON.stringify([from, until]);
}

/** A sort key's text as given: the casing of keys written as given. */
const asGiven = (text: string) => text;

/**
 * The arguments' bounds as the sort key holds them (`cased`: in its case,
 * as ElectroDB cases a range's keys), null when neither is given; an empty
 * range is BAD_USER_INPUT.
 */
function boundsOf(bounds: QueryBounds, args: Record<string, unknown>, cased: (text: string) => string): { from: string | null; until: string | null } | null {
  const given = {
    from: bounds.from === null ? null : validateText(args[bounds.from], bounds.from),
    until: bounds.until === null ? null : validateText(args[bounds.until], bounds.until),
  };
  if (given.from === null && given.until === null) return null;
  const from = given.from === null ? null : cased(given.from);
  const until = given.until === null ? null : cased(given.until);
  if (from !== null && until !== null && from >= until) {
    throw badUserInput(`${bounds.until} (${given.until}) must come after ${bounds.from} (${given.from}): the range is empty`, bounds.until!);
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
export function boundedCollection(collection: Collection, bounds: QueryBounds, args: Record<string, unknown>, cased = asGiven): Collection {
  const given = boundsOf(bounds, args, cased);
  if (given === null) return collection;
  const { prefix } = collection;
  const lo = given.from === null ? rangeStart(prefix) : prefix + given.from;
  const hi = given.until === null ? prefixEnd(prefix) : prefix + given.until;
  return { ...collection, range: { lo, hi, binding: boundsBinding(bounds, args) } };
}

/** The narrowed read of `collection` for `args`, or null when neither bound is given (the plain collection). */
export function boundedSource(collection: Collection, bounds: QueryBounds, args: Record<string, unknown>, cased = asGiven): RangeSource | null {
  const given = boundsOf(bounds, args, cased);
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
    ...(collection.numbers === undefined ? {} : { numbers: collection.numbers }),
    lo: from === null ? rangeStart(prefix) : prefix + from,
    // BETWEEN is inclusive: every sort key in the range continues past `prefix + until`, so none equals it.
    hi: until === null ? prefixEnd(prefix) : prefix + until,
    filter: null,
    binding: boundsBinding(bounds, args),
    ...(collection.descending ? { descending: true } : {}),
  };
}

/**
 * Over an index sort key of several attributes: the attributes the
 * arguments fix, left to right (each an equality of the key condition,
 * its value the template filled), the index of the first one left (the one
 * its prefix and from/until apply to), and what cursors are bound to. An
 * argument given while an earlier one is not is BAD_USER_INPUT.
 */
export function sortedFix(key: KeyIn, sortArguments: Record<string, string>, bounds: QueryBounds | null, args: Record<string, unknown>) {
  const values: Record<string, string> = {};
  for (const [placeholder, argument] of Object.entries(sortArguments)) {
    const value = validateText(args[argument], argument);
    if (value !== null) values[placeholder] = value;
  }
  const sorts = [{ attribute: key.skAttr, template: key.sk }, ...key.skMore];
  const fixed: { attr: string; value: string }[] = [];
  let at = 0;
  while (at < sorts.length - 1 && sorts[at]!.template.placeholders.every((p) => p in values)) {
    fixed.push({ attr: sorts[at]!.attribute, value: sorts[at]!.template.fill(values) });
    at++;
  }
  for (const { template, attribute } of sorts.slice(at)) {
    const given = template.placeholders.find((p) => p in values);
    if (given === undefined) continue;
    const missing = sorts[at]!.template.placeholders.find((p) => !(p in values))!;
    const argument = sortArguments[given]!;
    throw badUserInput(
      `${argument} fixes ${attribute}, a sort attribute after the one ${sortArguments[missing] ?? missing} fixes: give ${sortArguments[missing] ?? missing} too`,
      argument,
    );
  }
  const range = bounds === null ? '' : boundsBinding(bounds, args);
  const binding = fixed.length === 0 && range === '' ? '' : JSON.stringify([fixed.map((f) => f.value), range]);
  return { sorts, fixed, at, binding };
}

/**
 * `collection` (the partition, on an index whose sort key has several
 * attributes) narrowed by the arguments that fix its leading sort
 * attributes (sortedFix), from/until applying to the first one left.
 * Unchanged but for from/until for a key with one sort attribute.
 */
export function sortedCollection(
  collection: Collection,
  key: KeyIn,
  sortArguments: Record<string, string>,
  bounds: QueryBounds | null,
  args: Record<string, unknown>,
): Collection {
  if (key.skMore.length === 0) return bounds === null ? collection : boundedCollection(collection, bounds, args, key.sk.cased);
  const { sorts, fixed, at, binding } = sortedFix(key, sortArguments, bounds, args);
  const ranged = sorts[at]!;
  const sorted: Collection = {
    ...collection,
    skAttr: ranged.attribute,
    prefix: ranged.template.prefix,
    sortKey: { fixed, after: sorts.slice(at + 1).map((s) => s.attribute), binding },
  };
  return bounds === null ? sorted : boundedCollection(sorted, bounds, args, ranged.template.cased);
}
