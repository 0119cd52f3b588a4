/**
 * Stored items → records. Tolerant of tables written by other programs:
 * attributes the gateway maintains (counters, denormalized copies) may be
 * missing and are then left undefined for resolvers to fill in.
 */
import type { Item } from '../dynamo/batchGet.js';
import { idFrom } from '../dynamo/keys.js';
import { invariant } from '../graphql/errors.js';
import { edgeLayout, layoutOf } from './courseLayout.js';
import type {
  CourseRecord,
  CourseStudentEdgeRecord,
  CustomerRecord,
  OrderRecord,
  PartRecord,
  ProductRecord,
  StudentCourseEdgeRecord,
  StudentRecord,
} from './records.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** A rename (`propagatingSince`) or a delete (`deletingAt`) is still being carried to the edges. */
const propagating = (item: Item): boolean => item.propagatingSince !== undefined || item.deletingAt !== undefined;

function idOf(kind: Parameters<typeof idFrom>[0], value: unknown): string {
  const id = idFrom(kind, value);
  invariant(id !== null, `expected a ${kind}# key, got ${JSON.stringify(value)}`);
  return id;
}

export const toStudent = (item: Item): StudentRecord => ({
  id: idOf('STUDENT', item.PK),
  name: str(item.name),
  email: str(item.email) ?? null,
  courseCount: num(item.courseCount),
  propagating: propagating(item),
  complete: true,
});

export const toCourse = (item: Item): CourseRecord => ({
  id: idOf('COURSE', item.PK),
  title: str(item.title),
  studentCount: num(item.studentCount),
  propagating: propagating(item),
  layout: layoutOf(item),
  complete: true,
});

export const toCustomer = (item: Item): CustomerRecord => ({
  id: idOf('CUSTOMER', item.PK),
  name: str(item.name),
  email: str(item.email) ?? null,
  orderCount: num(item.orderCount),
  complete: true,
});

export const toProduct = (item: Item): ProductRecord => ({
  id: idOf('PRODUCT', item.PK),
  name: str(item.name),
  partCount: num(item.partCount),
  complete: true,
});

export const toOrder = (item: Item): OrderRecord => ({
  id: idOf('ORDER', item.SK),
  customerId: idOf('CUSTOMER', item.PK),
  placedAt: str(item.placedAt) ?? '',
  total: num(item.total) ?? 0,
  status: str(item.status) ?? null,
});

export const toPart = (item: Item): PartRecord => ({
  id: idOf('PART', item.SK),
  productId: idOf('PRODUCT', item.PK),
  name: str(item.name) ?? '',
  quantity: num(item.quantity) ?? 0,
});

/**
 * An enrollment edge read from the student's side (the cursor is added by connections/connection.ts): the node is
 * the course, titled from the copy when present, with the layout the edge's copy gives (if it carries a valid one).
 */
export const toStudentCourseEdge = (item: Item): Omit<StudentCourseEdgeRecord, 'cursor'> => {
  const layout = edgeLayout(item);
  return {
    enrolledAt: str(item.enrolledAt) ?? '',
    node: { id: idOf('COURSE', item.SK), title: str(item.courseTitle), ...(layout ? { layout } : {}), complete: false },
  };
};

/** An enrollment edge read from the course's side (GSI1): the node is the student. */
export const toCourseStudentEdge = (item: Item): Omit<CourseStudentEdgeRecord, 'cursor'> => ({
  enrolledAt: str(item.enrolledAt) ?? '',
  node: { id: idOf('STUDENT', item.PK), name: str(item.studentName), complete: false },
});
