/**
 * @edges on a child type, as examples/library.graphql declares it: a book
 * (a child of its library, found by its id through GSI1) has reservations,
 * edges to members in a partition of the book's own, read back from the
 * member's end through GSI1. Links find the book by its id; removing the
 * book or its library removes its edges with the members' counts; renames
 * reach the copies through the stream. Pages exact both ways; request
 * counts exact.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { buildModel } from '../../src/declaration/buildModel.js';
import { runCheck } from '../../src/migration/check.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';
import { countingDoc } from '../support/countingDoc.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/library.graphql', import.meta.url));

let gw: TestGateway;

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gw.run<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  await ok(`mutation { createLibrary(input: { id: "central", name: "Central" }) { id } }`);
  for (const [id, title] of [
    ['dune', 'Dune'],
    ['emma', 'Emma'],
  ]) {
    await ok(`mutation { addBook(library: "central", input: { id: "${id}", title: "${title}", author: "Someone" }) { id } }`);
  }
  for (const [id, name] of [
    ['ann', 'Ann'],
    ['bo', 'Bo'],
    ['cy', 'Cy'],
  ])
    await ok(`mutation { join(input: { id: "${id}", name: "${name}" }) { id } }`);
});
afterAll(() => gw?.stop());

type Page = { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string } };
const ids = (page: Page) => page.edges.map((e) => e.node.id);
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

describe('reservations: edges of a child type', () => {
  it('reserve finds the book by its id, then writes the edge with both copies and both counters in one transaction', async () => {
    const { result, requests } = await gw.counted(`mutation { reserve(book: "dune", member: "ann") { reservedAt node { id name } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.reserve.node).toEqual({ id: 'ann', name: 'Ann' });
    // The book's GSI1 Query (its key needs its library), both items in one BatchGetItem, one transaction.
    expect(requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('BOOK#dune#RESERVED', 'MEMBER#ann')).toEqual({
      PK: 'BOOK#dune#RESERVED',
      SK: 'MEMBER#ann',
      GSI1PK: 'MEMBER#ann',
      GSI1SK: 'BOOK#dune#RESERVED',
      reservedAt: result.data.reserve.reservedAt,
      memberName: 'Ann',
      bookTitle: 'Dune',
    });
    expect((await gw.get('LIB#central', 'BOOK#dune'))?.reservationCount).toBe(1);
    expect((await gw.get('MEMBER#ann', 'MEMBER'))?.reservationCount).toBe(1);
  });

  it('refuses a second reservation (CONFLICT) and a missing book (NOT_FOUND), writing nothing', async () => {
    const before = await gw.scan();
    const again = await gw.run(`mutation { reserve(book: "dune", member: "ann") { reservedAt } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.errors?.[0]?.message).toBe('Book dune is already reserved by member ann');
    const missing = await gw.run(`mutation { reserve(book: "nope", member: "ann") { reservedAt } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(missing.errors?.[0]?.message).toBe('Book nope not found');
    expect(await gw.scan()).toEqual(before);
  });

  it("pages a book's reservations and a member's exactly both ways, one Query a page, nodes from the copies", async () => {
    await ok(`mutation { reserve(book: "dune", member: "bo") { reservedAt } }`);
    await ok(`mutation { reserve(book: "dune", member: "cy") { reservedAt } }`);
    await ok(`mutation { reserve(book: "emma", member: "ann") { reservedAt } }`);
    const first = await gw.counted(`{ book(id: "dune") { reservations(first: 2) { totalCount edges { node { id name } } ${PAGE_INFO} } } }`);
    const page1 = first.result.data.book.reservations;
    expect([ids(page1), page1.edges[0].node.name, page1.totalCount, page1.pageInfo.hasNextPage]).toEqual([['ann', 'bo'], 'Ann', 3, true]);
    // The book through GSI1 (it holds the counter), then its reservations' partition.
    expect(first.requests.byOperation).toEqual({ Query: 2 });
    const next = await gw.run(`query($a: String) { book(id: "dune") { reservations(first: 2, after: $a) { edges { node { id } } ${PAGE_INFO} } } }`, {
      a: page1.pageInfo.endCursor,
    });
    expect([ids(next.data.book.reservations), next.data.book.reservations.pageInfo.hasNextPage]).toEqual([['cy'], false]);
    const back = await gw.run(`query($b: String) { book(id: "dune") { reservations(last: 2, before: $b) { edges { node { id } } ${PAGE_INFO} } } }`, {
      b: next.data.book.reservations.pageInfo.startCursor,
    });
    expect([ids(back.data.book.reservations), back.data.book.reservations.pageInfo.hasPreviousPage]).toEqual([['ann', 'bo'], false]);
    const member = await gw.counted(`{ member(id: "ann") { reservations(last: 1) { totalCount edges { node { id title } } ${PAGE_INFO} } } }`);
    const m = member.result.data.member.reservations;
    expect([m.edges, m.totalCount, m.pageInfo.hasPreviousPage]).toEqual([[{ node: { id: 'emma', title: 'Emma' } }], 2, true]);
    // The member and the GSI1 page together; the title is the edge's copy.
    expect(member.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('renames reach the copies on every edge through the stream', async () => {
    await ok(`mutation { renameMember(id: "ann", input: { name: "Annie" }) { id } }`);
    await ok(`mutation { updateBook(id: "dune", input: { title: "Dune Messiah" }) { id } }`);
    await gw.settle();
    expect(await gw.get('BOOK#dune#RESERVED', 'MEMBER#ann')).toMatchObject({ memberName: 'Annie', bookTitle: 'Dune Messiah' });
    expect(await gw.get('BOOK#emma#RESERVED', 'MEMBER#ann')).toMatchObject({ memberName: 'Annie', bookTitle: 'Emma' });
    expect(await gw.get('BOOK#dune#RESERVED', 'MEMBER#bo')).toMatchObject({ memberName: 'Bo', bookTitle: 'Dune Messiah' });
  });

  it('the table check finds the reservations as written, then a stale copy of a book (a child end) found by its id and repaired', async () => {
    const { doc, sent, reset } = countingDoc(gw.dynamo.doc);
    const options = { raw: gw.dynamo.raw, doc, tableName: gw.tableName, plan: gw.plan, segments: 1, readUnitsPerSecond: 100_000, indexSettleMs: 0 };
    const clean = await runCheck(options);
    expect(clean.found, JSON.stringify(clean.findings)).toBe(0);
    // One Scan page; a GSI1 Query per distinct book (two on four reservations) and eight counted
    // collections (three members, the library's books, each book's copies and reservations); the copies' sources in one BatchGetItem.
    expect(sent).toEqual({ Scan: 1, Query: 10, BatchGet: 1 });

    const edge = (await gw.get('BOOK#emma#RESERVED', 'MEMBER#ann'))!;
    await gw.dynamo.doc.send(new PutCommand({ TableName: gw.tableName, Item: { ...edge, bookTitle: 'Old title' } }));
    reset();
    const found = await runCheck(options);
    expect(found.findings.staleCopies.count).toBe(1);
    expect(found.findings.staleCopies.samples[0].key).toEqual({ PK: 'BOOK#emma#RESERVED', SK: 'MEMBER#ann' });
    expect(found.repaired).toEqual({ copies: 0, counters: 0, indexKeys: 0, marks: 0 });
    expect(sent).toEqual({ Scan: 1, Query: 10, BatchGet: 1 });
    expect((await gw.get('BOOK#emma#RESERVED', 'MEMBER#ann'))?.bookTitle).toBe('Old title');

    const repaired = await runCheck({ ...options, repair: true });
    expect(repaired.repaired.copies).toBe(1);
    // The copy as the book holds it, with the book's title version (0: never renamed).
    expect(await gw.get('BOOK#emma#RESERVED', 'MEMBER#ann')).toEqual({ ...edge, bookTitle: 'Emma', bookTitleVersion: 0 });
    expect((await runCheck(options)).found).toBe(0);
  });

  it('cancelReservation deletes the edge and both counts', async () => {
    const { result, requests } = await gw.counted(`mutation { cancelReservation(book: "dune", member: "cy") }`);
    expect(result).toEqual({ data: { cancelReservation: true } });
    expect(requests.byOperation).toEqual({ Query: 1, BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('BOOK#dune#RESERVED', 'MEMBER#cy')).toBeUndefined();
    expect((await gw.get('LIB#central', 'BOOK#dune'))?.reservationCount).toBe(2);
    expect((await gw.get('MEMBER#cy', 'MEMBER'))?.reservationCount).toBe(0);
    const again = await gw.run(`mutation { cancelReservation(book: "dune", member: "cy") }`);
    expect(again.errors?.[0]?.message).toBe('Book dune is not reserved by member cy');
  });

  it("a member's delete removes their reservations, each book (found by its id) losing one from its count", async () => {
    await ok(`mutation { reserve(book: "emma", member: "bo") { reservedAt } }`);
    expect(await ok(`mutation { leave(id: "bo") }`)).toEqual({ leave: 'bo' });
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.SK) === 'MEMBER#bo' || String(i.PK).startsWith('MEMBER#bo'))).toEqual([]);
    expect((await gw.get('LIB#central', 'BOOK#dune'))?.reservationCount).toBe(1);
    expect((await gw.get('LIB#central', 'BOOK#emma'))?.reservationCount).toBe(1);
    await ok(`mutation { join(input: { id: "bo", name: "Bo" }) { id } }`);
  });

  it("removing a book removes its reservations with each member's count, and the library's count of books", async () => {
    expect(await ok(`mutation { removeBook(id: "emma") }`)).toEqual({ removeBook: 'emma' });
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.PK).startsWith('BOOK#emma'))).toEqual([]);
    expect((await gw.get('MEMBER#ann', 'MEMBER'))?.reservationCount).toBe(1);
    expect((await gw.get('LIB#central', 'LIB'))?.bookCount).toBe(1);
    const ann = await ok(`{ member(id: "ann") { reservations(first: 5) { totalCount edges { node { id } } } } }`);
    expect(ann.member.reservations).toEqual({ totalCount: 1, edges: [{ node: { id: 'dune' } }] });
  });

  it("closing the library removes its books' reservations, every member's count following", async () => {
    expect(await ok(`mutation { closeLibrary(id: "central") }`)).toEqual({ closeLibrary: 'central' });
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.PK).startsWith('BOOK#') || String(i.PK).startsWith('LIB#'))).toEqual([]);
    for (const m of ['ann', 'bo', 'cy']) expect((await gw.get(`MEMBER#${m}`, 'MEMBER'))?.reservationCount).toBe(0);
    const bo = await ok(`{ member(id: "bo") { reservations(first: 5) { totalCount edges { node { id } } } } }`);
    expect(bo.member.reservations).toEqual({ totalCount: 0, edges: [] });
  });
});

describe('authorization of edges of a child type, as of any edges', () => {
  let issuer: TestIssuer;
  let secured: TestGateway;
  const tokens: Record<'ann' | 'bo', string> = {} as never;

  beforeAll(async () => {
    // The library with members as owners: a member reserves only for themselves; reservations are read signed in.
    const sdl = readFileSync(SCHEMA_FILE, 'utf8')
      .replace(
        'type Member @item(pk: "MEMBER#{id}", sk: "MEMBER")',
        'type Member @item(pk: "MEMBER#{id}", sk: "MEMBER", claim: "member_id") @access(rule: ANYONE)',
      )
      .replace(
        'type Book @item(pk: "LIB#{library}", sk: "BOOK#{id}", inverted: true)',
        'type Book @item(pk: "LIB#{library}", sk: "BOOK#{id}", inverted: true) @access(rule: ANYONE)',
      )
      .replace(
        'reserve(book: ID!, member: ID!): ReservationEdge! @addEdge(',
        'reserve(book: ID!, member: ID!): ReservationEdge! @access(rule: OWNER, of: "Member", argument: "member") @addEdge(',
      )
      .replace('book(id: ID!): Book @get', 'book(id: ID!): Book @get @access(rule: ANYONE)')
      .replace(
        'reservations(first: Int, after: String, last: Int, before: String): ReservationConnection!',
        'reservations(first: Int, after: String, last: Int, before: String): ReservationConnection! @access(rule: SIGNED_IN)',
      );
    const model = buildModel(sdl, 'library.graphql');
    issuer = await startTestIssuer();
    secured = await testGateway({ model, auth: testAuthenticator(issuer, {}, model).auth });
    tokens.ann = await issuer.token({ member_id: 'ann' });
    tokens.bo = await issuer.token({ member_id: 'bo' });
    const admin = await issuer.token({ groups: ['admin'] });
    for (const m of [
      `mutation { createLibrary(input: { id: "north", name: "North" }) { id } }`,
      `mutation { addBook(library: "north", input: { id: "iliad", title: "Iliad", author: "Homer" }) { id } }`,
      `mutation { join(input: { id: "ann", name: "Ann" }) { id } }`,
      `mutation { join(input: { id: "bo", name: "Bo" }) { id } }`,
    ])
      expect((await secured.run(m, undefined, admin)).errors).toBeUndefined();
  });
  afterAll(async () => {
    await secured?.stop();
    await issuer?.stop();
  });

  it('lets a member reserve for themselves only, writing nothing for a refused caller', async () => {
    const anonymous = await secured.counted(`mutation { reserve(book: "iliad", member: "ann") { reservedAt } }`);
    expect(codes(anonymous.result)).toEqual(['UNAUTHENTICATED']);
    expect(anonymous.requests.requests).toBe(0);
    const other = await secured.run(`mutation { reserve(book: "iliad", member: "ann") { reservedAt } }`, undefined, tokens.bo);
    expect(codes(other)).toEqual(['FORBIDDEN']);
    expect(await secured.get('BOOK#iliad#RESERVED', 'MEMBER#ann')).toBeUndefined();
    const own = await secured.run(`mutation { reserve(book: "iliad", member: "ann") { node { id } } }`, undefined, tokens.ann);
    expect(own.errors).toBeUndefined();
    expect(own).toEqual({ data: { reserve: { node: { id: 'ann' } } } });
  });

  it("reads a book's reservations signed in only", async () => {
    const q = `{ book(id: "iliad") { title reservations { totalCount } } }`;
    const anonymous = await secured.run(q);
    expect(codes(anonymous)).toEqual(['FORBIDDEN']);
    // The connection is non-null: its null moves up to the book.
    expect(anonymous.data).toEqual({ book: null });
    expect(anonymous.errors?.[0]?.message).toContain('Book.reservations');
    expect(await secured.run(q, undefined, tokens.bo)).toEqual({ data: { book: { title: 'Iliad', reservations: { totalCount: 1 } } } });
  });
});
