/**
 * The named access patterns for one-to-many and many-to-many reads: each
 * says which partition, which index and which sort-key prefix it reads
 * Key strings come from dynamo/keys.ts; model/entities.ts says which
 * connection field reads which.
 */
import type { Collection } from '../dynamo/collection.js';
import {
  catalogPartitions,
  catalogPrefix,
  GSI1,
  GSI2,
  keyValue,
  ordersByDatePartition,
  prefixOf,
  type CatalogKind,
} from '../dynamo/keys.js';
import type { RangeSource } from '../connections/rangeConnection.js';
import { catalogGroup, orderFilterBinding, type OrderFilter } from '../connections/filterArgs.js';
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

/**
 * Customer.orders narrowed by date and/or status: the customer's GSI2
 * partition `ORDERS#<cuid>`, ordered by placedAt then order id, the date
 * range as the key condition (`GSI2SK BETWEEN <placedAfter> AND
 * <placedBefore>`: placedAfter ≤ placedAt < placedBefore, since every
 * GSI2SK continues past the instant with `#<oid>`), the status as a filter.
 */
export function customerOrdersByDate(customerId: string, filter: OrderFilter): RangeSource {
  return {
    name: 'Customer.orders',
    partition: keyValue('CUSTOMER', customerId),
    index: GSI2,
    pkAttr: 'GSI2PK',
    skAttr: 'GSI2SK',
    pk: ordersByDatePartition(customerId),
    // Every order-date sort key starts with a 4-digit year: '0' and '~' bound them all.
    lo: filter.range.after ?? '0',
    hi: filter.range.before ?? '~',
    filter:
      filter.status === null
        ? null
        : { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': filter.status } },
    binding: orderFilterBinding(filter),
  };
}

/**
 * Query.courses / Query.students: the CATALOG_SHARDS GSI2 partitions of a
 * catalog merged by sort key (connections/mergedPage.ts), the whole list
 * (`begins_with(GSI2SK, 'TITLE#')`) or a prefix search
 * (`begins_with(GSI2SK, 'TITLE#<sortable prefix>')`). The group, which
 * cursors are bound to, names the prefix: a cursor of one search is refused
 * by another.
 */
export function catalogList(kind: CatalogKind, sortablePrefix: string | null): MergedCollection {
  const name = kind === 'COURSE' ? 'Query.courses' : 'Query.students';
  const prefix = catalogPrefix(kind, sortablePrefix ?? '');
  return {
    name,
    group: catalogGroup(kind, sortablePrefix),
    shards: catalogPartitions(kind).map((pk) => ({ name, index: GSI2, pkAttr: 'GSI2PK', skAttr: 'GSI2SK', pk, prefix })),
  };
}
