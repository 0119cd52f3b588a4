/**
 * The merge of N shard reads into one Relay page, against an in-memory
 * fake of the range and exists reads (no DynamoDB): every edge exactly once
 * in ascending order, exact page flags, one wave of N reads per page.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Item } from '../../src/dynamo/batchGet.js';
import type { Collection, RangeRead, StartKey } from '../../src/dynamo/collection.js';
import type { MergedCollection } from '../../src/plan/sources.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { cursorReader } from '../../src/connections/cursor.js';
import { cursorOf, cursorPosition, planPage, readConnection } from '../../src/connections/engine.js';
import { compareKeyStrings, mergedShards } from '../../src/connections/mergedShards.js';
import { singleCollection, type CollectionReads } from '../../src/connections/singleCollection.js';

const codec = cursorReader(createCursorCodec({ current: 'unit-test-cursor-secret-0123456789abcdef' }));

const shard = (group: string, k: number, n: number): Collection => ({
  name: 'Course.students',
  index: 'GSI1',
  pkAttr: 'GSI1PK',
  skAttr: 'GSI1SK',
  pk: n === 1 ? group : `${group}#${k}`,
  prefix: 'STUDENT#',
  table: { pk: 'PK', sk: 'SK' },
});

const merged = (n: number, group = 'COURSE#c'): MergedCollection => ({
  name: 'Course.students',
  group,
  shards: Array.from({ length: n }, (_, k) => shard(group, k, n)),
});

/** Items of a course whose students are spread over the shards by `place`. */
function table(ids: string[], n: number, place: (id: string) => number, group = 'COURSE#c'): Item[] {
  return ids.map((id) => ({
    PK: `STUDENT#${id}`,
    SK: 'COURSE#c',
    GSI1PK: n === 1 ? group : `${group}#${place(id)}`,
    GSI1SK: `STUDENT#${id}`,
  }));
}

const cmp = (a: Item, b: Item) => compareKeyStrings(String(a.GSI1SK), String(b.GSI1SK)) || compareKeyStrings(String(a.PK), String(b.PK));

/** readRange/existsBeyond semantics over an in-memory table, counting calls. */
function fakeReader(items: Item[]) {
  const calls = { range: 0, exists: 0 };
  const pos = (k: StartKey) => ({ GSI1SK: k.GSI1SK, PK: k.PK }) as Item;
  const reader: CollectionReads = {
    range: {
      load: async (read: RangeRead) => {
        calls.range++;
        const c = read.collection;
        let rows = items.filter((i) => i[c.pkAttr] === c.pk && String(i[c.skAttr]).startsWith(c.prefix)).sort(cmp);
        if (!read.forward) rows.reverse();
        const dir = read.forward ? 1 : -1;
        if (read.exclusiveStart) rows = rows.filter((i) => dir * cmp(i, pos(read.exclusiveStart!)) > 0);
        if (read.bound) rows = rows.filter((i) => dir * cmp(i, pos(read.bound!)) < 0);
        return rows.slice(0, read.limit);
      },
    },
    exists: {
      load: async ({ collection: c, key, atOrAfter }) => {
        calls.exists++;
        return items.some(
          (i) =>
            i[c.pkAttr] === c.pk &&
            String(i[c.skAttr]).startsWith(c.prefix) &&
            (atOrAfter ? compareKeyStrings(String(i[c.skAttr]), key[c.skAttr]) >= 0 : compareKeyStrings(String(i[c.skAttr]), key[c.skAttr]) <= 0),
        );
      },
    },
  };
  return { reader, calls };
}

const toEdge = (item: Item) => ({ id: String(item.PK).slice('STUDENT#'.length) });
const flag = async (f: boolean | (() => Promise<boolean>)) => (typeof f === 'function' ? f() : f);

async function page(m: MergedCollection, reader: CollectionReads, args: Record<string, unknown>) {
  const conn = await readConnection(mergedShards, m, codec, reader, args, toEdge, async () => 0);
  return {
    ids: conn.edges.map((e) => e.id),
    cursors: conn.edges.map((e) => e.cursor),
    hasNext: await flag(conn.pageInfo.hasNextPage),
    hasPrev: await flag(conn.pageInfo.hasPreviousPage),
    start: conn.pageInfo.startCursor,
    end: conn.pageInfo.endCursor,
  };
}

