/**
 * Query.courses and Query.students: the sharded GSI2 catalogs read as one
 * connection (connections/mergedPage.ts: one wave of CATALOG_SHARDS
 * Queries, `size + 1` items each, merged by sort key).
 *
 * totalCount
 * - whole list: the sum of the catalog's CATALOG_SHARDS counter items, read
 *   by the item loader (one BatchGetItem, batched with the operation's
 *   other entity reads). Exact: every write that adds or removes a catalog
 *   entry moves its shard's counter in the same transaction.
 * - prefix search: counted (`Select: COUNT`, one Query per shard and page
 *   of 1 MB) within the page read budget; beyond it, BAD_USER_INPUT.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../graphql/context.js';
import { badUserInput } from '../graphql/errors.js';
import { CATALOG_COUNT_ATTR, CATALOG_SHARDS, catalogCounterKey, type CatalogKind } from '../dynamo/keys.js';
import { countFilled } from '../dynamo/filledRange.js';
import { prefixEnd } from '../dynamo/collection.js';
import { catalogList } from '../model/collections.js';
import { validatePrefix } from '../connections/filterArgs.js';
import { readMergedConnection } from '../connections/mergedPage.js';
import type { ConnectionArgs } from '../connections/args.js';
import type { Item } from '../dynamo/batchGet.js';


async function countAllEntries(ctx: Context, kind: CatalogKind): Promise<number> {
  const counters = await Promise.all(
    Array.from({ length: CATALOG_SHARDS }, (_, k) => ctx.loaders.item.load(catalogCounterKey(kind, k))),
  );
  return counters.reduce((sum, item) => sum + (typeof item?.[CATALOG_COUNT_ATTR] === 'number' ? (item[CATALOG_COUNT_ATTR] as number) : 0), 0);
}

export function readCatalog<Node>(
  ctx: Context,
  _info: GraphQLResolveInfo,
  kind: CatalogKind,
  args: ConnectionArgs,
  rawPrefix: string | null | undefined,
  prefixArgument: string,
  toNode: (item: Item) => Node,
) {
  const prefix = rawPrefix == null ? null : validatePrefix(rawPrefix, prefixArgument);
  const list = catalogList(kind, prefix);
  const reader = { range: ctx.loaders.range.load.bind(ctx.loaders.range), exists: ctx.loaders.exists.load.bind(ctx.loaders.exists) };
  return readMergedConnection(ctx.cursors, reader, list, args, (item) => ({ node: toNode(item) }), async () => {
    if (prefix === null) return countAllEntries(ctx, kind);
    let total = 0;
    const counts = await Promise.all(
      list.shards.map((shard) =>
        countFilled(ctx.doc, ctx.tableName, {
          index: shard.index!,
          pkAttr: shard.pkAttr,
          skAttr: shard.skAttr,
          pk: shard.pk,
          lo: shard.prefix,
          hi: prefixEnd(shard.prefix),
          budget: ctx.pageReadBudget / CATALOG_SHARDS,
        }),
      ),
    );
    for (const n of counts) {
      if (n === null) {
        throw badUserInput(
          `totalCount of this search would read more than ${ctx.pageReadBudget} read units; use a longer ${prefixArgument} or leave totalCount out`,
          'totalCount',
        );
      }
      total += n;
    }
    return total;
  });
}
