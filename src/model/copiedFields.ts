/**
 * The denormalized copies an enrollment edge carries, declared once: which
 * entity attribute is copied, the version the entity keeps for it, and the
 * attributes on the edge that hold the copy and the version it was taken at.
 *
 * Versions make copies convergent when renames race or stream records are
 * replayed or processed out of order: every rename that changes the value
 * increments the entity's version (absent = 0), and an edge's copy is only
 * ever overwritten by a copy of a higher version (or of the same version
 * when the text differs, which only an older writer without versions
 * leaves behind). So whatever order the writes land in, every edge ends
 * with the last rename's value.
 */
import { courseKey, studentKey, type ItemKey } from '../dynamo/keys.js';
import type { Collection } from '../dynamo/collection.js';
import type { Item } from '../dynamo/batchGet.js';
import { courseStudentPartitions, studentCourses } from './collections.js';
import { layoutOf } from './courseLayout.js';

export type Side = 'student' | 'course';

export interface CopiedField {
  side: Side;
  /** On the entity: the copied attribute and its version. */
  attr: 'name' | 'title';
  versionAttr: 'nameVersion' | 'titleVersion';
  /** On the edge: the copy and the entity version it was taken at. */
  copyAttr: 'studentName' | 'courseTitle';
  copyVersionAttr: 'studentNameVersion' | 'courseTitleVersion';
  /**
   * The entity's item key, and the collections of the edges that carry its
   * copy as the stored entity lays them out (every GSI1 partition of a
   * sharded course).
   */
  key: (id: string) => ItemKey;
  edges: (id: string, entity: Item | null) => readonly Collection[];
}

export const STUDENT_NAME: CopiedField = {
  side: 'student',
  attr: 'name',
  versionAttr: 'nameVersion',
  copyAttr: 'studentName',
  copyVersionAttr: 'studentNameVersion',
  key: studentKey,
  edges: (id) => [studentCourses(id)],
};

export const COURSE_TITLE: CopiedField = {
  side: 'course',
  attr: 'title',
  versionAttr: 'titleVersion',
  copyAttr: 'courseTitle',
  copyVersionAttr: 'courseTitleVersion',
  key: courseKey,
  edges: (id, entity) => courseStudentPartitions(id, layoutOf(entity)).shards,
};

export const copiedField = (side: Side): CopiedField => (side === 'student' ? STUDENT_NAME : COURSE_TITLE);

/**
 * Set on a student or course (ISO timestamp) by a rename while its copies
 * are being brought up to date by the stream processor; removed by the
 * processor once every edge carries the rename's version. Clients see it as
 * `propagating: true` (together with `deletingAt` during a cascade delete).
 */
export const PROPAGATING_ATTR = 'propagatingSince';

/** The version an item holds in `attr` (absent = 0); NaN when it is not a number (a foreign or broken writer). */
export function versionOf(item: Record<string, unknown>, attr: string): number {
  const v = item[attr];
  if (v === undefined) return 0;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : Number.NaN;
}

/** Does this edge's copy need the entity's `value` at `version`? (The same rule as the conditional write.) */
export function copyIsStale(edge: Record<string, unknown>, field: CopiedField, value: string, version: number): boolean {
  const have = versionOf(edge, field.copyVersionAttr);
  if (Number.isNaN(have)) return true;
  return have < version || (have === version && edge[field.copyAttr] !== value);
}
