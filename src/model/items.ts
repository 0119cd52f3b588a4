/**
 * Stored item shapes (docs/table.md): the one place that assembles a full
 * item from its parts. Mutations, demo data, seeding and tests build items
 * here, so every writer produces the same layout.
 */
import type { Item } from '../dynamo/batchGet.js';
import {
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

export const courseItem = (c: { id: string; title: string; studentCount?: number }): Item => ({
  ...courseKey(c.id),
  title: c.title,
  studentCount: c.studentCount ?? 0,
});

export const enrollmentItem = (e: {
  studentId: string;
  courseId: string;
  enrolledAt: string;
  courseTitle: string;
  studentName: string;
  /** The entities' versions of the copied title/name (model/copiedFields.ts); absent on items written before versions. */
  courseTitleVersion?: number;
  studentNameVersion?: number;
}): Item => ({
  ...enrollmentKeys(e.studentId, e.courseId),
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
