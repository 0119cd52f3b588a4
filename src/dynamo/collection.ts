/**
 * Range reads over one item collection: the children of one partition whose
 * sort key starts with a prefix (`begins_with(<sort key>, 'PLAYER#')`), on the base
 * table or on GSI1.
 *
 * Terminology
 * - collection: partition value + sort-key prefix (+ index).
 * - start key: a full `LastEvaluatedKey`-shaped key (table keys, plus the
 *   index keys on GSI1) that the read starts *after* (ExclusiveStartKey).
 * - bound: a key on the far side that the read stops *before*. DynamoDB has
 *   only inclusive BETWEEN, so the bound item itself is dropped here.
 *
 * A read keeps querying until it has `limit` items or the range is
 * exhausted: DynamoDB may return a short page (1 MB cap) with a
 * LastEvaluatedKey, and a `Limit`-stopped Query returns one even when
 * nothing follows, so LastEvaluatedKey alone never decides "more".
 */
import type { QueryCommandInput, QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { ReadPort } from './readPort.js';
import type { Item } from './batchGet.js';
import type { TableKeyNames } from './keys.js';
import { invariantViolation } from '../errors.js';

export interface Collection {
  /** Connection name, e.g. `Team.players`: cursors are bound to it. */
  name: string;
  /** The index read (undefined: the table) and its key attributes. */
  index?: string;
  pkAttr: string;
  skAttr: string;
  /** Partition value, e.g. `TEAM#1`. */
  pk: string;
  /** The further partition-key attributes of a multi-attribute key, each equal to its value. */
  pkMore?: readonly PartitionPart[];
  /** Sort-key prefix of the children, e.g. `PLAYER#`. */
  prefix: string;
  /** The table's key attributes: a start key holds them, on an index too. */
  table: TableKeyNames;
  /**
   * Whether an item under the prefix is one of the collection's (its keys
   * match the node type's templates): another program's item that does not
   * is read past, as items of other kinds are. Absent: every one is.
   */
  accepts?: (item: Item) => boolean;
  /** Paged from the highest sort key (order: DESCENDING); the reads themselves take a direction each. */
  descending?: boolean;
  /**
   * Sort keys inside the range of items that are not the collection's and
   * that a partition holds one of at most (another type's `META` among the
   * members of a collection over several types): read past, each read asking
   * for one item more per key, so a page still takes one Query.
   */
  passes?: readonly string[];
  /**
   * A narrower sort-key range within the prefix (from/until over a sort key
   * that may repeat, where a position must be a whole start key): `lo`
   * included, `hi` excluded; `binding` is what cursors are bound to.
   */
  range?: { lo: string; hi: string; binding: string };
  /**
   * An index sort key of several attributes: `skAttr` is the one the prefix
   * and range apply to; `fixed` are those before it, each equal to its
   * value (the connection's arguments), `after` those after it, which order
   * items sharing a value of `skAttr`; `binding` is what cursors are bound
   * to (the fixed values and the range's arguments).
   */
  sortKey?: { fixed: readonly PartitionPart[]; after: readonly string[]; binding: string };
  /**
   * The key attributes that hold numbers (an Int or Float stored as itself,
   * typed N): partition attributes, and `skAttr` of an index sort key of one
   * attribute. Their values here, in start keys and in ranges are the
   * number's text, sent to DynamoDB as the number; a number sort key orders
   * the collection by value (2 before 10). Absent: every one holds text.
   */
  numbers?: readonly string[];
}

export type StartKey = Record<string, string>;

/** The attributes of a start key for this collection (what LastEvaluatedKey holds). */
export function keyAttributes(collection: Collection): string[] {
  const { pk, sk } = collection.table;
  // An index over the table's own keys (pk SK, sk PK) names each attribute once.
  if (!collection.index) return [pk, sk];
  const sorted = collection.sortKey;
  const skAttrs = sorted ? [...sorted.fixed.map((p) => p.attr), collection.skAttr, ...sorted.after] : [collection.skAttr];
  return [...new Set([pk, sk, collection.pkAttr, ...(collection.pkMore ?? []).map((p) => p.attr), ...skAttrs])];
}

/** The start key of an item: its table keys, plus index keys when reading an index. */
export function startKeyOf(collection: Collection, item: Item): StartKey {
  const key: StartKey = {};
  for (const attr of keyAttributes(collection)) key[attr] = String(item[attr]);
  return key;
}

// A number key attribute comes back as a number; positions hold its text.
const sameKey = (a: Item, b: StartKey) => Object.keys(b).every((k) => a[k] === b[k] || (typeof a[k] === 'number' && String(a[k]) === b[k]));

/** A start key as DynamoDB takes it: the number attributes' text as numbers (a start key's types must be the index's). */
function wireKey(collection: Collection, key: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!key || !collection.numbers) return key;
  const typed = { ...key };
  for (const attr of collection.numbers) if (typeof typed[attr] === 'string') typed[attr] = Number(typed[attr]);
  return typed;
}

