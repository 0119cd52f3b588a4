/**
 * Edge keys holding more than the ends' ids: edge fields fixed by @addEdge
 * (`{since}#{tier}#P#{follower}`: followers newest first), an edge id of
 * its own (`L#{id}#B#{book}`: the same member and book linked many times),
 * and @edges(from, until) ranges over the first placeholder. Items are
 * checked raw; pages exact both ways; request counts exact.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOptionsOf, testGateway, type TestGateway } from '../support/gateway.js';
import { runCheck } from '../../src/migration/check.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await testGateway({ schemaFile: fileURLToPath(new URL('../../examples/follows.graphql', import.meta.url)) });
  for (const id of ['a', 'b', 'c', 'd', 'e']) await gw.run(`mutation { createPerson(input: { id: "${id}", name: "Person ${id}" }) { id } }`);
  for (const id of ['m1', 'm2']) await gw.run(`mutation { createMember(input: { id: "${id}", name: "Member ${id}" }) { id } }`);
  for (const id of ['b1', 'b2']) await gw.run(`mutation { createBook(input: { id: "${id}", title: "Book ${id}" }) { id } }`);
});
afterAll(() => gw?.stop());

type Page = {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
};
const ids = (page: Page) => page.edges.map((e) => e.node.id);
const PAGE = 'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
const day = (d: number) => `2026-03-0${d}T10:00:00.000Z`;

describe('edge keys holding edge fields', () => {
  it('follow writes the fields into the edge key and as attributes of the mirror, with both counters, in one transaction', async () => {
    const { result, requests } = await gw.counted(
      `mutation { follow(personId: "a", followerId: "b", since: "2026-03-01T10:00:00Z", tier: GOLD) { since tier node { id } } }`,
    );
    expect(result).toEqual({ data: { follow: { since: day(1), tier: 'GOLD', node: { id: 'b' } } } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    // Read back from the key, not stored twice; the mirror's key holds neither, so it stores both.
    expect(await gw.get('P#a#followers', `${day(1)}#GOLD#P#b`)).toEqual({ pk: 'P#a#followers', sk: `${day(1)}#GOLD#P#b` });
    expect(await gw.get('P#b#following', 'P#a')).toEqual({ pk: 'P#b#following', sk: 'P#a', since: day(1), tier: 'GOLD' });
    expect((await gw.get('P#a', 'profile'))?.followerCount).toBe(1);
    expect((await gw.get('P#b', 'profile'))?.followingCount).toBe(1);
  });

  it('refuses a second follow of the pair through the mirror, whose key is one per pair (CONFLICT), writing nothing', async () => {
    const before = await gw.scan();
    const again = await gw.counted(`mutation { follow(personId: "a", followerId: "b", since: "${day(2)}", tier: SILVER) { since } }`);
    expect(again.result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.result.errors?.[0]?.message).toBe('Person a is already followed by person b');
    expect(again.requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.scan()).toEqual(before);
  });

  it('pages followers newest first, exactly both ways, one Query a page, fields read from the keys', async () => {
    await gw.run(`mutation { follow(personId: "a", followerId: "c", since: "${day(3)}", tier: SILVER) { since } }`);
    await gw.run(`mutation { follow(personId: "a", followerId: "d", since: "${day(2)}", tier: GOLD) { since } }`);
    await gw.run(`mutation { follow(personId: "a", followerId: "e", since: "${day(4)}", tier: GOLD) { since } }`);
    const first = await gw.counted(`{ person(id: "a") { followers(first: 2) { totalCount edges { since tier } ${PAGE} } } }`);
    const page1 = first.result.data.person.followers;
    expect([ids(page1), page1.totalCount, page1.pageInfo.hasNextPage, page1.pageInfo.hasPreviousPage]).toEqual([['e', 'c'], 4, true, false]);
    expect(page1.edges.map((e: { since: string; tier: string }) => [e.since, e.tier])).toEqual([
      [day(4), 'GOLD'],
      [day(3), 'SILVER'],
    ]);
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const next = await gw.counted(
      `query($a: String) { person(id: "a") { followers(first: 2, after: $a) { edges { node { id } } pageInfo { hasNextPage } } } }`,
      { a: page1.pageInfo.endCursor },
    );
    expect([ids(next.result.data.person.followers), next.result.data.person.followers.pageInfo.hasNextPage]).toEqual([['d', 'b'], false]);
    expect(next.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const last = await gw.run(`{ person(id: "a") { followers(last: 3) { ${PAGE} } } }`);
    expect([ids(last.data.person.followers), last.data.person.followers.pageInfo.hasPreviousPage]).toEqual([['c', 'd', 'b'], true]);
    const back = await gw.run(`query($b: String) { person(id: "a") { followers(last: 3, before: $b) { ${PAGE} } } }`, {
      b: last.data.person.followers.pageInfo.startCursor,
    });
    expect([ids(back.data.person.followers), back.data.person.followers.pageInfo.hasPreviousPage]).toEqual([['e'], false]);
    // The mirror's edges read the fields it stores.
    const following = await gw.run(`{ person(id: "d") { following(first: 5) { edges { since tier node { id } } } } }`);
    expect(following.data.person.following.edges).toEqual([{ since: day(2), tier: 'GOLD', node: { id: 'a' } }]);
  });

  it('narrows followers to a range of since (from <= since < until), exactly both ways, one Query a page', async () => {
    const q = `query($a: String) { person(id: "a") { followers(first: 1, after: $a, since: "2026-03-02", until: "2026-03-04") { ${PAGE} } } }`;
    const first = await gw.counted(q, { a: null });
    const page1 = first.result.data.person.followers;
    expect([ids(page1), page1.pageInfo.hasNextPage]).toEqual([['c'], true]);
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const second = await gw.run(q, { a: page1.pageInfo.endCursor });
    expect(second.errors).toBeUndefined();
    const page2 = second.data.person.followers;
    expect([ids(page2), page2.pageInfo.hasNextPage]).toEqual([['d'], false]);
    const back = await gw.run(`{ person(id: "a") { followers(last: 5, since: "2026-03-02") { ${PAGE} } } }`);
    expect([ids(back.data.person.followers), back.data.person.followers.pageInfo.hasPreviousPage]).toEqual([['e', 'c', 'd'], false]);
    // A cursor of the range is refused by the whole connection.
    const foreign = await gw.run(`query($a: String) { person(id: "a") { followers(first: 1, after: $a) { ${PAGE} } } }`, { a: page1.pageInfo.endCursor });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('unfollow finds the edge by its key fields: both items and both counts in one transaction; wrong fields are NOT_FOUND', async () => {
    const wrong = await gw.run(`mutation { unfollow(personId: "a", followerId: "d", since: "${day(2)}", tier: SILVER) }`);
    expect(wrong.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(wrong.errors?.[0]?.message).toBe(`Person a has no such edge to person d (since ${day(2)}, tier SILVER)`);
    const { result, requests } = await gw.counted(`mutation { unfollow(personId: "a", followerId: "d", since: "2026-03-02T10:00:00Z", tier: GOLD) }`);
    expect(result).toEqual({ data: { unfollow: true } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('P#a#followers', `${day(2)}#GOLD#P#d`)).toBeUndefined();
    expect(await gw.get('P#d#following', 'P#a')).toBeUndefined();
    expect((await gw.get('P#a', 'profile'))?.followerCount).toBe(3);
    expect((await gw.get('P#d', 'profile'))?.followingCount).toBe(0);
  });

  it('a String key field: one edge per value for the same pair, a # in it refused before any request', async () => {
    for (const label of ['vip', 'author'])
      expect((await gw.run(`mutation { tag(personId: "b", taggerId: "c", label: "${label}") { label node { id } } }`)).errors).toBeUndefined();
    expect(await gw.get('P#c#tagged', 'vip#P#b')).toEqual({ pk: 'P#c#tagged', sk: 'vip#P#b' });
    const again = await gw.run(`mutation { tag(personId: "b", taggerId: "c", label: "vip") { label } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const hash = await gw.counted(`mutation { tag(personId: "b", taggerId: "c", label: "a#b") { label } }`);
    expect(hash.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(hash.result.errors?.[0]?.message).toBe("label may not contain '#': it is part of the key");
    expect(hash.requests.requests).toBe(0);
    const tags = await gw.run(`{ person(id: "b") { tags(first: 5) { totalCount edges { label node { id } } } } }`);
    expect(tags.data.person.tags).toEqual({
      totalCount: 2,
      edges: [
        { label: 'author', node: { id: 'c' } },
        { label: 'vip', node: { id: 'c' } },
      ],
    });
  });

  it('a delete of the follower removes each pair through its mirror, with the count at the other end', async () => {
    await gw.run(`mutation { follow(personId: "c", followerId: "e", since: "${day(5)}", tier: GOLD) { since } }`);
    expect(await gw.run(`mutation { deletePerson(id: "e") }`)).toEqual({ data: { deletePerson: 'e' } });
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.pk).startsWith('P#e') || String(i.sk).endsWith('P#e'))).toEqual([]);
    expect((await gw.get('P#a', 'profile'))?.followerCount).toBe(2);
    expect((await gw.get('P#c', 'profile'))?.followerCount).toBe(0);
  });
});

describe('edges with an id of their own', () => {
  const loan = 'id borrowedAt node { id }';
  let loans: string[] = [];

  it('lend writes a new loan each time, with a generated or a given id, and counts every one', async () => {
    const first = await gw.counted(`mutation { lend(memberId: "m1", bookId: "b1") { ${loan} } }`);
    expect(first.requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    const id1 = first.result.data.lend.id as string;
    expect(id1).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const second = await gw.run(`mutation { lend(memberId: "m1", bookId: "b1") { ${loan} } }`);
    const id2 = second.data.lend.id as string;
    expect(id2 > id1).toBe(true);
    const given = await gw.run(`mutation { lend(memberId: "m1", bookId: "b2", id: "ZZ1") { ${loan} } }`);
    expect(given.data.lend).toMatchObject({ id: 'ZZ1', node: { id: 'b2' } });
    loans = [id1, id2, 'ZZ1'];
    const edge = await gw.get('M#m1#loans', `L#${id1}#B#b1`);
    expect(Object.keys(edge!).sort()).toEqual(['borrowedAt', 'pk', 'sk']);
    const mirror = await gw.get('B#b1#loans', `L#${id1}#M#m1`);
    expect(mirror).toEqual({ ...edge, pk: 'B#b1#loans', sk: `L#${id1}#M#m1` });
    expect((await gw.get('M#m1', 'profile'))?.loanCount).toBe(3);
    expect((await gw.get('B#b1', 'info'))?.loanCount).toBe(2);
    // The same id again is CONFLICT, nothing written.
    const again = await gw.run(`mutation { lend(memberId: "m1", bookId: "b2", id: "ZZ1") { id } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.errors?.[0]?.message).toBe('an edge ZZ1 of Member.loans exists already');
    expect((await gw.get('M#m1', 'profile'))?.loanCount).toBe(3);
  });

  it('pages every loan exactly both ways, each direction one Query a page', async () => {
    const first = await gw.counted(`{ member(id: "m1") { loans(first: 2) { totalCount edges { id } ${PAGE} } } }`);
    const page1 = first.result.data.member.loans;
    expect([page1.edges.map((e: { id: string }) => e.id), ids(page1), page1.totalCount, page1.pageInfo.hasNextPage]).toEqual([
      loans.slice(0, 2),
      ['b1', 'b1'],
      3,
      true,
    ]);
    expect(first.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const page2 = (
      await gw.run(`query($a: String) { member(id: "m1") { loans(first: 2, after: $a) { edges { id } ${PAGE} } } }`, { a: page1.pageInfo.endCursor })
    ).data.member.loans;
    expect([page2.edges.map((e: { id: string }) => e.id), page2.pageInfo.hasNextPage]).toEqual([['ZZ1'], false]);
    const back = (
      await gw.run(`query($b: String) { member(id: "m1") { loans(last: 2, before: $b) { edges { id } ${PAGE} } } }`, { b: page2.pageInfo.startCursor })
    ).data.member.loans;
    expect([back.edges.map((e: { id: string }) => e.id), back.pageInfo.hasPreviousPage]).toEqual([loans.slice(0, 2), false]);
    const book = await gw.counted(`{ book(id: "b1") { loans(last: 1) { totalCount edges { id node { id } } pageInfo { hasPreviousPage } } } }`);
    const b = book.result.data.book.loans;
    expect([b.edges, b.totalCount, b.pageInfo.hasPreviousPage]).toEqual([[{ id: loans[1], node: { id: 'm1' } }], 2, true]);
    expect(book.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('giveBack removes the one loan named by its id, both items and both counts; a second is NOT_FOUND', async () => {
    const { result, requests } = await gw.counted(`mutation { giveBack(memberId: "m1", bookId: "b1", id: "${loans[0]}") }`);
    expect(result).toEqual({ data: { giveBack: true } });
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('M#m1#loans', `L#${loans[0]}#B#b1`)).toBeUndefined();
    expect(await gw.get('B#b1#loans', `L#${loans[0]}#M#m1`)).toBeUndefined();
    expect(await gw.get('M#m1#loans', `L#${loans[1]}#B#b1`)).toBeDefined();
    expect((await gw.get('M#m1', 'profile'))?.loanCount).toBe(2);
    expect((await gw.get('B#b1', 'info'))?.loanCount).toBe(1);
    const again = await gw.run(`mutation { giveBack(memberId: "m1", bookId: "b1", id: "${loans[0]}") }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it("a member's delete removes every loan and its mirror, each book's count following", async () => {
    await gw.run(`mutation { lend(memberId: "m2", bookId: "b2") { id } }`);
    expect(await gw.run(`mutation { deleteMember(id: "m1") }`)).toEqual({ data: { deleteMember: 'm1' } });
    await gw.settle();
    expect((await gw.scan()).filter((i) => String(i.pk).startsWith('M#m1') || String(i.sk).endsWith('#M#m1'))).toEqual([]);
    expect((await gw.get('B#b1', 'info'))?.loanCount).toBe(0);
    expect((await gw.get('B#b2', 'info'))?.loanCount).toBe(1);
    const b2 = await gw.run(`{ book(id: "b2") { loans(first: 5) { totalCount edges { node { id } } } } }`);
    expect(b2.data.book.loans).toEqual({ totalCount: 1, edges: [{ node: { id: 'm2' } }] });
  });
});

describe('the table check', () => {
  it('finds the table as written: key-held fields read from the keys, mirrors matching, counters exact', async () => {
    const report = await runCheck(checkOptionsOf(gw));
    expect(report.found, JSON.stringify(report.findings)).toBe(0);
  });
});
