/**
 * Mutation fields: each one is a write in src/writes/ (where its guarantees
 * are spelled out). Results are records, resolved by the type resolvers.
 *
 * After a write the request's loader caches are cleared: mutation fields run
 * one after another, and a later field of the same operation must not be
 * served an entity as it was before this write.
 */
import DataLoader from 'dataloader';
import type { MutationResolvers } from '../__generated__/resolvers.js';
import type { Context } from '../graphql/context.js';
import { startKeyOf } from '../dynamo/collection.js';
import { studentCourses } from '../model/collections.js';
import type { StudentCourseEdgeRecord } from '../model/records.js';
import { encodeCursor } from '../connections/connection.js';
import { createCourse, createCustomer, createProduct, createStudent } from '../writes/create.js';
import { deleteCourse, deleteStudent } from '../writes/cascade.js';
import { addPart, placeOrder } from '../writes/addChild.js';
import { enroll, unenroll, type Enrollment } from '../writes/enroll.js';
import { updateCourse, updateStudent } from '../writes/update.js';

function forgetReads(ctx: Context): void {
  for (const loader of Object.values(ctx.loaders)) if (loader instanceof DataLoader) loader.clearAll();
}

const write = async <T>(ctx: Context, run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } finally {
    forgetReads(ctx);
  }
};

/** The new edge as the student's courses connection shows it, with a cursor that pages on from it. */
function studentCourseEdge(ctx: Context, studentId: string, { edge, course }: Enrollment): StudentCourseEdgeRecord {
  const collection = studentCourses(studentId);
  return {
    cursor: encodeCursor(ctx.cursors, collection, startKeyOf(collection, edge)),
    enrolledAt: edge.enrolledAt as string,
    node: course,
  };
}

export const Mutation: MutationResolvers = {
  createStudent: (_, { input }, ctx) => write(ctx, () => createStudent(ctx, input)),
  updateStudent: (_, { id, input }, ctx) => write(ctx, () => updateStudent(ctx, id, input)),
  deleteStudent: (_, { id }, ctx) => write(ctx, () => deleteStudent(ctx, id)),
  createCourse: (_, { input }, ctx) => write(ctx, () => createCourse(ctx, input)),
  updateCourse: (_, { id, input }, ctx) => write(ctx, () => updateCourse(ctx, id, input)),
  deleteCourse: (_, { id }, ctx) => write(ctx, () => deleteCourse(ctx, id)),
  enroll: (_, { studentId, courseId }, ctx) =>
    write(ctx, async () => studentCourseEdge(ctx, studentId, await enroll(ctx, studentId, courseId))),
  unenroll: (_, { studentId, courseId }, ctx) => write(ctx, () => unenroll(ctx, studentId, courseId)),
  createCustomer: (_, { input }, ctx) => write(ctx, () => createCustomer(ctx, input)),
  placeOrder: (_, { customerId, input }, ctx) => write(ctx, () => placeOrder(ctx, customerId, input)),
  createProduct: (_, { input }, ctx) => write(ctx, () => createProduct(ctx, input)),
  addPart: (_, { productId, input }, ctx) => write(ctx, () => addPart(ctx, productId, input)),
};
