/** totalCount of a connection without a counter: its range counted, within the request's page read budget. */
import type { Context } from '../context.js';
import { countFilled } from '../dynamo/filledRange.js';
import type { RangeSource } from '../plan/sources.js';
import { badUserInput } from '../errors.js';

/** The number of matches of a narrowed connection (Select: COUNT within the page read budget). */
export async function countRange(ctx: Context, source: RangeSource): Promise<number> {
  const count = await countFilled(ctx.reads, ctx.tableName, { ...source, budget: ctx.pageReadBudget });
  if (count === null) {
    throw badUserInput(`totalCount here would read more than ${ctx.pageReadBudget} read units; narrow the range or leave totalCount out`, 'totalCount');
  }
  return count;
}
