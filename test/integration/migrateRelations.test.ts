/**
 * `npm run migrate` adds what the declaration derives from other items:
 * the copies on edges (with their versions), the shard-count copy on edges
 * leading to a write-sharded parent, and counters. On a table whose enrollments
 * another program wrote (keys and enrolledAt only), the nested operation
 * student → 10 courses → their students costs 13 requests, and 12 once the
 * shard-count copies are there; the gateway answers the same throughout,
 * and a count is never lost to enrollments made while it is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../src/dynamo/batchGet.js';
import { runMigration } from '../../src/migration/migrate.js';
import { COUNTING_ATTR, COUNTING_LEASE_MS } from '../../src/writes/conditions.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const pad = (n: number) => String(n).padStart(3, '0');
const COURSES = 10;
// Ten courses make the ten Queries of the nested operation; two students more in each keep the table small.
const PER_COURSE = 2;

/** Student "ten" takes all ten courses; course kI also has students s(2I) and s(2I+1). No counters, no copies. */
function firstRoundItems(): Item[] {
  const items: Item[] = [{ PK: 'STUDENT#ten', SK: 'PROFILE', name: 'Ten Courses', email: 'ten@example.com' }];
  for (let k = 0; k < COURSES; k++) {
    items.push({ PK: `COURSE#k${k}`, SK: 'PROFILE', title: `Course ${k}` });
    const members = [...Array.from({ length: PER_COURSE }, (_, j) => `s${pad(PER_COURSE * k + j)}`), 'ten'];
    for (const sid of members) {
      if (sid !== 'ten') items.push({ PK: `STUDENT#${sid}`, SK: 'PROFILE', name: `Student ${sid}`, email: `${sid}@example.com` });
      items.push({ PK: `STUDENT#${sid}`, SK: `COURSE#k${k}`, GSI1PK: `COURSE#k${k}`, GSI1SK: `STUDENT#${sid}`, enrolledAt: '2026-01-01T00:00:00.000Z' });
    }
  }
  // A customer whose orders another program placed: no orderCount.
  items.push({ PK: 'CUSTOMER#cu', SK: 'PROFILE', name: 'Buyer' });
  for (let i = 0; i < 3; i++)
    items.push({ PK: 'CUSTOMER#cu', SK: `ORDER#o${i}`, GSI1PK: `ORDER#o${i}`, GSI1SK: 'CUSTOMER#cu', placedAt: '2026-01-02T00:00:00.000Z', total: i });
  return items;
}

const EDGES = COURSES * (PER_COURSE + 1);
const STUDENTS = COURSES * PER_COURSE + 1;

const NESTED = `{ student(id: "ten") { courses(first: 10) { edges { node { title
  students(first: 10) { edges { node { name email } } } } } } } }`;
/** Generous: the migration runs against the shared DynamoDB Local of a loaded machine. */
const PATIENT = patience(180_000);

let gw: TestGateway;
let options: Parameters<typeof runMigration>[0];
beforeAll(async () => {
  gw = await testGateway();
  options = {
    raw: gw.dynamo.raw,
    doc: gw.dynamo.doc,
    tableName: gw.tableName,
    plan: gw.plan,
    segments: 2,
    writeUnitsPerSecond: 100_000,
    pageSize: 25,
    indexSettleMs: 0,
  };
  await gw.put(firstRoundItems());
});
afterAll(() => gw.stop());

describe('npm run migrate backfills copies, shard-count copies and counters', () => {
  let before: { data: unknown; requests: number };

  it(
    'reports them in a dry run and writes nothing',
    async () => {
      const { result, requests } = await gw.counted(NESTED);
      expect(result.errors).toBeUndefined();
      // 1 Query (the courses), 1 BatchGetItem (the course items: no title copy, no shard-count copy), 10 Queries, 1 BatchGetItem.
      expect(requests.summary()).toMatchObject({ requests: 13, byOperation: { Query: 11, BatchGetItem: 2 } });
      before = { data: result.data, requests: 13 };

      const scanned = await gw.scan();
      const dry = await runMigration({ ...options, dryRun: true });
      // Each edge lacks two copies (courseTitle, studentName) and courseShards; every student, course and the customer a counter.
      expect(dry.byKind).toMatchObject({ 'edge-copy': 2 * EDGES, 'edge-shards': EDGES, counter: STUDENTS + COURSES + 1 });
      expect(dry.writeUnits).toBe(0);
      expect(await gw.scan()).toEqual(scanned);
    },
    PATIENT,
  );

  it(
    'writes what a write would have and the nested operation drops from 13 requests to 12 with the same answer',
    async () => {
      const result = await runMigration(options);
      expect(result).toMatchObject({ skipped: 0, byKind: { 'edge-copy': 2 * EDGES, 'edge-shards': EDGES, counter: STUDENTS + COURSES + 1 } });

      const items = await gw.scan();
      const edges = items.filter((i) => String(i.PK).startsWith('STUDENT#') && String(i.SK).startsWith('COURSE#'));
      expect(edges).toHaveLength(EDGES);
      for (const edge of edges) {
        const course = String(edge.SK).slice('COURSE#k'.length);
        const student = String(edge.PK).slice('STUDENT#'.length);
        // The versions the write path uses: an item never renamed is at version 0.
        expect(edge).toMatchObject({
          courseTitle: `Course ${course}`,
          courseTitleVersion: 0,
          studentName: student === 'ten' ? 'Ten Courses' : `Student ${student}`,
          studentNameVersion: 0,
          courseShards: 1,
        });
      }
      expect(await gw.get('STUDENT#ten', 'PROFILE')).toMatchObject({ courseCount: COURSES });
      expect(await gw.get('STUDENT#s000', 'PROFILE')).toMatchObject({ courseCount: 1 });
      expect(await gw.get('COURSE#k3', 'PROFILE')).toMatchObject({ studentCount: PER_COURSE + 1 });
      expect(await gw.get('CUSTOMER#cu', 'PROFILE')).toMatchObject({ orderCount: 3 });
      expect(items.filter((i) => i[COUNTING_ATTR] !== undefined)).toEqual([]);

      const { result: after, requests } = await gw.counted(NESTED);
      expect(after.errors).toBeUndefined();
      expect(after.data).toEqual(before.data);
      expect(requests.summary()).toMatchObject({ requests: 12, byOperation: { Query: 11, BatchGetItem: 1 } });
    },
    PATIENT,
  );

  it(
    'changes nothing when run again',
    async () => {
      const again = await runMigration(options);
      expect(again).toMatchObject({ changed: 0, skipped: 0, writeUnits: 0 });
    },
    PATIENT,
  );
});

