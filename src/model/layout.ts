/**
 * What the current layout derives from an item's own attributes, and how an
 * item written by an older version or another program differs from it.
 * `npm run migrate` (src/migration/) applies the difference; the gateway's
 * own writes produce current items directly (model/items.ts).
 *
 * Derived attributes (docs/catalog.md):
 * - Student / Course: the catalog entry, GSI2PK `CATALOG#<kind>#<k>` and
 *   GSI2SK from the name / title. Entering the catalog also counts the
 *   entity in its shard's counter (same transaction).
 * - Order: the order-date entry, GSI2PK `ORDERS#<cuid>`, GSI2SK from placedAt.
 * Items whose source attribute is missing or unusable (no title, placedAt
 * that is no date) stay out of GSI2; entities being deleted are left alone.
 */
import type { Item } from '../dynamo/batchGet.js';
import { catalogKeys, idFrom, isBookkeeping, orderDateKeys, PROFILE_SK, type CatalogKind } from '../dynamo/keys.js';
import { DELETING_ATTR } from '../writes/conditions.js';

export type LayoutFix =
  /** Not in the catalog yet: add both keys and count it. */
  | { kind: 'enter-catalog'; catalog: CatalogKind; id: string; set: { GSI2PK: string; GSI2SK: string }; source: string; seen: string }
  /** In the catalog under a stale sort key (its title or name changed behind the gateway's back). */
  | { kind: 'resort-catalog'; set: { GSI2SK: string }; source: string; seen: string }
  /** An order whose date entry is missing or stale. */
  | { kind: 'order-date'; set: { GSI2PK: string; GSI2SK: string }; source: string; seen: string };

const CATALOG_SOURCES: Record<CatalogKind, string> = { COURSE: 'title', STUDENT: 'name' };

function catalogFix(item: Item, catalog: CatalogKind): LayoutFix | null {
  const id = idFrom(catalog, item.PK);
  const source = CATALOG_SOURCES[catalog];
  const text = item[source];
  if (id === null || typeof text !== 'string' || text.trim() === '' || item[DELETING_ATTR] !== undefined) return null;
  const keys = catalogKeys(catalog, id, text);
  if (typeof item.GSI2PK !== 'string') return { kind: 'enter-catalog', catalog, id, set: keys, source, seen: text };
  if (item.GSI2SK !== keys.GSI2SK) return { kind: 'resort-catalog', set: { GSI2SK: keys.GSI2SK }, source, seen: text };
  return null;
}

/** The change that brings `item` to the current layout, or null when it is current (or not ours to change). */
export function layoutFix(item: Item): LayoutFix | null {
  if (isBookkeeping(item.PK)) return null;
  if (item.SK === PROFILE_SK) {
    if (idFrom('COURSE', item.PK) !== null) return catalogFix(item, 'COURSE');
    if (idFrom('STUDENT', item.PK) !== null) return catalogFix(item, 'STUDENT');
    return null;
  }
  const customerId = idFrom('CUSTOMER', item.PK);
  const orderId = idFrom('ORDER', item.SK);
  if (customerId === null || orderId === null) return null;
  const keys = orderDateKeys(customerId, orderId, item.placedAt);
  if (keys === null || (item.GSI2PK === keys.GSI2PK && item.GSI2SK === keys.GSI2SK)) return null;
  return { kind: 'order-date', set: keys, source: 'placedAt', seen: item.placedAt as string };
}