/** Below every non-empty key (key values are never empty), and above nearly every one: a range with no bound on a side. */
export const KEY_MIN = '\u0000';
export const KEY_MAX = '\u{10FFFF}';

/** The lowest sort key a collection with this prefix may hold: the prefix, or KEY_MIN without one (DynamoDB refuses an empty key value). */
export const rangeStart = (prefix: string): string => (prefix === '' ? KEY_MIN : prefix);

/**
 * The smallest string greater than every string that starts with `prefix`,
 * in DynamoDB's order (UTF-8 bytes, which is code point order): the last
 * code point plus one, skipping the surrogates; a last code point that is
 * already U+10FFFF is dropped and the one before it raised. Key prefixes
 * here always start with ASCII (`TITLE#`), so there is always one to raise.
 */
export function prefixEnd(prefix: string): string {
  // No prefix (a sort key that is a field's own value): above every key that does not start with U+10FFFF.
  if (prefix === '') return KEY_MAX;
  // The usual case, once per look-ahead and per bounded page: a last code unit that is a whole character
  // below the surrogates (`#`, a letter) is raised in place, with no array of the code points.
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last < 0xd7ff) return prefix.slice(0, -1) + String.fromCharCode(last + 1);
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return invariantViolation(`no string follows every string starting with ${JSON.stringify(prefix.slice(0, 16))}`);
}

export interface RangeRead {
  collection: Collection;
  forward: boolean;
  limit: number;
  /** Start strictly after this key (in read direction). */
  exclusiveStart?: StartKey | null;
  /** Stop strictly before this key (in read direction). */
  bound?: StartKey | null;
}

/** Sort-key range of a read: `BETWEEN lo AND hi`; absent, the whole collection (`begins_with(prefix)`). */
interface SortRange {
  lo: string;
  hi: string;
}

/** One further attribute of a multi-attribute partition key and its value. */
export interface PartitionPart {
  attr: string;
  value: string;
}

/**
 * The partition's equality conditions: `#pk = :pk`, and `#pk1 = :pk1 …` for
 * the further attributes of a multi-attribute key.
 */
export function partitionCondition(pkAttr: string, pk: string, pkMore: readonly PartitionPart[] = [], numbers: readonly string[] = []) {
  const typed = (attr: string, value: string) => (numbers.includes(attr) ? Number(value) : value);
  const names: Record<string, string> = { '#pk': pkAttr };
  const values: Record<string, unknown> = { ':pk': typed(pkAttr, pk) };
  const terms = ['#pk = :pk'];
  pkMore.forEach((part, i) => {
    names[`#pk${i + 1}`] = part.attr;
    values[`:pk${i + 1}`] = typed(part.attr, part.value);
    terms.push(`#pk${i + 1} = :pk${i + 1}`);
  });
  return { expression: terms.join(' AND '), names, values };
}

/** The equality conditions of a collection: its partition's, then those of the sort attributes its arguments fix (left to right, as DynamoDB requires). */
function sortedCondition(collection: Collection) {
  const partition = partitionCondition(collection.pkAttr, collection.pk, collection.pkMore, collection.numbers);
  collection.sortKey?.fixed.forEach((part, i) => {
    partition.names[`#s${i}`] = part.attr;
    partition.values[`:s${i}`] = part.value;
    partition.expression += ` AND #s${i} = :s${i}`;
  });
  return partition;
}

/** What cursors of a partition are bound to: its value, and those of a multi-attribute key's further attributes. */
export const partitionLabel = (pk: string, pkMore: readonly PartitionPart[] = []): string =>
  pkMore.length === 0 ? pk : [pk, ...pkMore.map((p) => p.value)].join('\u0000');

/** The collection's whole sort-key range: its `range`, or every key under its prefix. */
function wholeRange(collection: Collection): SortRange {
  return collection.range ?? { lo: rangeStart(collection.prefix), hi: prefixEnd(collection.prefix) };
}

