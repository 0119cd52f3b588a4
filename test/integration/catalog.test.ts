/**
 * Query.courses and Query.students over the sharded GSI2 catalogs, against
 * DynamoDB Local: exact Relay pages both ways over lists of 0, 1, 20, 21 and
 * 150 entities, order and prefix search without case or accents, renames
 * moving an entity, exact totalCount from the shard counters, and argument
 * and cursor checks that cost no DynamoDB request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCounterItems, catalogSortKey, courseItem, studentItem } from '../support/defaultItems.js';
import { CATALOG_SHARDS } from '../../src/dynamo/keys.js';
import { compareKeyStrings } from '../../src/connections/mergedShards.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;

/**
 * Lists of several sizes in one catalog, told apart by a prefix ("p1 " matches the 1, not the 150).
 * The largest spreads about 19 courses over each of the 8 shards: pages of 13 end inside a shard,
 * pages of 50 take whole shards and end exactly on the last course.
 */
const SIZES = [1, 20, 21, 150];
const accents = ['É', 'e', 'E', 'é', 'ê'];
const courses: { id: string; title: string }[] = [];
for (const size of SIZES) {
  for (let i = 0; i < size; i++) {
    // Titles that differ only in case and accents tie, and then order by id.
    courses.push({ id: `p${size}-${String(size - i).padStart(3, '0')}`, title: `P${size} ${accents[i % 5]}lan ${i % 7}` });
  }
}
const expectedOrder = (list: { id: string; title: string }[]) =>
  [...list].sort((a, b) => compareKeyStrings(catalogSortKey('COURSE', a.id, a.title), catalogSortKey('COURSE', b.id, b.title))).map((c) => c.id);

beforeAll(async () => {
  gw = await testGateway();
  const items: Item[] = courses.map((c) => courseItem({ ...c, studentCount: 0 }));
  await gw.put([...items, ...catalogCounterItems(items)]);
});
afterAll(() => gw.stop());

