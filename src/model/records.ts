/**
 * What resolvers pass around: records read from the table, mapped to plain
 * objects (codegen's mappers point here).
 *
 * A record may be *partial*: a node built from an edge's denormalized copy
 * has an id and a title/name but none of the entity's other attributes.
 * `complete` says whether the record came from the entity item itself, in
 * which case an absent attribute really is absent (email null, counter not
 * maintained) rather than unknown.
 */
import type { CourseLayout } from './courseLayout.js';

export interface StudentRecord {
  id: string;
  name?: string;
  email?: string | null;
  courseCount?: number;
  /** A rename or delete is still propagating (model/copiedFields.ts); unknown on partial records. */
  propagating?: boolean;
  complete: boolean;
}

export interface CourseRecord {
  id: string;
  title?: string;
  studentCount?: number;
  /** A rename or delete is still propagating (model/copiedFields.ts); unknown on partial records. */
  propagating?: boolean;
  /**
   * Where its enrollments and count live: from the course item (complete records), or from an edge's copy of
   * the shard count (partial records; never a moving layout); unknown otherwise.
   */
  layout?: CourseLayout;
  complete: boolean;
}

export interface CustomerRecord {
  id: string;
  name?: string;
  email?: string | null;
  orderCount?: number;
  complete: boolean;
}

export interface ProductRecord {
  id: string;
  name?: string;
  partCount?: number;
  complete: boolean;
}

export interface OrderRecord {
  id: string;
  customerId: string;
  placedAt: string;
  total: number;
  status: string | null;
}

export interface PartRecord {
  id: string;
  productId: string;
  name: string;
  quantity: number;
}

/** An enrollment edge seen from one side; `node` is the other side. */
export interface EnrollmentRecord<Node> {
  cursor: string;
  enrolledAt: string;
  node: Node;
}

/** An edge of the one-to-many connections. */
export interface ChildEdgeRecord<Node> {
  cursor: string;
  node: Node;
}

export interface PageInfoRecord {
  hasNextPage: boolean | (() => Promise<boolean>);
  hasPreviousPage: boolean | (() => Promise<boolean>);
  startCursor: string | null;
  endCursor: string | null;
}

/** A Relay connection; `totalCount` is computed only when selected. */
export interface ConnectionRecord<Edge> {
  edges: Edge[];
  pageInfo: PageInfoRecord;
  totalCount: () => Promise<number>;
}

export type StudentCourseEdgeRecord = EnrollmentRecord<CourseRecord>;
export type CourseStudentEdgeRecord = EnrollmentRecord<StudentRecord>;
export type OrderEdgeRecord = ChildEdgeRecord<OrderRecord>;
export type PartEdgeRecord = ChildEdgeRecord<PartRecord>;
export type StudentCourseConnectionRecord = ConnectionRecord<StudentCourseEdgeRecord>;
export type CourseStudentConnectionRecord = ConnectionRecord<CourseStudentEdgeRecord>;
export type OrderConnectionRecord = ConnectionRecord<OrderEdgeRecord>;
export type PartConnectionRecord = ConnectionRecord<PartEdgeRecord>;
export type CourseEdgeRecord = ChildEdgeRecord<CourseRecord>;
export type StudentEdgeRecord = ChildEdgeRecord<StudentRecord>;
export type CourseConnectionRecord = ConnectionRecord<CourseEdgeRecord>;
export type StudentConnectionRecord = ConnectionRecord<StudentEdgeRecord>;