/** Walks the whole connection forward (or backward) with pages of `size`; every id in order. */
async function walk(m: MergedCollection, reader: CollectionReads, size: number, forward: boolean) {
  const seen: string[] = [];
  const lengths: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const p = await page(m, reader, forward ? { first: size, after: cursor } : { last: size, before: cursor });
    if (forward) seen.push(...p.ids);
    else seen.unshift(...p.ids);
    lengths.push(p.ids.length);
    const more = forward ? p.hasNext : p.hasPrev;
    if (!more || size === 0) {
      // Never a short page while more remain: every page but the last is full.
      expect(lengths.slice(0, -1)).toEqual(lengths.slice(0, -1).map(() => size));
      return { seen, last: p };
    }
    cursor = forward ? p.end : p.start;
  }
  throw new Error('did not finish');
}

describe('merged pages over shards', () => {
  it('pages every student exactly once, in order, forward and backward, for any ids, shard counts and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 4, unit: 'grapheme' }).filter((s) => !s.includes('#')),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        async (ids, n, size, seed) => {
          const m = merged(n);
          const { reader } = fakeReader(table(ids, n, (id) => (id.length * 7 + id.charCodeAt(0) + seed) % n));
          const expected = [...ids].sort((a, b) => compareKeyStrings(`STUDENT#${a}`, `STUDENT#${b}`));
          expect((await walk(m, reader, size, true)).seen).toEqual(expected);
          expect((await walk(m, reader, size, false)).seen).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads each shard once per page with at most first + 1 items, all in one wave', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    const m = merged(7);
    const { reader, calls } = fakeReader(table(ids, 7, (id) => Number(id.slice(1)) % 7));
    const plan = planPage(mergedShards, m, codec, { first: 5 });
    expect(plan.reads).toHaveLength(7);
    expect(plan.reads.every((r) => r.limit === 6 && r.forward && !r.exclusiveStart && !r.bound)).toBe(true);
    const first = await page(m, reader, { first: 5 });
    expect(first.ids).toEqual(['s00', 's01', 's02', 's03', 's04']);
    expect(first.hasNext).toBe(true);
    expect(first.hasPrev).toBe(false);
    expect(calls).toEqual({ range: 7, exists: 0 });
  });

  it('answers hasPreviousPage after a cursor with one Limit-1 check per shard, only when asked', async () => {
    const ids = ['a', 'b', 'c', 'd'];
    const m = merged(3);
    const { reader, calls } = fakeReader(table(ids, 3, (id) => id.charCodeAt(0) % 3));
    const first = await page(m, reader, { first: 2 });
    calls.range = 0;
    const conn = await readConnection(mergedShards, m, codec, reader, { first: 2, after: first.end }, toEdge, async () => 0);
    expect(conn.edges.map((e) => e.id)).toEqual(['c', 'd']);
    expect(calls).toEqual({ range: 3, exists: 0 });
    expect(await flag(conn.pageInfo.hasNextPage)).toBe(false);
    expect(await flag(conn.pageInfo.hasPreviousPage)).toBe(true);
    expect(calls.exists).toBe(3);
  });

  it('keeps hasNextPage exact on the last page (never true when the next page would be empty)', async () => {
    const ids = ['a', 'b', 'c', 'd'];
    const m = merged(4);
    const { reader } = fakeReader(table(ids, 4, (id) => id.charCodeAt(0) % 4));
    const p = await page(m, reader, { first: 4 });
    expect(p.ids).toEqual(ids);
    expect(p.hasNext).toBe(false);
  });

  it('serves first with before and last with after as bounded ranges', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const m = merged(2);
    const { reader } = fakeReader(table(ids, 2, (id) => id.charCodeAt(0) % 2));
    const all = await page(m, reader, { first: 6 });
    const [ca, , , , ce] = all.cursors;
    const between = await page(m, reader, { first: 10, after: ca, before: ce });
    expect(between.ids).toEqual(['b', 'c', 'd']);
    expect(between.hasNext).toBe(true);
    expect(between.hasPrev).toBe(true);
    const tail = await page(m, reader, { last: 2, after: ca, before: ce });
    expect(tail.ids).toEqual(['c', 'd']);
    expect(tail.hasPrev).toBe(true);
  });

  it('keeps an item seen in two shards once (moved while the wave was in flight)', async () => {
    const m = merged(2);
    const items = table(['a', 'b', 'c'], 2, () => 0);
    items.push({ ...items[1], GSI1PK: 'COURSE#c#1' });
    const { reader } = fakeReader(items);
    const p = await page(m, reader, { first: 3 });
    expect(p.ids).toEqual(['a', 'b', 'c']);
    expect(p.hasNext).toBe(false);
  });

  it('orders keys as DynamoDB does (UTF-8 bytes), not as JavaScript compares UTF-16', () => {
    expect(compareKeyStrings('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFFFD').toBe(true);
    expect(compareKeyStrings('a', 'ab')).toBeLessThan(0);
    expect(compareKeyStrings('b', 'ab')).toBeGreaterThan(0);
  });
});

