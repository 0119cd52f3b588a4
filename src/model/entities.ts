/**
 * Every entity type, declared once: its GraphQL type and root field, the id
 * argument that names it, its key and mapper, its text fields, its one
 * connection (collection, counter, edge mapping) and, for the two sides of
 * the many-to-many enrollment, where the other side sits in an edge's key.
 *
 * Loaders, look-ahead, the root Query fields, the entity type resolvers, the
 * argument check's id list and the cascade deletes all derive from this
 * table: adding an entity means a key (dynamo/keys.ts), a mapper and a
 * collection (this folder) and an entry here.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { Collection } from '../dynamo/collection.js';
import { courseKey, customerKey, productKey, studentKey, type EntityKind, type ItemKey } from '../dynamo/keys.js';
import { courseStudents, courseStudentShards, customerOrders, customerOrdersByDate, productParts, studentCourses } from './collections.js';
import { validateOrderFilter } from '../connections/filterArgs.js';
import type { RangeSource } from '../connections/rangeConnection.js';
import type { MergedCollection } from '../connections/mergedPage.js';
import { toCourse, toCourseStudentEdge, toCustomer, toOrder, toPart, toProduct, toStudent, toStudentCourseEdge } from './mappers.js';
import type { CourseRecord, CustomerRecord, ProductRecord, StudentRecord } from './records.js';

/** The counter attribute an entity keeps for its connection's totalCount. */
export type Counter = 'courseCount' | 'studentCount' | 'orderCount' | 'partCount';

/** What every entity record has: its id, and whether it was read from the entity item itself. */
export interface EntityRecord {
  id: string;
  complete: boolean;
}

export interface EntityConnection {
  /** Field on the entity's type, e.g. `courses`. */
  field: string;
  /** The GraphQL connection type, e.g. `StudentCourseConnection`. */
  typeName: string;
  collection: (parentId: string) => Collection;
  counter: Counter;
  /** A stored child or edge item → the edge (its cursor is added by connections/connection.ts). */
  edge: (item: Item) => object;
  /**
   * Arguments that narrow the connection to another access pattern
   * (Customer.orders by date and status, on GSI2): the range to read, or
   * null when none of them is given. Throws BAD_USER_INPUT for bad ones.
   */
  narrow?: (parentId: string, args: Record<string, unknown>) => RangeSource | null;
  /**
   * Set when the connection may be write-sharded (Course.students): it is
   * read as a merged page (connections/mergedPage.ts) over the partitions
   * the parent's layout names; this is its unsharded form, the read
   * look-ahead may start before the layout is known.
   */
  unsharded?: (parentId: string) => MergedCollection;
}

export interface Entity<R extends EntityRecord = EntityRecord> {
  typeName: 'Student' | 'Course' | 'Customer' | 'Product';
  /** Root Query field reading one by id. */
  rootField: string;
  kind: EntityKind;
  /** Argument naming one in mutations (`studentId`). */
  idArgument: string;
  key: (id: string) => ItemKey;
  map: (item: Item) => R;
  /** Text fields every stored item must carry (`name`), and optional ones (`email`, null when absent). */
  requiredFields: readonly string[];
  optionalFields: readonly string[];
  /** Boolean fields, false when the item lacks what sets them (`propagating`: model/copiedFields.ts). */
  flags?: readonly string[];
  connection: EntityConnection;
  /** Many-to-many: the entity at the other end of an edge, and which key attribute of the edge names it. */
  edgeOther?: { entity: () => Entity; keyAttr: 'PK' | 'SK' };
}

export const student: Entity<StudentRecord> = {
  typeName: 'Student',
  rootField: 'student',
  kind: 'STUDENT',
  idArgument: 'studentId',
  key: studentKey,
  map: toStudent,
  requiredFields: ['name'],
  optionalFields: ['email'],
  flags: ['propagating'],
  connection: {
    field: 'courses',
    typeName: 'StudentCourseConnection',
    collection: studentCourses,
    counter: 'courseCount',
    edge: toStudentCourseEdge,
  },
  edgeOther: { entity: () => course, keyAttr: 'SK' },
};

export const course: Entity<CourseRecord> = {
  typeName: 'Course',
  rootField: 'course',
  kind: 'COURSE',
  idArgument: 'courseId',
  key: courseKey,
  map: toCourse,
  requiredFields: ['title'],
  optionalFields: [],
  flags: ['propagating'],
  connection: {
    field: 'students',
    typeName: 'CourseStudentConnection',
    collection: courseStudents,
    counter: 'studentCount',
    edge: toCourseStudentEdge,
    unsharded: (id) => courseStudentShards(id, 1),
  },
  edgeOther: { entity: () => student, keyAttr: 'PK' },
};

export const customer: Entity<CustomerRecord> = {
  typeName: 'Customer',
  rootField: 'customer',
  kind: 'CUSTOMER',
  idArgument: 'customerId',
  key: customerKey,
  map: toCustomer,
  requiredFields: ['name'],
  optionalFields: ['email'],
  connection: {
    field: 'orders',
    typeName: 'OrderConnection',
    collection: customerOrders,
    counter: 'orderCount',
    edge: (item) => ({ node: toOrder(item) }),
    narrow: (customerId, args) => {
      const filter = validateOrderFilter(args);
      return filter === null ? null : customerOrdersByDate(customerId, filter);
    },
  },
};

export const product: Entity<ProductRecord> = {
  typeName: 'Product',
  rootField: 'product',
  kind: 'PRODUCT',
  idArgument: 'productId',
  key: productKey,
  map: toProduct,
  requiredFields: ['name'],
  optionalFields: [],
  connection: {
    field: 'parts',
    typeName: 'PartConnection',
    collection: productParts,
    counter: 'partCount',
    edge: (item) => ({ node: toPart(item) }),
  },
};

export const entities: readonly Entity[] = [student, course, customer, product] as readonly Entity[];

/** Each connection field (`Student.courses`) and the collection it reads for a parent id. */
export const connectionCollections: Record<string, (parentId: string) => Collection> = Object.fromEntries(
  entities.map((e) => [`${e.typeName}.${e.connection.field}`, e.connection.collection]),
);