/** Does the collection's sort attribute hold numbers (it then has no prefix and no narrowed range)? */
const sortsNumbers = (collection: Collection): boolean => collection.numbers?.includes(collection.skAttr) === true;

/** Is `sk` one of the collection's sort keys? Under its prefix, and below the far end of a narrowed range (BETWEEN includes it). */
const inRange = (collection: Collection, sk: unknown): boolean =>
  sortsNumbers(collection)
    ? typeof sk === 'number'
    : typeof sk === 'string' && sk.startsWith(collection.prefix) && (collection.range === undefined || sk < collection.range.hi);

/**
 * The key condition of a range over a number sort key: its sides as numbers,
 * a side at KEY_MIN or KEY_MAX (the whole collection's) left open.
 */
function numberRangeCondition(collection: Collection, range: SortRange) {
  const partition = sortedCondition(collection);
  const lo = range.lo === KEY_MIN ? null : Number(range.lo);
  const hi = range.hi === KEY_MAX ? null : Number(range.hi);
  const term = lo !== null && hi !== null ? '#sk BETWEEN :lo AND :hi' : lo !== null ? '#sk >= :lo' : hi !== null ? '#sk <= :hi' : null;
  if (term === null)
    return { KeyConditionExpression: partition.expression, ExpressionAttributeNames: partition.names, ExpressionAttributeValues: partition.values };
  return {
    KeyConditionExpression: `${partition.expression} AND ${term}`,
    ExpressionAttributeNames: { ...partition.names, '#sk': collection.skAttr },
    ExpressionAttributeValues: { ...partition.values, ...(lo === null ? {} : { ':lo': lo }), ...(hi === null ? {} : { ':hi': hi }) },
  };
}

/**
 * The key condition of a read over `collection`: the one place key-condition strings are written.
 * `open`: one side of the range only (`from` lo on, or `below` hi), the read stopping at the other itself.
 */
function keyCondition(collection: Collection, given?: SortRange, open?: 'from' | 'below') {
  const range = given ?? collection.range;
  if (range && sortsNumbers(collection)) return numberRangeCondition(collection, range);
  const partition = sortedCondition(collection);
  if (range && open) {
    return {
      KeyConditionExpression: `${partition.expression} AND #sk ${open === 'from' ? '>= :lo' : '< :hi'}`,
      ExpressionAttributeNames: { ...partition.names, '#sk': collection.skAttr },
      ExpressionAttributeValues: { ...partition.values, ...(open === 'from' ? { ':lo': range.lo } : { ':hi': range.hi }) },
    };
  }
  if (!range && collection.prefix === '') {
    return { KeyConditionExpression: partition.expression, ExpressionAttributeNames: partition.names, ExpressionAttributeValues: partition.values };
  }
  const names = { ...partition.names, '#sk': collection.skAttr };
  if (!range) {
    return {
      KeyConditionExpression: `${partition.expression} AND begins_with(#sk, :prefix)`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...partition.values, ':prefix': collection.prefix },
    };
  }
  return {
    KeyConditionExpression: `${partition.expression} AND #sk BETWEEN :lo AND :hi`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...partition.values, ':lo': range.lo, ':hi': range.hi },
  };
}

/** The range that stops at `bound` (exclusive once its item is dropped), in read direction. */
function boundedRange(collection: Collection, forward: boolean, bound: StartKey): SortRange {
  const boundSk = bound[collection.skAttr]!;
  const whole = wholeRange(collection);
  return forward ? { lo: whole.lo, hi: boundSk } : { lo: boundSk, hi: whole.hi };
}

export interface PageRead {
  /** Query `Limit`. */
  limit?: number;
  startKey?: Record<string, unknown>;
  forward?: boolean;
  range?: SortRange;
  /** Strongly consistent where the collection allows it (base table; GSI1 is eventually consistent). */
  consistent?: boolean;
  count?: boolean;
  /** The range's one side only (keyCondition). */
  open?: 'from' | 'below';
}

/** One Query over `collection`: every read of this module (and every pager of writes) goes through here. */
function query(reads: ReadPort, tableName: string, collection: Collection, read: PageRead): Promise<QueryCommandOutput> {
  const input: QueryCommandInput = {
    TableName: tableName,
    IndexName: collection.index,
    ...keyCondition(collection, read.range, read.open),
    ScanIndexForward: read.forward,
    ConsistentRead: read.consistent && !collection.index ? true : undefined,
    Select: read.count ? 'COUNT' : undefined,
    Limit: read.limit,
    ExclusiveStartKey: wireKey(collection, read.startKey),
  };
  return reads.query(input);
}

