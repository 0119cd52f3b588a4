/**
 * Stored item shapes (docs/table.md): the one place that assembles a full
 * item from its parts. Mutations, demo data, seeding and tests build items
 * here, so every writer produces the same layout.
 */
import type { Item } from '../dynamo/batchGet.js';
import {
  counterShardKey,
  courseKey,
  customerKey,
  enrollmentKeys,
  orderKeys,
  partKey,
  productKey,
  studentKey,
} from '../dynamo/keys.js';

export const studentItem = (s: { id: string; name: string; email?: string | null; courseCount?: number }): Item => ({
  ...studentKey(s.id),
  name: s.name,
  ...(s.email != null ? { email: s.email } : {}),
  courseCount: s.courseCount ?? 0,
});

/**
 * A course item. With `shards` > 1 its count lives in counter items
 * (`courseCounterItems`), so the course item carries `shards` and no
 * `studentCount`.
 */
export const courseItem = (c: { id: string; title: string; studentCount?: number; shards?: number }): Item =>
  c.shards !== undefined && c.shards > 1
    ? { ...courseKey(c.id), title: c.title, shards: c.shards }
    : { ...courseKey(c.id), title: c.title, studentCount: c.studentCount ?? 0 };

/** The counter items of a course of `shards` > 1 shards, counts per shard (default 0). */
export const courseCounterItems = (courseId: string, shards: number, counts: readonly number[] = []): Item[] =>
  Array.from({ length: shards }, (_, k) => ({ ...counterShardKey(courseId, k), studentCount: counts[k] ?? 0 }));

export const enrollmentItem = (e: {
  studentId: string;
  courseId: string;
  /** The course's shard count (absent = 1, unsharded). */
  shards?: number;
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
