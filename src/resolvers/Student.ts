import type { StudentResolvers } from '../__generated__/resolvers.js';
import { studentCourses } from '../model/collections.js';
import { toStudentCourseEdge } from '../model/mappers.js';
import { readConnection } from '../pagination.js';
import { complete, required } from './complete.js';

export const Student: StudentResolvers = {
  id: (s) => s.id,
  name: async (s, _, ctx) => s.name ?? required((await complete(s, 'Student', ctx.loaders.student)).name, 'name'),
  email: async (s, _, ctx) => (await complete(s, 'Student', ctx.loaders.student)).email ?? null,
  courses: (s, args, ctx) => {
    const collection = studentCourses(s.id);
    return readConnection(ctx, collection, args, toStudentCourseEdge, async () => {
      const full = await complete(s, 'Student', ctx.loaders.student);
      return full.courseCount ?? ctx.loaders.count.load(collection);
    });
  },
};
