/**
 * updateStudent / updateCourse: the entity first (one conditional
 * UpdateItem: NOT_FOUND when it is absent or being deleted), then the
 * denormalized copy on every edge (`studentName` in the student's own
 * collection, `courseTitle` on the course's edges found through GSI1).
 *
 * The fan-out is not atomic with the entity update (a course may have more
 * edges than one transaction can hold), so it is made convergent instead:
 * - each edge is updated on `attribute_exists(PK)`: an edge deleted
 *   meanwhile is not resurrected;
 * - edges already carrying the value are skipped, so re-running the same
 *   update after a crash midway only writes what is missing;
 * - after the pass the entity is read again (consistently); if a concurrent
 *   rename changed it, the pass runs again with the newer value, so the last
 *   rename's value is what every edge ends with;
 * - enroll conditions its edge on the name/title it copied, so an edge
 *   created during the fan-out carries the new value.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UpdateCourseInput, UpdateStudentInput } from '../__generated__/resolvers.js';
import type { Collection } from '../dynamo/collection.js';
import { courseKey, studentKey, type ItemKey } from '../dynamo/keys.js';
import { badUserInput, notFound } from '../errors.js';
import { courseStudents, studentCourses } from '../model/collections.js';
import { toCourse, toStudent } from '../model/mappers.js';
import type { CourseRecord, StudentRecord } from '../model/records.js';
import { validateId } from '../validation.js';
import { DELETING_ATTR } from './conditions.js';
import { isConditionFailed } from './create.js';
import { gone } from './enroll.js';
import { forEachLimit, pages } from './fanOut.js';
import { email, text } from './input.js';
import { getItem, optionsOf, type Store } from './store.js';
import { retryConflicts } from './transact.js';

/** How many times the copies are re-synchronised when concurrent renames keep changing the value. */
const MAX_SETTLE_PASSES = 5;

/** Sets `copyAttr = value` on every edge of `collection` that lacks it. Returns the number of edges written. */
export async function refreshCopies(store: Store, collection: Collection, copyAttr: string, value: string) {
  const { pageSize, concurrency } = optionsOf(store);
  let written = 0;
  for await (const page of pages(store, collection, pageSize)) {
    const stale = page.filter((edge) => edge[copyAttr] !== value);
    await forEachLimit(stale, concurrency, async (edge) => {
      try {
        await retryConflicts(store, () =>
          store.doc.send(
            new UpdateCommand({
              TableName: store.tableName,
              Key: { PK: edge.PK, SK: edge.SK },
              UpdateExpression: 'SET #copy = :value',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeNames: { '#copy': copyAttr },
              ExpressionAttributeValues: { ':value': value },
            }),
          ),
        );
        written++;
      } catch (err) {
        if (!isConditionFailed(err)) throw err; // the edge was deleted meanwhile: nothing to update
      }
    });
  }
  return written;
}

/** Fans `value` out, then again with the entity's newer value while a concurrent rename changed it. */
async function settleCopies(store: Store, key: ItemKey, attr: string, collection: Collection, copyAttr: string, value: string) {
  for (let pass = 1; pass <= MAX_SETTLE_PASSES; pass++) {
    await refreshCopies(store, collection, copyAttr, value);
    const now = await getItem(store, key);
    if (now === null || typeof now[attr] !== 'string' || now[attr] === value) return;
    value = now[attr] as string;
  }
}

interface Change {
  set: Record<string, unknown>;
  remove: string[];
}

/** One conditional UpdateItem; returns the item as updated, or null when there was nothing to change. */
async function updateEntity(store: Store, key: ItemKey, what: string, change: Change) {
  const names: Record<string, string> = { '#deleting': DELETING_ATTR };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(change.set).map(([attr, value], i) => {
    names[`#s${i}`] = attr;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = change.remove.map((attr, i) => {
    names[`#r${i}`] = attr;
    return `#r${i}`;
  });
  if (sets.length === 0 && removes.length === 0) {
    const item = await getItem(store, key);
    if (gone(item)) throw notFound(`${what} not found`);
    return item!;
  }
  try {
    const out = await retryConflicts(store, () =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: { PK: key.PK, SK: key.SK },
          UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
            .filter(Boolean)
            .join(' '),
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#deleting)',
          ExpressionAttributeNames: names,
          ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out.Attributes!;
  } catch (err) {
    if (isConditionFailed(err)) throw notFound(`${what} not found`);
    throw err;
  }
}

function required(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === null) throw badUserInput(`${argumentName} cannot be null (it can be changed, not cleared)`, argumentName);
  return value === undefined ? undefined : text(value, argumentName);
}

export async function updateStudent(store: Store, id: string, input: UpdateStudentInput): Promise<StudentRecord> {
  validateId(id);
  const name = required(input.name, 'input.name');
  const change: Change = { set: {}, remove: [] };
  if (name !== undefined) change.set.name = name;
  // email: absent leaves it, null clears it.
  if (input.email === null) change.remove.push('email');
  else if (input.email !== undefined) change.set.email = email(input.email, 'input.email');

  const item = await updateEntity(store, studentKey(id), `Student ${id}`, change);
  if (name !== undefined) await settleCopies(store, studentKey(id), 'name', studentCourses(id), 'studentName', name);
  return toStudent(item);
}

export async function updateCourse(store: Store, id: string, input: UpdateCourseInput): Promise<CourseRecord> {
  validateId(id);
  const title = required(input.title, 'input.title');
  const change: Change = { set: title === undefined ? {} : { title }, remove: [] };

  const item = await updateEntity(store, courseKey(id), `Course ${id}`, change);
  if (title !== undefined) await settleCopies(store, courseKey(id), 'title', courseStudents(id), 'courseTitle', title);
  return toCourse(item);
}
