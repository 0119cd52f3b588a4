/**
 * `npm run migrate` on edges of a child type (examples/library.graphql: a
 * book, child of its library, has reservations to members). A missing copy
 * whose source is the book is filled from the book, found by its id (one
 * GSI1 Query per distinct book a page); a book's missing counters are
 * counted like a top-level item's, and the check compares them as it
 * compares a top-level item's. Request counts exact.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../../src/dynamo/batchGet.js';
import { runCheck } from '../../src/migration/check.js';
import { runMigration } from '../../src/migration/migrate.js';
import { COUNTING_ATTR } from '../../src/writes/conditions.js';
import { countingDoc } from '../support/countingDoc.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/library.graphql', import.meta.url));
/** Generous: the migration runs against the shared DynamoDB Local of a loaded machine. */
const PATIENT = patience(180_000);

let gw: TestGateway;
/** The table as the gateway wrote it: every copy and counter in place. */
let complete: Item[];
/** The document client's requests by operation since the last reset (the migration's; DescribeTable goes through the raw client). */
let counting: ReturnType<typeof countingDoc>;

const RESERVATIONS = [
  ['dune', 'ann'],
  ['dune', 'bo'],
  ['emma', 'ann'],
] as const;
const stored = (pk: string, sk: string) => complete.find((i) => i.PK === pk && i.SK === sk)!;
const reservation = (book: string, member: string) => stored(`BOOK#${book}#RESERVED`, `MEMBER#${member}`);
const without = (item: Item, ...attributes: string[]) => Object.fromEntries(Object.entries(item).filter(([a]) => !attributes.includes(a)));

async function ok(query: string): Promise<void> {
  expect((await gw.run(query)).errors).toBeUndefined();
}

function migrate(dryRun = false) {
  counting.reset();
  return runMigration({
    raw: gw.dynamo.raw,
    doc: counting.doc,
    tableName: gw.tableName,
    plan: gw.plan,
    segments: 1,
    writeUnitsPerSecond: 100_000,
    indexSettleMs: 0,
    dryRun,
  });
}

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  counting = countingDoc(gw.dynamo.doc);
  await ok(`mutation { createLibrary(input: { id: "central", name: "Central" }) { id } }`);
  await ok(`mutation { addBook(library: "central", input: { id: "dune", title: "Dune", author: "Frank Herbert" }) { id } }`);
  await ok(`mutation { addBook(library: "central", input: { id: "emma", title: "Emma", author: "Jane Austen" }) { id } }`);
  await ok(`mutation { addCopy(book: "dune", input: { id: "c1", shelf: "A1" }) { id } }`);
  for (const m of ['ann', 'bo']) await ok(`mutation { join(input: { id: "${m}", name: "${m.toUpperCase()}" }) { id } }`);
  for (const [book, member] of RESERVATIONS) await ok(`mutation { reserve(book: "${book}", member: "${member}") { reservedAt } }`);
  complete = await gw.scan();
});
afterAll(() => gw?.stop());

