/**
 * Marks of work that stopped, as `npm run check` finds and finishes them
 * (examples/library.graphql, on a table whose stream nobody processes
 * here): a rename's mark older than the window, with its copies behind;
 * a count's mark older than its lease, with the counter missing (what a
 * killed migrate leaves); a delete's mark older than the window, of a
 * top-level item and of a child. A mark within its window or lease is
 * work under way: left to it. `--repair` finishes each with the code that
 * set it out to do the work, and a second check finds nothing.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type CheckOptions } from '../../src/migration/check.js';
import { COUNTING_LEASE_MS } from '../../src/writes/conditions.js';
import { countingDoc } from '../support/countingDoc.js';
import { checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/library.graphql', import.meta.url));
const HOUR_AGO = () => new Date(Date.now() - 3_600_000).toISOString();

let gw: TestGateway;
let options: CheckOptions;
async function ok<T = any>(query: string): Promise<T> {
  const result = await gw.run<T>(query);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}
/** Rewrites the item at `PK`/`SK` with `change` (undefined removes an attribute): another program's write. */
async function edit(PK: string, SK: string, change: Record<string, unknown>) {
  const item = { ...(await gw.get(PK, SK))!, ...change };
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete item[k];
  await gw.put([item]);
}
const count = (kind: string, report: Awaited<ReturnType<typeof runCheck>>) => report.findings[kind as keyof typeof report.findings].count;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  options = checkOptionsOf(gw);
  await ok(`mutation { createLibrary(input: { id: "central", name: "Central" }) { id } }`);
  for (const [id, title] of [
    ['dune', 'Dune'],
    ['emma', 'Emma'],
    ['ulysses', 'Ulysses'],
  ]) {
    await ok(`mutation { addBook(library: "central", input: { id: "${id}", title: "${title}", author: "Someone" }) { id } }`);
  }
  for (const m of ['ann', 'bo', 'cy']) {
    await ok(`mutation { join(input: { id: "${m}", name: "Member ${m}" }) { id } }`);
    await ok(`mutation { reserve(book: "dune", member: "${m}") { reservedAt } }`);
  }
  expect((await runCheck(options)).found).toBe(0);
});
afterAll(() => gw?.stop());

describe("a rename's mark", () => {
  it('older than the window: reported with the copies behind it, and finished by --repair', async () => {
    // Renamed an hour ago; the stream record never processed (a dead letter that expired, say).
    await edit('LIB#central', 'BOOK#dune', { title: 'Dune Messiah', titleVersion: 1, propagatingSince: HOUR_AGO() });
    // Renamed a moment ago: the processor is on it.
    await ok(`mutation { reserve(book: "emma", member: "ann") { reservedAt } }`);
    await edit('LIB#central', 'BOOK#emma', { title: 'Emma II', titleVersion: 1, propagatingSince: new Date().toISOString() });

    const { doc, sent } = countingDoc(gw.dynamo.doc);
    const report = await runCheck({ ...options, doc });
    expect(count('staleMarks', report)).toBe(1);
    expect(report.findings.staleMarks.samples[0]).toMatchObject({
      key: { PK: 'LIB#central', SK: 'BOOK#dune' },
      detail: expect.stringContaining('propagatingSince'),
    });
    // Dune's three copies; Emma's, whose rename is under way, is left to the processor.
    expect(count('staleCopies', report)).toBe(3);
    expect(report.found).toBe(4);
    // As before marks were judged: one Scan page, a GSI1 Query per distinct book and one per counted collection, the sources in one BatchGetItem.
    expect(sent).toEqual({ Scan: 1, Query: 12, BatchGet: 1 });

    const repaired = await runCheck({ ...options, repair: true });
    expect(repaired.repaired).toMatchObject({ copies: 3, marks: 1 });
    const edges = (await gw.scan()).filter((i) => i.PK === 'BOOK#dune#RESERVED');
    expect(edges.map((e) => [e.bookTitle, e.bookTitleVersion])).toEqual([
      ['Dune Messiah', 1],
      ['Dune Messiah', 1],
      ['Dune Messiah', 1],
    ]);
    expect(await gw.get('LIB#central', 'BOOK#dune')).not.toHaveProperty('propagatingSince');
    expect((await runCheck(options)).found).toBe(0);
  });
});

