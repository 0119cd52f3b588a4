/**
 * Bringing edge copies up to date, off the request path.
 *
 * `propagate(store, field, id)` reads the entity (consistently) and writes
 * its current value and version into every edge whose copy is older. It
 * always works from the entity as it is now, not from the record that
 * triggered it, so a replayed or out-of-order record does the latest
 * rename's work (or none). Each edge write is conditional:
 *   attribute_exists(PK)                      an edge deleted meanwhile is not resurrected
 *   AND (copyVersion absent OR < v            a newer copy is never overwritten
 *        OR (copyVersion = v AND copy <> value))
 * so concurrent processors, replays and racing renames all converge on the
 * highest version, which is the last rename. An entity being deleted is
 * left alone: the cascade removes its edges (a delete wins).
 *
 * When every edge is current, `propagatingSince` is removed from the
 * entity, only if its version is still the one propagated (a newer rename
 * keeps the mark until its own record is processed).
 *
 * `refreshEdges(store, edges)` does the same for new edges (INSERT records):
 * an edge written from an entity read just before a rename can still carry
 * the old copy (on real DynamoDB the course side's GSI1 may not show it yet
 * to the rename's pass); its own record brings it up to date.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type Item } from '../dynamo/batchGet.js';
import { courseKey, idFrom, studentKey } from '../dynamo/keys.js';
import { COURSE_TITLE, copyIsStale, PROPAGATING_ATTR, STUDENT_NAME, versionOf, type CopiedField } from '../model/copiedFields.js';
import { DELETING_ATTR } from '../writes/conditions.js';
import { isConditionFailed } from '../writes/create.js';
import { forEachLimit, pages } from '../writes/fanOut.js';
import { getItem, optionsOf, type Store } from '../writes/store.js';
import { retryConflicts } from '../writes/transact.js';

/** A record the handler cannot process however often it is retried. */
export class PoisonRecord extends Error {
  override name = 'PoisonRecord';
}

/** The entity's copied value and its version, or null when there is nothing to propagate. */
function source(entity: Item, field: CopiedField): { value: string; version: number } | null {
  const value = entity[field.attr];
  const version = versionOf(entity, field.versionAttr);
  if (Number.isNaN(version)) {
    throw new PoisonRecord(`${entity.PK} has a ${field.versionAttr} that is not a non-negative integer: ${JSON.stringify(entity[field.versionAttr])}`);
  }
  return typeof value === 'string' ? { value, version } : null;
}

/** Writes the copy on one edge if it is older; false when the condition said no (gone or newer). */
async function writeCopy(store: Store, edge: Item, field: CopiedField, value: string, version: number): Promise<boolean> {
  try {
    await retryConflicts(store, () =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: { PK: edge.PK, SK: edge.SK },
          UpdateExpression: 'SET #c = :value, #cv = :v',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#cv) OR #cv < :v OR (#cv = :v AND #c <> :value))',
          ExpressionAttributeNames: { '#c': field.copyAttr, '#cv': field.copyVersionAttr },
          ExpressionAttributeValues: { ':value': value, ':v': version },
        }),
      ),
    );
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

export interface PropagateResult {
  /** Edges whose copy this call wrote. */
  written: number;
  /** Why nothing was propagated, if so. */
  skipped?: 'absent' | 'deleting' | 'no value';
}

export async function propagate(store: Store, field: CopiedField, id: string): Promise<PropagateResult> {
  const key = field.key(id);
  const entity = await getItem(store, key);
  if (entity === null) return { written: 0, skipped: 'absent' };
  if (entity[DELETING_ATTR] !== undefined) return { written: 0, skipped: 'deleting' };
  const from = source(entity, field);
  if (from === null) return { written: 0, skipped: 'no value' };

  const { pageSize, concurrency } = optionsOf(store);
  let written = 0;
  for (const edges of field.edges(id, entity)) {
    for await (const page of pages(store, edges, pageSize)) {
      const stale = page.filter((edge) => copyIsStale(edge, field, from.value, from.version));
      await forEachLimit(stale, concurrency, async (edge) => {
        if (await writeCopy(store, edge, field, from.value, from.version)) written++;
      });
    }
  }
  if (entity[PROPAGATING_ATTR] !== undefined) {
    try {
      await retryConflicts(store, () =>
        store.doc.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: { PK: key.PK, SK: key.SK },
            UpdateExpression: 'REMOVE #p',
            ConditionExpression: from.version === 0 ? 'attribute_exists(PK) AND attribute_not_exists(#v)' : '#v = :v',
            ExpressionAttributeNames: { '#p': PROPAGATING_ATTR, '#v': field.versionAttr },
            ...(from.version === 0 ? {} : { ExpressionAttributeValues: { ':v': from.version } }),
          }),
        ),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err; // renamed again (its own record finishes) or deleted meanwhile
    }
  }
  return { written };
}

/**
 * New edges: each copy is compared with its entity (all entities of the
 * batch in one consistent BatchGet) and brought up to date when older.
 * Returns the number of copies written.
 */
export async function refreshEdges(store: Store, edges: Item[]): Promise<number> {
  if (edges.length === 0) return 0;
  const sides = edges.flatMap((edge) => {
    const studentId = idFrom('STUDENT', edge.PK);
    const courseId = idFrom('COURSE', edge.SK);
    if (studentId === null || courseId === null) return [];
    return [
      { edge, field: STUDENT_NAME, key: studentKey(studentId) },
      { edge, field: COURSE_TITLE, key: courseKey(courseId) },
    ];
  });
  const entities = await batchGet(store.doc, store.tableName, sides.map((s) => s.key), { consistentRead: true });
  let written = 0;
  const { concurrency } = optionsOf(store);
  await forEachLimit(sides.map((s, i) => ({ ...s, entity: entities[i] })), concurrency, async ({ edge, field, entity }) => {
    if (entity === null || entity[DELETING_ATTR] !== undefined) return;
    const from = source(entity, field);
    if (from === null || !copyIsStale(edge, field, from.value, from.version)) return;
    if (await writeCopy(store, edge, field, from.value, from.version)) written++;
  });
  return written;
}