const PAGE = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } }`;

/** Pages through a list forward (first/after) or backward (last/before); checks every page's flags. */
async function walk(field: 'courses' | 'students', extra: string, size: number, forward: boolean) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  const lengths: number[] = [];
  for (;;) {
    const paging: string = forward ? `first: ${size}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${size}${cursor ? `, before: "${cursor}"` : ''}`;
    const result: any = await gw.run(`{ ${field}(${paging}${extra}) { ${PAGE} } }`);
    expect(result.errors).toBeUndefined();
    const conn: any = result.data[field];
    const ids = conn.edges.map((e: any) => e.node.id);
    const more = forward ? conn.pageInfo.hasNextPage : conn.pageInfo.hasPreviousPage;
    const behind = forward ? conn.pageInfo.hasPreviousPage : conn.pageInfo.hasNextPage;
    expect(behind).toBe(pages > 0); // exact on the side the cursor came from, too
    lengths.push(ids.length);
    if (forward) seen.push(...ids);
    else seen.unshift(...ids);
    pages += 1;
    if (!more) {
      // Never a short page while more remain: every page but the last is full.
      expect(lengths.slice(0, -1)).toEqual(lengths.slice(0, -1).map(() => size));
      break;
    }
    expect(ids.length).toBeGreaterThan(0); // and never an empty one promised
    cursor = forward ? conn.pageInfo.endCursor : conn.pageInfo.startCursor;
  }
  return { seen, pages };
}

describe('catalog lists page exactly in both directions', () => {
  for (const size of [0, ...SIZES]) {
    const list = courses.filter((c) => c.id.startsWith(`p${size}-`));
    const pageSizes = size <= 1 ? [1, 20] : size === 150 ? [13, 50] : [7, 20];
    it(`over ${size} courses, forward and backward, at page sizes ${pageSizes.join(' and ')}`, async () => {
      const field = size === 0 ? 'students' : 'courses'; // no student exists: the empty catalog
      const extra = size === 0 ? '' : `, ${field === 'courses' ? 'titlePrefix' : 'namePrefix'}: "p${size} "`;
      for (const pageSize of pageSizes) {
        for (const forward of [true, false]) {
          const { seen, pages } = await walk(field, extra, pageSize, forward);
          expect(seen).toEqual(expectedOrder(list));
          expect(pages).toBe(Math.max(1, Math.ceil(list.length / pageSize)));
        }
      }
    });
  }

  it('lists the whole catalog in order and counts it from the shard counters', async () => {
    const { seen } = await walk('courses', '', 100, true);
    expect(seen).toEqual(expectedOrder(courses));
    const { result, requests } = await gw.counted(`{ courses(first: 5) { totalCount edges { node { id } } } }`);
    expect(result.data.courses.totalCount).toBe(courses.length);
    // One wave of a Query per shard for the page, one BatchGetItem of the shard counters for totalCount.
    expect(requests.byOperation).toEqual({ Query: CATALOG_SHARDS, BatchGetItem: 1 });
  });

  it('reads one Query per shard for a page when totalCount is not selected', async () => {
    const { requests } = await gw.counted(`{ courses(first: 20, titlePrefix: "p150") { edges { node { id title } } } }`);
    expect(requests.byOperation).toEqual({ Query: CATALOG_SHARDS });
  });
});

describe('prefix search', () => {
  let search: TestGateway;
  beforeAll(async () => {
    search = await testGateway();
    for (const [id, title] of [
      ['a1', 'Ålgebra'],
      ['a2', 'algebra II'],
      ['a3', 'ALGORITHMS'],
      ['a4', 'Alchemy'],
      ['a5', 'Bœuf bourguignon'],
      ['a6', 'Straße'],
      ['a7', 'Al'],
      ['a8', 'Alan  Turing Lectures'],
    ]) {
      const r = await search.run(`mutation($id: ID!, $t: String!) { createCourse(input: { id: $id, title: $t }) { id } }`, { id, t: title });
      expect(r.errors).toBeUndefined();
    }
  });
  afterAll(() => search.stop());

  const titles = async (prefix: string) => {
    const r = await search.run(`query($p: String) { courses(titlePrefix: $p) { totalCount edges { node { title } } } }`, { p: prefix });
    expect(r.errors).toBeUndefined();
    expect(r.data.courses.totalCount).toBe(r.data.courses.edges.length);
    return r.data.courses.edges.map((e: any) => e.node.title);
  };

  it('matches without case or accents, in the same order as the list', async () => {
    expect(await titles('AL')).toEqual(['Al', 'Alan  Turing Lectures', 'Alchemy', 'Ålgebra', 'algebra II', 'ALGORITHMS']);
    expect(await titles('ålg')).toEqual(['Ålgebra', 'algebra II', 'ALGORITHMS']);
    expect(await titles('ALGÈBRA')).toEqual(['Ålgebra', 'algebra II']);
  });

  it('folds letters without a decomposition and compares runs of spaces as one', async () => {
    expect(await titles('boeuf')).toEqual(['Bœuf bourguignon']);
    expect(await titles('STRASS')).toEqual(['Straße']);
    expect(await titles('alan turing')).toEqual(['Alan  Turing Lectures']);
  });

  it('keeps a trailing space: "Al " is a word, not the start of one', async () => {
    expect(await titles('Al ')).toEqual([]);
    expect(await titles('Alan ')).toEqual(['Alan  Turing Lectures']);
  });

  it('finds nothing for a prefix nothing starts with', async () => {
    expect(await titles('zz')).toEqual([]);
  });

  it('moves a renamed course to its new place, in the list and in searches; totalCount stays', async () => {
    const before = await search.run(`{ courses { totalCount edges { node { id } } } }`);
    expect(before.data.courses.edges.map((e: any) => e.node.id)).toEqual(['a7', 'a8', 'a4', 'a1', 'a2', 'a3', 'a5', 'a6']);
    const renamed = await search.run(`mutation { updateCourse(id: "a7", input: { title: "Zoology" }) { title } }`);
    expect(renamed.errors).toBeUndefined();
    const after = await search.run(`{ courses { totalCount edges { node { id title } } } }`);
    expect(after.data.courses.edges.map((e: any) => e.node.id)).toEqual(['a8', 'a4', 'a1', 'a2', 'a3', 'a5', 'a6', 'a7']);
    expect(after.data.courses.totalCount).toBe(before.data.courses.totalCount);
    expect(await titles('al')).not.toContain('Zoology');
    expect(await titles('zoo')).toEqual(['Zoology']);
  });

  it('counts creates and deletes in totalCount', async () => {
    const count = async () => (await search.run(`{ courses { totalCount } students { totalCount } }`)).data;
    const before = await count();
    await search.run(`mutation { createCourse(input: { id: "n1", title: "New" }) { id } createStudent(input: { id: "s1", name: "Émile" }) { id } }`);
    expect(await count()).toEqual({ courses: { totalCount: before.courses.totalCount + 1 }, students: { totalCount: before.students.totalCount + 1 } });
    await search.run(`mutation { deleteCourse(id: "n1") }`);
    // The delete marks the course; the stream processor's final delete takes its catalog count with it.
    await search.settle();
    expect((await count()).courses.totalCount).toBe(before.courses.totalCount);
    const students = await search.run(`{ students(namePrefix: "emile") { edges { node { id name } } } }`);
    expect(students.data.students.edges).toEqual([{ node: { id: 's1', name: 'Émile' } }]);
  });
});

describe('argument and cursor checks of the catalog lists', () => {
  const refused = async (query: string) => {
    const { result, requests } = await gw.counted(query);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(requests.requests).toBe(0);
    return result;
  };

  it('refuses empty, blank and over-long prefixes before any DynamoDB request', async () => {
    await refused(`{ courses(titlePrefix: "") { edges { cursor } } }`);
    await refused(`{ students(namePrefix: "   ") { edges { cursor } } }`);
    await refused(`{ courses(titlePrefix: "${'x'.repeat(101)}") { edges { cursor } } }`);
  });

  it('refuses a cursor of one search in another, and a list cursor in a search', async () => {
    const page = await gw.run(`{ courses(first: 1, titlePrefix: "p20") { pageInfo { endCursor } } }`);
    const cursor = page.data.courses.pageInfo.endCursor;
    const ok = await gw.run(`{ courses(first: 1, titlePrefix: "P20", after: "${cursor}") { edges { node { id } } } }`);
    expect(ok.errors).toBeUndefined(); // the same search, written differently
    const result = await refused(`{ courses(first: 1, titlePrefix: "p21", after: "${cursor}") { edges { cursor } } }`);
    expect(result.errors![0].message).toMatch(/other arguments/);
    await refused(`{ courses(first: 1, after: "${cursor}") { edges { cursor } } }`);
    await refused(`{ students(first: 1, namePrefix: "p20", after: "${cursor}") { edges { cursor } } }`);
  });

  it('counts a catalog page in the query cost: page size per item, plus one per shard', async () => {
    const { result } = await gw.counted(
      `{ courses(first: 100) { edges { node { students(first: 100) { edges { node { courses(first: 100) { edges { cursor } } } } } } } } }`,
    );
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});
