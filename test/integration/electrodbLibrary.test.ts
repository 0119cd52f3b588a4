/**
 * ElectroDB as the oracle, on its library example: the gateway serves
 * examples/electrodb/library.graphql over the table ElectroDB's own
 * entities of the design (test/support/electrodb/library.ts) read and
 * write, in ElectroDB's default casing and in `casing: "none"`. Authors
 * and genres are keyed by natural values alone (derived ids), a copy by
 * its isbn and id, a member holds a map; every pattern costs the gateway
 * the DynamoDB requests it costs ElectroDB, counted at the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electroModel, type ElectroCasing, type ElectroService } from '../support/electrodb/casing.js';
import { library } from '../support/electrodb/library.js';
import { startOracle, type Oracle } from '../support/electrodb/oracle.js';

type Row = Record<string, any>;

const IT = '9783453435773';
const SHINING = '9780307743657';
const AUTHORS = [
  { authorLastName: 'King', authorFirstName: 'Stephen', birthday: '1947-09-21', bio: 'Author of It' },
  { authorLastName: 'King', authorFirstName: 'Owen', birthday: '1977-02-21', bio: 'Author of Double Feature' },
  { authorLastName: 'Smith', authorFirstName: 'John', birthday: '1960-01-01', bio: 'Author' },
];
const STEPHEN = { authorFirstName: 'Stephen', authorLastName: 'King' };
const BOOKS = [
  { bookId: 'B1', isbn: IT, bookTitle: 'It', description: 'A clown', publisher: 'Viking', releaseDate: '1986-09-15', ...STEPHEN, loanStartDate: '2022-07-15', loanEndDate: '2022-08-15', memberId: '0000001' },
  { bookId: 'B2', isbn: IT, bookTitle: 'It', description: 'A clown', publisher: 'Viking', releaseDate: '1986-09-15', ...STEPHEN, loanEndDate: 'AVAILABLE' },
  { bookId: 'B3', isbn: SHINING, bookTitle: 'The Shining', description: 'A hotel', publisher: 'Doubleday', releaseDate: '1977-01-28', ...STEPHEN, loanEndDate: '2022-07-01', memberId: '0000001' },
];
const GENRES = [
  { isbn: IT, genre: 'Horror', subgenre: 'Killer Clowns', bookTitle: 'It', ...STEPHEN },
  { isbn: IT, genre: 'Horror', subgenre: 'Small Town', bookTitle: 'It', ...STEPHEN },
  { isbn: SHINING, genre: 'Horror', subgenre: 'Haunted Hotel', bookTitle: 'The Shining', ...STEPHEN },
  { isbn: SHINING, genre: 'Thriller', subgenre: 'Isolation', bookTitle: 'The Shining', ...STEPHEN },
];
const MEMBERS = [
  { memberId: '0000001', membershipStartDate: '2020-01-01', address: { streetAddress: '1 Elm St', city: 'Bangor', state: 'ME', zip: '04401' } },
  { memberId: '0000002', membershipStartDate: '2021-06-01' },
];

const AUTHOR_FIELDS = 'authorFirstName authorLastName birthday bio';
const BOOK_FIELDS = 'id isbn bookTitle description publisher releaseDate authorFirstName authorLastName loanStartDate loanEndDate member { id }';
const GENRE_FIELDS = 'isbn genre subgenre bookTitle authorFirstName authorLastName';
const MEMBER_FIELDS = 'id membershipStartDate membershipEndDate address { streetAddress city state zip }';

const authorOf = (a: Row) => ({ authorFirstName: a.authorFirstName, authorLastName: a.authorLastName, birthday: a.birthday, bio: a.bio });
const bookOf = (b: Row) => ({
  id: b.bookId,
  isbn: b.isbn,
  bookTitle: b.bookTitle,
  description: b.description,
  publisher: b.publisher,
  releaseDate: b.releaseDate,
  authorFirstName: b.authorFirstName,
  authorLastName: b.authorLastName,
  loanStartDate: b.loanStartDate ?? null,
  loanEndDate: b.loanEndDate ?? null,
  member: b.memberId ? { id: b.memberId } : null,
});
const genreOf = (g: Row) => ({ isbn: g.isbn, genre: g.genre, subgenre: g.subgenre, bookTitle: g.bookTitle ?? null, authorFirstName: g.authorFirstName, authorLastName: g.authorLastName });
const addressOf = (a: Row | undefined) => (a ? { streetAddress: a.streetAddress ?? null, city: a.city ?? null, state: a.state ?? null, zip: a.zip ?? null } : null);
const memberOf = (m: Row) => ({ id: m.memberId, membershipStartDate: m.membershipStartDate ?? null, membershipEndDate: m.membershipEndDate ?? null, address: addressOf(m.address) });
const nodes = (connection: { edges: { node: Row }[] }): Row[] => connection.edges.map((e) => e.node);

describe.each(['default', 'none'] as ElectroCasing[])('ElectroDB library in casing %s', (casing) => {
  let oracle: Oracle<ElectroService>;

  async function seeded() {
    const o = await startOracle(electroModel('library', casing), (table, client) => library(table, client, casing));
    const { author, book, genre, member } = o.electro.entities;
    for (const a of AUTHORS) await author.create(a).go();
    for (const b of BOOKS) await book.create(b).go();
    for (const g of GENRES) await genre.create(g).go();
    for (const m of MEMBERS) await member.create(m).go();
    return o;
  }

  beforeAll(async () => {
    oracle = await seeded();
  });
  afterAll(() => oracle?.stop());

  describe('items ElectroDB writes, read through GraphQL', () => {
    it('gets an author, a copy, a genre and a member by their keys with the same answers, one GetItem each as ElectroDB', async () => {
      const gets: [string, (s: ElectroService) => Promise<{ data: Row | null }>, (x: Row) => unknown][] = [
        [`{ r: author(authorLastName: "King", authorFirstName: "Stephen", birthday: "1947-09-21") { ${AUTHOR_FIELDS} } }`, (s) => s.entities.author.get({ ...STEPHEN, birthday: '1947-09-21' }).go(), authorOf],
        [`{ r: book(isbn: "${IT}", id: "B1") { ${BOOK_FIELDS} } }`, (s) => s.entities.book.get({ isbn: IT, bookId: 'B1' }).go(), bookOf],
        [`{ r: genre(isbn: "${SHINING}", genre: "Thriller", subgenre: "Isolation") { ${GENRE_FIELDS} } }`, (s) => s.entities.genre.get({ isbn: SHINING, genre: 'Thriller', subgenre: 'Isolation' }).go(), genreOf],
        [`{ r: member(id: "0000001") { ${MEMBER_FIELDS} } }`, (s) => s.entities.member.get({ memberId: '0000001' }).go(), memberOf],
      ];
      for (const [query, electro, shape] of gets) {
        const q = await oracle.graphql(query);
        const e = await oracle.electrodb(electro);
        expect(q.data.r, query).toEqual(shape(e.value.data));
        expect(q.requests, query).toEqual({ GetItem: 1 });
        expect(q.requests, query).toEqual(e.requests);
      }
    });

    it('answers each access pattern as ElectroDB does, in its order, with one Query each', async () => {
      const patterns: [string, (s: ElectroService) => Promise<{ data: Row[] }>, (x: Row) => unknown][] = [
        [`{ r: writers(authorLastName: "King", first: 50) { edges { node { ${AUTHOR_FIELDS} } } } }`, (s) => s.entities.author.query.writer({ authorLastName: 'King' }).go(), authorOf],
        [`{ r: writers(authorLastName: "King", from: "S", until: "T", first: 50) { edges { node { ${AUTHOR_FIELDS} } } } }`, (s) => s.entities.author.query.writer({ authorLastName: 'King' }).begins({ authorFirstName: 'S' }).go(), authorOf],
        [`{ r: copies(isbn: "${IT}", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.copies({ isbn: IT }).go(), bookOf],
        [`{ r: genresOf(isbn: "${SHINING}", first: 50) { edges { node { ${GENRE_FIELDS} } } } }`, (s) => s.entities.genre.query.book({ isbn: SHINING }).go(), genreOf],
        [`{ r: loans(member: "0000001", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.loans({ memberId: '0000001' }).go(), bookOf],
        [`{ r: loans(member: "0000001", dueFrom: "2022-07-30", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.loans({ memberId: '0000001' }).gte({ loanEndDate: '2022-07-30' }).go(), bookOf],
        [`{ r: booksBy(authorLastName: "King", authorFirstName: "Stephen", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.author(STEPHEN).go(), bookOf],
        [`{ r: booksBy(authorLastName: "King", authorFirstName: "Stephen", dueUntil: "AVAILABLE", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.author(STEPHEN).lt({ loanEndDate: 'AVAILABLE' }).go(), bookOf],
        [`{ r: genresBy(authorLastName: "King", authorFirstName: "Stephen", first: 50) { edges { node { ${GENRE_FIELDS} } } } }`, (s) => s.entities.genre.query.author(STEPHEN).go(), genreOf],
        [`{ r: releases(bookTitle: "It", from: "1986-01-01", first: 50) { edges { node { ${BOOK_FIELDS} } } } }`, (s) => s.entities.book.query.releases({ bookTitle: 'It' }).gte({ releaseDate: '1986-01-01' }).go(), bookOf],
        [`{ r: categories(genre: "Horror", first: 50) { edges { node { ${GENRE_FIELDS} } } } }`, (s) => s.entities.genre.query.categories({ genre: 'Horror' }).go(), genreOf],
        [`{ r: genresTitled(bookTitle: "The Shining", first: 50) { edges { node { ${GENRE_FIELDS} } } } }`, (s) => s.entities.genre.query.title({ bookTitle: 'The Shining' }).go(), genreOf],
      ];
      for (const [query, electro, shape] of patterns) {
        const q = await oracle.graphql(query);
        const e = await oracle.electrodb(electro);
        expect(nodes(q.data.r).length, query).toBeGreaterThan(0);
        expect(nodes(q.data.r), query).toEqual(e.value.data.map(shape));
        expect(q.requests, query).toEqual({ Query: 1 });
        expect(q.requests, query).toEqual(e.requests);
      }
    });

    it('reads a member and the copies on loan to them in one Query, as ElectroDB\'s collection account does', async () => {
      const q = await oracle.graphql(`{ member(id: "0000001") { id membershipStartDate address { streetAddress zip } loans(first: 50) { edges { node { ${BOOK_FIELDS} } } } } }`);
      const got = await oracle.electrodb((s) => s.entities.member.get({ memberId: '0000001' }).go());
      const loans = await oracle.electrodb((s) => s.entities.book.query.loans({ memberId: '0000001' }).go());
      const account = await oracle.electrodb((s) => s.collections.account({ memberId: '0000001' }).go());
      expect(q.data.member).toMatchObject({ id: got.value.data.memberId, membershipStartDate: got.value.data.membershipStartDate, address: { streetAddress: got.value.data.address.streetAddress, zip: got.value.data.address.zip } });
      expect(nodes(q.data.member.loans)).toEqual(loans.value.data.map(bookOf));
      expect(nodes(q.data.member.loans)).toEqual(account.value.data.book.map(bookOf));
      // The member shares its partition in gsi1 with its loans: the member and the page, one Query.
      expect(q.requests).toEqual({ Query: 1 });
      expect(q.requests).toEqual(account.requests);
    });
  });

  describe('items GraphQL writes, read back by ElectroDB', () => {
    it('creates an author keyed by its values with one PutItem, as ElectroDB does, in ElectroDB\'s works', async () => {
      const q = await oracle.graphql(`mutation { createAuthor(input: { authorLastName: "King", authorFirstName: "Tabitha", birthday: "1949-03-24", bio: "Novelist" }) { id ${AUTHOR_FIELDS} } }`);
      const e = await oracle.electrodb((s) => s.entities.author.create({ authorLastName: 'Smith', authorFirstName: 'Jane', birthday: '1970-01-01', bio: 'Poet' }).go());
      expect(q.requests).toEqual({ PutItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const got = await oracle.electrodb((s) => s.entities.author.get({ authorLastName: 'King', authorFirstName: 'Tabitha', birthday: '1949-03-24' }).go());
      expect(got.value.data).toEqual({ authorLastName: 'King', authorFirstName: 'Tabitha', birthday: '1949-03-24', bio: 'Novelist' });
      const works = await oracle.electrodb((s) => s.collections.works({ authorLastName: 'King', authorFirstName: 'Tabitha' }).go());
      expect(works.value.data.author.map(authorOf)).toEqual([authorOf(got.value.data)]);
      const writers = await oracle.electrodb((s) => s.entities.author.query.writer({ authorLastName: 'King' }).go());
      expect(writers.value.data.map((a: Row) => a.authorFirstName)).toEqual(['Owen', 'Stephen', 'Tabitha']);
      // The one ElectroDB wrote, by its values, and the one GraphQL wrote, by the id its key derives.
      const jane = await oracle.graphql(`{ author(authorLastName: "Smith", authorFirstName: "Jane", birthday: "1970-01-01") { bio } }`);
      expect(jane.data.author).toEqual({ bio: 'Poet' });
      const byValues = await oracle.graphql(`{ author(authorLastName: "King", authorFirstName: "Tabitha", birthday: "1949-03-24") { id } }`);
      expect(byValues.data.author.id).toBe(q.data.createAuthor.id);
    });

    it('creates a copy available by default, that ElectroDB finds by isbn, author, title and in its detail', async () => {
      const q = await oracle.graphql(`mutation($i: CreateBookInput!) { createBook(input: $i) { ${BOOK_FIELDS} } }`, {
        i: { id: 'B9', isbn: IT, bookTitle: 'It', description: 'A clown', publisher: 'Viking', releaseDate: '1986-09-15', ...STEPHEN },
      });
      expect(q.data.createBook.loanEndDate).toBe('AVAILABLE');
      expect(q.requests).toEqual({ PutItem: 1 });
      const got = await oracle.electrodb((s) => s.entities.book.get({ isbn: IT, bookId: 'B9' }).go());
      expect(bookOf(got.value.data)).toEqual(q.data.createBook);
      const available = await oracle.electrodb((s) => s.entities.book.query.author({ ...STEPHEN, loanEndDate: 'AVAILABLE' }).go());
      expect(available.value.data.map((b: Row) => b.bookId)).toEqual(['B2', 'B9']);
      const titles = await oracle.electrodb((s) => s.collections.titles({ bookTitle: 'It' }).go());
      expect(titles.value.data.book.map((b: Row) => b.bookId).sort()).toEqual(['B1', 'B2', 'B9']);
      const detail = await oracle.electrodb((s) => s.collections.detail({ isbn: IT }).go());
      expect(detail.value.data.book.map((b: Row) => b.bookId)).toEqual(['B1', 'B2', 'B9']);
      expect(detail.value.data.genre.map((g: Row) => g.subgenre)).toEqual(['Killer Clowns', 'Small Town']);
    });

    it('creates a genre and a member with an address, as ElectroDB reads them', async () => {
      const g = await oracle.graphql(`mutation { createGenre(input: { isbn: "${IT}", genre: "Fantasy", subgenre: "Dark", bookTitle: "It", authorFirstName: "Stephen", authorLastName: "King" }) { ${GENRE_FIELDS} } }`);
      expect(g.requests).toEqual({ PutItem: 1 });
      const categories = await oracle.electrodb((s) => s.entities.genre.query.categories({ genre: 'Fantasy' }).go());
      expect(categories.value.data.map(genreOf)).toEqual([g.data.createGenre]);
      const m = await oracle.graphql(`mutation { createMember(input: { id: "0000003", membershipStartDate: "2023-01-01", address: { city: "Derry", state: "ME" } }) { ${MEMBER_FIELDS} } }`);
      expect(m.requests).toEqual({ PutItem: 1 });
      const got = await oracle.electrodb((s) => s.entities.member.get({ memberId: '0000003' }).go());
      expect(got.value.data).toEqual({ memberId: '0000003', membershipStartDate: '2023-01-01', address: { city: 'Derry', state: 'ME' } });
      expect(memberOf(got.value.data)).toEqual(m.data.createMember);
      const account = await oracle.electrodb((s) => s.collections.account({ memberId: '0000003' }).go());
      expect(account.value.data.member.map((x: Row) => x.memberId)).toEqual(['0000003']);
    });

    it('updates plain fields with one UpdateItem, as ElectroDB does, each reading the other\'s change', async () => {
      const q = await oracle.graphql(`mutation { updateBook(isbn: "${IT}", id: "B2", input: { description: "Pennywise" }) { id description } }`);
      const e = await oracle.electrodb((s) => s.entities.book.patch({ isbn: SHINING, bookId: 'B3' }).set({ publisher: 'Anchor' }).go());
      expect(q.data.updateBook).toEqual({ id: 'B2', description: 'Pennywise' });
      expect(q.requests).toEqual({ UpdateItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const b2 = await oracle.electrodb((s) => s.entities.book.get({ isbn: IT, bookId: 'B2' }).go());
      expect(b2.value.data.description).toBe('Pennywise');
      const b3 = await oracle.graphql(`{ book(isbn: "${SHINING}", id: "B3") { publisher } }`);
      expect(b3.data.book).toEqual({ publisher: 'Anchor' });
      const m = await oracle.graphql(`mutation { updateMember(id: "0000002", input: { address: { streetAddress: "9 Oak", zip: "04401" } }) { address { streetAddress zip city } } }`);
      expect(m.requests).toEqual({ UpdateItem: 1 });
      const got = await oracle.electrodb((s) => s.entities.member.get({ memberId: '0000002' }).go());
      expect(got.value.data.address).toEqual({ streetAddress: '9 Oak', zip: '04401' });
    });

    it('deletes a copy that is then gone for ElectroDB, and one ElectroDB deletes is gone for GraphQL', async () => {
      await oracle.graphql(`mutation { deleteBook(isbn: "${IT}", id: "B9") }`);
      await oracle.electrodb((s) => s.entities.genre.delete({ isbn: IT, genre: 'Fantasy', subgenre: 'Dark' }).go());
      const detail = await oracle.electrodb((s) => s.collections.detail({ isbn: IT }).go());
      expect(detail.value.data.book.map((b: Row) => b.bookId)).toEqual(['B1', 'B2']);
      const gone = await oracle.graphql(`{ genre(isbn: "${IT}", genre: "Fantasy", subgenre: "Dark") { genre } }`);
      expect(gone.data.genre).toBeNull();
    });

    it('deletes a copy with one DeleteItem, as ElectroDB does', async () => {
      const q = await oracle.graphql(`mutation { deleteBook(isbn: "${IT}", id: "B2") }`);
      const e = await oracle.electrodb((s) => s.entities.book.delete({ isbn: SHINING, bookId: 'B3' }).go());
      expect(q.requests).toEqual({ DeleteItem: 1 });
      expect(q.requests).toEqual(e.requests);
    });
  });

  it('reads ElectroDB\'s collections works and account in one Query each, as ElectroDB does', async () => {
    const o = await seeded();
    try {
      const q = await o.graphql(`{ works(authorLastName: "King", authorFirstName: "Stephen", first: 50) { edges { node { __typename ... on Book { id } ... on Genre { genre subgenre } ... on Author { birthday } } } } }`);
      const e = await o.electrodb((s) => s.collections.works(STEPHEN).go());
      // In key order: $works#author_1, then $works#book_1#…, then $works#genre_1#….
      expect(nodes(q.data.works)).toEqual([
        ...e.value.data.author.map((a: Row) => ({ __typename: 'Author', birthday: a.birthday })),
        ...e.value.data.book.map((b: Row) => ({ __typename: 'Book', id: b.bookId })),
        ...e.value.data.genre.map((g: Row) => ({ __typename: 'Genre', genre: g.genre, subgenre: g.subgenre })),
      ]);
      expect(e.value.data.book.length).toBeGreaterThan(0);
      expect(q.requests).toEqual({ Query: 1 });
      expect(q.requests).toEqual(e.requests);
      // A member with the first page of their loans, which share the member's partition in gsi1: ElectroDB's account, one Query.
      const member = await o.graphql(`{ member(id: "0000001") { id loans(first: 10) { edges { node { id } } } } }`);
      const account = await o.electrodb((s) => s.collections.account({ memberId: '0000001' }).go());
      expect(nodes(member.data.member.loans).map((b) => b.id)).toEqual(account.value.data.book.map((b: Row) => b.bookId));
      expect(member.requests).toEqual(account.requests);
      // The collection itself, on Query: the copies ($account#book_1#…) before the member ($account#member_1), one Query.
      const whole = await o.graphql(`{ account(member: "0000001", first: 50) { edges { node { __typename ... on Book { id } ... on Member { id } } } } }`);
      expect(nodes(whole.data.account)).toEqual([
        ...account.value.data.book.map((b: Row) => ({ __typename: 'Book', id: b.bookId })),
        ...account.value.data.member.map((m: Row) => ({ __typename: 'Member', id: m.memberId })),
      ]);
      expect(account.value.data.member).toHaveLength(1);
      expect(whole.requests).toEqual(account.requests);
    } finally {
      await o.stop();
    }
  });

  it('lends a copy with one UpdateItem, as ElectroDB does, moving it in the loans and author indexes', async () => {
    const o = await seeded();
    try {
      const q = await o.graphql(`mutation { updateBook(isbn: "${IT}", id: "B2", input: { loanEndDate: "2022-09-01", member: "0000002" }) { id loanEndDate member { id } } }`);
      expect(q.data.updateBook).toEqual({ id: 'B2', loanEndDate: '2022-09-01', member: { id: '0000002' } });
      const e = await o.electrodb((s) => s.entities.book.patch({ isbn: SHINING, bookId: 'B3' }).set({ loanEndDate: 'AVAILABLE' }).go());
      expect(q.requests).toEqual({ UpdateItem: 1 });
      expect(q.requests).toEqual(e.requests);
      const loans = await o.electrodb((s) => s.entities.book.query.loans({ memberId: '0000002' }).go());
      expect(loans.value.data.map((b: Row) => b.bookId)).toEqual(['B2']);
      const available = await o.graphql(`{ booksBy(authorLastName: "King", authorFirstName: "Stephen", dueFrom: "AVAILABLE", first: 50) { edges { node { id } } } }`);
      expect(nodes(available.data.booksBy).map((b) => b.id)).toEqual(['B3']);
    } finally {
      await o.stop();
    }
  });
});
