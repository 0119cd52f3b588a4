import type { CourseResolvers } from '../__generated__/resolvers.js';
import { complete, required } from './complete.js';
import { courseStudentsConnection, selects } from './courseStudents.js';

export const Course: CourseResolvers = {
  id: (c) => c.id,
  title: (c, _, ctx) => c.title ?? complete(c, 'Course', ctx.loaders.course).then((full) => required(full.title, 'title')),
  students: (c, args, ctx, info) => courseStudentsConnection(ctx, c, args, ctx.loaders.course, selects(info, 'totalCount')),
};
