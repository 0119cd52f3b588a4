/**
 * Relay cursor connections over DynamoDB item collections. The only file
 * that builds and reads cursor payloads (the signature itself is
 * cursorSigning.ts's business); each cursor string is verified and parsed
 * once per request (`cursorReader`), whichever of the argument check,
 * look-ahead or the connection resolver meets it first.
 *
 * In:  a collection (partition + sort-key prefix), validated page arguments,
 *      a function turning a stored item into an edge.
 * Out: a ConnectionRecord whose edges are in ascending sort-key order.
 *
 * How a page is read
 * - forward (`first`/`after`): ascending Query from the `after` key, one item
 *   more than the page; that extra item alone decides `hasNextPage`.
 * - backward (`last`/`before`): descending Query from the `before` key, one
 *   more than the page, reversed before it is returned.
 * - a cursor on the far side (`first` with `before`, `last` with `after`)
 *   bounds the range.
 * - `hasPreviousPage` after an `after` cursor (and `hasNextPage` before a
 *   `before` cursor) cannot be told from the page itself: one `Limit: 1`
 *   Query answers it, issued only when that field is selected.
 *   "Exact" means: true iff the connection holds an item beyond the page on
 *   that side, so the next page asked for is never empty.
 *
 * A cursor is the start key of its edge (LastEvaluatedKey-shaped), signed
 * (cursorSigning.ts, codec from the context) and bound to the connection
 * (its name, partition and index) that issued it. A cursor that does not
 * verify, does not decode, or belongs to another connection is
 * BAD_USER_INPUT before any DynamoDB request.
 */
import { badUserInput } from '../errors.js';
import {
  keyAttributes,
  startKeyOf,
  type Collection,
  type RangeRead,
  type StartKey,
} from '../dynamo/collection.js';
import type { Item } from '../dynamo/batchGet.js';
import type { ConnectionRecord } from '../plan/records.js';
import type { Context } from '../graphql/context.js';
import type { CursorCodec } from './cursorSigning.js';
import { validateConnectionArgs, type ConnectionArgs } from './args.js';
import { lazyCursorEdges, lazyPageInfo } from './lazyCursors.js';

export const CURSOR_VERSION = 2;
const MAX_CURSOR_LENGTH = 2048;

/**
 * Cursor format v2: a signed token (cursorSigning.ts) around this JSON.
 * Bound to the connection name, its partition and its index, all covered by
 * the signature. Not bound to a direction: Relay clients send `endCursor` as
 * `after` and `startCursor` as `before`, and any edge cursor is a valid
 * position for either; the position alone decides what follows or precedes.
 */
export interface CursorPayload {
  v: number;
  /** connection name */
  c: string;
  /** partition of the connection */
  p: string;
  /** index read (`GSI1`), or `table` */
  i: string;
  /** start key */
  k: StartKey;
}

const indexOf = (collection: Collection) => collection.index ?? 'table';

export function encodeCursor(codec: CursorCodec, collection: Collection, key: StartKey): string {
  const payload: CursorPayload = { v: CURSOR_VERSION, c: collection.name, p: collection.pk, i: indexOf(collection), k: key };
  return codec.seal(JSON.stringify(payload));
}

const refusal = (connection: string, argumentName: string, why: string) =>
  badUserInput(`"${argumentName}" is not a valid cursor for ${connection}: ${why}`, argumentName);

/**
 * The checks a cursor passes knowing only the connection's name (the field,
 * e.g. `Team.players`): its signature verifies, it decodes, has our
 * format, and was issued by that field. Run for every cursor argument before
 * execution starts (argumentCheck.ts).
 */
export function readCursorPayload(reader: CursorReader, connection: string, cursor: string, argumentName: string): CursorPayload {
  const read = reader.read(cursor);
  if ('refused' in read) throw refusal(connection, argumentName, read.refused);
  if (read.c !== connection) throw refusal(connection, argumentName, 'it was issued by another connection');
  return read;
}

/** A codec that also reads cursors: verified and parsed once per cursor string for as long as it lives (one request). */
export interface CursorReader extends CursorCodec {
  /** The payload of a cursor whose signature verifies and whose format is ours, or why not. */
  read(cursor: string): CursorPayload | { refused: string };
}

function openPayload(codec: CursorCodec, cursor: string): CursorPayload | { refused: string } {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return { refused: 'wrong length' };
  const opened = codec.open(cursor);
  if ('error' in opened) return { refused: opened.error };
  let payload: CursorPayload;
  try {
    payload = JSON.parse(opened.payload);
  } catch {
    return { refused: 'it does not decode' };
  }
  if (!payload || typeof payload !== 'object' || payload.v !== CURSOR_VERSION) return { refused: 'unknown format' };
  return payload;
}

