/**
 * compileLayoutFix(plan): what the declared model derives from an item's
 * own attributes, and how an item written by an older version or another
 * program differs from it. `npm run migrate` (migrate.ts) applies the
 * difference; the gateway's own writes produce current items directly.
 *
 * Derived attributes, from the declaration:
 * - @catalog types: the catalog entry, GSI2PK `<key>#<k>` and GSI2SK from
 *   the `by` field (docs/catalog.md). Entering the catalog also counts the
 *   item in its shard's counter (same transaction).
 * - types keyed by instant in GSI2 (@indexed, sk `{<DateTime field>}#{id}`):
 *   GSI2PK from the template, GSI2SK `<instant>#<id>`.
 * - inverted types and edges of @edges relations without GSI1 keys: GSI1 pk = the
 *   table's sort key, GSI1 sk = its partition key (PK/SK, or the @table's names).
 * Items whose source attribute is missing or unusable (no title, an instant
 * that is no date) stay out of GSI2; items being deleted are left alone.
 * Copies on edges, counters and the shard-count copy on edges need other
 * items' values: relationFix.ts derives those.
 */
import type { Item } from '../dynamo/batchGet.js';
import { catalogEntryKeys, isBookkeeping, sortableInstant, type CatalogSpec, type TableKeys } from '../dynamo/keys.js';
import { DELETING_ATTR } from '../writes/conditions.js';
import type { Plan } from '../plan/plan.js';
import { inverseSideOf, writesGsi1Keys } from '../declaration/edgeLayout.js';
import type { ItemPlan } from '../plan/itemPlan.js';
import { storedName } from '../declaration/model.js';
import { GSI1_PK, GSI1_SK } from '../declaration/layout.js';

type IndexKeys = { [GSI1_PK]?: string; [GSI1_SK]?: string };

export type LayoutFix =
  /** Not in the catalog yet: add both keys and count it. */
  | { kind: 'enter-catalog'; spec: CatalogSpec; id: string; set: { GSI2PK: string; GSI2SK: string } & IndexKeys; source: string; seen: string }
  /** In the catalog under a stale sort key (its text changed behind the gateway's back). */
  | { kind: 'resort-catalog'; set: { GSI2SK: string } & IndexKeys; source: string; seen: string }
  /** A by-instant entry missing or stale (the summary's name for it since orders were the only such type). */
  | { kind: 'order-date'; set: { GSI2PK: string; GSI2SK: string } & IndexKeys; source: string; seen: string }
  /** An inverted item or an edge without its GSI1 keys. */
  | { kind: 'index-keys'; set: Required<IndexKeys>; source: string; seen: string };

export const FIX_KINDS: readonly LayoutFix['kind'][] = ['enter-catalog', 'resort-catalog', 'order-date', 'index-keys'];

export type LayoutFixer = (item: Item) => LayoutFix | null;

export function compileLayoutFix(plan: Plan): LayoutFixer {
  const { pk, sk } = plan.keys;
  /**
   * The GSI1 keys (GSI1 pk = the sort key, GSI1 sk = the partition key) of an
   * item that has none, or null. Only absent keys are added: an edge of a
   * write-sharded parent carries GSI1 pk `<sort key>#<k>` on purpose (docs/sharding.md).
   */
  const missingIndexKeys = (item: Item): Required<IndexKeys> | null => {
    if (item[GSI1_PK] !== undefined || item[GSI1_SK] !== undefined) return null;
    return { [GSI1_PK]: item[sk] as string, [GSI1_SK]: item[pk] as string };
  };
  const types = [...plan.items.values()];
  const catalogs = new Map(types.map((t) => [t.name, plan.catalogOf(t.name)]));
  // Base sides whose edge items carry GSI1 keys (an inverse side reads them there).
  const edges = [...plan.relations.values()].filter(
    (r) => r.relation.kind === 'edges' && r.relation.direction === 'base' && writesGsi1Keys(r.relation, inverseSideOf(r.relation, plan.model.relations)),
  );

  function itemFix(type: ItemPlan, item: Item, id: string, parentId: string | null): LayoutFix | null {
    const index = type.type.inverted ? missingIndexKeys(item) : null;
    const catalog = catalogs.get(type.name);
    if (catalog) {
      const source = storedName(type.type, catalog.field.by);
      const text = item[source];
      if (typeof text === 'string' && text.trim() !== '' && item[DELETING_ATTR] === undefined) {
        const keys = catalogEntryKeys(catalog.spec, id, text);
        if (typeof item.GSI2PK !== 'string') return { kind: 'enter-catalog', spec: catalog.spec, id, set: { ...keys, ...index }, source, seen: text };
        if (item.GSI2SK !== keys.GSI2SK) return { kind: 'resort-catalog', set: { GSI2SK: keys.GSI2SK, ...index }, source, seen: text };
      }
    }
    const byInstant = type.type.byInstant;
    if (byInstant) {
      const by = storedName(type.type, byInstant.by);
      const instant = sortableInstant(item[by]);
      const parentField = type.type.parent?.field;
      if (instant !== null && (parentField === undefined || parentId !== null)) {
        const keys = { GSI2PK: byInstant.pk.fill({ id, ...(parentField ? { [parentField]: parentId! } : {}) }), GSI2SK: `${instant}#${id}` };
        if (item.GSI2PK !== keys.GSI2PK || item.GSI2SK !== keys.GSI2SK) {
          return { kind: 'order-date', set: { ...keys, ...index }, source: by, seen: item[by] as string };
        }
      }
    }
    return index ? { kind: 'index-keys', set: index, source: sk, seen: item[sk] as string } : null;
  }

  return (item) => {
    if (isBookkeeping(item[pk])) return null;
    for (const type of types) {
      const ids = type.ids(item);
      if (ids) return itemFix(type, item, ids.id, ids.parentId);
    }
    // An edge, its keys as its base side writes them.
    for (const edge of edges) {
      if (edge.member(item) !== null) {
        const index = missingIndexKeys(item);
        return index ? { kind: 'index-keys', set: index, source: sk, seen: item[sk] as string } : null;
      }
    }
    return null;
  };
}

/**
 * The conditional UpdateItem of one fix, conditioned on the item as read
 * (its source attribute unchanged, the entry not there yet), so a fix
 * decided from a stale read writes nothing. An `enter-catalog` fix goes in
 * one transaction with its catalog counter (writes/catalog.ts).
 */
export function layoutFixUpdate(tableName: string, keys: TableKeys, item: Item, change: LayoutFix) {
  const names: Record<string, string> = { '#pk': keys.pk, '#src': change.source };
  const values: Record<string, unknown> = { ':seen': change.seen };
  const sets = Object.entries(change.set).map(([attr, value], i) => {
    names[`#a${i}`] = attr;
    values[`:v${i}`] = value;
    return `#a${i} = :v${i}`;
  });
  const conditions = ['attribute_exists(#pk)', '#src = :seen'];
  if (change.kind === 'enter-catalog') {
    names['#gsi2pk'] = 'GSI2PK';
    names['#deleting'] = DELETING_ATTR;
    conditions.push('attribute_not_exists(#gsi2pk)', 'attribute_not_exists(#deleting)');
  } else if (change.kind === 'resort-catalog') {
    names['#gsi2pk'] = 'GSI2PK';
    conditions.push('attribute_exists(#gsi2pk)');
  }
  if (GSI1_PK in change.set) {
    names['#gsi1pk'] = GSI1_PK;
    conditions.push('attribute_not_exists(#gsi1pk)');
  }
  return {
    TableName: tableName,
    Key: keys.itemKey(item),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
