/**
 * The default model's writes under the names the tests use, each the
 * generic write of src/writes/ for that type or relation (as the Mutation
 * resolvers call them).
 */
import { deleteItem } from '../../src/writes/cascade.js';
import { createItem } from '../../src/writes/create.js';
import { link, unlink } from '../../src/writes/link.js';
import { planOf, type Store } from '../../src/writes/store.js';
import { updateItem } from '../../src/writes/update.js';
import { reshard, type ReshardOptions } from '../../src/writes/reshard.js';

const ENROLL = { from: 'studentId', to: 'courseId' };
const PHRASE = { phrase: 'enrolled in' };

export const updateStudent = (store: Store, id: string, input: Record<string, unknown>) => updateItem(store, 'Student', id, input);
export const updateCourse = (store: Store, id: string, input: Record<string, unknown>) => updateItem(store, 'Course', id, input);
export const deleteStudent = (store: Store, id: string) => deleteItem(store, 'Student', id);
export const deleteCourse = (store: Store, id: string) => deleteItem(store, 'Course', id);
/** The edge item written and the course's record as it now is. */
export async function enroll(store: Store, studentId: string, courseId: string) {
  const { edge, node } = await link(store, 'Student.courses', studentId, courseId, ENROLL, {}, PHRASE);
  return { edge, course: planOf(store).item('Course').map(node) };
}
export const unenroll = (store: Store, studentId: string, courseId: string) => unlink(store, 'Student.courses', studentId, courseId, ENROLL, PHRASE);
export const placeOrder = (store: Store, customerId: string, input: Record<string, unknown>) =>
  createItem(store, 'Order', input, { id: customerId, argument: 'customerId' });

/** `npm run reshard -- --course <id>`: the generic reshard of a Course. */
export const reshardCourse = (store: Store, courseId: string, shards: number, options: ReshardOptions) => reshard(store, 'Course', courseId, shards, options);
