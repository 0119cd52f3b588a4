/**
 * updateStudent / updateCourse: the entity (NOT_FOUND when it is absent or
 * being deleted) and the denormalized copy on every edge (`studentName` in
 * the student's own collection, `courseTitle` on the course's edges found
 * through GSI1).
 *
 * Every update first reads the entity (consistently) and leaves out what
 * would not change: an update that changes nothing writes nothing. A change
 * of the copied name/title increments its version (`nameVersion`,
 * `titleVersion`; see model/copiedFields.ts).
 *
 * With a stream (`store.fanOut === 'stream'`) that is all the request does:
 * one UpdateItem sets the new value, its version and `propagatingSince`,
 * and the stream processor brings every copy up to date (src/stream/). The
 * request costs two DynamoDB requests however many edges there are.
 *
 * Without a stream, the copies change inside the request:
 *
 * Up to `atomicEdges` (99) edges, the entity and every stale copy change in
 * one transaction: all or nothing. Beyond that no transaction can hold them,
 * so the entity is updated first and the copies are fanned out, made
 * convergent instead of atomic:
 * - each edge is updated on `attribute_exists(PK)`: an edge deleted
 *   meanwhile is not resurrected;
 * - edges already carrying the value are skipped, so re-running the same
 *   update after a crash midway only writes what is missing;
 * - on both paths, afterwards the copies are checked once more and the
 *   entity is read again (consistently): an edge enrolled between the edge
 *   read and the write is caught, and if a concurrent rename changed the
 *   entity, the pass runs again with the newer value, so the last rename's
 *   value is what every edge ends with;
 * - enroll conditions its edge on the name/title it copied, so an edge
 *   created after the rename carries the new value.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UpdateCourseInput, UpdateStudentInput } from '../__generated__/resolvers.js';
import type { Item } from '../dynamo/batchGet.js';
import { catalogSortKey, type ItemKey } from '../dynamo/keys.js';
import { badUserInput, notFound } from '../graphql/errors.js';
import { toCourse, toStudent } from '../model/mappers.js';
import type { CourseRecord, StudentRecord } from '../model/records.js';
import { validateId } from '../connections/args.js';
import { DELETING_ATTR } from './conditions.js';
import { COURSE_TITLE, PROPAGATING_ATTR, STUDENT_NAME, type CopiedField } from '../model/copiedFields.js';
import { isConditionFailed } from './create.js';
import { gone } from './enroll.js';
import { editEdge, settleCopies, type Copy } from './copies.js';
import { edgePage } from './fanOut.js';
import { email, text } from './input.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, optionsOf, type Store } from './store.js';
import { retryConflicts, tryTransact } from './transact.js';

interface Change {
  set: Record<string, unknown>;
  remove: string[];
  /** Attributes incremented by one (absent counts as 0): the version of a copied value that changes. */
  increment?: string[];
}

