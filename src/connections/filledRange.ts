/**
 * The engine's source for a filtered sort-key range of an index partition,
 * read in filled pages (dynamo/filledRange.ts): a @children connection
 * narrowed by its @query's instant range and equality filters. Pages are
 * exact like every connection's, until the page's reads consume
 * `PAGE_READ_BUDGET`: the page is then short and says so (the flag on the
 * reading side true, the cursor at where the reads got to, so resuming
 * evaluates nothing twice; `extensions.shortPages` carries the units).
 * Positions are `{ <sort key attr>: value }`; cursors are bound to the
 * connection, partition, index and filter arguments.
 */
import type { FilledRead, FilledResult } from '../dynamo/filledRange.js';
import type { RangeSource } from '../plan/sources.js';
import { memo, orderedBy, type Page, type PagePlan, type Source } from './engine.js';

/** The filled reads of one request. */
export interface FilledReads {
  /** dynamo/filledRange.ts `readFilled` with the request's client and table. */
  filled(read: FilledRead): Promise<FilledResult>;
  /** Read units one page may consume. */
  budget: number;
  /** A read stopped by the budget: what it consumed and evaluated. */
  short(consumedReadUnits: number, evaluatedItems: number): void;
}

/** Why a page came back short, for `extensions.shortPages`. */
export interface ShortPage {
  path: (string | number)[];
  reason: 'READ_BUDGET';
  consumedReadUnits: number;
  evaluatedItems: number;
}

type RangePosition = Record<string, string>;

const ascending: Source<RangeSource, PagePlan<RangeSource, RangePosition>, FilledReads, RangePosition> = {
  binding: (source) => ({ name: source.name, partition: source.partition, index: source.index ?? 'table', args: source.binding }),
  shape: (source) => ({ attrs: [source.skAttr], skAttr: source.skAttr, prefix: '' }),
  plan: (target, window) => ({ target, window }),
  async read({ target: source, window }, reads): Promise<Page> {
    const { forward, size } = window;
    const skAttr = source.skAttr;
    const after = window.after === null ? null : window.after[skAttr];
    const before = window.before === null ? null : window.before[skAttr];
    const base: Omit<FilledRead, 'forward' | 'want'> = {
      index: source.index,
      pkAttr: source.pkAttr,
      skAttr,
      pk: source.pk,
      pkMore: source.pkMore,
      numbers: source.numbers,
      lo: source.lo,
      hi: source.hi,
      filter: source.filter,
      budget: reads.budget,
    };
    const read = await reads.filled({
      ...base,
      forward,
      want: size + 1,
      exclusive: forward ? after : before,
      bound: forward ? before : after,
    });
    if (read.budgetSpent) reads.short(read.consumedReadUnits, read.evaluated);
    const more = read.items.length > size;
    const items = read.items.slice(0, size);
    if (!forward) items.reverse();

    /** Is there a match at or beyond `sk` (at-or-after, or at-or-before)? Unknown after the budget: true, and said so. */
    const matchBeyond = (sk: string | null, atOrAfter: boolean) =>
      sk === null
        ? false
        : memo(async () => {
            const probe = await reads.filled({ ...base, ...(atOrAfter ? { lo: sk } : { hi: sk }), forward: atOrAfter, want: 1 });
            if (probe.items.length > 0) return true;
            if (probe.budgetSpent) reads.short(probe.consumedReadUnits, probe.evaluated);
            return probe.budgetSpent;
          });

    const page: Page = {
      items,
      hasNextPage: forward ? more || read.budgetSpent || matchBeyond(before, true) : matchBeyond(before, true),
      hasPreviousPage: forward ? matchBeyond(after, false) : more || read.budgetSpent || matchBeyond(after, false),
    };
    // A short page's far end is where the reads got to: resuming from it evaluates nothing twice.
    if (read.budgetSpent && read.lastEvaluated !== null) {
      if (forward) page.end = { [skAttr]: read.lastEvaluated };
      else page.start = { [skAttr]: read.lastEvaluated };
    }
    return page;
  },
  position: (source, item) => ({ [source.skAttr]: String(item[source.skAttr]) }),
};

/** A range of a connection declared `order: DESCENDING` is read from its highest sort key. */
export const filledRange = orderedBy((source: RangeSource) => source.descending === true, ascending);
