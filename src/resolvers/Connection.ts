/** Resolvers shared by every connection type: lazy pageInfo checks and totalCount. */
import type { Resolvers } from '../__generated__/resolvers.js';

const lazy = (v: boolean | (() => Promise<boolean>)) => (typeof v === 'function' ? v() : v);

export const PageInfo: Resolvers['PageInfo'] = {
  hasNextPage: (p) => lazy(p.hasNextPage),
  hasPreviousPage: (p) => lazy(p.hasPreviousPage),
};

const totalCount = { totalCount: (c: { totalCount: () => Promise<number> }) => c.totalCount() };

export const StudentCourseConnection: Resolvers['StudentCourseConnection'] = totalCount;
export const CourseStudentConnection: Resolvers['CourseStudentConnection'] = totalCount;
export const OrderConnection: Resolvers['OrderConnection'] = totalCount;
export const PartConnection: Resolvers['PartConnection'] = totalCount;
export const CourseConnection: Resolvers['CourseConnection'] = totalCount;
export const StudentConnection: Resolvers['StudentConnection'] = totalCount;
