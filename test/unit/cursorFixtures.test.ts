/**
 * Cursors already in clients' hands keep working: the fixtures
 * (test/fixtures/cursors-v2.json) were issued by the gateway's code before
 * its connections shared one cursor codec, under a fixed secret. Each must
 * decode to the same position today, be issued again byte for byte from
 * that position, and each refused one must be refused with the same message.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../src/dynamo/collection.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { cursorReader, decodeCursor, encodeCursor } from '../../src/connections/connection.js';
import { decodeRangeCursor, encodeRangeCursor, type RangeSource } from '../../src/connections/rangeConnection.js';
import { decodeMergedCursor, encodeMergedCursor, type MergedCollection } from '../../src/connections/mergedPage.js';

interface Fixture {
  name: string;
  kind: 'collection' | 'range' | 'shards';
  target: Record<string, unknown>;
  cursor: string;
}
interface Issued extends Fixture {
  payload: { k: Record<string, string> };
  decoded: unknown;
}
interface Refused extends Fixture {
  argumentName: 'after' | 'before';
  error: string;
  code: string;
}

const fixtures = JSON.parse(readFileSync(new URL('../fixtures/cursors-v2.json', import.meta.url), 'utf8')) as {
  secret: string;
  issued: Issued[];
  refused: Refused[];
};
const reader = () => cursorReader(createCursorCodec({ current: fixtures.secret }));

function decode(f: Fixture, argumentName: string): unknown {
  const cursors = reader();
  if (f.kind === 'collection') return decodeCursor(cursors, f.target as unknown as Collection, f.cursor, argumentName);
  if (f.kind === 'range') return decodeRangeCursor(cursors, f.target as unknown as RangeSource, f.cursor, argumentName);
  return decodeMergedCursor(cursors, f.target as unknown as MergedCollection, f.cursor, argumentName);
}

function encode(f: Issued): string {
  const cursors = reader();
  if (f.kind === 'collection') return encodeCursor(cursors, f.target as unknown as Collection, f.decoded as Record<string, string>);
  if (f.kind === 'range') return encodeRangeCursor(cursors, f.target as unknown as RangeSource, f.decoded as string);
  return encodeMergedCursor(cursors, f.target as unknown as MergedCollection, f.decoded as Record<string, string>);
}

describe('cursors issued before the connections shared one codec', () => {
  it('covers every connection kind: single collections, filled ranges, merged shards and catalogs', () => {
    expect(new Set(fixtures.issued.map((f) => f.kind))).toEqual(new Set(['collection', 'range', 'shards']));
    expect(fixtures.issued).toHaveLength(11);
    expect(fixtures.refused).toHaveLength(33);
  });

  it.each(fixtures.issued.map((f) => [f.name, f] as const))('decodes a cursor of %s to the position it was issued at', (_, f) => {
    expect(decode(f, 'after')).toEqual(f.decoded);
  });

  it.each(fixtures.issued.filter((f) => !f.name.includes('plain unsharded')).map((f) => [f.name, f] as const))(
    'issues the same cursor string again for %s',
    (_, f) => {
      expect(encode(f)).toBe(f.cursor);
    },
  );

  it.each(fixtures.refused.map((f) => [f.name, f] as const))('refuses %s with the same error', (_, f) => {
    let thrown: unknown;
    try {
      decode(f, f.argumentName);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error & { extensions?: { code?: string; argumentName?: string } };
    expect(error.message).toBe(f.error);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.extensions?.argumentName).toBe(f.argumentName);
  });
});
