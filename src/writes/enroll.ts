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
 *
 * The edge also carries a copy of the course's shard count (`courseShards`)
 * unless a reshard is under way, so that readers reaching the course through
 * the edge need not read the course item for its layout.
 *
 * On a write-sharded course (docs/sharding.md) the edge is indexed under the
 * student's shard and the count changes in that shard's counter item, never
 * on the course item (whose partition would be hot again): the transaction
 * is the edge, the student's counter and one counter shard. The first read
 * is eventually consistent (half the read units on the course's partition
 * during a rush); the transaction's conditions catch what a stale read
 * missed, and an entity read as absent is read again consistently before
 * NOT_FOUND.
 */
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { counterShardKey, courseKey, enrollmentKeys, enrollmentPartition, parseCourseShard, studentKey } from '../dynamo/keys.js';
import { conflict, notFound } from '../graphql/errors.js';
import { enrollmentItem } from '../model/items.js';
import { toCourse } from '../model/mappers.js';
import type { CourseRecord } from '../model/records.js';
import { validateId } from '../connections/args.js';
import { absent, conditionCheck, counterAfter, counterChange, DELETING_ATTR, exists, unchanged } from './conditions.js';
import { isMoving, layoutOf, layoutToCopy } from '../model/courseLayout.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, type Store } from './store.js';
import { tryTransact, type TransactItem } from './transact.js';

/** Absent, or on its way out (a cascade delete has started): no new edges for it. */
export const gone = (item: Item | null): boolean => item === null || item[DELETING_ATTR] !== undefined;

async function readBoth(store: Store, studentId: string, courseId: string, consistentRead = true) {
  const [student, course] = await batchGet(store.doc, store.tableName, [studentKey(studentId), courseKey(courseId)], {
    consistentRead,
  });
  return { student, course };
}

const STUDENT_COUNT = 'studentCount';

/**
 * The transact item changing the count of the GSI1 partition `partition`
 * of the course by `delta`: the course item's counter for the unsharded
 * partition (with `also` conditions on the course), else that shard's
 * counter item, which must exist unless `maintained` is false (a table
 * whose counters another program does not keep: left alone, counted on
 * read).
 */
