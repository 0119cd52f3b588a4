/**
 * The default model, its plan and change model, handed explicitly to the
 * parts under test (src/ loads no model of its own); and its collections
 * and shard layout under the names the tests use, each derived from the
 * plan (src/plan/), as the gateway derives them.
 */
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { shardOf, type ShardLayout } from '../../src/plan/sharding.js';
import { modelFromPlan } from '../../src/subscriptions/model.js';

/** The project's schema.graphql, as the entry points load it. */
export const defaultModel = loadModel();
export const defaultPlan = compilePlan(defaultModel);
/** What the change events of a record are under the default model (subscriptions). */
export const defaultChangeModel = modelFromPlan(defaultPlan);
const courseStudentsPlan = defaultPlan.relation('Course.students');
const sharding = defaultPlan.sharding(courseStudentsPlan);

/** Student.courses: the student's item collection. */
export const studentCourses = (studentId: string) => defaultPlan.relation('Student.courses').collection(studentId);
/** Course.students, unsharded: GSI1 partition `COURSE#<cid>`. */
export const courseStudents = (courseId: string) => courseStudentsPlan.collection(courseId);
/** Course.students of a course of `shards` shards (no reshard running), merged by student. */
export const courseStudentShards = (courseId: string, shards: number) =>
  sharding.merged(courseId, { shards, reshardFrom: null, moves: 0 });

export const layoutOf = sharding.layoutOf;
export const layoutToCopy = sharding.layoutToCopy;
export const edgeLayout = sharding.edgeLayout;
export const coursePartitions = (courseId: string, layout: ShardLayout) => sharding.partitions(courseId, layout);
export const courseCounters = (courseId: string, layout: ShardLayout) => sharding.counters(courseId, layout);

// The course sharding key functions the tests check, through the write-sharded relation's plan.
export { shardOf } from '../../src/plan/sharding.js';
const courseKey = (courseId: string) => defaultPlan.item('Course').key(courseId);
export const counterShardKey = (courseId: string, k: number) => sharding.counterKey(courseId, k);
export const shardCountOf = (course: Record<string, unknown> | null | undefined) => sharding.layoutOf(course).shards;
export const enrollmentKeys = (studentId: string, courseId: string, shards = 1) => {
  const student = defaultPlan.item('Student').key(studentId).PK;
  return { PK: student, SK: courseKey(courseId).PK, GSI1PK: sharding.partition(courseId, studentId, shards), GSI1SK: student };
};
export const courseCounterKey = (courseId: string, studentId: string, shards = 1) =>
  shards <= 1 ? courseKey(courseId) : counterShardKey(courseId, shardOf(studentId, shards));
export const courseCounterKeys = (courseId: string, shards: number) => sharding.counters(courseId, { shards, reshardFrom: null, moves: 0 });
export const partitionCounterKey = (courseId: string, partition: unknown) => sharding.partitionCounterKey(courseId, partition);
/** `COURSE#<cid>#<k>` → its course id and shard; null for anything else. */
export function parseCourseShard(value: unknown): { courseId: string; k: number } | null {
  if (typeof value !== 'string') return null;
  const at = value.lastIndexOf('#');
  const courseId = defaultPlan.item('Course').type.pk.match(value.slice(0, at))?.id;
  const k = courseId === undefined ? null : sharding.shardIndex(courseId, value);
  return courseId === undefined || k === null ? null : { courseId, k };
}
