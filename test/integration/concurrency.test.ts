/**
 * Hundreds of enroll/unenroll calls racing over a few students × courses,
 * with renames and a cascade delete in the middle of the race, while the
 * stream processor carries renames and the cascade to the edges. Once it has
 * caught up, the adjacency list must be whole: the base table and GSI1 hold
 * the same edge set, every counter equals the real number of edges, every copy
 * equals its entity's current name/title, and every failed call failed with
 * one of the documented error codes (docs/errors.md). TEST_DEPTH multiplies
 * the number of racing calls.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { courseItem, studentItem } from '../support/defaultItems.js';
import { testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH } from '../support/depth.js';

const gateways: TestGateway[] = [];
afterAll(() => Promise.all(gateways.map((g) => g.stop())));

/** A small seeded PRNG, so a failing interleaving of calls can be replayed. */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STUDENTS = ['s1', 's2', 's3', 'legacy'];
const COURSES = ['A', 'B', 'C', 'X'];
/** 16 student-course pairs: a hundred calls already collide on most of them. */
const CALLS = 100 * TEST_DEPTH;
const CONFLICT_CALLS = 50 * TEST_DEPTH;
/** DynamoDB Local commits some 30-40 transactions a second on 2 cores; far fewer on a busy machine. */
const RACE_TIMEOUT_MS = 120_000;
/**
 * Calls in flight at once. All calls are started together (Promise.all), but
 * DynamoDB Local (one JVM) accepts connections slowly: beyond about 50 open
 * sockets the client's 1 s connection timeout trips, which tests the test
 * machine rather than the gateway.
 */
const IN_FLIGHT = 40;

function limiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Races `calls` writes (plus renames and a cascade) on a fresh table, then checks the adjacency list is whole. */
async function raceAndCheck(gw: TestGateway, calls: number, seed: number) {
  {
    await gw.put([
      ...STUDENTS.filter((s) => s !== 'legacy').map((id) => studentItem({ id, name: `Student ${id}`, courseCount: 0 })),
      { PK: 'STUDENT#legacy', SK: 'PROFILE', name: 'No counter' },
      ...COURSES.map((id) => courseItem({ id, title: `Course ${id}`, studentCount: 0 })),
    ]);
    await gw.settle(); // starts the stream processor: it runs during the race

    const random = mulberry32(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    const limit = limiter(IN_FLIGHT);
    const run = (query: string, variables?: Record<string, unknown>) => limit(() => gw.run(query, variables));
    const pending: Promise<GqlResult>[] = [];
    for (let i = 0; i < calls; i++) {
      const s = pick(STUDENTS);
      const c = pick(COURSES);
      const op = random() < 0.6 ? 'enroll' : 'unenroll';
      const selection = op === 'enroll' ? '{ enrolledAt }' : '';
      pending.push(run(`mutation($s: ID!, $c: ID!) { ${op}(studentId: $s, courseId: $c) ${selection} }`, { s, c }));
      if (i % 60 === 30) {
        pending.push(
          run(`mutation($c: ID!, $t: String!) { updateCourse(id: $c, input: { title: $t }) { id } }`, { c: pick(['A', 'B', 'C']), t: `Title ${i}` }),
        );
        pending.push(run(`mutation($s: ID!, $n: String!) { updateStudent(id: $s, input: { name: $n }) { id } }`, { s: pick(STUDENTS), n: `Name ${i}` }));
      }
      if (i === Math.floor(calls / 2)) pending.push(run(`mutation { deleteCourse(id: "X") }`));
    }
    const results = await Promise.all(pending);
    await gw.settle();

    const failures = results.flatMap((r) => r.errors ?? []);
    for (const error of failures) {
      const { code, reason } = error.extensions ?? {};
      expect(code === 'CONFLICT' || code === 'NOT_FOUND' || (code === 'UNAVAILABLE' && reason === 'TRANSACTION_CONFLICT'), JSON.stringify(error)).toBe(true);
    }
    const succeeded = results.filter((r) => !r.errors).length;
    expect(succeeded).toBeGreaterThan(calls / 4);
    // The race really raced: some enrollments collided, some unenrollments found nothing.
    expect(failures.some((e) => e.extensions?.code === 'CONFLICT')).toBe(true);
    expect(failures.some((e) => e.extensions?.code === 'NOT_FOUND')).toBe(true);
    expect(results.find((r) => r.data && 'deleteCourse' in r.data)?.data).toEqual({ deleteCourse: 'X' });

    const items = await gw.scan();
    const entity = (pk: string) => items.find((i) => i.PK === pk && i.SK === 'PROFILE');
    const baseEdges = items.filter((i) => String(i.PK).startsWith('STUDENT#') && String(i.SK).startsWith('COURSE#'));
    const baseSet = baseEdges.map((e) => `${e.PK}|${e.SK}`).sort();

    const gsiSet: string[] = [];
    for (const c of COURSES) {
      const out = await gw.dynamo.doc.send(
        new QueryCommand({
          TableName: gw.tableName,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :s)',
          ExpressionAttributeValues: { ':pk': `COURSE#${c}`, ':s': 'STUDENT#' },
        }),
      );
      for (const e of out.Items ?? []) gsiSet.push(`${e.GSI1SK}|${e.GSI1PK}`);
    }
    expect(gsiSet.sort()).toEqual(baseSet);
    expect(baseEdges.length).toBeGreaterThan(0);

    // The deleted course left nothing behind.
    expect(entity('COURSE#X')).toBeUndefined();
    expect(baseEdges.filter((e) => e.SK === 'COURSE#X')).toEqual([]);

    for (const s of STUDENTS) {
      const count = baseEdges.filter((e) => e.PK === `STUDENT#${s}`).length;
      if (s === 'legacy') expect(entity('STUDENT#legacy')).not.toHaveProperty('courseCount');
      else expect(entity(`STUDENT#${s}`)?.courseCount, `courseCount of ${s}`).toBe(count);
    }
    for (const c of ['A', 'B', 'C']) {
      const count = baseEdges.filter((e) => e.SK === `COURSE#${c}`).length;
      expect(entity(`COURSE#${c}`)?.studentCount, `studentCount of ${c}`).toBe(count);
    }
    for (const e of baseEdges) {
      expect(e.courseTitle).toBe(entity(String(e.GSI1PK))?.title);
      expect(e.studentName).toBe(entity(String(e.PK))?.name);
    }
    // Every rename finished propagating.
    expect(items.filter((i) => i.SK === 'PROFILE' && 'propagatingSince' in i)).toEqual([]);
  }
}

describe('racing writes', () => {
  it(
    'keep base table, GSI1, counters and copies consistent and fail only with documented error codes',
    async () => {
      const gw = await testGateway();
      gateways.push(gw);
      await raceAndCheck(gw, CALLS, 20261129);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'stay consistent when a quarter of all transactions are cancelled by (injected) TransactionConflicts',
    async () => {
      const gw = await testGateway();
      gateways.push(gw);
      const random = mulberry32(7);
      let injected = 0;
      // Cancelled before it is sent, as DynamoDB cancels a conflicting transaction: nothing of it is written.
      gw.dynamo.raw.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'TransactWriteItemsCommand' && random() < 0.25) {
            injected++;
            const items = (args.input as { TransactItems: unknown[] }).TransactItems;
            throw new TransactionCanceledException({
              message: 'Transaction cancelled (injected)',
              $metadata: { httpStatusCode: 400 },
              CancellationReasons: items.map((_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
            });
          }
          return next(args);
        },
        { step: 'initialize', name: 'injectTransactionConflicts' },
      );
      await raceAndCheck(gw, CONFLICT_CALLS, 99);
      expect(injected).toBeGreaterThan(CONFLICT_CALLS / 10);
    },
    RACE_TIMEOUT_MS,
  );
});