function partitionCounterChange(
  store: Store,
  courseId: string,
  course: Item | null,
  partition: string,
  delta: number,
  maintained: boolean,
  also: Parameters<typeof counterChange>[5] = [],
): TransactItem {
  const shard = parseCourseShard(partition);
  if (!shard || shard.courseId !== courseId) return counterChange(store.tableName, courseKey(courseId), course, STUDENT_COUNT, delta, also);
  const key = counterShardKey(courseId, shard.k);
  if (!maintained) return conditionCheck(store.tableName, key, absent(STUDENT_COUNT));
  const c = exists(STUDENT_COUNT);
  return {
    Update: {
      TableName: store.tableName,
      Key: { PK: key.PK, SK: key.SK },
      UpdateExpression: 'ADD #counter :delta',
      ConditionExpression: c.expression,
      ExpressionAttributeNames: { ...c.names, '#counter': STUDENT_COUNT },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/** Is the counter item of a shard partition maintained (it exists with a count)? */
async function counterMaintained(store: Store, partition: string): Promise<boolean> {
  const shard = parseCourseShard(partition);
  if (!shard) return true;
  const item = await getItem(store, counterShardKey(shard.courseId, shard.k));
  return typeof item?.[STUDENT_COUNT] === 'number';
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
  let maintained = true;
  return untilFresh(store, async (round) => {
    const consistent = round > 1;
    const { student, course } = await readBoth(store, studentId, courseId, consistent);
    if (student === null || course === null || gone(student) || gone(course)) {
      if (!consistent) return READ_AGAIN; // maybe only not visible yet: read consistently before NOT_FOUND
      throw missing(studentId, courseId, student, course);
    }
    const { shards } = layoutOf(course);
    const edge = enrollmentItem({
      studentId,
      courseId,
      shards,
      // The layout's copy, unless a reshard is preparing or moving edges (model/courseLayout.ts).
      copyLayout: layoutToCopy(course) !== null,
      enrolledAt: new Date().toISOString(),
      // Absent on tables written by other programs: the attribute is then left out (removeUndefinedValues).
      courseTitle: course.title as string,
      studentName: student.name as string,
      // The versions the copies were taken at: the stream processor only ever replaces a copy by a newer one.
      courseTitleVersion: typeof course.titleVersion === 'number' ? course.titleVersion : undefined,
      studentNameVersion: typeof student.nameVersion === 'number' ? student.nameVersion : undefined,
    });
    // Unsharded: the course item's counter, conditioned on the course as read. Sharded: the student's
    // counter shard only; the course item stays out of the transaction.
    const courseConditions =
      shards === 1 ? [unchanged('title', course.title), unchanged('titleVersion', course.titleVersion), absent(DELETING_ATTR)] : [];
    const cancelled = await tryTransact(store, [
      { Put: { TableName: store.tableName, Item: edge, ConditionExpression: 'attribute_not_exists(PK)' } },
      counterChange(store.tableName, studentKey(studentId), student, 'courseCount', 1, [
        unchanged('name', student.name),
        unchanged('nameVersion', student.nameVersion),
        absent(DELETING_ATTR),
      ]),
      partitionCounterChange(store, courseId, course, String(edge.GSI1PK), 1, maintained, courseConditions),
    ]);
    if (cancelled === null) {
      const record = toCourse(course);
      return { edge, course: shards === 1 ? { ...record, studentCount: counterAfter(course, STUDENT_COUNT, 1) } : record };
    }
    // An entity changed since it was read (renamed, deleted, counter added or removed): read again.
    if (cancelled.failed(1)) return READ_AGAIN;
    if (cancelled.failed(2)) {
      if (shards > 1) maintained = await counterMaintained(store, String(edge.GSI1PK));
      return READ_AGAIN;
    }
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
  // Where the edge is indexed: where the course's layout puts it, unless it was found elsewhere
  // (a reshard moving it, or a writer of the previous layout).
  let found: string | null = null;
  let maintained = true;
  return untilFresh(store, async () => {
    const { student, course } = await readBoth(store, studentId, courseId);
    const layout = layoutOf(course);
    const partition = found ?? enrollmentPartition(studentId, courseId, layout.shards);
    const unsharded = found === null && layout.shards === 1 && !isMoving(layout);
    const cancelled = await tryTransact(store, [
      {
        Delete: {
          TableName: store.tableName,
          Key: { PK: edgeKey.PK, SK: edgeKey.SK },
          // The count to change is the one of the partition the edge is indexed under.
          ...(unsharded
            ? { ConditionExpression: 'attribute_exists(PK)' }
            : { ConditionExpression: 'attribute_exists(PK) AND GSI1PK = :p', ExpressionAttributeValues: { ':p': partition } }),
        },
      },
      counterChange(store.tableName, studentKey(studentId), student, 'courseCount', -1),
      partitionCounterChange(store, courseId, course, partition, -1, maintained),
    ]);
    if (cancelled === null) return true;
    if (cancelled.failed(1)) return READ_AGAIN;
    if (cancelled.failed(2)) {
      maintained = await counterMaintained(store, partition);
      return READ_AGAIN;
    }
    if (cancelled.failed(0)) {
      const edge = unsharded ? null : await getItem(store, edgeKey);
      if (edge && typeof edge.GSI1PK === 'string' && edge.GSI1PK !== partition) {
        found = edge.GSI1PK;
        return READ_AGAIN;
      }
      if (student === null || course === null) throw missing(studentId, courseId, student, course);
      throw notFound(`Student ${studentId} is not enrolled in course ${courseId}`);
    }
    throw cancelled;
  });
}
