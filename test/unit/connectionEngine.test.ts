/**
 * The connection engine over each of its sources, with in-memory reads (no
 * DynamoDB): cursors are encoded only when read and once each, a page cut
 * short by its read budget points its far cursor where the reads got to,
 * and a bad cursor is refused before any read.
 */
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/dynamo/batchGet.js';
import type { Collection, RangeRead } from '../../src/dynamo/collection.js';
import type { FilledRead, FilledResult } from '../../src/dynamo/filledRange.js';
import type { MergedCollection, RangeSource } from '../../src/plan/sources.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { cursorReader } from '../../src/connections/cursor.js';
import { cursorPosition, readConnection } from '../../src/connections/engine.js';
import { singleCollection, type CollectionReads } from '../../src/connections/singleCollection.js';
import { mergedShards } from '../../src/connections/mergedShards.js';
import { filledRange, type FilledReads } from '../../src/connections/filledRange.js';

/** A cursor reader over a codec that counts its signatures. */
function countingReader() {
  const codec = createCursorCodec({ current: 'unit-test-cursor-secret-0123456789abcdef' });
  const counts = { seal: 0 };
  const reader = cursorReader({ seal: (p) => (counts.seal++, codec.seal(p)), open: (t) => codec.open(t) });
  return { reader, counts };
}

const team: Collection = { name: 'Team.players', pkAttr: 'PK', skAttr: 'SK', pk: 'TEAM#t', prefix: 'PLAYER#', table: { pk: 'PK', sk: 'SK' } };
const players: Item[] = Array.from({ length: 8 }, (_, i) => ({ PK: 'TEAM#t', SK: `PLAYER#p${i}` }));

/** Reads of `items` (ascending) with readRange/existsBeyond semantics on the sort key, counting calls. */
function fakeReads(items: Item[], skAttr = 'SK') {
  const calls = { range: 0, exists: 0 };
  const reads: CollectionReads = {
    range: {
      load: async (read: RangeRead) => {
        calls.range++;
        const sk = (i: Item) => String(i[skAttr]);
        let rows = items.filter((i) => i[read.collection.pkAttr] === read.collection.pk);
        if (!read.forward) rows = [...rows].reverse();
        const dir = read.forward ? 1 : -1;
        if (read.exclusiveStart) rows = rows.filter((i) => dir * sk(i).localeCompare(read.exclusiveStart![skAttr]) > 0);
        if (read.bound) rows = rows.filter((i) => dir * sk(i).localeCompare(read.bound![skAttr]) < 0);
        return rows.slice(0, read.limit);
      },
    },
    exists: { load: async () => (calls.exists++, true) },
  };
  return { reads, calls };
}

const toEdge = (item: Item) => ({ node: { id: String(item.SK) } });