describe('a counter counted while the gateway writes', () => {
  it('refuses a write that would move a counter being counted, and ignores a mark older than the lease', async () => {
    await gw.put([
      { PK: 'STUDENT#m1', SK: 'PROFILE', name: 'Marked', [COUNTING_ATTR]: new Date().toISOString() },
      { PK: 'STUDENT#m2', SK: 'PROFILE', name: 'Stale mark', [COUNTING_ATTR]: new Date(Date.now() - 2 * COUNTING_LEASE_MS).toISOString() },
      { PK: 'COURSE#mc', SK: 'PROFILE', title: 'Counted', studentCount: 0 },
    ]);
    const enroll = (sid: string) => gw.run(`mutation { enroll(studentId: "${sid}", courseId: "mc") { enrolledAt } }`);
    const refused = await enroll('m1');
    expect(codes(refused)).toEqual(['UNAVAILABLE']);
    expect(refused.errors?.[0].extensions?.reason).toBe('TRANSACTION_CONFLICT');
    expect(await gw.get('STUDENT#m1', 'COURSE#mc')).toBeUndefined();
    expect((await enroll('m2')).errors).toBeUndefined();
    expect(await gw.get('COURSE#mc', 'PROFILE')).toMatchObject({ studentCount: 1 });
    // Counted, so that the next test's migration finds only its own students to count.
    await gw.put([
      { PK: 'STUDENT#m1', SK: 'PROFILE', name: 'Marked', courseCount: 0 },
      { PK: 'STUDENT#m2', SK: 'PROFILE', name: 'Stale mark', courseCount: 1 },
    ]);
  });

  it(
    'ends with counters equal to the edges when enrollments race the migration',
    async () => {
      const students = Array.from({ length: 12 }, (_, i) => `r${pad(i)}`);
      await gw.put([
        ...students.map((sid) => ({ PK: `STUDENT#${sid}`, SK: 'PROFILE', name: `Racer ${sid}` })),
        // Each course already holds one enrollment (counted); the racers' enrollments are not counted on their side.
        ...Array.from({ length: 6 }, (_, k) => ({ PK: `COURSE#rc${k}`, SK: 'PROFILE', title: `Race ${k}`, studentCount: 1 })),
        ...students.slice(0, 6).map((sid, k) => ({
          PK: `STUDENT#${sid}`,
          SK: `COURSE#rc${k}`,
          GSI1PK: `COURSE#rc${k}`,
          GSI1SK: `STUDENT#${sid}`,
          enrolledAt: '2026-01-01T00:00:00.000Z',
        })),
      ]);

      const racing = (async () => {
        let enrolled = 0;
        // Each racer enrolls in the next course; a write refused while its student is being counted is tried again.
        for (const [i, sid] of students.entries()) {
          for (let attempt = 0; attempt < 50; attempt++) {
            const out = await gw.run(`mutation { enroll(studentId: "${sid}", courseId: "rc${(i + 1) % 6}") { enrolledAt } }`);
            if (out.errors === undefined) {
              enrolled++;
              break;
            }
            expect(out.errors[0].extensions?.reason).toBe('TRANSACTION_CONFLICT');
          }
        }
        return enrolled;
      })();
      const result = await runMigration({ ...options, pageSize: 5, segments: 3 });
      expect(await racing).toBe(students.length);
      expect(result.byKind.counter).toBe(students.length);
      const items = await gw.scan();
      for (const sid of students) {
        const edges = items.filter((i) => i.PK === `STUDENT#${sid}` && String(i.SK).startsWith('COURSE#')).length;
        expect(items.find((i) => i.PK === `STUDENT#${sid}` && i.SK === 'PROFILE')).toMatchObject({ courseCount: edges });
      }
    },
    PATIENT,
  );
});
