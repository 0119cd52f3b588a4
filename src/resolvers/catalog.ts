/**
 * A @catalog root field: the sharded GSI2 catalog of a type read as one
 * connection (the engine's merged shards, connections/mergedShards.ts: one wave of `shards` Queries,
 * `size + 1` items each, merged by sort key). The whole list is
 * `begins_with(GSI2SK, '<sortKey>#')`, a prefix search
 * `begins_with(GSI2SK, '<sortKey>#<sortable prefix>')` over the partitions
 * `<key>#<k>`. The group, which cursors are bound to, names the prefix: a
 * cursor of one search is refused by another.
 *
 * totalCount
 * - whole list: the sum of the catalog's `shards` counter items, read
 *   by the item loader (one BatchGetItem, batched with the operation's
 *   other entity reads). Exact: every write that adds or removes a catalog
 *   entry moves its shard's counter in the same transaction.
 * - prefix search: counted (`Select: COUNT`, one Query per shard and page
 *   of 1 MB) within the page read budget; beyond it, BAD_USER_INPUT.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import { badUserInput } from '../errors.js';
import {
  CATALOG_COUNT_ATTR,
  catalogEntryPartitions,
  catalogEntryPrefix,
  catalogShardCounterKey,
  GSI2,
  type CatalogSpec,
  type TableKeyNames,
} from '../dynamo/keys.js';
import { countFilled } from '../dynamo/filledRange.js';
import { prefixEnd } from '../dynamo/collection.js';
import type { MergedCollection } from '../plan/sources.js';
import type { CatalogField } from '../declaration/model.js';
import { validatePrefix } from '../plan/arguments.js';
import { readConnection } from '../connections/engine.js';
import { mergedShards } from '../connections/mergedShards.js';
import type { ConnectionArgs } from '../connections/args.js';
import type { Item } from '../dynamo/batchGet.js';

export const catalogSpec = (catalog: CatalogField): CatalogSpec => ({ key: catalog.key, sortKey: catalog.sortKey, shards: catalog.shards });

/** The catalog's partitions merged by sort key, the whole list or a prefix search. */
export function catalogList(catalog: CatalogField, sortablePrefix: string | null, table: TableKeyNames): MergedCollection {
  const spec = catalogSpec(catalog);
  const name = `Query.${catalog.field}`;
  const prefix = catalogEntryPrefix(spec, sortablePrefix ?? '');
  return {
    name,
    group: sortablePrefix === null ? spec.key : `${spec.key}?prefix=${sortablePrefix}`,
    shards: catalogEntryPartitions(spec).map((pk) => ({ name, index: GSI2, pkAttr: 'GSI2PK', skAttr: 'GSI2SK', pk, prefix, table })),
  };
}

async function countAllEntries(ctx: Context, spec: CatalogSpec): Promise<number> {
  const counters = await Promise.all(Array.from({ length: spec.shards }, (_, k) => ctx.loaders.item.load(catalogShardCounterKey(spec, k))));
  return counters.reduce((sum, item) => sum + (typeof item?.[CATALOG_COUNT_ATTR] === 'number' ? (item[CATALOG_COUNT_ATTR] as number) : 0), 0);
}

export function readCatalog<Node>(
  ctx: Context,
  _info: GraphQLResolveInfo,
  catalog: CatalogField,
  args: ConnectionArgs,
  rawPrefix: string | null | undefined,
  toNode: (item: Item) => Node,
) {
  const prefixArgument = catalog.prefixArgument ?? '';
  const spec = catalogSpec(catalog);
  const prefix = rawPrefix == null ? null : validatePrefix(rawPrefix, prefixArgument);
  const list = catalogList(catalog, prefix, ctx.plan.keys.names);
  return readConnection(
    mergedShards,
    list,
    ctx.cursors,
    ctx.loaders,
    args,
    (item) => ({ node: toNode(item) }),
    async () => {
      if (prefix === null) return countAllEntries(ctx, spec);
      let total = 0;
      const counts = await Promise.all(
        list.shards.map((shard) =>
          countFilled(ctx.reads, ctx.tableName, {
            index: shard.index!,
            pkAttr: shard.pkAttr,
            skAttr: shard.skAttr,
            pk: shard.pk,
            lo: shard.prefix,
            hi: prefixEnd(shard.prefix),
            budget: ctx.pageReadBudget / spec.shards,
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
    },
  );
}
