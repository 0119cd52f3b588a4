import type { StudentResolvers } from '../__generated__/resolvers.js';
import { studentCourses } from '../model/collections.js';
import { toStudentCourseEdge } from '../model/mappers.js';
import { readConnection } from '../connections/connection.js';
import { complete, required } from './complete.js';

export const Student: StudentResolvers = {
  id: (s) => s.id,
  // Plain values when the record holds them: a promise per field is measurable work on large pages.
  name: (s, _, ctx) => s.name ?? complete(s, 'Student', ctx.loaders.student).then((full) => required(full.name, 'name')),
  email: (s, _, ctx) => (s.complete ? (s.email ?? null) : complete(s, 'Student', ctx.loaders.student).then((full) => full.email ?? null)),
  propagating: (s, _, ctx) =>
    s.complete ? (s.propagating ?? false) : complete(s, 'Student', ctx.loaders.student).then((full) => full.propagating ?? false),
  courses: (s, args, ctx) => {
    const collection = studentCourses(s.id);
    return readConnection(ctx, collection, args, toStudentCourseEdge, async () => {
      const full = await complete(s, 'Student', ctx.loaders.student);
      return full.courseCount ?? ctx.loaders.count.load(collection);
    });
  },
};
