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
  return kids.map((k) => ({ id: k.id, key: cased(k.id) })).sort(byKey).map((k) => k.id);
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
  it('page exactly both ways, as the reference orders them, at the computed minimum of requests', async () => {
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
            const { result: r, requests: q } = await gw.counted<any>(`{ parent(id: "p1") { kids(${args}) { edges { node { id } } pageInfo { ${flags} } } } }`);
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
  }, 600_000);
});