/** One page of a collection's children (one Query); `next` is the LastEvaluatedKey (more may follow). */
export async function readPage(
  reads: ReadPort,
  tableName: string,
  collection: Collection,
  read: PageRead,
): Promise<{ items: Item[]; next: Record<string, unknown> | undefined }> {
  const out = await query(reads, tableName, collection, read);
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/**
 * Every child of a collection, `pageSize` at a time, following
 * LastEvaluatedKey until the collection is exhausted (empty pages skipped).
 */
export async function* pages(reads: ReadPort, tableName: string, collection: Collection, pageSize: number, consistent = false): AsyncGenerator<Item[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const { items, next } = await readPage(reads, tableName, collection, { limit: pageSize, startKey, consistent });
    if (items.length > 0) yield items;
    startKey = next;
  } while (startKey);
}

export async function readRange(reads: ReadPort, tableName: string, { collection, forward, limit, exclusiveStart, bound }: RangeRead): Promise<Item[]> {
  const items: Item[] = [];
  if (limit <= 0) return items;
  if (collection.sortKey) return readSortedRange(reads, tableName, { collection, forward, limit, exclusiveStart, bound });
  const range = bound ? boundedRange(collection, forward, bound) : undefined;
  let startKey: Record<string, unknown> | undefined = exclusiveStart ?? undefined;
  let atEnd = false;
  do {
    // One more than still needed when a bound is set: the bound item itself may come back and be dropped.
    const want = limit - items.length + (bound ? 1 : 0) + (collection.passes?.length ?? 0);
    const out = await query(reads, tableName, collection, { forward, range, limit: want, startKey });
    for (const item of out.Items ?? []) {
      if (items.length === limit) break;
      const sk = item[collection.skAttr];
      // A narrowed range's far end (BETWEEN includes it) is past its last item: read forward, nothing follows.
      if (collection.range && typeof sk === 'string' && sk >= collection.range.hi) {
        atEnd = forward;
        continue;
      }
      if (!inRange(collection, sk) || (collection.accepts && !collection.accepts(item))) continue;
      if (bound && sameKey(item, bound)) continue;
      items.push(item);
    }
    startKey = out.LastEvaluatedKey;
  } while (items.length < limit && startKey && !atEnd);
  return items;
}

/**
 * Children a forward page-with-parent read asks for beyond the page (see
 * entityPage.ts). Chosen by measurement on the benchmark's
 * `{ orders(first: 10) }` of a parent with 12 children: with 2, one Query of 14
 * items reaches the profile (1 request, 1 wave, 0.5 capacity units) instead
 * of a Query and a GetItem (2 requests, 2 waves, 1.0 units). A few small
 * children more stay within the Query's first 4 KB read unit, so the
 * over-read costs no capacity where it does not help; its price is the
 * transfer and unmarshalling of at most this many items.
 */
export const FORWARD_OVER_READ = 2;

/** Is `sk` one of the collection's sort keys? Under its prefix, inside its narrowed range, not one read past. */
export const inCollection = (collection: Collection, sk: unknown): boolean =>
  typeof sk === 'string' &&
  sk.startsWith(collection.prefix) &&
  (collection.range === undefined || (sk >= collection.range.lo && sk < collection.range.hi)) &&
  !(collection.passes ?? []).includes(sk);

/**
 * Is there any child on the far side of `key`, `key` itself included?
 * (`atOrAfter`: sort key ≥ key's; otherwise ≤.) One Query with Limit 1.
 */
export async function existsBeyond(reads: ReadPort, tableName: string, collection: Collection, key: StartKey, atOrAfter: boolean): Promise<boolean> {
  if (collection.sortKey) return existsBeyondSorted(reads, tableName, collection, key, atOrAfter);
  const sk = key[collection.skAttr]!;
  const whole = wholeRange(collection);
  const range = atOrAfter ? { lo: sk, hi: whole.hi } : { lo: whole.lo, hi: sk };
  // Two items: the far end of a narrowed range, which BETWEEN includes, may come first; and the items read past.
  const passes = collection.passes ?? [];
  const out = await query(reads, tableName, collection, { range, forward: atOrAfter, limit: (collection.range ? 2 : 1) + passes.length });
  return (out.Items ?? []).some((item) => inRange(collection, item[collection.skAttr]) && !passes.includes(item[collection.skAttr] as string));
}