describe('the connection engine', () => {
  it('encodes no cursor for a page whose cursors are not read, and each read cursor once', async () => {
    const { reader, counts } = countingReader();
    const { reads } = fakeReads(players);
    const conn = await readConnection(singleCollection, team, reader, reads, { first: 5 }, toEdge, async () => 8);
    expect(conn.edges.map((e) => e.node.id)).toEqual(['PLAYER#p0', 'PLAYER#p1', 'PLAYER#p2', 'PLAYER#p3', 'PLAYER#p4']);
    expect(counts.seal).toBe(0);
    const cursor = conn.edges[4].cursor;
    expect(conn.edges[4].cursor).toBe(cursor);
    expect(conn.pageInfo.endCursor).toBe(cursor);
    expect(counts.seal).toBe(1);
    expect(conn.pageInfo.startCursor).toBe(conn.edges[0].cursor);
    expect(counts.seal).toBe(2);
    expect(cursorPosition(singleCollection, team, reader, cursor, 'after')).toEqual({ PK: 'TEAM#t', SK: 'PLAYER#p4' });
  });

  it('keeps cursors lazy on merged shards too, and reads each shard once', async () => {
    const { reader, counts } = countingReader();
    const merged: MergedCollection = {
      name: 'Team.fans',
      group: 'TEAM#t',
      shards: [0, 1].map((k) => ({
        name: 'Team.fans',
        index: 'GSI1',
        pkAttr: 'GSI1PK',
        skAttr: 'GSI1SK',
        pk: `TEAM#t#${k}`,
        prefix: 'FAN#',
        table: { pk: 'PK', sk: 'SK' },
      })),
    };
    const fans: Item[] = Array.from({ length: 6 }, (_, i) => ({ PK: `FAN#f${i}`, SK: 'TEAM#t', GSI1PK: `TEAM#t#${i % 2}`, GSI1SK: `FAN#f${i}` }));
    const { reads, calls } = fakeReads(fans, 'GSI1SK');
    const conn = await readConnection(
      mergedShards,
      merged,
      reader,
      reads,
      { first: 4 },
      (i) => ({ node: { id: String(i.PK) } }),
      async () => 6,
    );
    expect(conn.edges.map((e) => e.node.id)).toEqual(['FAN#f0', 'FAN#f1', 'FAN#f2', 'FAN#f3']);
    expect(calls).toEqual({ range: 2, exists: 0 });
    expect(counts.seal).toBe(0);
    const next = await readConnection(
      mergedShards,
      merged,
      reader,
      reads,
      { first: 4, after: conn.pageInfo.endCursor },
      (i) => ({ node: { id: String(i.PK) } }),
      async () => 6,
    );
    expect(counts.seal).toBe(1);
    expect(next.edges.map((e) => e.node.id)).toEqual(['FAN#f4', 'FAN#f5']);
  });

  it("points a short filled page's endCursor at where its reads stopped, not at its last edge", async () => {
    const { reader } = countingReader();
    const source: RangeSource = {
      name: 'Team.games',
      partition: 'TEAM#t',
      index: 'GSI2',
      pkAttr: 'GSI2PK',
      skAttr: 'GSI2SK',
      pk: 'TEAM#t#GAMES',
      lo: '0',
      hi: '~',
      filter: { expression: '#f0 = :f0', names: { '#f0': 'venue' }, values: { ':f0': 'home' } },
      binding: '[null,null,"home"]',
    };
    const shortRead = async (read: FilledRead): Promise<FilledResult> => ({
      items: [{ GSI2SK: '2026-01-01T00:00:00.000Z#g1' }],
      exhausted: false,
      budgetSpent: true,
      lastEvaluated: '2026-03-01T00:00:00.000Z#g9',
      consumedReadUnits: read.budget,
      evaluated: 40,
      requests: 3,
    });
    const shorts: number[][] = [];
    const reads: FilledReads = { filled: shortRead, budget: 10, short: (units, evaluated) => shorts.push([units, evaluated]) };
    const conn = await readConnection(
      filledRange,
      source,
      reader,
      reads,
      { first: 5 },
      (i) => ({ node: { id: String(i.GSI2SK) } }),
      async () => 0,
    );
    expect(conn.edges).toHaveLength(1);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(shorts).toEqual([[10, 40]]);
    expect(cursorPosition(filledRange, source, reader, conn.pageInfo.endCursor!, 'after')).toEqual({ GSI2SK: '2026-03-01T00:00:00.000Z#g9' });
    expect(cursorPosition(filledRange, source, reader, conn.edges[0].cursor, 'after')).toEqual({ GSI2SK: '2026-01-01T00:00:00.000Z#g1' });
    expect(() => cursorPosition(filledRange, { ...source, binding: '[null,null,"away"]' }, reader, conn.edges[0].cursor, 'after')).toThrow(
      '"after" is not a valid cursor for Team.games: it was issued for other arguments',
    );
  });

  it('refuses a cursor of another connection before any read', async () => {
    const { reader } = countingReader();
    const { reads, calls } = fakeReads(players);
    const page = await readConnection(singleCollection, team, reader, reads, { first: 2 }, toEdge, async () => 8);
    const other = { ...team, pk: 'TEAM#u' };
    await expect(readConnection(singleCollection, other, reader, reads, { after: page.pageInfo.endCursor }, toEdge, async () => 8)).rejects.toThrow(
      '"after" is not a valid cursor for Team.players: it was issued by another connection',
    );
    expect(calls).toEqual({ range: 1, exists: 0 });
  });
});
