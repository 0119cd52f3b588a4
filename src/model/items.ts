/**
 * Stored item shapes (docs/table.md): the one place that assembles a full
 * item from its parts. Mutations, demo data, seeding and tests build items
 * here, so every writer produces the same layout.
 */
import type { Item } from '../dynamo/batchGet.js';
import {
  CATALOG_COUNT_ATTR,
  catalogCounterKey,
  catalogKeys,
  catalogShardOf,
  CATALOG_SHARDS,
  type CatalogKind,
  counterShardKey,
  courseKey,
  orderDateKeys,
  customerKey,
  enrollmentKeys,
  orderKeys,
  partKey,
  productKey,
  studentKey,
} from '../dynamo/keys.js';
/** On an enrollment edge: the copy of its course's shard count (Course.students @sharded(copy)). */
const COURSE_SHARDS_ATTR = 'courseShards';

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
  Array.from({ length: shards }, (_, k) => ({ ...counterShardKey(courseId, k), studentCount: counts[k] ?? 0 }));

export const enrollmentItem = (e: {
  studentId: string;
  courseId: string;
  /** The course's shard count (absent = 1, unsharded). */
  shards?: number;
  /**
   * Whether the edge carries a copy of that shard count (`courseShards`,
   * model/courseLayout.ts); default true. False while a reshard prepares or
   * moves the course's edges, and to write an edge as another program would.
   */
  copyLayout?: boolean;
  enrolledAt: string;
  courseTitle: string;
  studentName: string;
  /** The entities' versions of the copied title/name (model/copiedFields.ts); absent on items written before versions. */
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

export const orderItem = (o: {
  customerId: string;
  id: string;
  placedAt: string;
  total: number;
  status?: string | null;
}): Item => ({
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

/**
 * The catalog counter items that match `items` (students and courses
 * counted per GSI2 shard): for loading a data set in one go (demo data,
 * seeding). Live writes change the counters in their own transactions.
 */
export function catalogCounterItems(items: readonly Item[]): Item[] {
  const counts = new Map<string, { kind: CatalogKind; shard: number; count: number }>();
  for (const kind of ['COURSE', 'STUDENT'] as const) {
    for (let shard = 0; shard < CATALOG_SHARDS; shard++) counts.set(`${kind}${shard}`, { kind, shard, count: 0 });
  }
  for (const item of items) {
    if (typeof item.GSI2PK !== 'string' || !item.GSI2PK.startsWith('CATALOG#')) continue;
    const kind: CatalogKind = item.GSI2PK.startsWith('CATALOG#COURSE#') ? 'COURSE' : 'STUDENT';
    const id = String(item.PK).slice(kind.length + 1);
    counts.get(`${kind}${catalogShardOf(id)}`)!.count += 1;
  }
  return [...counts.values()].map(({ kind, shard, count }) => ({ ...catalogCounterKey(kind, shard), [CATALOG_COUNT_ATTR]: count }));
}