describe('npm run migrate on edges of a child type', () => {
  it(
    'reports a missing copy from a child end and a child type’s missing counters in a dry run, writing nothing',
    async () => {
      // As another program would have written them: reservations without the book's title, a book without its counters.
      await gw.put([
        ...RESERVATIONS.map(([book, member]) => without(reservation(book, member), 'bookTitle')),
        without(stored('LIB#central', 'BOOK#dune'), 'reservationCount', 'copyCount'),
      ]);
      const scanned = await gw.scan();
      const dry = await migrate(true);
      expect(dry).toMatchObject({ changed: 5, skipped: 0, writeUnits: 0, byKind: { 'edge-copy': 3, counter: 2, 'edge-shards': 0 } });
      // The layout record, one Scan page, one GSI1 Query per distinct book, the books in one BatchGetItem; no write, no count.
      expect(counting.sent).toEqual({ Get: 1, Scan: 1, Query: 2, BatchGet: 1 });
      expect(await gw.scan()).toEqual(scanned);
    },
    PATIENT,
  );

  it(
    'fills a missing copy whose source is a child end, finding each book once by its id',
    async () => {
      await gw.put([
        stored('LIB#central', 'BOOK#dune'),
        ...RESERVATIONS.map(([book, member]) => without(reservation(book, member), 'bookTitle')),
        // A reservation of a book no longer there: nothing to copy (the book's delete removes it).
        { ...without(reservation('emma', 'ann'), 'bookTitle'), PK: 'BOOK#gone#RESERVED', GSI1SK: 'BOOK#gone#RESERVED' },
      ]);
      const result = await migrate();
      expect(result).toMatchObject({ changed: 3, skipped: 0, byKind: { 'edge-copy': 3, counter: 0 } });
      // The copy as the book holds it, with the book's title version (0: never renamed).
      for (const [book, member] of RESERVATIONS) {
        expect(await gw.get(`BOOK#${book}#RESERVED`, `MEMBER#${member}`)).toEqual({ ...reservation(book, member), bookTitleVersion: 0 });
      }
      expect((await gw.get('BOOK#gone#RESERVED', 'MEMBER#ann'))?.bookTitle).toBeUndefined();
      // The run's record (Get, Update) and checkpoint (BatchGet, Put); one Scan page; a GSI1 Query per distinct book (dune,
      // emma, gone); the books found in one BatchGetItem; one conditional UpdateItem per copy; the run closed (Update, BatchWrite).
      expect(counting.sent).toEqual({ Get: 1, Update: 5, BatchGet: 2, Scan: 1, Put: 1, Query: 3, BatchWrite: 1 });
      expect((await migrate()).changed).toBe(0);
      await gw.dynamo.doc.send(new DeleteCommand({ TableName: gw.tableName, Key: { PK: 'BOOK#gone#RESERVED', SK: 'MEMBER#ann' } }));
    },
    PATIENT,
  );

  it(
    'fills a missing counter on a child type under a counting mark',
    async () => {
      await gw.put([without(stored('LIB#central', 'BOOK#dune'), 'reservationCount', 'copyCount')]);
      const result = await migrate();
      expect(result).toMatchObject({ changed: 2, skipped: 0, byKind: { counter: 2, 'edge-copy': 0 } });
      expect(await gw.get('LIB#central', 'BOOK#dune')).toEqual({ ...stored('LIB#central', 'BOOK#dune'), reservationCount: 2, copyCount: 1 });
      expect((await gw.scan()).filter((i) => i[COUNTING_ATTR] !== undefined)).toEqual([]);
      // Besides the run's bookkeeping (Get, BatchGet, Put, 2 Updates, BatchWrite) and the Scan: the mark, a count of each
      // collection (the book's copies, its reservations), the counts written with the mark removed.
      expect(counting.sent).toEqual({ Get: 1, Update: 4, BatchGet: 1, Scan: 1, Put: 1, Query: 2, BatchWrite: 1 });
      const read = await gw.counted(`{ book(id: "dune") { reservations { totalCount } copies { totalCount } } }`);
      expect(read.result.data).toEqual({ book: { reservations: { totalCount: 2 }, copies: { totalCount: 1 } } });
    },
    PATIENT,
  );
});

describe('npm run check on a child type’s counters', () => {
  it(
    'reports a wrong counter of a book, counted as migrate counts it, and --repair recounts it',
    async () => {
      const check = (repair = false) =>
        runCheck({
          raw: gw.dynamo.raw,
          doc: gw.dynamo.doc,
          tableName: gw.tableName,
          plan: gw.plan,
          segments: 1,
          readUnitsPerSecond: 100_000,
          indexSettleMs: 0,
          repair,
        });
      await gw.put([{ ...stored('LIB#central', 'BOOK#dune'), reservationCount: 5 }]);
      const found = await check();
      expect(found.found).toBe(1);
      expect(found.findings.wrongCounters).toEqual({
        count: 1,
        samples: [{ key: { PK: 'LIB#central', SK: 'BOOK#dune' }, detail: 'reservationCount is 5, Book.reservations counts 2' }],
      });
      expect((await check(true)).repaired).toEqual({ copies: 0, counters: 1, indexKeys: 0, marks: 0 });
      expect(await gw.get('LIB#central', 'BOOK#dune')).toEqual(stored('LIB#central', 'BOOK#dune'));
      expect((await check()).found).toBe(0);
    },
    PATIENT,
  );
});
