/** Small data sets several test files share. */
import { courseItem, enrollmentItem, studentItem } from './defaultItems.js';

/** Students s1 (courses a and b) and s2 (course a); courses a (2 students) and b (1), counters set. */
export const twoStudentsTwoCourses = () => [
  studentItem({ id: 's1', name: 'One', courseCount: 2 }),
  studentItem({ id: 's2', name: 'Two', courseCount: 1 }),
  courseItem({ id: 'a', title: 'A', studentCount: 2 }),
  courseItem({ id: 'b', title: 'B', studentCount: 1 }),
  enrollmentItem({ studentId: 's1', courseId: 'a', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'A', studentName: 'One' }),
  enrollmentItem({ studentId: 's1', courseId: 'b', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'B', studentName: 'One' }),
  enrollmentItem({ studentId: 's2', courseId: 'a', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'A', studentName: 'Two' }),
];
