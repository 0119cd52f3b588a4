/**
 * Cursors already in clients' hands keep working: the fixtures
 * (test/fixtures/cursors-v2.json) were issued by the gateway's code before
 * its connections shared one cursor codec and one engine (three engines,
 * each with its own cursor code), under a fixed secret. Each must decode to
 * the same position today, be issued again byte for byte from that
 * position, and each refused one must be refused with the same message.
 * A filled range's fixture holds its position as the bare sort key the old
 * code returned.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { cursorReader } from '../../src/connections/cursor.js';
import { cursorOf, cursorPosition, type Source } from '../../src/connections/engine.js';
import { singleCollection } from '../../src/connections/singleCollection.js';
import { filledRange } from '../../src/connections/filledRange.js';
import { mergedShards } from '../../src/connections/mergedShards.js';

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
// The fixtures were issued on a table keyed on PK/SK; collections now name the table's keys themselves.
const PK_SK = { pk: 'PK', sk: 'SK' };
for (const f of [...fixtures.issued, ...fixtures.refused]) {
  if (f.kind === 'collection') f.target.table = PK_SK;
  if (f.kind === 'shards') for (const shard of f.target.shards as Record<string, unknown>[]) shard.table = PK_SK;
}
const reader = () => cursorReader(createCursorCodec({ current: fixtures.secret }));

// Every source of the engine, by the fixture's kind.
const sources = { collection: singleCollection, range: filledRange, shards: mergedShards } as unknown as Record<
  Fixture['kind'],
  Source<Record<string, unknown>, never, never>
>;

/** The position a fixture's cursor decodes to, in the fixture's form. */
function decode(f: Fixture, argumentName: string): unknown {
  const position = cursorPosition(sources[f.kind], f.target, reader(), f.cursor, argumentName);
  return f.kind === 'range' ? position[f.target.skAttr as string] : position;
}

/** The position a fixture holds, as the engine's positions are. */
const positionOf = (f: Issued): Record<string, string> =>
  f.kind === 'range' ? { [f.target.skAttr as string]: f.decoded as string } : (f.decoded as Record<string, string>);

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
      expect(cursorOf(sources[f.kind], f.target, reader(), positionOf(f))).toBe(f.cursor);
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
