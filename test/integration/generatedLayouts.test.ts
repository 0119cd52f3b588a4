/**
 * Property test over generated layouts: a parent type and a child type
 * laid out at random (literal prefixes and their order, the child in its
 * parent's partition or in one of its own, read from the table or from a
 * declared index whose sort key is built from a field, sparse children
 * left out of the index; keys written as given or lower- or upper-cased,
 * ids in either case), filled through the gateway's own mutations, then
 * paged at random both ways. Every page is compared with an in-memory
 * reference of the same declaration (the items sorted by the key they are
 * read by), and every read costs the computed minimum of DynamoDB requests.
 *
 * generatedIndexLayouts.test.ts generates the rest: sort keys from fields
 * of several kinds, keys without {id}, multi-attribute and inverted indexes.
 *
 * TEST_DEPTH (default 1) multiplies the number of layouts tried.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildModel } from '../../src/declaration/buildModel.js';
import { FORWARD_OVER_READ, prefixEnd } from '../../src/dynamo/collection.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH as DEPTH } from '../support/depth.js';
import { patience } from '../support/patience.js';

interface Layout {
  /** Literal parts: the parent's partition prefix and sort key, the child's sort-key prefix. */
  parentPrefix: string;
  parentSk: string;
  childSkPrefix: string;
  /** The child's partition: the parent's own, or one of its own (`<parent partition>#<suffix>`). */
  ownPartition: string | null;
  /** Read through a declared index whose sort key is `<indexSkPrefix>{rank}#{id}`, or from the table. */
  index: { pkPrefix: string; skPrefix: string } | null;
  /** The case the table's and the index's keys are written in (@table/@index(casing:)). */
  casing: 'NONE' | 'LOWER' | 'UPPER';
}

/** A key's text as the layout's keys hold it. */
const casedBy = (layout: Pick<Layout, 'casing'>) => (text: string) =>
  layout.casing === 'LOWER' ? text.toLowerCase() : layout.casing === 'UPPER' ? text.toUpperCase() : text;

interface Child {
  id: string;
  /** Absent: the child is not in the index (sparse). */
  rank: string | null;
}

const literal = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,5}$/);
const layouts: fc.Arbitrary<Layout> = fc.record({
  parentPrefix: literal.map((s) => `${s}#`),
  parentSk: fc.oneof(fc.constantFrom('PROFILE', 'META', 'A', 'zz', '0'), literal),
  childSkPrefix: literal.map((s) => `${s}#`),
  ownPartition: fc.option(literal, { nil: null }),
  index: fc.option(fc.record({ pkPrefix: literal.map((s) => `${s}#`), skPrefix: fc.constantFrom('', 'r#', 'RANK-') }), { nil: null }),
  casing: fc.constantFrom<Layout['casing']>('NONE', 'NONE', 'LOWER', 'UPPER'),
});
// Ids in either case, unique as any cased key holds them (two ids differing in case alone name one item there).
const children: fc.Arbitrary<Child[]> = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^[a-zA-Z0-9]{1,6}$/), rank: fc.option(fc.stringMatching(/^[0-9]{2}$/), { nil: null, freq: 4 }) }),
  { selector: (c) => c.id.toLowerCase(), maxLength: 12 },
);
/** A walk: page sizes and directions, each page continuing from the last one's cursor. */
const walks = fc.record({ forward: fc.boolean(), sizes: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }) });

