/**
 * Relay connections over a sort-key range of an index partition, optionally
 * filtered, with filled pages (dynamo/filledRange.ts): Customer.orders with
 * `placedAfter` / `placedBefore` / `status`.
 *
 * Pages are exact like every connection's: a page holds `first` (`last`)
 * matches whenever that many remain, the match after it decides
 * `hasNextPage` (`hasPreviousPage`), and the far-side flags are answered
 * by a filled read of one match, only when selected.
 *
 * Budget: a page's reads stop once they consumed the read budget
 * (`PAGE_READ_BUDGET`). The page is then short and says so:
 * - `hasNextPage` (backward: `hasPreviousPage`) is true, and `endCursor`
 *   (`startCursor`) is the position the reads got to, not the last edge's,
 *   so `after: endCursor` resumes without evaluating anything twice;
 * - the response carries `extensions.shortPages`: one entry per short page
 *   with its path, the reason `READ_BUDGET`, the units consumed and the
 *   items evaluated.
 *
 * Cursors: `{ v, c: connection, p: parent partition, i: index, a: the
 * arguments bound, k: { <sort key attr>: value } }`, signed like all cursors.
 * A cursor issued under other filter arguments is refused (BAD_USER_INPUT).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { responsePathAsArray } from 'graphql';
import { badUserInput } from '../errors.js';
import type { Context } from '../graphql/context.js';
import type { Item } from '../dynamo/batchGet.js';
import { readFilled, type FilledRead } from '../dynamo/filledRange.js';
import type { RangeSource } from '../plan/sources.js';
import type { ConnectionRecord } from '../plan/records.js';
import { validateConnectionArgs, type ConnectionArgs } from './args.js';
import { readCursorPayload, CURSOR_VERSION, type CursorReader } from './connection.js';
import type { CursorCodec } from './cursorSigning.js';
import { lazyCursorEdges, lazyPageInfo } from './lazyCursors.js';

export type { RangeSource } from '../plan/sources.js';

export interface ShortPage {
  path: (string | number)[];
  reason: 'READ_BUDGET';
  consumedReadUnits: number;
  evaluatedItems: number;
}

export function encodeRangeCursor(codec: CursorCodec, source: RangeSource, sk: string): string {
  return codec.seal(
    JSON.stringify({ v: CURSOR_VERSION, c: source.name, p: source.partition, i: source.index, a: source.binding, k: { [source.skAttr]: sk } }),
  );
}

export function decodeRangeCursor(codec: CursorReader, source: RangeSource, cursor: string, argumentName: string): string {
  const refuse = (why: string) => badUserInput(`"${argumentName}" is not a valid cursor for ${source.name}: ${why}`, argumentName);
  const payload = readCursorPayload(codec, source.name, cursor, argumentName) as { p?: unknown; i?: unknown; a?: unknown; k?: unknown };
  if (payload.p !== source.partition || payload.i !== source.index) throw refuse('it was issued by another connection');
  if ((payload.a ?? '') !== source.binding) throw refuse('it was issued for other arguments');
  const k = payload.k as Record<string, unknown> | null;
  const sk = k && typeof k === 'object' && Object.keys(k).length === 1 ? k[source.skAttr] : undefined;
  if (typeof sk !== 'string' || sk.length === 0 || sk.length > 1024) throw refuse('malformed key');
  return sk;
}

const memo = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
};

export async function readRangeConnection<Edge extends object>(
  ctx: Context,
  info: GraphQLResolveInfo | undefined,
  source: RangeSource,
  args: ConnectionArgs,
  toEdge: (item: Item) => Edge,
  countAll: () => Promise<number>,
): Promise<ConnectionRecord<Edge & { cursor: string }>> {
  const page = validateConnectionArgs(args);
  const after = page.after === null ? null : decodeRangeCursor(ctx.cursors, source, page.after, 'after');
  const before = page.before === null ? null : decodeRangeCursor(ctx.cursors, source, page.before, 'before');
  const { forward, size } = page;
  const budget = ctx.pageReadBudget;
  const base: Omit<FilledRead, 'forward' | 'want'> = {
    index: source.index,
    pkAttr: source.pkAttr,
    skAttr: source.skAttr,
    pk: source.pk,
    lo: source.lo,
    hi: source.hi,
    filter: source.filter,
    budget,
  };
  const path = info ? responsePathAsArray(info.path) : [];
  const short = (consumedReadUnits: number, evaluatedItems: number) =>
    ctx.shortPages.push({ path, reason: 'READ_BUDGET', consumedReadUnits, evaluatedItems });

  const read = await readFilled(ctx.reads, ctx.tableName, {
    ...base,
    forward,
    want: size + 1,
    exclusive: forward ? after : before,
    bound: forward ? before : after,
  });
  if (read.budgetSpent) short(read.consumedReadUnits, read.evaluated);
  const more = read.items.length > size;
  const pageItems = read.items.slice(0, size);
  if (!forward) pageItems.reverse();

  /** Is there a match at or beyond `sk` (at-or-after, or at-or-before)? Unknown after the budget: true, and said so. */
  const matchBeyond = (sk: string | null, atOrAfter: boolean) =>
    sk === null
      ? false
      : memo(async () => {
          const probe = await readFilled(ctx.reads, ctx.tableName, {
            ...base,
            ...(atOrAfter ? { lo: sk } : { hi: sk }),
            forward: atOrAfter,
            want: 1,
          });
          if (probe.items.length > 0) return true;
          if (probe.budgetSpent) short(probe.consumedReadUnits, probe.evaluated);
          return probe.budgetSpent;
        });

  const cursorOf = (sk: string) => encodeRangeCursor(ctx.cursors, source, sk);
  const edges = lazyCursorEdges(pageItems, toEdge, (i) => cursorOf(String(pageItems[i]![source.skAttr])));
  const resumeAt = read.budgetSpent ? read.lastEvaluated : null;
  const firstSk = pageItems.length ? String(pageItems[0][source.skAttr]) : null;
  const lastSk = pageItems.length ? String(pageItems[pageItems.length - 1][source.skAttr]) : null;
  // A short page's far end is where the reads got to: resuming from it evaluates nothing twice.
  const endSk = forward && resumeAt !== null ? resumeAt : lastSk;
  const startSk = !forward && resumeAt !== null ? resumeAt : firstSk;
  return {
    edges,
    pageInfo: lazyPageInfo(
      forward ? more || read.budgetSpent || matchBeyond(before, true) : matchBeyond(before, true),
      forward ? matchBeyond(after, false) : more || read.budgetSpent || matchBeyond(after, false),
      (end) => {
        const sk = end === 'start' ? startSk : endSk;
        return sk === null ? null : cursorOf(sk);
      },
    ),
    totalCount: memo(countAll),
  };
}
