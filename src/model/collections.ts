/**
 * The named access patterns for one-to-many and many-to-many reads: each
 * says which partition, which index and which sort-key prefix it reads
 * Key strings come from dynamo/keys.ts; model/entities.ts says which
 * connection field reads which.
 */
import type { Collection } from '../dynamo/collection.js';
import { GSI1, keyValue, prefixOf } from '../dynamo/keys.js';
import { coursePartitions, type CourseLayout } from './courseLayout.js';
import type { MergedCollection } from '../connections/mergedPage.js';

/** Student.courses: the student's item collection, `begins_with(SK, 'COURSE#')`. */
export const studentCourses = (studentId: string): Collection => ({
  name: 'Student.courses',
  pkAttr: 'PK',
  skAttr: 'SK',
  pk: keyValue('STUDENT', studentId),
  prefix: prefixOf('COURSE'),
});

/** Course.students: the inverted index, `GSI1PK = COURSE#<cid>`. */
export const courseStudents = (courseId: string): Collection => ({
  name: 'Course.students',
  index: GSI1,
  pkAttr: 'GSI1PK',
  skAttr: 'GSI1SK',
  pk: keyValue('COURSE', courseId),
  prefix: prefixOf('STUDENT'),
});

/**
 * Course.students of a course whose enrollments are laid out as `layout`
 * says: its GSI1 partitions (`COURSE#<cid>` alone when unsharded; both
 * layouts' while a reshard moves edges) merged by student (mergedPage.ts).
 */
export const courseStudentPartitions = (courseId: string, layout: CourseLayout): MergedCollection => ({
  name: 'Course.students',
  group: keyValue('COURSE', courseId),
  shards: coursePartitions(courseId, layout).map((pk) => ({ ...courseStudents(courseId), pk })),
});

/** Course.students of a course of `shards` shards (no reshard running). */
export const courseStudentShards = (courseId: string, shards: number): MergedCollection =>
  courseStudentPartitions(courseId, { shards, reshardFrom: null, moves: 0 });

/** Customer.orders: the customer's item collection, `begins_with(SK, 'ORDER#')`. */
export const customerOrders = (customerId: string): Collection => ({
  name: 'Customer.orders',
  pkAttr: 'PK',
  skAttr: 'SK',
  pk: keyValue('CUSTOMER', customerId),
  prefix: prefixOf('ORDER'),
});

/** Product.parts: the product's item collection, `begins_with(SK, 'PART#')`. */
export const productParts = (productId: string): Collection => ({
  name: 'Product.parts',
  pkAttr: 'PK',
  skAttr: 'SK',
  pk: keyValue('PRODUCT', productId),
  prefix: prefixOf('PART'),
});

/** order(id): GSI1 partition `ORDER#<oid>` holds the order alone. */
export const orderById = (orderId: string): Collection => ({
  name: 'Query.order',
  index: GSI1,
  pkAttr: 'GSI1PK',
  skAttr: 'GSI1SK',
  pk: keyValue('ORDER', orderId),
  prefix: prefixOf('CUSTOMER'),
});