function sdlOf(layout: Layout): string {
  const childPk = layout.ownPartition === null ? `${layout.parentPrefix}{parent}` : `${layout.parentPrefix}{parent}#${layout.ownPartition}`;
  const index = layout.index;
  return `
    ${index ? `extend schema @table(casing: ${layout.casing}) @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"]) @index(name: "byRank", pk: ["rankPk"], sk: ["rankSk"], casing: ${layout.casing})` : layout.casing === 'NONE' ? '' : `extend schema @table(casing: ${layout.casing})`}
    scalar DateTime
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Parent @item(pk: "${layout.parentPrefix}{id}", sk: "${layout.parentSk}") {
      id: ID!
      name: String!
      kids(first: Int, after: String, last: Int, before: String): KidConnection! ${index ? '@query(index: "byRank")' : '@children(counter: "kidCount")'}
    }
    type KidConnection { edges: [KidEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type KidEdge { cursor: String! node: Kid! }
    type Kid @item(pk: "${childPk}", sk: "${layout.childSkPrefix}{id}")
      ${index ? `@indexed(index: "byRank", pk: ["${index.pkPrefix}{parent}"], sk: ["${index.skPrefix}{rank}#{id}"])` : ''} {
      id: ID!
      rank: String
      parent: Parent! @parent
    }
    input NewParent { id: ID name: String! }
    input NewKid { id: ID rank: String }
    type Query { parent(id: ID!): Parent @get }
    type Mutation {
      createParent(input: NewParent!): Parent! @create
      addKid(parentId: ID!, input: NewKid!): Kid! @create(parent: "parentId")
    }`;
}

/** The reference: the children a read of the declared layout lists, in its order. */
function expected(layout: Layout, kids: Child[]): string[] {
  const cased = casedBy(layout);
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  if (layout.index) {
    return kids
      .filter((k) => k.rank !== null)
      .map((k) => ({ id: k.id, key: cased(`${layout.index!.skPrefix}${k.rank}#${k.id}`) }))
      .sort(byKey)
      .map((k) => k.id);
  }
  return kids
    .map((k) => ({ id: k.id, key: cased(k.id) }))
    .sort(byKey)
    .map((k) => k.id);
}

/**
 * The fewest requests for `parent(id) { name kids(first|last: size) }`: one
 * Query where one range holds the parent and the page, else the GetItem and
 * the page's Query (sent together).
 */
function minimumRequests(layout: Layout, count: number, size: number, forward: boolean): number {
  const samePartition = layout.index === null && layout.ownPartition === null;
  const [parentSk, childSkPrefix] = [casedBy(layout)(layout.parentSk), casedBy(layout)(layout.childSkPrefix)];
  // The parent sorts after every child: one Query from the children's prefix up to the parent.
  const parentAfterChildren = parentSk >= prefixEnd(childSkPrefix);
  // The parent sorts before every child: read forward, one Query from the parent reaches the page.
  if (samePartition && forward && parentSk < childSkPrefix) return 1;
  if (!samePartition || !parentAfterChildren) return 2;
  // Read backward the parent comes first; read forward it is reached when the page and a few children more hold them all.
  return !forward || count <= size + 1 + FORWARD_OVER_READ ? 1 : 2;
}

const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gw of gateways) await gw.stop();
});

describe('generated layouts', () => {
  it(
    'page exactly both ways, as the reference orders them, at the computed minimum of requests',
    async () => {
      await fc.assert(
        fc.asyncProperty(layouts, children, walks, async (layout, kids, walk) => {
          // The parent's own sort key must not fall among the children's (as the cased keys hold them): the model refuses that (overlapping prefixes).
          const [parentSk, childSkPrefix] = [casedBy(layout)(layout.parentSk), casedBy(layout)(layout.childSkPrefix)];
          fc.pre(!parentSk.startsWith(childSkPrefix) && !childSkPrefix.startsWith(parentSk));
          const model = buildModel(sdlOf(layout), 'generated.graphql');
          const gw = await testGateway({ model });
          gateways.push(gw);
          try {
            expect((await gw.run(`mutation { createParent(input: { id: "p1", name: "P" }) { id } }`)).errors).toBeUndefined();
            for (const kid of kids) {
              const added = await gw.run(`mutation($i: NewKid!) { addKid(parentId: "p1", input: $i) { id } }`, { i: { id: kid.id, rank: kid.rank } });
              expect(added.errors).toBeUndefined();
            }
            const order = expected(layout, kids);

            // The first page with its parent, at the minimum.
            const size = walk.sizes[0]!;
            const page = walk.forward ? `first: ${size}` : `last: ${size}`;
            const { result, requests } = await gw.counted(`{ parent(id: "p1") { name kids(${page}) { edges { node { id } } } } }`);
            expect(result.errors).toBeUndefined();
            const firstIds = result.data.parent.kids.edges.map((e: { node: { id: string } }) => e.node.id);
            expect(firstIds).toEqual(walk.forward ? order.slice(0, size) : order.slice(Math.max(0, order.length - size)));
            expect(requests.requests).toBe(minimumRequests(layout, order.length, size, walk.forward));

            // A walk of pages: each exactly the next slice, its flag exact; after a cursor the parent's GetItem and one Query.
            const seen: string[] = [];
            let cursor: string | null = null;
            let done = false;
            for (const n of walk.sizes) {
              if (done) break;
              const args: string = walk.forward ? `first: ${n}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${n}${cursor ? `, before: "${cursor}"` : ''}`;
              const flags = walk.forward ? 'hasNextPage endCursor' : 'hasPreviousPage startCursor';
              const { result: r, requests: q } = await gw.counted<any>(
                `{ parent(id: "p1") { kids(${args}) { edges { node { id } } pageInfo { ${flags} } } } }`,
              );
              expect(r.errors).toBeUndefined();
              const connection: { edges: { node: { id: string } }[]; pageInfo: Record<string, string | boolean | null> } = r.data.parent.kids;
              const ids = connection.edges.map((e) => e.node.id);
              const rest = walk.forward ? order.slice(seen.length) : order.slice(0, order.length - seen.length);
              const want = walk.forward ? rest.slice(0, n) : rest.slice(Math.max(0, rest.length - n));
              expect(ids).toEqual(want);
              const more = rest.length > n;
              expect(walk.forward ? connection.pageInfo.hasNextPage : connection.pageInfo.hasPreviousPage).toBe(more);
              expect(q.requests).toBe(cursor ? 2 : minimumRequests(layout, order.length, n, walk.forward));
              if (walk.forward) seen.push(...ids);
              else seen.unshift(...ids);
              cursor = (walk.forward ? connection.pageInfo.endCursor : connection.pageInfo.startCursor) as string | null;
              done = !more;
            }
          } finally {
            await gw.stop();
            gateways.splice(gateways.indexOf(gw), 1);
          }
        }),
        { numRuns: 10 * DEPTH },
      );
    },
    patience(600_000),
  );
});