/** Number of children, by a paged `Select: COUNT` Query (for tables whose counters are not maintained). */
export async function countCollection(reads: ReadPort, tableName: string, collection: Collection, consistent = false, range?: SortRange): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await query(reads, tableName, collection, { count: true, startKey, consistent, range });
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  // A narrowed range of a sorted collection excludes its far end, which BETWEEN counts.
  const hi = collection.sortKey && range === undefined ? collection.range?.hi : undefined;
  return count > 0 && hi !== undefined ? count - (await countCollection(reads, tableName, collection, consistent, { lo: hi, hi })) : count;
}

/*
 * Collections over an index sort key of several attributes. Items sharing
 * every sort value come back in an order of DynamoDB's own (not their table
 * keys'), so a position is a whole start key and a read starts from it
 * (ExclusiveStartKey); the far side of a page is found by meeting the bound
 * item itself, or by passing its sort values when it is gone.
 */

/** The sort values of an item from `skAttr` on, compared as DynamoDB orders them: -1, 0 or 1. */
function compareSorted(collection: Collection, a: Record<string, unknown>, b: Record<string, unknown>): number {
  for (const attr of [collection.skAttr, ...collection.sortKey!.after]) {
    const x = String(a[attr]);
    const y = String(b[attr]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Is `item` past `bound` in read direction (its sort values beyond the bound's)? */
const pastBound = (collection: Collection, forward: boolean, item: Record<string, unknown>, bound: StartKey) =>
  compareSorted(collection, item, bound) * (forward ? 1 : -1) > 0;

async function readSortedRange(reads: ReadPort, tableName: string, { collection, forward, limit, exclusiveStart, bound }: RangeRead): Promise<Item[]> {
  const items: Item[] = [];
  // A start at or past the bound: nothing lies between them.
  if (bound && exclusiveStart && (sameKey(exclusiveStart, bound) || pastBound(collection, forward, exclusiveStart, bound))) return items;
  let startKey: Record<string, unknown> | undefined = exclusiveStart ?? undefined;
  let atEnd = false;
  do {
    // One more than still needed when a bound is set: the bound item itself may come back. A narrowed range is
    // read from its near side on (`>= lo` forward, `< hi` backward), the far side met item by item: ties at
    // its far end, which BETWEEN would include, are then never read.
    const open = collection.range ? (forward ? 'from' : 'below') : undefined;
    const out = await query(reads, tableName, collection, { forward, limit: limit - items.length + (bound ? 1 : 0), startKey, open });
    for (const item of out.Items ?? []) {
      if (items.length === limit) break;
      if (bound && (sameKey(item, bound) || pastBound(collection, forward, item, bound))) {
        atEnd = true;
        break;
      }
      const sk = item[collection.skAttr];
      if (collection.range && typeof sk === 'string' && (forward ? sk >= collection.range.hi : sk < collection.range.lo)) {
        atEnd = true;
        break;
      }
      if (!inRange(collection, sk) || (collection.accepts && !collection.accepts(item))) continue;
      items.push(item);
    }
    startKey = out.LastEvaluatedKey;
  } while (items.length < limit && startKey && !atEnd);
  return items;
}

/**
 * Any item of a sorted collection at `key` or beyond it: one Query for the
 * items sharing all its sort values, which holds the key's item while it is
 * there (the usual case); when it is gone, one Query from the key
 * (ExclusiveStartKey) for an item past it.
 */
async function existsBeyondSorted(reads: ReadPort, tableName: string, collection: Collection, key: StartKey, atOrAfter: boolean): Promise<boolean> {
  const { fixed, after } = collection.sortKey!;
  const last = after.length === 0 ? collection.skAttr : after[after.length - 1]!;
  const equal = [collection.skAttr, ...after].filter((a) => a !== last).map((attr) => ({ attr, value: key[attr]! }));
  const tie: Collection = { ...collection, skAttr: last, prefix: '', sortKey: { fixed: [...fixed, ...equal], after: [], binding: '' } };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await query(reads, tableName, tie, { range: { lo: key[last]!, hi: key[last]! }, startKey });
    if ((page.Items ?? []).some((item) => sameKey(item, key))) return true;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  // Two items: the far end of a narrowed range, which BETWEEN includes, may come first.
  const out = await query(reads, tableName, collection, { forward: atOrAfter, limit: collection.range ? 2 : 1, startKey: key });
  return (out.Items ?? []).some((item) => inRange(collection, item[collection.skAttr]));
}