/** The UpdateItem parameters of an entity change, conditional on the entity existing and not being deleted. */
function entityUpdate(tableName: string, key: ItemKey, change: Change) {
  const names: Record<string, string> = { '#deleting': DELETING_ATTR };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(change.set).map(([attr, value], i) => {
    names[`#s${i}`] = attr;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  for (const [i, attr] of (change.increment ?? []).entries()) {
    names[`#i${i}`] = attr;
    values[':zero'] = 0;
    values[':one'] = 1;
    sets.push(`#i${i} = if_not_exists(#i${i}, :zero) + :one`);
  }
  const removes = change.remove.map((attr, i) => {
    names[`#r${i}`] = attr;
    return `#r${i}`;
  });
  return {
    TableName: tableName,
    Key: { PK: key.PK, SK: key.SK },
    UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
      .filter(Boolean)
      .join(' '),
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#deleting)',
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

const isEmpty = (change: Change) =>
  Object.keys(change.set).length === 0 && change.remove.length === 0 && (change.increment ?? []).length === 0;

function applied(item: Item, change: Change): Item {
  const next = { ...item, ...change.set };
  for (const attr of change.remove) delete next[attr];
  for (const attr of change.increment ?? []) next[attr] = (typeof item[attr] === 'number' ? (item[attr] as number) : 0) + 1;
  return next;
}

/**
 * The part of `change` that changes `entity`; a new value of the copied
 * attribute also increments its version (and, with a stream, marks the
 * entity as propagating).
 */
function effective(entity: Item, change: Change, field: CopiedField | undefined, stream: boolean): Change {
  const set = Object.fromEntries(Object.entries(change.set).filter(([attr, value]) => entity[attr] !== value));
  const remove = change.remove.filter((attr) => entity[attr] !== undefined);
  const increment: string[] = [];
  if (field && set[field.attr] !== undefined) {
    increment.push(field.versionAttr);
    if (stream) set[PROPAGATING_ATTR] = new Date().toISOString();
  }
  return { set, remove, increment };
}

/** The entity alone: one conditional UpdateItem (never for an empty change). Returns the entity as updated. */
async function updateEntity(store: Store, key: ItemKey, what: string, change: Change): Promise<Item> {
  try {
    const out = await retryConflicts(store, () =>
      store.doc.send(new UpdateCommand({ ...entityUpdate(store.tableName, key, change), ReturnValues: 'ALL_NEW' })),
    );
    return out.Attributes!;
  } catch (err) {
    if (isConditionFailed(err)) throw notFound(`${what} not found`);
    throw err;
  }
}

/**
 * The entity and every stale copy in one transaction, when the edges fit.
 * Returns the entity as updated, or null when they do not fit (or edges kept
 * vanishing under it) and the caller must fan out instead.
 */
async function updateAtomically(store: Store, key: ItemKey, what: string, change: Change, copy: Copy): Promise<Item | null> {
  const { atomicEdges } = optionsOf(store);
  // Only one collection fits one read: a sharded course's copies always fan out.
  if (atomicEdges <= 0 || copy.edges.length !== 1) return null;
  return untilFresh(
    store,
    async () => {
      const [entity, edges] = await Promise.all([getItem(store, key), edgePage(store, copy.edges[0]!, atomicEdges + 1)]);
      if (entity === null || gone(entity)) throw notFound(`${what} not found`);
      if (edges.next !== undefined || edges.items.length > atomicEdges) return null;
      const stale = edges.items.filter((edge) => edge[copy.copyAttr] !== copy.value);
      const cancelled = await tryTransact(store, [
        { Update: entityUpdate(store.tableName, key, change) },
        ...stale.map((edge) => ({ Update: editEdge(store.tableName, edge, copy) })),
      ]);
      if (cancelled === null) return applied(entity, change);
      if (cancelled.failed(0)) throw notFound(`${what} not found`);
      // An edge was deleted between the read and the transaction: read again.
      return READ_AGAIN;
    },
    () => null,
  );
}

/** Reads the entity: NOT_FOUND when it is absent or being deleted. */
async function current(store: Store, key: ItemKey, what: string): Promise<Item> {
  const entity = await getItem(store, key);
  if (entity === null || gone(entity)) throw notFound(`${what} not found`);
  return entity;
}

/**
 * Updates the entity and, when `copy` is given, the copies on its edges
 * (`field` says which copied attribute `copy` is).
 */
async function update(store: Store, id: string, what: string, requested: Change, field: CopiedField, value?: string): Promise<Item> {
  const key = field.key(id);
  const stream = store.fanOut === 'stream';
  // No copied value in the input: nothing to compare or propagate, the entity alone in one UpdateItem.
  // An input that sets nothing (`input: {}`) changes nothing: the entity as it is.
  if (value === undefined) return isEmpty(requested) ? current(store, key, what) : updateEntity(store, key, what, requested);
  const entity = await current(store, key, what);
  const change = effective(entity, requested, field, stream);
  if (stream) return isEmpty(change) ? entity : updateEntity(store, key, what, change);

  const copy: Copy = { attr: field.attr, value, edges: field.edges(id, entity), copyAttr: field.copyAttr };
  // The value is already the entity's: only copies a crashed fan-out missed may need it.
  const atomically = isEmpty(change) ? null : await updateAtomically(store, key, what, change, copy);
  const updated = atomically ?? (isEmpty(change) ? entity : await updateEntity(store, key, what, change));
  const latest = await settleCopies(store, key, copy);
  // The entity as this update left it; newer when a concurrent write has changed it since.
  return latest && latest[copy.attr] !== undefined && !gone(latest) ? latest : updated;
}

function required(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === null) throw badUserInput(`${argumentName} cannot be null (it can be changed, not cleared)`, argumentName);
  return value === undefined ? undefined : text(value, argumentName);
}

export async function updateStudent(store: Store, id: string, input: UpdateStudentInput): Promise<StudentRecord> {
  validateId(id);
  const name = required(input.name, 'input.name');
  const change: Change = { set: {}, remove: [] };
  // The catalog entry moves with the name (same shard: it depends on the id). GSI2PK is left as it is:
  // an item not yet indexed stays out of the index (and its counter) until `npm run migrate` adds it.
  if (name !== undefined) change.set = { name, GSI2SK: catalogSortKey('STUDENT', id, name) };
  // email: absent leaves it, null clears it.
  if (input.email === null) change.remove.push('email');
  else if (input.email !== undefined) change.set.email = email(input.email, 'input.email');

  return toStudent(await update(store, id, `Student ${id}`, change, STUDENT_NAME, name));
}

export async function updateCourse(store: Store, id: string, input: UpdateCourseInput): Promise<CourseRecord> {
  validateId(id);
  const title = required(input.title, 'input.title');
  const change: Change = { set: title === undefined ? {} : { title, GSI2SK: catalogSortKey('COURSE', id, title) }, remove: [] };

  return toCourse(await update(store, id, `Course ${id}`, change, COURSE_TITLE, title));
}
