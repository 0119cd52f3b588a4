/**
 * The connection engine: every Relay connection is planned, read and
 * shaped here, through one of three sources (each a `Source`: the
 * strategy; what it reads is its target):
 * - singleCollection.ts: one item collection, read with the request's loaders;
 * - filledRange.ts: a filtered sort-key range read in filled pages under a
 *   read budget (@query beside @children);
 * - mergedShards.ts: N partitions of one index read in one wave and merged.
 *
 * 1. plan (`planPage`): page arguments checked, cursors decoded into
 *    positions; a bad one is BAD_USER_INPUT before any request. Reads are
 *    deterministic in their input, so look-ahead and the resolver plan the
 *    same reads and the loaders share them.
 * 2. read (`source.read`): one item more than the page decides the flag on
 *    the reading side; the other side is a Limit-1 check, only when
 *    selected. Flags are exact: true iff an item lies beyond the page.
 * 3. shape (`connectionOf`): edges, cursors only when selected, totalCount
 *    only when selected. Out: a ConnectionRecord, edges ascending.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { ConnectionRecord, PageInfoRecord } from '../plan/records.js';
import { validateConnectionArgs, type ConnectionArgs } from './args.js';
import { decodeCursor, encodeCursor, type CursorBinding, type CursorReader, type Position, type PositionShape } from './cursor.js';
import type { CursorCodec } from './cursorSigning.js';
import { lazyCursorEdges, lazyPageInfo } from './lazyCursors.js';

/** The positions and size of a page: `size` items `forward` (or backward) from `after` (`before`), bounded by the other. */
export interface PageWindow<P extends Position = Position> {
  after: P | null;
  before: P | null;
  forward: boolean;
  size: number;
}

/** A source's reads for one page, with what they were planned from. */
export interface PagePlan<T, P extends Position = Position> {
  target: T;
  window: PageWindow<P>;
}

/** A page flag: known, or one check away (run only when the field is selected). */
export type PageFlag = PageInfoRecord['hasNextPage'];

/** A page as a source read it: its items in ascending order and its flags. */
export interface Page {
  items: Item[];
  hasNextPage: PageFlag;
  hasPreviousPage: PageFlag;
  /** Where `startCursor` / `endCursor` point when not at the first / last item (a page cut short by its read budget). */
  start?: Position;
  end?: Position;
}

/** How a connection's pages are read from its target `T`, with the reads `R` the request gives it. */
export interface Source<T, Plan extends PagePlan<T, P>, R, P extends Position = Position> {
  /** What cursors of `target` are bound to. */
  binding(target: T): CursorBinding;
  /** What their positions look like. */
  shape(target: T): PositionShape;
  /** The reads of a page (no request yet). */
  plan(target: T, window: PageWindow<P>): Plan;
  /** Reads a planned page. */
  read(plan: Plan, reads: R): Promise<Page>;
  /** The position of an item of `target` (what its edge's cursor holds). */
  position(target: T, item: Item): P;
}

/**
 * A source over targets some of which are read in descending sort-key order
 * (a connection declared `order: DESCENDING`): for those, `first:` is the
 * ascending source's `last:` with the cursors' sides swapped, and its page
 * comes back reversed with its flags swapped. Cursors are the same
 * positions, so paging is exact both ways as it is ascending.
 */
export function orderedBy<T, Plan extends PagePlan<T, P>, R, P extends Position>(
  descending: (target: T) => boolean,
  source: Source<T, Plan, R, P>,
): Source<T, Plan, R, P> {
  return {
    ...source,
    plan: (target, window) =>
      descending(target)
        ? source.plan(target, { after: window.before, before: window.after, forward: !window.forward, size: window.size })
        : source.plan(target, window),
    async read(plan, reads) {
      const page = await source.read(plan, reads);
      if (!descending(plan.target)) return page;
      const flipped: Page = { items: page.items.slice().reverse(), hasNextPage: page.hasPreviousPage, hasPreviousPage: page.hasNextPage };
      if (page.end !== undefined) flipped.start = page.end;
      if (page.start !== undefined) flipped.end = page.start;
      return flipped;
    },
  };
}

/**
 * The planned page of `target`. Throws BAD_USER_INPUT for bad arguments or
 * cursors, before any request.
 */
export function planPage<T, Plan extends PagePlan<T, P>, P extends Position>(
  source: Source<T, Plan, unknown, P>,
  target: T,
  cursors: CursorReader,
  args: ConnectionArgs,
): Plan {
  const page = validateConnectionArgs(args);
  const after = page.after === null ? null : cursorPosition(source, target, cursors, page.after, 'after');
  const before = page.before === null ? null : cursorPosition(source, target, cursors, page.before, 'before');
  return source.plan(target, { after, before, forward: page.forward, size: page.size });
}

/** The position inside a cursor given as `argumentName` for `target`; BAD_USER_INPUT when it is not one of its cursors. */
export function cursorPosition<T, P extends Position>(
  source: Source<T, PagePlan<T, P>, never, P>,
  target: T,
  cursors: CursorReader,
  cursor: string,
  argumentName: string,
): P {
  return decodeCursor(cursors, source.binding(target), source.shape(target), cursor, argumentName) as P;
}

export const memo = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
};

/**
 * The Relay connection of a read page: edges in ascending order, cursors
 * encoded only when selected (JSON, base64 and a signature per cursor are a
 * large share of the gateway's work, and most queries never ask for them),
 * totalCount from `countAll` only when selected.
 */
export function connectionOf<T, Plan extends PagePlan<T, P>, P extends Position, Edge extends object>(
  source: Source<T, Plan, never, P>,
  plan: Plan,
  codec: CursorCodec,
  page: Page,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): ConnectionRecord<Edge & { cursor: string }> {
  const { items } = page;
  const { target } = plan;
  let binding: CursorBinding | undefined;
  const cursors: (string | undefined)[] = [];
  const cursorAt = (i: number) => (cursors[i] ??= encodeCursor(codec, (binding ??= source.binding(target)), source.position(target, items[i])));
  const last = items.length - 1;
  return {
    edges: lazyCursorEdges(items, toEdge, cursorAt),
    pageInfo: lazyPageInfo(page.hasNextPage, page.hasPreviousPage, (end) => {
      const at = end === 'start' ? page.start : page.end;
      if (at !== undefined) return encodeCursor(codec, (binding ??= source.binding(target)), at);
      return last < 0 ? null : cursorAt(end === 'start' ? 0 : last);
    }),
    totalCount: memo(countAll),
  };
}

/** Plans, reads and shapes one page of `target` (what a connection resolver calls). */
export async function readConnection<T, Plan extends PagePlan<T, P>, R, P extends Position, Edge extends object>(
  source: Source<T, Plan, R, P>,
  target: T,
  cursors: CursorReader,
  reads: R,
  args: ConnectionArgs,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): Promise<ConnectionRecord<Edge & { cursor: string }>> {
  const plan = planPage(source, target, cursors, args);
  const page = await source.read(plan, reads);
  return connectionOf(source, plan, cursors, page, toEdge, countAll);
}

/** The signed cursor of one item (or position) of `target`: a mutation's new edge, a subscription's event. */
export function cursorOf<T>(source: Source<T, PagePlan<T>, never>, target: T, codec: CursorCodec, item: Item): string {
  return encodeCursor(codec, source.binding(target), source.position(target, item));
}
