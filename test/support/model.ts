/**
 * The default model's collections and shard layout under the names the
 * tests use, each derived from the plan (src/plan/), as the gateway
 * derives them.
 */
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { shardingOf, type ShardLayout } from '../../src/plan/sharding.js';

export const defaultPlan = compilePlan(loadModel());
const courseStudentsPlan = defaultPlan.relation('Course.students');
const sharding = shardingOf(courseStudentsPlan);

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
