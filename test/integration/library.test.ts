/**
 * examples/library.graphql served from its file on a table it creates: the
 * lending library a new user wanted. Books are children of a library and
 * have a connection of their own (their loans); a loan is an item with an
 * id of its own referring to a member and a book, so the same member can
 * borrow the same book twice and both loans stay; a book's and a member's
 * loans read newest first, exactly both ways, one Query per page.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/library.graphql', import.meta.url));

let gw: TestGateway;
const loanedAt: Record<string, string> = {};

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gw.run<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

const LEND = `mutation($i: LendInput!) { lend(input: $i) { id loanedAt } }`;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE, fanOut: 'inRequest' });
  await ok(`mutation { createLibrary(input: { id: "central", name: "Central" }) { id } }`);
  await ok(`mutation { addBook(library: "central", input: { id: "dune", title: "Dune", author: "Frank Herbert" }) { id } }`);
  await ok(`mutation { addBook(library: "central", input: { id: "emma", title: "Emma", author: "Jane Austen" }) { id } }`);
  await ok(`mutation { join(input: { id: "ann", name: "Ann" }) { id } }`);
  await ok(`mutation { join(input: { id: "bo", name: "Bo" }) { id } }`);
  // One at a time, so each loan is made later than the one before.
  for (const [id, book, member] of [
    ['l1', 'dune', 'ann'],
    ['l2', 'dune', 'ann'],
    ['l3', 'emma', 'ann'],
    ['l4', 'dune', 'bo'],
    ['l5', 'emma', 'ann'],
  ]) {
    const data = await ok<{ lend: { loanedAt: string } }>(LEND, { i: { id, book, member, dueAt: '2027-01-01T00:00:00.000Z' } });
    loanedAt[id!] = data.lend.loanedAt;
  }
});
afterAll(() => gw?.stop());

const ids = (c: { edges: { node: { id: string } }[] }) => c.edges.map((e) => e.node.id);

describe('the library table', () => {
  it('is created with the declared indexes', async () => {
    const { Table } = await gw.dynamo.raw.send(new DescribeTableCommand({ TableName: gw.tableName }));
    expect((Table!.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(['GSI1', 'loansByBook', 'loansByMember']);
  });

  it('holds a loan as an item of its own with its keys in both indexes', async () => {
    expect(await gw.get('LOAN#l2', 'LOAN')).toMatchObject({
      book: 'dune',
      member: 'ann',
      loanedAt: loanedAt.l2,
      bookLoanKey: `${loanedAt.l2}#l2`,
      memberLoanKey: `${loanedAt.l2}#l2`,
    });
    expect(await gw.get('LIB#central', 'BOOK#dune')).toMatchObject({ title: 'Dune', GSI1PK: 'BOOK#dune', GSI1SK: 'LIB#central' });
  });
});

const MEMBER_LOANS = `query($first: Int, $after: String, $last: Int, $before: String) {
  member(id: "ann") { name loans(first: $first, after: $after, last: $last, before: $before) {
    edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

describe('loans', () => {
  it('keeps the history: the same member borrowing the same book twice is two loans', async () => {
    const data = await ok(`{ book(id: "dune") { title loans(first: 10) { edges { node { id member { name } } } } } }`);
    expect(data.book.loans.edges.map((e: any) => [e.node.id, e.node.member.name])).toEqual([
      ['l4', 'Bo'],
      ['l2', 'Ann'],
      ['l1', 'Ann'],
    ]);
    // A loan's book, a child of its library, is found by its id alone.
    const bo = await ok(`{ member(id: "bo") { loans(first: 1) { edges { node { book { title library { name } } } } } } }`);
    expect(bo.member.loans.edges).toEqual([{ node: { book: { title: 'Dune', library: { name: 'Central' } } } }]);
  });

  it('reads a member and the first page of their loans, newest first, with one Query for the page', async () => {
    const { result, requests } = await gw.counted(MEMBER_LOANS, { first: 2 });
    expect(result.errors).toBeUndefined();
    expect(ids(result.data.member.loans)).toEqual(['l5', 'l3']);
    expect(result.data.member.loans.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // The member by its key, its page from the index, in parallel.
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('pages a member loans exactly both ways', async () => {
    const p1 = (await ok(MEMBER_LOANS, { first: 2 })).member.loans;
    const p2 = (await ok(MEMBER_LOANS, { first: 2, after: p1.pageInfo.endCursor })).member.loans;
    expect(ids(p2)).toEqual(['l2', 'l1']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = (await ok(MEMBER_LOANS, { last: 1, before: p2.pageInfo.startCursor })).member.loans;
    expect(ids(back)).toEqual(['l3']);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const oldest = (await ok(MEMBER_LOANS, { last: 3 })).member.loans;
    expect(ids(oldest)).toEqual(['l3', 'l2', 'l1']);
    expect(oldest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('narrows a member loans to a time range, newest first', async () => {
    const data = await ok(`query($s: String, $u: String) { member(id: "ann") { loans(first: 5, since: $s, until: $u) { edges { node { id } } } } }`, {
      s: loanedAt.l2,
      u: loanedAt.l5,
    });
    expect(ids(data.member.loans)).toEqual(['l3', 'l2']);
  });

  it('records a return with one write, keeping the loan in its place in both histories', async () => {
    const { result, requests } = await gw.counted(
      `mutation { giveBack(id: "l1", input: { returnedAt: "2026-12-01T00:00:00.000Z" }) { id returnedAt book { id } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.giveBack).toEqual({ id: 'l1', returnedAt: '2026-12-01T00:00:00.000Z', book: { id: 'dune' } });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(ids((await ok(`{ book(id: "dune") { loans(last: 1) { edges { node { id } } } } }`)).book.loans)).toEqual(['l1']);
  });
});

describe('books', () => {
  it('reads a library and its books in one Query (its item sorts after them)', async () => {
    const { result, requests } = await gw.counted(`{ library(id: "central") { name books(first: 5) { totalCount edges { node { id title } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.library).toEqual({
      name: 'Central',
      books: { totalCount: 2, edges: [{ node: { id: 'dune', title: 'Dune' } }, { node: { id: 'emma', title: 'Emma' } }] },
    });
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('adds copies under a book found by its id alone, and reads them from the book partition', async () => {
    const { result, requests } = await gw.counted(`mutation { addCopy(book: "emma", input: { id: "e1", shelf: "A3" }) { id shelf book { id } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.addCopy).toEqual({ id: 'e1', shelf: 'A3', book: { id: 'emma' } });
    // The book's key through GSI1, then the copy and the book's counter in one transaction.
    expect(requests.byOperation).toEqual({ Query: 1, TransactWriteItems: 1 });
    await ok(`mutation { addCopy(book: "emma", input: { id: "e2", shelf: "B1" }) { id } }`);
    await ok(`mutation { addCopy(book: "dune", input: { id: "d1", shelf: "C2" }) { id } }`);
    expect(await gw.get('BOOK#emma', 'COPY#e1')).toMatchObject({ shelf: 'A3' });
    const data = await ok(`{ book(id: "emma") { copies(first: 5) { totalCount edges { node { id shelf } } } } }`);
    expect(data.book.copies).toEqual({ totalCount: 2, edges: [{ node: { id: 'e1', shelf: 'A3' } }, { node: { id: 'e2', shelf: 'B1' } }] });
    expect(codes(await gw.run(`mutation { addCopy(book: "nope", input: { shelf: "A1" }) { id } }`))).toEqual(['NOT_FOUND']);
  });

  it('removes a book that has loans: the book goes with its copies and its library counter, its loans stay in the history', async () => {
    await ok(`mutation { removeBook(id: "emma") }`);
    expect(await gw.get('LIB#central', 'BOOK#emma')).toBeUndefined();
    expect((await gw.scan()).filter((i) => i.PK === 'BOOK#emma')).toEqual([]);
    expect((await gw.get('LIB#central', 'LIB'))!.bookCount).toBe(1);
    const data = await ok(`{ member(id: "ann") { loans(first: 1) { edges { node { id book { id title } } } } } }`);
    expect(data.member.loans.edges).toEqual([{ node: { id: 'l5', book: null } }]);
  });

  it('closes a library with its books and their copies, leaving nothing of them', async () => {
    await ok(`mutation { closeLibrary(id: "central") }`);
    const left = (await gw.scan()).filter((i) => /^(LIB#|BOOK#|BOOKID#)/.test(String(i.PK)));
    expect(left).toEqual([]);
    expect((await gw.run(`{ book(id: "dune") { id } }`)).data).toEqual({ book: null });
  });
});

describe('the demo data', () => {
  it('is served as written: a member loan history newest first, with the books', async () => {
    const demo = await testGateway({ schemaFile: SCHEMA_FILE });
    try {
      await demo.put(JSON.parse(readFileSync(SCHEMA_FILE.replace(/\.graphql$/, '.demo.json'), 'utf8')).items);
      const data = (
        await demo.run(
          `{ member(id: "ann") { loans(first: 5) { edges { node { id returnedAt book { title } } } } } library(id: "central") { books { totalCount } } }`,
        )
      ).data;
      expect(data.member.loans.edges.map((e: any) => [e.node.id, e.node.book.title, e.node.returnedAt])).toEqual([
        ['loan3', 'Dune', null],
        ['loan1', 'Dune', '2026-02-20T10:00:00.000Z'],
      ]);
      expect(data.library.books.totalCount).toBe(3);
      const reserved = (await demo.run(`{ member(id: "ann") { reservations(first: 5) { totalCount edges { node { id title } } } } }`)).data;
      expect(reserved.member.reservations).toEqual({ totalCount: 1, edges: [{ node: { id: 'emma', title: 'Emma' } }] });
    } finally {
      await demo.stop();
    }
  });
});