describe('merged cursors', () => {
  it('survive a change of shard count: a position names no shard', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const eight = fakeReader(table(ids, 8, (id) => id.charCodeAt(0) % 8)).reader;
    const one = fakeReader(table(ids, 1, () => 0)).reader;
    const p = await page(merged(8), eight, { first: 2 });
    const q = await page(merged(1), one, { first: 2, after: p.end });
    expect(q.ids).toEqual(['c', 'd']);
  });

  it("accept a start key the unsharded connection issued, and refuse another group's or another connection's", () => {
    const unsharded = merged(1).shards[0];
    const key = { PK: 'STUDENT#a', SK: 'COURSE#c', GSI1PK: 'COURSE#c', GSI1SK: 'STUDENT#a' };
    expect(cursorPosition(mergedShards, merged(8), codec, cursorOf(singleCollection, unsharded, codec, key), 'after')).toEqual({
      GSI1SK: 'STUDENT#a',
      PK: 'STUDENT#a',
      SK: 'COURSE#c',
    });
    const otherGroup = cursorOf(mergedShards, merged(2, 'COURSE#d'), codec, { GSI1SK: 'STUDENT#a', PK: 'STUDENT#a', SK: 'COURSE#d' });
    expect(() => planPage(mergedShards, merged(2), codec, { after: otherGroup })).toThrow(/another connection/);
    const foreign = cursorOf(singleCollection, { ...unsharded, name: 'Student.courses' }, codec, key);
    expect(() => planPage(mergedShards, merged(2), codec, { before: foreign })).toThrow(/another connection/);
  });

  it('refuse tampered, malformed and out-of-prefix positions before any read', () => {
    const m = merged(4);
    const good = cursorOf(mergedShards, m, codec, { GSI1SK: 'STUDENT#a', PK: 'STUDENT#a', SK: 'COURSE#c' });
    expect(() => planPage(mergedShards, m, codec, { after: good.slice(0, -2) + 'xx' })).toThrow(/signature/);
    const sealed = (k: unknown) => codec.seal(JSON.stringify({ v: 2, c: 'Course.students', p: 'COURSE#c', i: 'GSI1', k }));
    expect(() => planPage(mergedShards, m, codec, { after: sealed({ GSI1SK: 'STUDENT#a', PK: 'STUDENT#a' }) })).toThrow(/malformed/);
    expect(() => planPage(mergedShards, m, codec, { after: sealed({ GSI1SK: 'STUDENT#a', PK: 'STUDENT#a', SK: 1 }) })).toThrow(/malformed/);
    expect(() => planPage(mergedShards, m, codec, { after: sealed({ GSI1SK: 'ORDER#a', PK: 'STUDENT#a', SK: 'COURSE#c' }) })).toThrow(/another connection/);
    expect(() => planPage(mergedShards, m, codec, { after: sealed({ GSI1SK: 'STUDENT#a', PK: 'S', SK: 'C', GSI1PK: 'COURSE#cx' }) })).toThrow(
      /another connection/,
    );
    expect(() => planPage(mergedShards, m, codec, { first: 101 })).toThrow(/between 0 and 100/);
  });
});
