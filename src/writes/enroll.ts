/**
 * enroll / unenroll: the many-to-many edge and both counters in one
 * TransactWriteItems, so no reader ever sees an edge without its counts or
 * a count without its edge.
 *
 * enroll reads both entities first (one consistent BatchGet) for the copies
 * the edge carries (`courseTitle`, `studentName`) and for which counters
 * exist, then transacts on the condition that what it read still holds:
 * the name and title and their versions are unchanged (a concurrent rename
 * cannot leave a stale copy: the edge carries the value and version the
 * entity has when the edge is written, so a rename still propagating by
 * stream hands its new value to edges enrolled meanwhile), neither entity is being deleted (a cascade cannot miss the
 * edge), and each counter still exists or not as read. When only those
 * conditions fail, it reads again and retries; when the edge's own
 * condition fails, the student is already enrolled (CONFLICT).
 */
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { courseKey, enrollmentKeys, studentKey } from '../dynamo/keys.js';
import { conflict, notFound } from '../graphql/errors.js';
import { enrollmentItem } from '../model/items.js';
import { toCourse } from '../model/mappers.js';
import type { CourseRecord } from '../model/records.js';
import { validateId } from '../connections/args.js';
import { absent, counterAfter, counterChange, DELETING_ATTR, unchanged } from './conditions.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import type { Store } from './store.js';
import { tryTransact } from './transact.js';

/** Absent, or on its way out (a cascade delete has started): no new edges for it. */
export const gone = (item: Item | null): boolean => item === null || item[DELETING_ATTR] !== undefined;

async function readBoth(store: Store, studentId: string, courseId: string) {
  const [student, course] = await batchGet(store.doc, store.tableName, [studentKey(studentId), courseKey(courseId)], {
    consistentRead: true,
  });
  return { student, course };
}

function missing(studentId: string, courseId: string, student: Item | null, course: Item | null) {
  const names = [gone(student) ? `Student ${studentId}` : null, gone(course) ? `Course ${courseId}` : null];
  return notFound(`${names.filter(Boolean).join(' and ')} not found`);
}

/** What enroll wrote: the edge item (its cursor is the resolver's business) and the course as it now is. */
export interface Enrollment {
  edge: Item;
  course: CourseRecord;
}

export async function enroll(store: Store, studentId: string, courseId: string): Promise<Enrollment> {
  validateId(studentId, 'studentId');
  validateId(courseId, 'courseId');
  return untilFresh(store, async () => {
    const { student, course } = await readBoth(store, studentId, courseId);
    if (student === null || course === null || gone(student) || gone(course)) {
      throw missing(studentId, courseId, student, course);
    }

    const edge = enrollmentItem({
      studentId,
      courseId,
      enrolledAt: new Date().toISOString(),
      // Absent on tables written by other programs: the attribute is then left out (removeUndefinedValues).
      courseTitle: course.title as string,
      studentName: student.name as string,
      // The versions the copies were taken at: the stream processor only ever replaces a copy by a newer one.
      courseTitleVersion: typeof course.titleVersion === 'number' ? course.titleVersion : undefined,
      studentNameVersion: typeof student.nameVersion === 'number' ? student.nameVersion : undefined,
    });
    const cancelled = await tryTransact(store, [
      { Put: { TableName: store.tableName, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } },
      counterChange(store.tableName, studentKey(studentId), student, 'courseCount', 1, [
        unchanged('name', student.name),
        unchanged('nameVersion', student.nameVersion),
        absent(DELETING_ATTR),
      ]),
      counterChange(store.tableName, courseKey(courseId), course, 'studentCount', 1, [
        unchanged('title', course.title),
        unchanged('titleVersion', course.titleVersion),
        absent(DELETING_ATTR),
      ]),
    ]);
    if (cancelled === null) {
      return { edge, course: { ...toCourse(course), studentCount: counterAfter(course, 'studentCount', 1) } };
    }
    // An entity changed since it was read (renamed, deleted, counter added or removed): read again.
    if (cancelled.failed(1) || cancelled.failed(2)) return READ_AGAIN;
    if (cancelled.failed(0)) throw conflict(`Student ${studentId} is already enrolled in course ${courseId}`);
    throw cancelled;
  });
}

/**
 * Deletes the edge (it must exist: NOT_FOUND otherwise) and decrements both
 * counters where they exist. An edge whose entity is already gone (left by a
 * crashed cascade) is removed too.
 */
export async function unenroll(store: Store, studentId: string, courseId: string): Promise<boolean> {
  validateId(studentId, 'studentId');
  validateId(courseId, 'courseId');
  const edgeKey = enrollmentKeys(studentId, courseId);
  return untilFresh(store, async () => {
    const { student, course } = await readBoth(store, studentId, courseId);
    const cancelled = await tryTransact(store, [
      {
        Delete: {
          TableName: store.tableName,
          Key: { PK: edgeKey.PK, SK: edgeKey.SK },
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      counterChange(store.tableName, studentKey(studentId), student, 'courseCount', -1),
      counterChange(store.tableName, courseKey(courseId), course, 'studentCount', -1),
    ]);
    if (cancelled === null) return true;
    if (cancelled.failed(1) || cancelled.failed(2)) return READ_AGAIN;
    if (cancelled.failed(0)) {
      if (student === null || course === null) throw missing(studentId, courseId, student, course);
      throw notFound(`Student ${studentId} is not enrolled in course ${courseId}`);
    }
    throw cancelled;
  });
}
