/**
 * ElectroDB's library example (its documentation, "Examples: Library
 * system", https://electrodb.dev/en/examples/library-system/), as its
 * entities are written there: authors, books (each a copy), genres and
 * members of the service `library`, three indexes and the collections
 * `works` (an author, their books and genres), `detail` (a book's copies
 * and genres by isbn), `account` (a member and their loans) and `titles`
 * (books and genres by title). One change: the genre's title index keys its
 * sort key on gsi3sk, where the page writes gsi13sk (the index's sort key
 * is gsi3sk, and ElectroDB refuses one index keyed two ways in a service).
 * `casing: 'none'` gives every index key ElectroDB's `casing: "none"`.
 *
 * The same design declared for the gateway: examples/electrodb/library.graphql.
 */
import { Entity, Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keyed, type ElectroCasing, type ElectroService } from './casing.js';

export function library(table: string, client: DynamoDBDocumentClient, casing: ElectroCasing): ElectroService {
  const key = keyed(casing);
  const author = new Entity(
    {
      model: { entity: 'author', version: '1', service: 'library' },
      attributes: {
        authorFirstName: { type: 'string', required: true },
        authorLastName: { type: 'string', required: true },
        birthday: { type: 'string' },
        bio: { type: 'string', required: true },
      },
      indexes: {
        writer: { pk: key('pk', ['authorLastName']), sk: key('sk', ['authorFirstName', 'birthday']) },
        info: { collection: ['works'], index: 'gsi2pk-gsi2sk-index', pk: key('gsi2pk', ['authorLastName', 'authorFirstName']), sk: key('gsi2sk', []) },
      },
    },
    { table, client },
  );
  const book = new Entity(
    {
      model: { entity: 'book', version: '1', service: 'library' },
      attributes: {
        bookId: { type: 'string' },
        bookTitle: { type: 'string', required: true },
        description: { type: 'string', required: true },
        publisher: { type: 'string', required: true },
        releaseDate: { type: 'string', required: true },
        authorFirstName: { type: 'string', required: true },
        authorLastName: { type: 'string', required: true },
        isbn: { type: 'string', required: true },
        loanStartDate: { type: 'string' },
        loanEndDate: { type: 'string' },
        memberId: { type: 'string' },
      },
      indexes: {
        copies: { collection: ['detail'], pk: key('pk', ['isbn']), sk: key('sk', ['bookId']) },
        loans: { collection: ['account'], index: 'gsi1pk-gsi1sk-index', pk: key('gsi1pk', ['memberId']), sk: key('gsi1sk', ['loanEndDate']) },
        author: {
          collection: ['works'],
          index: 'gsi2pk-gsi2sk-index',
          pk: key('gsi2pk', ['authorLastName', 'authorFirstName']),
          sk: key('gsi2sk', ['loanEndDate']),
        },
        releases: { collection: ['titles'], index: 'gsi3pk-gsi3sk-index', pk: key('gsi3pk', ['bookTitle']), sk: key('gsi3sk', ['releaseDate']) },
      },
    },
    { table, client },
  );
  const genre = new Entity(
    {
      model: { entity: 'genre', version: '1', service: 'library' },
      attributes: {
        genre: { type: 'string', required: true },
        isbn: { type: 'string' },
        bookTitle: { type: 'string' },
        authorFirstName: { type: 'string', required: true },
        authorLastName: { type: 'string', required: true },
        subgenre: { type: 'string' },
      },
      indexes: {
        book: { collection: ['detail'], pk: key('pk', ['isbn']), sk: key('sk', ['genre', 'subgenre']) },
        categories: { index: 'gsi1pk-gsi1sk-index', pk: key('gsi1pk', ['genre']), sk: key('gsi1sk', ['subgenre']) },
        author: { collection: ['works'], index: 'gsi2pk-gsi2sk-index', pk: key('gsi2pk', ['authorLastName', 'authorFirstName']), sk: key('gsi2sk', ['genre']) },
        title: { collection: ['titles'], index: 'gsi3pk-gsi3sk-index', pk: key('gsi3pk', ['bookTitle']), sk: key('gsi3sk', ['genre', 'subgenre']) },
      },
    },
    { table, client },
  );
  const member = new Entity(
    {
      model: { entity: 'member', version: '1', service: 'library' },
      attributes: {
        memberId: { type: 'string' },
        membershipStartDate: { type: 'string' },
        membershipEndDate: { type: 'string' },
        address: {
          type: 'map',
          properties: { streetAddress: { type: 'string' }, city: { type: 'string' }, state: { type: 'string' }, zip: { type: 'string' } },
        },
      },
      indexes: {
        member: { pk: key('pk', ['memberId']), sk: key('sk', []) },
        _: { collection: ['account'], index: 'gsi1pk-gsi1sk-index', pk: key('gsi1pk', ['memberId']), sk: key('gsi1sk', []) },
      },
    },
    { table, client },
  );
  return new Service({ author, book, genre, member }) as unknown as ElectroService;
}
