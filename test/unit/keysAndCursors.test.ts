import { describe, expect, it } from 'vitest';
import { enrollmentKeys, idFrom, keyValue, orderKeys } from '../../src/dynamo/keys.js';
import { courseStudents, studentCourses } from '../../src/model/collections.js';
import { decodeCursor, encodeCursor } from '../../src/pagination.js';
import { validateConnectionArgs, validateId } from '../../src/validation.js';

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

  it('round-trips a start key through the connection that issued it', () => {
    const c = studentCourses('1');
    expect(decodeCursor(c, encodeCursor(c, key), 'after')).toEqual(key);
  });

  it('rejects a cursor of the same field for another parent', () => {
    const cursor = encodeCursor(studentCourses('1'), key);
    expect(() => decodeCursor(studentCourses('2'), cursor, 'after')).toThrow(/another connection/);
  });

  it('rejects a cursor whose key lacks the index keys a GSI1 page needs', () => {
    const c = courseStudents('A');
    const forged = Buffer.from(JSON.stringify({ v: 1, c: c.name, p: c.pk, k: { PK: 'STUDENT#1', SK: 'COURSE#A' } })).toString('base64url');
    expect(() => decodeCursor(c, forged, 'after')).toThrow(/malformed key/);
  });

  it('rejects a key outside the collection it claims', () => {
    const c = studentCourses('1');
    const forged = Buffer.from(JSON.stringify({ v: 1, c: c.name, p: c.pk, k: { PK: 'STUDENT#1', SK: 'PROFILE' } })).toString('base64url');
    expect(() => decodeCursor(c, forged, 'after')).toThrow(/another connection/);
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
