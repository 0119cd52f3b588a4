/**
 * The default model's stored items (schema.graphql), built from its plan
 * the way the gateway's own writes lay them out (docs/table.md): for tests,
 * the benchmarks and the default data set (scripts/dataset.ts). Nothing in
 * src/ knows these types; the keys come from the declared templates, the
 * catalog entries from the @catalog declarations.
 */
import type { Item } from '../../src/dynamo/batchGet.js';
import {
  catalogEntryKeys,
  catalogEntryPrefix,
  catalogEntryShard,
  catalogEntrySortKey,
  catalogShardCounterKey,
  sortableInstant,
  type CatalogSpec,
  type ItemKey,
} from '../../src/dynamo/keys.js';
import { shardOf } from '../../src/plan/sharding.js';
import { defaultPlan } from './model.js';
import { catalogCounterItemsOf } from '../../scripts/modelDataset.js';

const item = (type: string) => defaultPlan.item(type);
const sharding = defaultPlan.sharding(defaultPlan.relation('Course.students'));

export const studentKey = (id: string): ItemKey => item('Student').key(id);
export const courseKey = (id: string): ItemKey => item('Course').key(id);
export const customerKey = (id: string): ItemKey => item('Customer').key(id);
export const productKey = (id: string): ItemKey => item('Product').key(id);
export const partKey = (productId: string, partId: string): ItemKey => item('Part').key(partId, productId);

/** An order: in its customer's collection, findable alone through GSI1 (an inverted type). */
export const orderKeys = (customerId: string, orderId: string) => {
  const key = item('Order').key(orderId, customerId);
  return { ...key, GSI1PK: key.SK, GSI1SK: key.PK };
};

/** The two catalogs by the last segment of their @catalog key. */
export type CatalogKind = 'COURSE' | 'STUDENT';
const CATALOG_TYPES: Record<CatalogKind, string> = { COURSE: 'Course', STUDENT: 'Student' };
export const catalogSpec = (kind: CatalogKind): CatalogSpec => defaultPlan.catalogOf(CATALOG_TYPES[kind])!.spec;
export const CATALOG_SHARDS = catalogSpec('COURSE').shards;

export const catalogKeys = (kind: CatalogKind, id: string, text: string) => catalogEntryKeys(catalogSpec(kind), id, text);
export const catalogSortKey = (kind: CatalogKind, id: string, text: string) => catalogEntrySortKey(catalogSpec(kind), id, text);
export const catalogPrefix = (kind: CatalogKind, sortablePrefix = '') => catalogEntryPrefix(catalogSpec(kind), sortablePrefix);
export const catalogShardOf = (id: string): number => catalogEntryShard(catalogSpec('COURSE'), id);
export const catalogCounterKey = (kind: CatalogKind, shard: number): ItemKey => catalogShardCounterKey(catalogSpec(kind), shard);

/** The GSI2 keys of an order (its entry by instant), or null when placedAt is unusable. */
export function orderDateKeys(customerId: string, orderId: string, placedAt: unknown) {
  const instant = sortableInstant(placedAt);
  if (instant === null) return null;
  return { GSI2PK: item('Order').type.byInstant!.pk.fill({ id: orderId, customer: customerId }), GSI2SK: `${instant}#${orderId}` };
}

const enrollmentKeys = (studentId: string, courseId: string, shards: number) => {
  const student = studentKey(studentId).PK;
  return { PK: student, SK: courseKey(courseId).PK, GSI1PK: sharding.partition(courseId, studentId, shards), GSI1SK: student };
};
/** On an enrollment edge: the copy of its course's shard count (Course.students @edges(shardsCopy)). */
const COURSE_SHARDS_ATTR = sharding.copy!;

export const studentItem = (s: { id: string; name: string; email?: string | null; courseCount?: number }): Item => ({
  ...studentKey(s.id),
  ...catalogKeys('STUDENT', s.id, s.name),
  name: s.name,
  ...(s.email != null ? { email: s.email } : {}),
  courseCount: s.courseCount ?? 0,
});

/**
 * A course item, with its catalog entry keys (GSI2). With `shards` > 1 its
 * count lives in counter items (`courseCounterItems`), so the course item
 * carries `shards` and no `studentCount`.
 */
export const courseItem = (c: { id: string; title: string; studentCount?: number; shards?: number }): Item =>
  c.shards !== undefined && c.shards > 1
    ? { ...courseKey(c.id), ...catalogKeys('COURSE', c.id, c.title), title: c.title, shards: c.shards }
    : { ...courseKey(c.id), ...catalogKeys('COURSE', c.id, c.title), title: c.title, studentCount: c.studentCount ?? 0 };

/** The counter items of a course of `shards` > 1 shards, counts per shard (default 0). */
export const courseCounterItems = (courseId: string, shards: number, counts: readonly number[] = []): Item[] =>
  Array.from({ length: shards }, (_, k) => ({ ...sharding.counterKey(courseId, k), studentCount: counts[k] ?? 0 }));

export const enrollmentItem = (e: {
  studentId: string;
  courseId: string;
  /** The course's shard count (absent = 1, unsharded). */
  shards?: number;
  /**
   * Whether the edge carries a copy of that shard count (`courseShards`);
   * default true. False while a reshard prepares or moves the course's
   * edges, and to write an edge as another program would.
   */
  copyLayout?: boolean;
  enrolledAt: string;
  courseTitle: string;
  studentName: string;
  /** The versions of the copied title/name; absent on items written before versions. */
  courseTitleVersion?: number;
  studentNameVersion?: number;
}): Item => ({
  ...enrollmentKeys(e.studentId, e.courseId, e.shards ?? 1),
  enrolledAt: e.enrolledAt,
  courseTitle: e.courseTitle,
  studentName: e.studentName,
  ...(e.copyLayout === false ? {} : { [COURSE_SHARDS_ATTR]: e.shards ?? 1 }),
  ...(e.courseTitleVersion !== undefined ? { courseTitleVersion: e.courseTitleVersion } : {}),
  ...(e.studentNameVersion !== undefined ? { studentNameVersion: e.studentNameVersion } : {}),
});

export const customerItem = (c: { id: string; name: string; email?: string | null; orderCount?: number }): Item => ({
  ...customerKey(c.id),
  name: c.name,
  ...(c.email != null ? { email: c.email } : {}),
  orderCount: c.orderCount ?? 0,
});

export const orderItem = (o: { customerId: string; id: string; placedAt: string; total: number; status?: string | null }): Item => ({
  ...orderKeys(o.customerId, o.id),
  ...orderDateKeys(o.customerId, o.id, o.placedAt),
  placedAt: o.placedAt,
  total: o.total,
  ...(o.status != null ? { status: o.status } : {}),
});

export const productItem = (p: { id: string; name: string; partCount?: number }): Item => ({
  ...productKey(p.id),
  name: p.name,
  partCount: p.partCount ?? 0,
});

export const partItem = (p: { productId: string; id: string; name: string; quantity: number }): Item => ({
  ...partKey(p.productId, p.id),
  name: p.name,
  quantity: p.quantity,
});

/** The catalog counter items that match `items` (scripts/modelDataset.ts `catalogCounterItemsOf`). */
export const catalogCounterItems = (items: readonly Item[]): Item[] => catalogCounterItemsOf(defaultPlan, items);

export { shardOf };