/*
 * Partitions holding several types: a collection over two or three member
 * types sharing the parent's partition (in the table, or in a declared
 * index where each type is keyed by its own id in the table), with the
 * parent's own item, another type's one item a partition and another type
 * of many items placed at random among or around the members' prefixes
 * (layouts the model refuses, a many-item type inside the members' range,
 * are left out). Paged at random both ways through the root field, one
 * Query a page; the parent with the first page of its type field at the
 * computed minimum (another type of many items between them read across
 * only toward a parent sorting after the members); totalCount exact.
 */
interface MixLayout {
  parentSk: string;
  /** The members' sort-key prefixes (in the index: of their index sort key). */
  members: string[];
  /** Another type's one item a partition (a literal sort key), and another type of many items (a prefix). */
  single: string | null;
  other: string | null;
  index: boolean;
  descending: boolean;
}

const mixLayouts: fc.Arbitrary<MixLayout> = fc.record({
  parentSk: fc.oneof(fc.constantFrom('PROFILE', 'META', 'A', 'zz', '0', '#P'), literal),
  members: fc.uniqueArray(
    literal.map((s) => `${s}#`),
    { minLength: 2, maxLength: 3 },
  ),
  single: fc.option(fc.oneof(fc.constantFrom('PIN', 'B', 'zzz'), literal), { nil: null }),
  other: fc.option(
    literal.map((s) => `${s}#`),
    { nil: null },
  ),
  index: fc.boolean(),
  descending: fc.boolean(),
});
/** Items of each member type under the read parent p1 (ids), and a few under p2 that no read of p1 may return. */
const mixItems = fc.record({
  p1: fc.array(fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,4}$/), { maxLength: 5 }), { minLength: 3, maxLength: 3 }),
  p2: fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,4}$/), { maxLength: 3 }),
  single: fc.boolean(),
  others: fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,4}$/), { maxLength: 3 }),
});

const overlapping = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
const interval = (sk: string, literal: boolean) => (literal ? { lo: sk, hi: `${sk}\u0000` } : { lo: sk, hi: prefixEnd(sk) });
const meets = (a: { lo: string; hi: string }, b: { lo: string; hi: string }) => a.lo < b.hi && b.lo < a.hi;

