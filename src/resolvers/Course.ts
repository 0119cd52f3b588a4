import type { CourseResolvers } from '../__generated__/resolvers.js';
import { courseStudents } from '../model/collections.js';
import { toCourseStudentEdge } from '../model/mappers.js';
import { readConnection } from '../connections/connection.js';
import { complete, required } from './complete.js';

export const Course: CourseResolvers = {
  id: (c) => c.id,
  title: (c, _, ctx) => c.title ?? complete(c, 'Course', ctx.loaders.course).then((full) => required(full.title, 'title')),
  propagating: (c, _, ctx) =>
    c.complete ? (c.propagating ?? false) : complete(c, 'Course', ctx.loaders.course).then((full) => full.propagating ?? false),
  students: (c, args, ctx) => {
    const collection = courseStudents(c.id);
    return readConnection(ctx, collection, args, toCourseStudentEdge, async () => {
      const full = await complete(c, 'Course', ctx.loaders.course);
      return full.studentCount ?? ctx.loaders.count.load(collection);
    });
  },
};
