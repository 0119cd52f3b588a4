import type { QueryResolvers } from '../__generated__/resolvers.js';
import { courseKey, customerKey, productKey, studentKey } from '../dynamo/keys.js';
import { courseStudents, customerOrders, productParts, studentCourses } from '../model/collections.js';
import { toCourse, toCustomer, toProduct, toStudent } from '../model/mappers.js';
import { validateId } from '../connections/args.js';
import { loadEntity, type EntityRead } from './lookahead.js';
import { readCatalog } from './catalog.js';
import type { CourseRecord, CustomerRecord, ProductRecord, StudentRecord } from '../model/records.js';

const student: EntityRead<StudentRecord> = { key: studentKey, map: toStudent, connection: 'courses', collection: studentCourses };
const course: EntityRead<CourseRecord> = { key: courseKey, map: toCourse, connection: 'students', collection: courseStudents };
const customer: EntityRead<CustomerRecord> = { key: customerKey, map: toCustomer, connection: 'orders', collection: customerOrders };
const product: EntityRead<ProductRecord> = { key: productKey, map: toProduct, connection: 'parts', collection: productParts };

export const Query: QueryResolvers = {
  student: (_, { id }, ctx, info) => loadEntity(ctx, info, student, validateId(id)),
  course: (_, { id }, ctx, info) => loadEntity(ctx, info, course, validateId(id)),
  customer: (_, { id }, ctx, info) => loadEntity(ctx, info, customer, validateId(id)),
  order: (_, { id }, ctx) => ctx.loaders.order.load(validateId(id)),
  product: (_, { id }, ctx, info) => loadEntity(ctx, info, product, validateId(id)),
  courses: (_, args, ctx, info) => readCatalog(ctx, info, 'COURSE', args, args.titlePrefix, 'titlePrefix', toCourse),
  students: (_, args, ctx, info) => readCatalog(ctx, info, 'STUDENT', args, args.namePrefix, 'namePrefix', toStudent),
};