function mixSdl(layout: MixLayout): string {
  const order = layout.descending ? '(order: DESCENDING)' : '';
  const indexed = (pk: string, sk: string) => (layout.index ? `@indexed(index: "byP", pk: ["${pk}"], sk: ["${sk}"])` : '');
  const member = (name: string, sk: string) =>
    layout.index
      ? `type ${name} @item(pk: "${name}#{id}", sk: "I") ${indexed('X#{owner}', sk)} { id: ID! owner: String! }`
      : `type ${name} @item(pk: "P#{parent}", sk: "${sk}") { id: ID! parent: Parent! @parent }`;
  const types = layout.members.map((sk, k) => member(`M${k}`, `${sk}{id}`));
  if (layout.single !== null) types.push(member('Single', layout.single).replace('sk: "I"', 'sk: "S"'));
  if (layout.other !== null) types.push(member('Other', `${layout.other}{id}`));
  const slot = layout.index ? 'owner: String!' : 'parent: ID!';
  return `
    ${layout.index ? 'extend schema @index(name: "byP", pk: ["xPk"], sk: ["xSk"])' : ''}
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Parent @item(pk: "P#{id}", sk: "${layout.index ? 'P' : layout.parentSk}") ${indexed('X#{id}', layout.parentSk)} {
      id: ID!
      name: String!
      items(first: Int, after: String, last: Int, before: String): MixConnection! @query${layout.index ? `(index: "byP"${layout.descending ? ', order: DESCENDING' : ''})` : order}
    }
    ${types.join('\n')}
    union Mix = ${layout.members.map((_, k) => `M${k}`).join(' | ')}
    type Query {
      parent(id: ID!): Parent @get
      mix(${slot}, first: Int, after: String, last: Int, before: String): MixConnection! @query${layout.index ? `(index: "byP"${layout.descending ? ', order: DESCENDING' : ''})` : order}
    }`;
}

/** The stored items of a layout: the parent p1, the members (and the others) under p1 and p2. */
function mixStored(layout: MixLayout, items: { p1: string[][]; p2: string[]; single: boolean; others: string[] }): Record<string, unknown>[] {
  const put = (type: string, parent: string, id: string, sk: string) =>
    layout.index ? { PK: `${type}#${id}`, SK: type === 'Single' ? 'S' : 'I', owner: parent, xPk: `X#${parent}`, xSk: sk } : { PK: `P#${parent}`, SK: sk };
  const stored: Record<string, unknown>[] = [
    layout.index ? { PK: 'P#p1', SK: 'P', name: 'P', xPk: 'X#p1', xSk: layout.parentSk } : { PK: 'P#p1', SK: layout.parentSk, name: 'P' },
  ];
  layout.members.forEach((prefix, k) => {
    for (const id of items.p1[k]!) stored.push(put(`M${k}`, 'p1', id, `${prefix}${id}`));
    for (const id of items.p2) stored.push(put(`M${k}`, 'p2', `${k}${id}`, `${prefix}${k}${id}`));
  });
  if (layout.single !== null && items.single) stored.push(put('Single', 'p1', 's1', layout.single));
  if (layout.other !== null) for (const id of items.others) stored.push(put('Other', 'p1', id, `${layout.other}${id}`));
  return stored;
}

/** The fewest requests for `parent(id: "p1") { name items(first|last: size) }` (beside.ts's rules, computed from the layout). */
function mixMinimum(layout: MixLayout, count: number, singleAt: string | null, othersAt: string[], size: number, forward: boolean): number {
  const lo = [...layout.members].sort()[0]!;
  const hi = prefixEnd([...layout.members].sort().at(-1)!);
  const own = interval(layout.parentSk, true);
  const side = own.hi <= lo ? 'before' : own.lo >= hi ? 'after' : null;
  if (side === null) return 2;
  const gap = side === 'before' ? { lo: own.lo, hi: lo } : { lo: hi, hi: own.hi };
  // Another type of many items that may sort between: one Query only reading toward a parent after the members.
  const crowded = layout.other !== null && meets(interval(layout.other, false), gap);
  const keyForward = layout.descending ? !forward : forward;
  if (side === 'before') return keyForward && !crowded ? 1 : 2;
  if (!keyForward) return crowded ? 2 : 1;
  // Read ascending toward the parent: reached when the members, and the single read past, fit the page and a few more.
  const single = layout.single === null ? null : interval(layout.single, true);
  const passes = single !== null && (meets(single, { lo, hi }) || meets(single, gap)) ? 1 : 0;
  const before = [...(singleAt === null ? [] : [singleAt]), ...othersAt].filter((sk) => sk >= lo && sk < layout.parentSk).length;
  return count + before <= size + 1 + FORWARD_OVER_READ + passes ? 1 : 2;
}

