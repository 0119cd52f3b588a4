import { describe, expect, it } from 'vitest';
import { idFrom, keyValue, orderKeys } from '../../src/dynamo/keys.js';
import { enrollmentKeys } from '../support/model.js';
import { courseStudents, studentCourses } from '../support/model.js';
import { cursorReader } from '../../src/connections/cursor.js';
import { cursorOf, cursorPosition } from '../../src/connections/engine.js';
import { singleCollection } from '../../src/connections/singleCollection.js';
import type { Collection } from '../../src/dynamo/collection.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { validateConnectionArgs, validateId } from '../../src/connections/args.js';

describe('key design', () => {
  it('lays out an enrollment edge for both directions', () => {
    expect(enrollmentKeys('1', 'A')).toEqual({ PK: 'STUDENT#1', SK: 'COURSE#A', GSI1PK: 'COURSE#A', GSI1SK: 'STUDENT#1' });
  });

  it('makes an order findable alone through GSI1', () => {
    expect(orderKeys('c', 'o')).toEqual({ PK: 'CUSTOMER#c', SK: 'ORDER#o', GSI1PK: 'ORDER#o', GSI1SK: 'CUSTOMER#c' });
  });

  it('parses the id back out of a key value, and nothing else', () => {
    expect(idFrom('STUDENT', keyValue('STUDENT', 'x-1'))).toBe('x-1');
    expect(idFrom('STUDENT', 'COURSE#x')).toBeNull();
    expect(idFrom('STUDENT', 'STUDENT#')).toBeNull();
    expect(idFrom('STUDENT', 'STUDENT#a#b')).toBeNull();
    expect(idFrom('STUDENT', 42)).toBeNull();
  });
});

describe('cursors', () => {
  const key = { PK: 'STUDENT#1', SK: 'COURSE#A' };
  const codec = cursorReader(createCursorCodec({ current: 'unit-test-cursor-secret-0123456789abcdef' }));
  // Signed with the right secret, so only the structural checks behind the signature stand in the way.
  const signed = (payload: object) => codec.seal(JSON.stringify(payload));
  const encodeCursor = (c: Collection, k: Record<string, string>) => cursorOf(singleCollection, c, codec, k);
  const decodeCursor = (c: Collection, cursor: string) => cursorPosition(singleCollection, c, codec, cursor, 'after');

  it('round-trips a start key through the connection that issued it', () => {
    const c = studentCourses('1');
    expect(decodeCursor(c, encodeCursor(c, key))).toEqual(key);
  });

  it('rejects a cursor of the same field for another parent', () => {
    const cursor = encodeCursor(studentCourses('1'), key);
    expect(() => decodeCursor(studentCourses('2'), cursor)).toThrow(/another connection/);
  });

  it('rejects a cursor whose key lacks the index keys a GSI1 page needs', () => {
    const c = courseStudents('A');
    const forged = signed({ v: 2, c: c.name, p: c.pk, i: 'GSI1', k: { PK: 'STUDENT#1', SK: 'COURSE#A' } });
    expect(() => decodeCursor(c, forged)).toThrow(/malformed key/);
  });

  it('rejects a key outside the collection it claims', () => {
    const c = studentCourses('1');
    const forged = signed({ v: 2, c: c.name, p: c.pk, i: 'table', k: { PK: 'STUDENT#1', SK: 'PROFILE' } });
    expect(() => decodeCursor(c, forged)).toThrow(/another connection/);
  });

  it('rejects a cursor of the same connection name and partition but another index', () => {
    const c = studentCourses('1');
    const forged = signed({ v: 2, c: c.name, p: c.pk, i: 'GSI1', k: key });
    expect(() => decodeCursor(c, forged)).toThrow(/another connection/);
  });
});

describe('argument validation', () => {
  it('accepts ids up to 128 characters without #', () => {
    expect(validateId('x'.repeat(128))).toBe('x'.repeat(128));
    expect(() => validateId('x'.repeat(129))).toThrow(/128/);
    expect(() => validateId('')).toThrow(/empty/);
    expect(() => validateId('a#b')).toThrow(/#/);
  });

  it('defaults to 20 forward and reads backward for last', () => {
    expect(validateConnectionArgs({})).toEqual({ size: 20, forward: true, after: null, before: null });
    expect(validateConnectionArgs({ last: 5, before: 'c' })).toEqual({ size: 5, forward: false, after: null, before: 'c' });
  });
});
