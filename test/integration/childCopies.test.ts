/**
 * Copies whose source is a child type (examples/library.graphql: a book
 * lives in its library's partition, and each reservation edge, an item
 * with a key of its own, carries the book's title): a rename answers at
 * once and the stream processor carries it to every edge, then removes
 * the book's propagation mark, as for a top-level type.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/migration/check.js';
import { checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../examples/library.graphql', import.meta.url));
const MEMBERS = ['ann', 'bo', 'cy', 'di', 'ed'];

let gw: TestGateway;
async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await gw.run<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as T;
}

beforeAll(async () => {
  gw = await testGateway({ schemaFile: SCHEMA_FILE });
  await ok(`mutation { createLibrary(input: { id: "central", name: "Central" }) { id } }`);
  await ok(`mutation { addBook(library: "central", input: { id: "dune", title: "Dune", author: "Frank Herbert" }) { id } }`);
  for (const m of MEMBERS) {
    await ok(`mutation { join(input: { id: "${m}", name: "Member ${m}" }) { id } }`);
    await ok(`mutation { reserve(book: "dune", member: "${m}") { reservedAt } }`);
  }
  await gw.settle();
});
afterAll(() => gw?.stop());

const reservations = async () => (await gw.scan()).filter((i) => i.PK === 'BOOK#dune#RESERVED');

describe('a rename of a child type whose field edges copy', () => {
  it('reaches the copy on every edge and removes the mark once the stream is processed', async () => {
    const { result, requests } = await gw.counted(`mutation { updateBook(id: "dune", input: { title: "Dune Messiah" }) { title } }`);
    expect(result.data.updateBook.title).toBe('Dune Messiah');
    // The book found by its id (GSI1), read, and written with its mark: the edges are the processor's.
    expect(requests.byOperation).toEqual({ Query: 1, GetItem: 1, UpdateItem: 1 });
    expect(await gw.get('LIB#central', 'BOOK#dune')).toHaveProperty('propagatingSince');

    await gw.settle();
    const edges = await reservations();
    expect(edges).toHaveLength(MEMBERS.length);
    expect(edges.map((e) => [e.bookTitle, e.bookTitleVersion])).toEqual(MEMBERS.map(() => ['Dune Messiah', 1]));
    expect(await gw.get('LIB#central', 'BOOK#dune')).not.toHaveProperty('propagatingSince');
    // Read back from the copies on the member's side.
    const member = await ok(`{ member(id: "ann") { reservations(first: 5) { edges { node { id title } } } } }`);
    expect(member.member.reservations.edges).toEqual([{ node: { id: 'dune', title: 'Dune Messiah' } }]);
  });

  it('leaves nothing for the table check to find', async () => {
    const report = await runCheck(checkOptionsOf(gw));
    expect(report.found, JSON.stringify(report.findings)).toBe(0);
  });
});
