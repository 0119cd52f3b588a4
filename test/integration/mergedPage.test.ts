/**
 * Merged pages over write-sharded GSI1 partitions against DynamoDB Local:
 * a course's students laid out in 1, 2, 7 and 64 shards page exactly as one
 * sorted list, forward and backward, with both cursors, for page sizes
 * 0..100 and collections smaller than the shard count; each page is one
 * wave of N Queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsBeyond, readRange } from '../../src/dynamo/collection.js';
import { courseStudentShards } from '../support/model.js';
import { enrollmentItem } from '../support/defaultItems.js';
import { metricsClient, OperationMetrics } from '../../src/dynamo/metrics.js';
import { sdkReads } from '../../src/dynamo/readPort.js';
import { operationReads } from '../../src/dynamo/leanReads/leanReads.js';
import { readConnection } from '../../src/connections/engine.js';
import { mergedShards } from '../../src/connections/mergedShards.js';
import type { CollectionReads } from '../../src/connections/singleCollection.js';
import { cursorReader } from '../../src/connections/cursor.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let reader: CollectionReads;

const sizes: Record<string, number> = { c1: 23, c2: 23, c7: 23, c64: 23, tiny: 3, empty: 0 };
const shardsOf: Record<string, number> = { c1: 1, c2: 2, c7: 7, c64: 64, tiny: 64, empty: 8 };
// Page sizes walked per course (a 64-shard page is 64 Queries: few sizes there keep the file fast).
const pageSizes: Record<string, number[]> = { c1: [2, 23, 100], c2: [3, 22], c7: [5, 23], c64: [12], tiny: [2, 100], empty: [20] };
const studentIds = (course: string) => Array.from({ length: sizes[course] }, (_, i) => `${course}-s${String((i * 7919) % 1000).padStart(3, '0')}`).sort();

beforeAll(async () => {
  gw = await testGateway();
  reader = {
    range: { load: (read) => readRange(sdkReads(gw.dynamo.doc), gw.tableName, read) },
    exists: { load: (q) => existsBeyond(sdkReads(gw.dynamo.doc), gw.tableName, q.collection, q.key, q.atOrAfter) },
  };
  const items = Object.keys(sizes).flatMap((course) =>
    studentIds(course).map((sid) =>
      enrollmentItem({
        studentId: sid,
        courseId: course,
        shards: shardsOf[course],
        enrolledAt: '2026-01-01T00:00:00.000Z',
        courseTitle: course,
        studentName: sid,
      }),
    ),
  );
  await gw.put(items);
});
afterAll(() => gw.stop());

const flag = async (f: boolean | (() => Promise<boolean>)) => (typeof f === 'function' ? f() : f);

async function page(course: string, args: Record<string, unknown>) {
  const merged = courseStudentShards(course, shardsOf[course]);
  const conn = await readConnection(
    mergedShards,
    merged,
    cursorReader(gw.deps.cursors),
    reader,
    args,
    (item) => ({ id: String(item.GSI1SK).slice(8) }),
    async () => 0,
  );
  return {
    ids: conn.edges.map((e) => e.id),
    hasNext: await flag(conn.pageInfo.hasNextPage),
    hasPrev: await flag(conn.pageInfo.hasPreviousPage),
    start: conn.pageInfo.startCursor,
    end: conn.pageInfo.endCursor,
    cursors: conn.edges.map((e) => e.cursor),
  };
}

describe('merged paging over sharded GSI1 partitions', () => {
  for (const course of Object.keys(sizes)) {
    it(`pages ${course} (${sizes[course]} students in ${shardsOf[course]} shards) exactly, forward and backward`, async () => {
      const expected = studentIds(course);
      for (const size of pageSizes[course]) {
        const forward: string[] = [];
        let after: string | null = null;
        for (;;) {
          const p = await page(course, { first: size, after });
          forward.push(...p.ids);
          expect(p.hasPrev).toBe(after !== null && forward.length > p.ids.length);
          if (!p.hasNext) break;
          expect(p.ids).toHaveLength(size);
          after = p.end;
        }
        expect(forward).toEqual(expected);
        const backward: string[] = [];
        let before: string | null = null;
        for (;;) {
          const p = await page(course, { last: size, before });
          backward.unshift(...p.ids);
          if (!p.hasPrev) break;
          expect(p.ids).toHaveLength(size);
          before = p.start;
        }
        expect(backward).toEqual(expected);
      }
      const zero = await page(course, { first: 0 });
      expect(zero.ids).toEqual([]);
      expect(zero.hasNext).toBe(expected.length > 0);
    });
  }

  it('serves a range between two cursors with exact flags on both sides', async () => {
    const all = await page('c7', { first: 23 });
    const inner = await page('c7', { first: 100, after: all.cursors[4], before: all.cursors[10] });
    expect(inner.ids).toEqual(all.ids.slice(5, 10));
    expect([inner.hasPrev, inner.hasNext]).toEqual([true, true]);
    const tail = await page('c7', { last: 3, after: all.cursors[4], before: all.cursors[10] });
    expect(tail.ids).toEqual(all.ids.slice(7, 10));
    expect([tail.hasPrev, tail.hasNext]).toEqual([true, true]);
    const end = await page('c7', { first: 5, after: all.cursors[17] });
    expect(end.ids).toEqual(all.ids.slice(18));
    expect(end.hasNext).toBe(false);
  });

  it('reads a page of N shards as N Queries in one wave, each asking for first + 1 items', async () => {
    const metrics = new OperationMetrics();
    // Counted through the operation's read port, as the gateway's context makes it.
    const plain = reader;
    const reads = operationReads(gw.dynamo.reads, metricsClient(gw.dynamo.doc, metrics), metrics);
    reader = {
      range: { load: (read) => readRange(reads, gw.tableName, read) },
      exists: { load: (q) => existsBeyond(reads, gw.tableName, q.collection, q.key, q.atOrAfter) },
    };
    const p = await page('c7', { first: 20 }).finally(() => (reader = plain));
    expect(p.ids).toHaveLength(20);
    expect(metrics.summary()).toMatchObject({ requests: 7, byOperation: { Query: 7 }, waves: 1, maxConcurrency: 7 });
  });
});