describe('generated partitions holding several types', () => {
  it(
    'list their members in key order, paged exactly both ways, one Query a page, the parent with its first page at the computed minimum',
    async () => {
      await fc.assert(
        fc.asyncProperty(mixLayouts, mixItems, walks, async (layout, items, walk) => {
          const keys = [layout.parentSk, ...(layout.single === null ? [] : [layout.single]), ...(layout.other === null ? [] : [layout.other])];
          // What the model refuses: overlapping sort keys, and a type of many items inside the members' range.
          fc.pre(new Set(keys).size === keys.length && layout.members.every((m) => keys.every((k) => !overlapping(k, m))));
          const range = { lo: [...layout.members].sort()[0]!, hi: prefixEnd([...layout.members].sort().at(-1)!) };
          fc.pre(layout.other === null || !meets(interval(layout.other, false), range));
          fc.pre(layout.single === null || layout.other === null || !layout.single.startsWith(layout.other));
          const gw = await testGateway({ model: buildModel(mixSdl(layout), 'mixed.graphql') });
          gateways.push(gw);
          try {
            await gw.put(mixStored(layout, items));
            const members = layout.members.flatMap((prefix, k) => items.p1[k]!.map((id) => ({ key: `${prefix}${id}`, ref: `M${k}:${id}` })));
            members.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
            const order = members.map((m) => m.ref);
            if (layout.descending) order.reverse();
            const node = `node { __typename ${layout.members.map((_, k) => `... on M${k} { id }`).join(' ')} }`;
            const refs = (c: { edges: { node: { __typename: string; id: string } }[] }) => c.edges.map((e) => `${e.node.__typename}:${e.node.id}`);
            const singleAt = layout.single !== null && items.single ? layout.single : null;

            const size = walk.sizes[0]!;
            const page = walk.forward ? `first: ${size}` : `last: ${size}`;
            const { result, requests } = await gw.counted(`{ parent(id: "p1") { name items(${page}) { edges { ${node} } } } }`);
            expect(result.errors).toBeUndefined();
            expect(result.data.parent.name).toBe('P');
            expect(refs(result.data.parent.items)).toEqual(walk.forward ? order.slice(0, size) : order.slice(Math.max(0, order.length - size)));
            const othersAt = layout.other === null ? [] : items.others.map((id) => `${layout.other}${id}`);
            expect(requests.requests).toBe(mixMinimum(layout, order.length, singleAt, othersAt, size, walk.forward));

            const slot = layout.index ? 'owner' : 'parent';
            const seen: string[] = [];
            let cursor: string | null = null;
            for (const n of walk.sizes) {
              const args: string = walk.forward ? `first: ${n}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${n}${cursor ? `, before: "${cursor}"` : ''}`;
              const flags = walk.forward ? 'hasNextPage endCursor' : 'hasPreviousPage startCursor';
              const { result: r, requests: q } = await gw.counted<any>(`{ mix(${slot}: "p1", ${args}) { edges { ${node} } pageInfo { ${flags} } } }`);
              expect(r.errors).toBeUndefined();
              const rest = walk.forward ? order.slice(seen.length) : order.slice(0, order.length - seen.length);
              const ids = refs(r.data.mix);
              expect(ids).toEqual(walk.forward ? rest.slice(0, n) : rest.slice(Math.max(0, rest.length - n)));
              expect(walk.forward ? r.data.mix.pageInfo.hasNextPage : r.data.mix.pageInfo.hasPreviousPage).toBe(rest.length > n);
              expect(q.byOperation).toEqual({ Query: 1 });
              if (walk.forward) seen.push(...ids);
              else seen.unshift(...ids);
              if (rest.length <= n) break;
              cursor = walk.forward ? r.data.mix.pageInfo.endCursor : r.data.mix.pageInfo.startCursor;
            }

            // totalCount: the page, the range's count, and each key of a one-a-partition kind inside the range (the parent's, the single's) counted on its own.
            const counted = await gw.counted(`{ mix(${slot}: "p1", first: 1) { totalCount } }`);
            expect(counted.result.data.mix.totalCount).toBe(order.length);
            const inRange = [layout.parentSk, layout.single].filter((k) => k !== null && meets(interval(k, true), range)).length;
            expect(counted.requests.byOperation).toEqual({ Query: 2 + inRange });
          } finally {
            await gw.stop();
            gateways.splice(gateways.indexOf(gw), 1);
          }
        }),
        { numRuns: 10 * DEPTH },
      );
    },
    patience(600_000),
  );
});