/** The per-request reader around the server's codec (made with the request's context). */
export function cursorReader(codec: CursorCodec): CursorReader {
  const read = new Map<string, CursorPayload | { refused: string }>();
  return {
    seal: (payload) => codec.seal(payload),
    open: (token) => codec.open(token),
    read(cursor) {
      let result = read.get(cursor);
      if (result === undefined) read.set(cursor, (result = openPayload(codec, cursor)));
      return result;
    },
  };
}

/** The start key of a cursor, checked against the collection (partition, index, key attributes) it is used on. */
export function decodeCursor(reader: CursorReader, collection: Collection, cursor: string, argumentName: string): StartKey {
  const refuse = (why: string) => refusal(collection.name, argumentName, why);
  const payload = readCursorPayload(reader, collection.name, cursor, argumentName);
  if (payload.p !== collection.pk || payload.i !== indexOf(collection)) throw refuse('it was issued by another connection');
  const key = payload.k;
  const expected = keyAttributes(collection);
  if (
    !key ||
    typeof key !== 'object' ||
    Object.keys(key).length !== expected.length ||
    !expected.every((attr) => typeof key[attr] === 'string' && key[attr].length > 0 && key[attr].length <= 1024)
  ) {
    throw refuse('malformed key');
  }
  if (key[collection.pkAttr] !== collection.pk || !key[collection.skAttr].startsWith(collection.prefix)) {
    throw refuse('it was issued by another connection');
  }
  return key;
}

const memo = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
};

export interface PagePlan {
  /** The range read behind the page: one item more than the page, in read direction. */
  read: RangeRead;
  after: StartKey | null;
  before: StartKey | null;
  forward: boolean;
  size: number;
}

/**
 * The range read a page needs. Throws BAD_USER_INPUT for bad arguments or
 * cursors. Look-ahead (resolvers/lookahead.ts) plans the same read before
 * the connection's resolver runs, so both build it here: the range loader
 * caches by this object, and the plan must be identical to be found again.
 */
export function planPage(reader: CursorReader, collection: Collection, args: ConnectionArgs): PagePlan {
  const page = validateConnectionArgs(args);
  const after = page.after === null ? null : decodeCursor(reader, collection, page.after, 'after');
  const before = page.before === null ? null : decodeCursor(reader, collection, page.before, 'before');
  const { forward, size } = page;
  const read: RangeRead = {
    collection,
    forward,
    limit: size + 1,
    exclusiveStart: forward ? after : before,
    bound: forward ? before : after,
  };
  return { read, after, before, forward, size };
}

/**
 * Reads one page of `collection` and shapes it as a Relay connection.
 * `countAll` supplies totalCount (called only when totalCount is selected).
 */
export async function readConnection<Edge extends object>(
  ctx: Context,
  collection: Collection,
  args: ConnectionArgs,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): Promise<ConnectionRecord<Edge & { cursor: string }>> {
  const { read, after, before, forward, size } = planPage(ctx.cursors, collection, args);
  const beyond = (key: StartKey | null, atOrAfter: boolean) =>
    key ? memo(() => ctx.loaders.exists.load({ collection, key, atOrAfter })) : false;
  if (size === 0) {
    // A page of 0 (`first: 0 { totalCount }`) has no edges: its Query is sent only if pageInfo asks whether items follow.
    const anyItem = memo(async () => (await ctx.loaders.range.load(read)).length > 0);
    const orBeyond = (key: StartKey | null, atOrAfter: boolean) => {
      const b = beyond(key, atOrAfter);
      return async () => (await anyItem()) || (b !== false && (await b()));
    };
    return {
      edges: [],
      pageInfo: lazyPageInfo(
        forward ? orBeyond(before, true) : beyond(before, true),
        forward ? beyond(after, false) : orBeyond(after, false),
        () => null,
      ),
      totalCount: memo(countAll),
    };
  }
  const items = await ctx.loaders.range.load(read);
  const more = items.length > size;
  const pageItems = items.slice(0, size);
  if (!forward) pageItems.reverse();
  // Cursors are encoded only when selected: most queries never ask for them, and encoding
  // (JSON, base64, signing) every edge of every page is a large share of the gateway's work.
  const cursors: (string | undefined)[] = [];
  const cursorAt = (i: number) => (cursors[i] ??= encodeCursor(ctx.cursors, collection, startKeyOf(collection, pageItems[i])));
  const last = pageItems.length - 1;
  return {
    edges: lazyCursorEdges(pageItems, toEdge, cursorAt),
    pageInfo: lazyPageInfo(
      forward ? more || beyond(before, true) : beyond(before, true),
      forward ? beyond(after, false) : more || beyond(after, false),
      (end) => (last < 0 ? null : cursorAt(end === 'start' ? 0 : last)),
    ),
    totalCount: memo(countAll),
  };
}