describe("a count's mark", () => {
  it('older than its lease, the counter missing: reported and counted by --repair; within its lease: reported, left to the count', async () => {
    // What a migrate killed mid-count leaves: the mark, no counter.
    await edit('MEMBER#cy', 'MEMBER', {
      reservationCount: undefined,
      countingSince: new Date(Date.now() - 2 * COUNTING_LEASE_MS).toISOString(),
      countingBy: 'dead#1',
    });
    await edit('MEMBER#bo', 'MEMBER', { reservationCount: undefined, countingSince: new Date().toISOString(), countingBy: 'live#1' });
    const report = await runCheck(options);
    expect(count('staleMarks', report)).toBe(1);
    expect(report.findings.staleMarks.samples[0]).toMatchObject({ key: { PK: 'MEMBER#cy', SK: 'MEMBER' }, detail: expect.stringContaining('countingSince') });
    expect(report.findings.wrongCounters.samples).toEqual(
      expect.arrayContaining([
        { key: { PK: 'MEMBER#cy', SK: 'MEMBER' }, detail: 'reservationCount is null, Member.reservations counts 1' },
        {
          key: { PK: 'MEMBER#bo', SK: 'MEMBER' },
          detail: expect.stringMatching(/^reservationCount is null, Member.reservations counts 1; being counted since /),
        },
      ]),
    );

    const repaired = await runCheck({ ...options, repair: true });
    expect(repaired.repaired.counters).toBe(1);
    const cy = await gw.get('MEMBER#cy', 'MEMBER');
    expect(cy).toMatchObject({ reservationCount: 1 });
    expect(cy).not.toHaveProperty('countingSince');
    expect(cy).not.toHaveProperty('countingBy');
    // The live count is not touched.
    expect(await gw.get('MEMBER#bo', 'MEMBER')).toMatchObject({ countingBy: 'live#1' });
    await edit('MEMBER#bo', 'MEMBER', { reservationCount: 1, countingSince: undefined, countingBy: undefined });
    expect((await runCheck(options)).found).toBe(0);
  });
});

describe("a delete's mark older than the window", () => {
  it('of a top-level item and of a child: reported, and their cascades finished by --repair with the counters at the other ends', async () => {
    await ok(`mutation { addCopy(book: "ulysses", input: { id: "u1", shelf: "A1" }) { id } }`);
    await ok(`mutation { reserve(book: "ulysses", member: "ann") { reservedAt } }`);
    // Bo's delete marked an hour ago, its reservation still there; Ulysses (a child, with a copy and a reservation) likewise.
    await edit('MEMBER#bo', 'MEMBER', { deletingAt: HOUR_AGO(), reservationCount: undefined });
    await edit('LIB#central', 'BOOK#ulysses', { deletingAt: HOUR_AGO(), copyCount: undefined, reservationCount: undefined });
    const report = await runCheck(options);
    expect(count('staleMarks', report)).toBe(2);
    expect(report.findings.staleMarks.samples.map((s) => s.detail)).toEqual([expect.stringContaining('deletingAt'), expect.stringContaining('deletingAt')]);

    const repaired = await runCheck({ ...options, repair: true });
    expect(repaired.repaired.marks).toBe(2);
    expect(await gw.get('MEMBER#bo', 'MEMBER')).toBeUndefined();
    expect(await gw.get('BOOK#dune#RESERVED', 'MEMBER#bo')).toBeUndefined();
    expect(await gw.get('LIB#central', 'BOOK#dune')).toMatchObject({ reservationCount: 2 });
    expect(await gw.get('LIB#central', 'BOOK#ulysses')).toBeUndefined();
    expect(await gw.get('BOOK#ulysses', 'COPY#u1')).toBeUndefined();
    expect(await gw.get('BOOK#ulysses#RESERVED', 'MEMBER#ann')).toBeUndefined();
    expect(await gw.get('MEMBER#ann', 'MEMBER')).toMatchObject({ reservationCount: 2 });
    expect(await gw.get('LIB#central', 'LIB')).toMatchObject({ bookCount: 2 });
    expect((await runCheck(options)).found).toBe(0);
  });
});
