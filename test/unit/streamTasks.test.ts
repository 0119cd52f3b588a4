/**
 * What each stream record asks the handler for, from its keys and images
 * alone (no DynamoDB): entity renames and deletes, new edges, and nothing
 * for everything else (the handler's own edge writes, deletions, expiries,
 * the reader's bookkeeping).
 */
import { describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import { taskOf } from '../../src/stream/handler.js';
import type { StreamRecordLike } from '../../src/dynamo/streamRecords.js';
import { fileURLToPath } from 'node:url';
import { defaultPlan } from '../support/model.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';

const libraryPlan = compilePlan(loadModel(fileURLToPath(new URL('../../examples/library.graphql', import.meta.url))));

const rec = (eventName: string, keys: object, newImage?: object, oldImage?: object, userIdentity?: object): StreamRecordLike => ({
  eventName,
  dynamodb: {
    Keys: marshall(keys),
    NewImage: newImage && marshall({ ...keys, ...newImage }),
    OldImage: oldImage && marshall({ ...keys, ...oldImage }),
    SequenceNumber: '1',
  },
  ...(userIdentity ? { userIdentity } : {}),
});
const course = { PK: 'COURSE#c', SK: 'PROFILE' };
const edge = { PK: 'STUDENT#s', SK: 'COURSE#c', GSI1PK: 'COURSE#c', GSI1SK: 'STUDENT#s' };
const kind = (r: StreamRecordLike) => taskOf(r, defaultPlan).kind;

describe('stream record tasks', () => {
  it('a rename (version changed, or marked propagating) asks for propagation of that entity', () => {
    expect(taskOf(rec('MODIFY', course, { title: 'B', titleVersion: 2 }, { title: 'A', titleVersion: 1 }), defaultPlan)).toMatchObject({
      kind: 'propagate',
      id: 'c',
      type: 'Course',
    });
    expect(kind(rec('MODIFY', { PK: 'STUDENT#s', SK: 'PROFILE' }, { name: 'B', propagatingSince: 't' }, { name: 'B' }))).toBe('propagate');
  });

  it("a rename of a child type (its key holds its parent's id) asks for propagation from the item at the record's key", () => {
    const book = { PK: 'LIB#central', SK: 'BOOK#dune' };
    expect(taskOf(rec('MODIFY', book, { title: 'B', titleVersion: 1, propagatingSince: 't' }, { title: 'A' }), libraryPlan)).toEqual({
      kind: 'propagate',
      type: 'Book',
      id: 'dune',
      key: book,
    });
    // Its delete is finished by its own request (with its parent's counter): the mark asks the processor for nothing.
    expect(taskOf(rec('MODIFY', book, { title: 'A', deletingAt: 't' }, { title: 'A' }), libraryPlan).kind).toBe('none');
  });

  it('a marked entity asks for the rest of its cascade', () => {
    expect(taskOf(rec('MODIFY', course, { title: 'A', deletingAt: 't' }, { title: 'A' }), defaultPlan)).toMatchObject({ kind: 'cascade', id: 'c' });
  });

  it('a new edge asks for a check of its copies; its updates and deletions ask for nothing', () => {
    expect(kind(rec('INSERT', edge, { courseTitle: 'A' }))).toBe('edge');
    expect(kind(rec('MODIFY', edge, { courseTitle: 'B', courseTitleVersion: 2 }, { courseTitle: 'A' }))).toBe('none');
    expect(kind(rec('REMOVE', edge, undefined, { courseTitle: 'A' }))).toBe('none');
  });

  it('asks nothing for an email change, the propagation mark being removed, deletions, expiries or bookkeeping', () => {
    expect(kind(rec('MODIFY', { PK: 'STUDENT#s', SK: 'PROFILE' }, { name: 'A', email: 'b@x.io' }, { name: 'A', email: 'a@x.io' }))).toBe('none');
    expect(kind(rec('MODIFY', course, { title: 'B', titleVersion: 2 }, { title: 'B', titleVersion: 2, propagatingSince: 't' }))).toBe('none');
    expect(kind(rec('REMOVE', course, undefined, { title: 'A', deletingAt: 't' }))).toBe('none');
    expect(
      kind(rec('REMOVE', { PK: 'IDEMPOTENCY#k', SK: 'RECORD' }, undefined, { expiresAt: 1 }, { type: 'Service', principalId: 'dynamodb.amazonaws.com' })),
    ).toBe('none');
    expect(kind(rec('MODIFY', { PK: 'STREAM#label', SK: 'SHARD#s1' }, { sequenceNumber: '2' }, { sequenceNumber: '1' }))).toBe('none');
    expect(kind(rec('INSERT', { PK: 'CUSTOMER#c', SK: 'ORDER#o' }, { total: 1 }))).toBe('none');
  });
});
