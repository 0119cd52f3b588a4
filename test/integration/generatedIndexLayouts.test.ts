/**
 * Property test over generated layouts, the second half of
 * generatedLayouts.test.ts: a parent type and a child type with
 * - a child sort key built from a field of a random kind (String, DateTime
 *   written as fixed-width UTC, an enum), with {id} after it or without
 *   {id} at all (the child's id derived from its key, fetched back by it);
 * - a declared index of 2 to 4 key attributes (pk of 1-2, sk of 1-2: a
 *   template with {id}, or two natural fields), read by the parent's field
 *   or by a root field (whose second partition attribute is written from an
 *   Int field), the first sort attribute fixed by an argument or not,
 *   children without the indexed field left out (sparse);
 * - an inverted index over the table's own keys (the parents that hold a
 *   child id), or an `inverted: true` child type found by its id alone;
 * - keys written as given, lower- or upper-cased (@table/@index(casing:)),
 *   ids in either case, and the enum's values stored as their names or as
 *   other text (@attribute(name:) on the value) that sorts otherwise.
 * In the index layouts an update then changes the field the index key
 * holds for some children (one UpdateItem each), which must be listed
 * where their new keys sort and nowhere else.
 * Each layout is filled through the gateway's mutations for three parents,
 * then paged at random both ways; every page is compared with an in-memory
 * reference of the same declaration (the items sorted by the stored text of
 * the key they are read by), and every read costs the computed minimum of
 * DynamoDB requests.
 *
 * TEST_DEPTH (default 1) multiplies the number of layouts tried.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildModel } from '../../src/declaration/buildModel.js';
import { FORWARD_OVER_READ, prefixEnd } from '../../src/dynamo/collection.js';
import { formatDerivedId } from '../../src/plan/derivedId.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH as DEPTH } from '../support/depth.js';
import { patience } from '../support/patience.js';

type Kind = 'String' | 'DateTime' | 'Level';
const LEVELS = ['LOW', 'MID', 'HIGH', 'TOP'];
/** The levels' stored texts when the enum declares them: no GraphQL names, and in another order. */
const LEVEL_TEXTS = ['z-low', 'a mid', 'M.high', 'top!'];
type Casing = 'NONE' | 'LOWER' | 'UPPER';
/** A key's text as a key of this casing holds it. */
const casedBy = (casing: Casing) => (text: string) => (casing === 'LOWER' ? text.toLowerCase() : casing === 'UPPER' ? text.toUpperCase() : text);

interface IndexLayout {
  /** Literal before `{parent}` in the index partition key. */
  pkPrefix: string;
  /** A second partition attribute: a literal for the parent's field, `b{bucket}` (an Int) for a root field. */
  second: boolean;
  /** Sort key: one attribute `<skPrefix>{tag}#{id}`, or two natural attributes (tag, name). */
  skAttrs: 1 | 2;
  skPrefix: string;
  /** Read by a root field (`kidsOf(parent:)`) instead of the parent's field. */
  root: boolean;
}

interface Layout {
  parentPrefix: string;
  parentSk: string;
  childSkPrefix: string;
  ownPartition: string | null;
  kind: Kind;
  /**
   * How the child is keyed and read: its table sort key `<prefix>{tag}#{id}`
   * or `<prefix>{tag}` (no {id}); read through a declared index; listed by
   * an inverted index over the table's keys; or `inverted: true`.
   */
  mode: 'tagId' | 'tag' | 'index' | 'invertedIndex' | 'invertedItem';
  index: IndexLayout;
  /** The table's casing, and the index's when its keys are templates. */
  casing: Casing;
  /** The enum's values stored as LEVEL_TEXTS. */
  texts: boolean;
}

interface Kid {
  parent: string;
  /** Given at create (absent in mode `tag`, where it is derived from the key). */
  id: string;
  /** The field's value as given (an enum: its name), and as stored (DateTime: fixed-width UTC; an enum: its text); null: left out (sparse, in mode `index`). */
  tag: string | null;
  stored: string | null;
  name: string;
  bucket: number;
}

const literal = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,4}$/);
const hashed = literal.map((s) => `${s}#`);
const indexLayouts: fc.Arbitrary<IndexLayout> = fc.record({
  pkPrefix: fc.constantFrom('', 'O#', 'owner-'),
  second: fc.boolean(),
  skAttrs: fc.constantFrom(1 as const, 2 as const),
  skPrefix: fc.constantFrom('', 't#', 'TAG-'),
  root: fc.boolean(),
});
const layoutsOf = (modes: Layout['mode'][]): fc.Arbitrary<Layout> =>
  fc.record({
    parentPrefix: hashed,
    parentSk: fc.oneof(fc.constantFrom('PROFILE', 'META', 'A', 'zz', '0'), literal),
    childSkPrefix: hashed,
    ownPartition: fc.option(literal, { nil: null }),
    kind: fc.constantFrom<Kind>('String', 'DateTime', 'Level'),
    mode: fc.constantFrom(...modes),
    index: indexLayouts,
    casing: fc.constantFrom<Casing>('NONE', 'NONE', 'LOWER', 'UPPER'),
    texts: fc.boolean(),
  });

/** The parents: p1's connections are read; p10 sorts between p1 and p2 as text, and after p1 where `#` follows. */
const PARENTS = ['p1', 'p10', 'p2'];

/**
 * Raw children: ids and tags from small pools, so an id recurs under both
 * parents and children share a tag (then the next sort attribute orders them).
 */
const rawKids = fc.array(
  fc.record({
    // Half the children under the parent whose connections are read, the others under the rest.
    parent: fc.constantFrom(...PARENTS, PARENTS[0]!, PARENTS[0]!),
    id: fc.stringMatching(/^[a-dA-B][1-3]?$/),
    text: fc.stringMatching(/^[a-c0-9]{1,2}$/),
    // Minutes after 2020 and a quarter second: instants differing in each field, most on whole seconds (given without their fraction).
    minutes: fc.constantFrom(0, 1, 59, 60, 1440, 525_600, 4_000_000),
    quarter: fc.integer({ min: 0, max: 3 }),
    level: fc.integer({ min: 0, max: 3 }),
    present: fc.boolean(),
    name: fc.stringMatching(/^[a-z]{1,3}$/),
    bucket: fc.constantFrom(1, 2),
  }),
  { minLength: 6, maxLength: 16 },
);
/**
 * A walk: page sizes and directions, each page continuing from the last
 * one's cursor; `both` selects the flag on the cursor's side too; `fix`
 * picks a tag the argument fixes.
 */
const walks = fc.record({
  forward: fc.boolean(),
  both: fc.boolean(),
  sizes: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
  fix: fc.option(fc.nat(20), { nil: null, freq: 1 }),
});

const BASE = Date.UTC(2020, 0, 1);

/** The children of a layout: unique where its keys need them to be, the tag written in its kind. */
function kidsFrom(
  layout: Layout,
  raw: { parent: string; id: string; text: string; minutes: number; quarter: number; level: number; present: boolean; name: string; bucket: number }[],
): Kid[] {
  const seen = new Set<string>();
  const kids: Kid[] = [];
  raw.forEach((r, i) => {
    const { parent } = r;
    let tag: string;
    let stored: string;
    if (layout.kind === 'String') tag = stored = r.text;
    else if (layout.kind === 'Level') {
      tag = LEVELS[r.level]!;
      stored = layout.texts ? LEVEL_TEXTS[r.level]! : tag;
    } else {
      stored = new Date(BASE + r.minutes * 60_000 + r.quarter * 250).toISOString();
      tag = stored.replace('.000Z', 'Z');
    }
    // The key each layout needs unique: the child's own key, and (inverted: true) its id alone, as the cased key holds them.
    const key = casedBy(layout.casing)(layout.mode === 'tag' ? `${parent}/${stored}` : layout.mode === 'invertedItem' ? r.id : `${parent}/${r.id}`);
    if (seen.has(key)) return;
    seen.add(key);
    const sparse = layout.mode === 'index' && !r.present && i % 3 === 0;
    kids.push({
      parent,
      id: layout.mode === 'tag' ? formatDerivedId([parent, stored]) : r.id,
      tag: sparse ? null : tag,
      stored: sparse ? null : stored,
      // Unique, so no two children share both sort values of a two-attribute index key.
      name: `${r.name}${i}`,
      bucket: r.bucket,
    });
  });
  return kids;
}

function sdlOf(layout: Layout): string {
  const { mode, index, kind } = layout;
  const childPk = layout.ownPartition === null ? `${layout.parentPrefix}{parent}` : `${layout.parentPrefix}{parent}#${layout.ownPartition}`;
  const childSk = mode === 'tagId' ? `${layout.childSkPrefix}{tag}#{id}` : mode === 'tag' ? `${layout.childSkPrefix}{tag}` : `${layout.childSkPrefix}{id}`;
  const indexes: string[] = [];
  const indexed: string[] = [];
  const byBucket = mode === 'index' && index.second && index.root;
  if (mode === 'index') {
    const pk = ['kOwner', ...(index.second ? [index.root ? 'kBucket' : 'kPart'] : [])];
    const sk = index.skAttrs === 1 ? ['kSort'] : ['tag', 'name'];
    // Natural attributes (tag, name) are fields: only an index of templates is cased.
    indexes.push(`@index(name: "byK", pk: ${JSON.stringify(pk)}, sk: ${JSON.stringify(sk)}${index.skAttrs === 1 ? `, casing: ${layout.casing}` : ''})`);
    const pkTemplates = [`${index.pkPrefix}{parent}`, ...(index.second ? [index.root ? 'b{bucket}' : 'part'] : [])];
    const skTemplates = index.skAttrs === 1 ? `, sk: ["${index.skPrefix}{tag}#{id}"]` : '';
    indexed.push(`@indexed(index: "byK", pk: ${JSON.stringify(pkTemplates)}${skTemplates})`);
  }
  if (mode === 'invertedIndex') {
    indexes.push('@index(name: "inverted", pk: ["SK"], sk: ["PK"])');
    indexed.push('@indexed(index: "inverted")');
  }
  const declares = indexes.length > 0 || mode === 'invertedItem' || layout.casing !== 'NONE';
  const page = 'first: Int, after: String, last: Int, before: String';
  // Over two sort attributes, an argument may fix the first (the tag).
  const fixArg = mode === 'index' && index.skAttrs === 2 ? `tag: ${kind}, ` : '';
  const kidsField =
    mode === 'index' && !index.root
      ? `kids(${fixArg}${page}): KidConnection! @query(index: "byK")`
      : `kids(${page}): KidConnection! @children(counter: "kidCount")`;
  const tagType = mode === 'tagId' || mode === 'tag' ? `${kind}!` : kind;
  return `
    ${declares ? `extend schema @table(casing: ${layout.casing}) @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"]) ${indexes.join(' ')}` : ''}
    scalar DateTime
    enum Level { ${LEVELS.map((l, i) => (layout.texts ? `${l} @attribute(name: ${JSON.stringify(LEVEL_TEXTS[i])})` : l)).join(' ')} }
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Parent @item(pk: "${layout.parentPrefix}{id}", sk: "${layout.parentSk}") {
      id: ID!
      name: String!
      ${kidsField}
    }
    type KidConnection { edges: [KidEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type KidEdge { cursor: String! node: Kid! }
    type Kid @item(pk: "${childPk}", sk: "${childSk}"${mode === 'invertedItem' ? ', inverted: true' : ''}) ${indexed.join(' ')} {
      id: ID!
      tag: ${tagType}
      name: String!
      ${byBucket ? 'bucket: Int!' : ''}
      parent: Parent! @parent
    }
    ${mode === 'invertedIndex' ? `"Known only by the child id it names: the parents holding a child of that id." type Holder { id: ID! kids(${page}): KidConnection! @query(index: "inverted") }` : ''}
    input NewParent { id: ID name: String! }
    input NewKid { ${mode === 'tag' ? '' : 'id: ID '}tag: ${tagType} name: String! ${byBucket ? 'bucket: Int!' : ''} }
    type Query {
      parent(id: ID!): Parent @get
      ${mode === 'tag' || mode === 'invertedItem' ? 'kid(id: ID!): Kid @get' : ''}
      ${mode === 'invertedIndex' ? 'holder(id: ID!): Holder @get' : ''}
      ${mode === 'index' && index.root ? `kidsOf(parent: ID!, ${byBucket ? 'bucket: Int!, ' : ''}${fixArg}${page}): KidConnection! @query(index: "byK")` : ''}
    }
    type Mutation {
      createParent(input: NewParent!): Parent! @create
      addKid(parentId: ID!, input: NewKid!): Kid! @create(parent: "parentId")
      ${mode === 'index' ? 'moveKid(parentId: ID!, id: ID!, input: KidMove!): Kid! @update(parent: "parentId")' : ''}
    }
    ${mode === 'index' ? `"A field the index key holds: an update moves the child in the index." input KidMove { tag: ${kind} }` : ''}`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The stored text of a child's table sort key (in the table's casing). */
function tableSk(layout: Layout, kid: Kid): string {
  const cased = casedBy(layout.casing);
  if (layout.mode === 'tagId') return cased(`${layout.childSkPrefix}${kid.stored}#${kid.id}`);
  if (layout.mode === 'tag') return cased(`${layout.childSkPrefix}${kid.stored}`);
  return cased(`${layout.childSkPrefix}${kid.id}`);
}

/** The stored text of a child's table partition key. */
const tablePk = (layout: Layout, kid: Kid) =>
  casedBy(layout.casing)(`${layout.parentPrefix}${kid.parent}${layout.ownPartition === null ? '' : `#${layout.ownPartition}`}`);

/** The reference: what `p1`'s connection lists (a root field: also `bucket`; an argument: also the fixed tag), in its order. */
function expectedKids(layout: Layout, kids: Kid[], fixed: string | null, bucket: number | null): string[] {
  const mine = kids.filter((k) => k.parent === 'p1');
  if (layout.mode !== 'index')
    return mine
      .map((k) => ({ id: k.id, key: tableSk(layout, k) }))
      .sort((a, b) => byText(a.key, b.key))
      .map((k) => k.id);
  const { index } = layout;
  return mine
    .filter((k) => k.stored !== null && (fixed === null || k.stored === fixed) && (bucket === null || k.bucket === bucket))
    .sort((a, b) => {
      if (index.skAttrs === 2) return byText(a.stored!, b.stored!) || byText(a.name, b.name);
      const cased = casedBy(layout.casing);
      return byText(cased(`${index.skPrefix}${a.stored}#${a.id}`), cased(`${index.skPrefix}${b.stored}#${b.id}`));
    })
    .map((k) => k.id);
}

/**
 * The fewest requests for `parent(id) { name kids(first|last: size) }` read
 * from the table: one Query where one range holds the parent and the page,
 * else the GetItem and the page's Query (sent together).
 */
function tableMinimum(layout: Layout, count: number, size: number, forward: boolean): number {
  if (layout.ownPartition !== null) return 2;
  const cased = casedBy(layout.casing);
  const [parentSk, childSkPrefix] = [cased(layout.parentSk), cased(layout.childSkPrefix)];
  const parentAfterChildren = parentSk >= prefixEnd(childSkPrefix);
  if (forward && parentSk < childSkPrefix) return 1;
  if (!parentAfterChildren) return 2;
  return !forward || count <= size + 1 + FORWARD_OVER_READ ? 1 : 2;
}

type Connection = { edges: { node: { id: string; parent?: { id: string } } }[]; pageInfo: Record<string, string | boolean | null> };
type Read = (args: string) => Promise<{ connection: Connection; requests: number }>;

interface Walk {
  forward: boolean;
  both: boolean;
  sizes: number[];
}

/** The pageInfo a walk selects: the flag on the reading side and its cursor, with `both` the other flag too. */
const flagsOf = ({ forward, both }: Walk) =>
  both ? 'hasNextPage hasPreviousPage startCursor endCursor' : forward ? 'hasNextPage endCursor' : 'hasPreviousPage startCursor';

/**
 * Walks a connection from one end in pages of `sizes`: each page exactly the
 * next slice of `order` (`key` names an edge), the selected flags exact, and
 * each page at `cost(first page?)` requests, plus the check of the cursor's
 * side when its flag is selected (one Limit-1 Query).
 */
async function walk(
  read: Read,
  order: string[],
  key: (node: Connection['edges'][number]['node']) => string,
  { forward, both, sizes }: Walk,
  cost: (first: boolean, size: number) => number,
) {
  let seen = 0;
  let cursor: string | null = null;
  for (const n of sizes) {
    const args = forward ? `first: ${n}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${n}${cursor ? `, before: "${cursor}"` : ''}`;
    const { connection, requests } = await read(args);
    const rest = forward ? order.slice(seen) : order.slice(0, order.length - seen);
    const want = forward ? rest.slice(0, n) : rest.slice(Math.max(0, rest.length - n));
    expect(connection.edges.map((e) => key(e.node))).toEqual(want);
    expect(forward ? connection.pageInfo.hasNextPage : connection.pageInfo.hasPreviousPage).toBe(rest.length > n);
    if (both) expect(forward ? connection.pageInfo.hasPreviousPage : connection.pageInfo.hasNextPage).toBe(seen > 0);
    expect(requests).toBe(cost(cursor === null, n) + (both && cursor !== null ? 1 : 0));
    seen += want.length;
    cursor = (forward ? connection.pageInfo.endCursor : connection.pageInfo.startCursor) as string | null;
    if (rest.length <= n) break;
  }
}

const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gw of gateways) await gw.stop();
});

/** Serves a layout on a fresh table, fills it (the parents, then their children) and runs `check`. */
async function served(layout: Layout, kids: Kid[], check: (gw: TestGateway) => Promise<void>) {
  const gw = await testGateway({ model: buildModel(sdlOf(layout), 'generated.graphql') });
  gateways.push(gw);
  try {
    for (const p of PARENTS) expect((await gw.run(`mutation { createParent(input: { id: "${p}", name: "P" }) { id } }`)).errors).toBeUndefined();
    const byBucket = layout.mode === 'index' && layout.index.second && layout.index.root;
    for (const kid of kids) {
      const input = { ...(layout.mode === 'tag' ? {} : { id: kid.id }), tag: kid.tag, name: kid.name, ...(byBucket ? { bucket: kid.bucket } : {}) };
      const added = await gw.run(`mutation($p: ID!, $i: NewKid!) { addKid(parentId: $p, input: $i) { id } }`, { p: kid.parent, i: input });
      expect(added.errors).toBeUndefined();
      // Without {id} in its key, the id is derived from the key's values (the parent's id, the tag as stored).
      expect(added.data.addKid.id).toBe(kid.id);
    }
    await check(gw);
  } finally {
    await gw.stop();
    gateways.splice(gateways.indexOf(gw), 1);
  }
}

/** Pages `p1`'s children read from the table, at the minimum, with their parent. */
async function walkTableKids(gw: TestGateway, layout: Layout, kids: Kid[], w: Walk) {
  const order = expectedKids(layout, kids, null, null);
  const read: Read = async (args) => {
    const { result, requests } = await gw.counted(`{ parent(id: "p1") { name kids(${args}) { edges { node { id } } pageInfo { ${flagsOf(w)} } } } }`);
    expect(result.errors).toBeUndefined();
    return { connection: result.data.parent.kids, requests: requests.requests };
  };
  // After a cursor: the parent's GetItem and the page's Query.
  await walk(
    read,
    order,
    (n) => n.id,
    w,
    (first, n) => (first ? tableMinimum(layout, order.length, n, w.forward) : 2),
  );
}

// The parent's own sort key must not fall among the children's (as the cased keys hold them): the model refuses that (overlapping prefixes).
const apart = (layout: Layout) => {
  const cased = casedBy(layout.casing);
  const [parentSk, childSkPrefix] = [cased(layout.parentSk), cased(layout.childSkPrefix)];
  return !parentSk.startsWith(childSkPrefix) && !childSkPrefix.startsWith(parentSk);
};
/** Layouts tried per kind: more of the index kind, which has the most variants. */
const RUNS = 4 * DEPTH;
const INDEX_RUNS = 6 * DEPTH;

describe('generated layouts: placeholder kinds, keys without {id}, multi-attribute and inverted indexes', () => {
  it(
    'orders children by a sort key built from a String, DateTime or enum field, with {id} or derived ids found again by one GetItem',
    async () => {
      await fc.assert(
        fc.asyncProperty(layoutsOf(['tagId', 'tag']), rawKids, walks, async (layout, raw, w) => {
          fc.pre(apart(layout));
          const kids = kidsFrom(layout, raw);
          await served(layout, kids, async (gw) => {
            await walkTableKids(gw, layout, kids, w);
            if (layout.mode !== 'tag') return;
            // Each derived id finds its child alone, with one GetItem.
            for (const kid of kids.slice(0, 3)) {
              const { result, requests } = await gw.counted(`query($id: ID!) { kid(id: $id) { id tag parent { id } } }`, { id: kid.id });
              expect(result.errors).toBeUndefined();
              // The answer is the GraphQL value: an enum's name, whatever text is stored for it.
              expect(result.data.kid).toEqual({ id: kid.id, tag: layout.kind === 'Level' ? kid.tag : kid.stored, parent: { id: kid.parent } });
              expect(requests.byOperation).toEqual({ GetItem: 1 });
            }
          });
        }),
        { numRuns: RUNS },
      );
    },
    patience(600_000),
  );

  it(
    'pages an index of 2 to 4 key attributes, the first sort attribute fixed or not, sparse children left out',
    async () => {
      await fc.assert(
        fc.asyncProperty(layoutsOf(['index']), rawKids, walks, async (layout, raw, w) => {
          fc.pre(apart(layout));
          const kids = kidsFrom(layout, raw);
          const { index } = layout;
          const bucket = index.second && index.root ? 1 : null;
          // A tag some child of the partition holds, fixed by the argument (two sort attributes only).
          const tags = [
            ...new Set(kids.filter((k) => k.parent === 'p1' && k.stored !== null && (bucket === null || k.bucket === bucket)).map((k) => k.stored!)),
          ].sort();
          const fixed = index.skAttrs === 2 && w.fix !== null && tags.length > 0 ? tags[w.fix % tags.length]! : null;
          const order = expectedKids(layout, kids, fixed, bucket);
          await served(layout, kids, async (gw) => {
            const fixes = index.skAttrs === 2;
            // An instant on a whole second is given without its fraction, as a caller may write it; an enum by its name.
            const given = fixed === null ? null : layout.kind === 'Level' ? kids.find((k) => k.stored === fixed)!.tag : fixed.replace('.000Z', 'Z');
            const vars = { ...(fixes ? { tag: given } : {}), ...(bucket === null ? {} : { bucket }) };
            const declared = [...(fixes ? [`$tag: ${layout.kind}`] : []), ...(bucket === null ? [] : ['$bucket: Int!'])].join(', ');
            const operation = declared === '' ? 'query' : `query(${declared})`;
            const fixArg = fixes ? 'tag: $tag, ' : '';
            const read: Read = async (args) => {
              const selection = `edges { node { id } } pageInfo { ${flagsOf(w)} }`;
              const query = index.root
                ? `${operation} { c: kidsOf(parent: "p1", ${bucket === null ? '' : 'bucket: $bucket, '}${fixArg}${args}) { ${selection} } }`
                : `${operation} { parent(id: "p1") { name c: kids(${fixArg}${args}) { ${selection} } } }`;
              const { result, requests } = await gw.counted(query, vars);
              expect(result.errors).toBeUndefined();
              return { connection: index.root ? result.data.c : result.data.parent.c, requests: requests.requests };
            };
            // A root field: one Query a page; the parent's field: its GetItem beside it.
            await walk(
              read,
              order,
              (n) => n.id,
              w,
              () => (index.root ? 1 : 2),
            );
          });
        }),
        { numRuns: INDEX_RUNS },
      );
    },
    patience(600_000),
  );

  it(
    'moves children in the index when an update changes the field its key holds: one UpdateItem each, then each listed where its new key sorts',
    async () => {
      await fc.assert(
        fc.asyncProperty(layoutsOf(['index']), rawKids, walks, fc.array(fc.nat(50), { minLength: 1, maxLength: 4 }), async (layout, raw, w, picks) => {
          fc.pre(apart(layout));
          const kids = kidsFrom(layout, raw);
          const mine = kids.filter((k) => k.parent === 'p1');
          const valued = kids.filter((k) => k.tag !== null);
          fc.pre(mine.length > 0 && valued.length > 0);
          const { index } = layout;
          const bucket = index.second && index.root ? 1 : null;
          await served(layout, kids, async (gw) => {
            // Each pick moves one of p1's children to another child's value (sparse ones enter the index).
            for (const [i, pick] of picks.entries()) {
              const kid = mine[pick % mine.length]!;
              const to = valued[(pick + i + 1) % valued.length]!;
              const { result, requests } = await gw.counted('mutation($id: ID!, $i: KidMove!) { moveKid(parentId: "p1", id: $id, input: $i) { id tag } }', {
                id: kid.id,
                i: { tag: to.tag },
              });
              expect(result.errors).toBeUndefined();
              expect(requests.byOperation).toEqual({ UpdateItem: 1 });
              kid.tag = to.tag;
              kid.stored = to.stored;
            }
            const order = expectedKids(layout, kids, null, bucket);
            const vars = bucket === null ? {} : { bucket };
            const operation = bucket === null ? 'query' : 'query($bucket: Int!)';
            const read: Read = async (args) => {
              const selection = `edges { node { id } } pageInfo { ${flagsOf(w)} }`;
              const query = index.root
                ? `${operation} { c: kidsOf(parent: "p1", ${bucket === null ? '' : 'bucket: $bucket, '}${args}) { ${selection} } }`
                : `${operation} { parent(id: "p1") { name c: kids(${args}) { ${selection} } } }`;
              const { result, requests } = await gw.counted(query, vars);
              expect(result.errors).toBeUndefined();
              return { connection: index.root ? result.data.c : result.data.parent.c, requests: requests.requests };
            };
            // Where the new keys put them, and nowhere else: the whole order, page by page, at the same cost as before.
            await walk(
              read,
              order,
              (n) => n.id,
              w,
              () => (index.root ? 1 : 2),
            );
          });
        }),
        { numRuns: INDEX_RUNS },
      );
    },
    patience(600_000),
  );

  it("takes the cursors of a parent's field over a two-attribute partition key back, both ways", async () => {
    // Found by the property above: the argument check compared a cursor with the partition's first attribute alone.
    const layout: Layout = {
      ...fc.sample(layoutsOf(['index']), { numRuns: 1, seed: 1 })[0]!,
      parentSk: 'A',
      childSkPrefix: 'B#',
      ownPartition: null,
      kind: 'String',
      index: { pkPrefix: '', second: true, skAttrs: 1, skPrefix: '', root: false },
      casing: 'NONE',
      texts: false,
    };
    const kids = kidsFrom(
      layout,
      ['a', 'b', 'c'].map((id) => ({ parent: 'p1', id, text: id, minutes: 0, quarter: 0, level: 0, present: true, name: id, bucket: 1 })),
    );
    await served(layout, kids, async (gw) => {
      for (const walked of [true, false].flatMap((forward) => [true, false].map((both) => ({ forward, both, sizes: [1, 1, 1] })))) {
        const read: Read = async (args) => {
          const { result, requests } = await gw.counted(`{ parent(id: "p1") { kids(${args}) { edges { node { id } } pageInfo { ${flagsOf(walked)} } } } }`);
          expect(result.errors).toBeUndefined();
          return { connection: result.data.parent.kids, requests: requests.requests };
        };
        await walk(
          read,
          ['a', 'b', 'c'],
          (n) => n.id,
          walked,
          () => 2,
        );
      }
    });
  });

  it('fixes a DateTime sort attribute by an instant given in any precision', async () => {
    // Found by the property above: an instant given without its fraction was compared with the stored text as given.
    const layout: Layout = {
      ...fc.sample(layoutsOf(['index']), { numRuns: 1, seed: 1 })[0]!,
      parentSk: 'A',
      childSkPrefix: 'B#',
      ownPartition: null,
      kind: 'DateTime',
      index: { pkPrefix: '', second: false, skAttrs: 2, skPrefix: '', root: false },
      casing: 'NONE',
      texts: false,
    };
    const kids = kidsFrom(
      layout,
      [0, 0, 1].map((minutes, i) => ({ parent: 'p1', id: `k${i}`, text: '', minutes, quarter: 0, level: 0, present: true, name: `n${i}`, bucket: 1 })),
    );
    await served(layout, kids, async (gw) => {
      for (const tag of ['2020-01-01T00:00:00Z', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000000Z']) {
        const { result, requests } = await gw.counted(`query($t: DateTime) { parent(id: "p1") { kids(tag: $t, first: 5) { edges { node { id } } } } }`, {
          t: tag,
        });
        expect(result.errors).toBeUndefined();
        expect(result.data.parent.kids.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['k0', 'k1']);
        expect(requests.requests).toBe(2);
      }
    });
  });

  it(
    'lists the parents holding a child id through an inverted index over the table keys, ordered by their partition key',
    async () => {
      await fc.assert(
        fc.asyncProperty(layoutsOf(['invertedIndex']), rawKids, walks, fc.nat(20), async (layout, raw, w, pick) => {
          fc.pre(apart(layout));
          const kids = kidsFrom(layout, raw);
          const ids = [...new Set(kids.map((k) => k.id))].sort();
          const held = ids.length === 0 ? 'a' : ids[pick % ids.length]!;
          // Ids that differ in case alone share a cased key.
          const cased = casedBy(layout.casing);
          // The inverted index's partition is the child's sort key, its sort key the child's partition key.
          const order = kids
            .filter((k) => cased(k.id) === cased(held))
            .sort((a, b) => byText(tablePk(layout, a), tablePk(layout, b)))
            .map((k) => k.parent);
          await served(layout, kids, async (gw) => {
            await walkTableKids(gw, layout, kids, w);
            const read: Read = async (args) => {
              const { result, requests } = await gw.counted(
                `{ holder(id: "${held}") { kids(${args}) { edges { node { id parent { id } } } pageInfo { ${flagsOf(w)} } } } }`,
              );
              expect(result.errors).toBeUndefined();
              expect(result.data.holder.kids.edges.every((e: { node: { id: string } }) => cased(e.node.id) === cased(held))).toBe(true);
              return { connection: result.data.holder.kids, requests: requests.requests };
            };
            // The holder has no item: one Query a page, the parent's id read from the key.
            await walk(
              read,
              order,
              (n) => n.parent!.id,
              w,
              () => 1,
            );
          });
        }),
        { numRuns: RUNS },
      );
    },
    patience(600_000),
  );

  it(
    'finds an inverted child by its id alone with one Query, and pages it from the table as any child',
    async () => {
      await fc.assert(
        fc.asyncProperty(layoutsOf(['invertedItem']), rawKids, walks, async (layout, raw, w) => {
          fc.pre(apart(layout));
          const kids = kidsFrom(layout, raw);
          await served(layout, kids, async (gw) => {
            await walkTableKids(gw, layout, kids, w);
            for (const kid of [...kids.slice(0, 3), { id: 'z9', parent: null }]) {
              const { result, requests } = await gw.counted(`query($id: ID!) { kid(id: $id) { id parent { id } } }`, { id: kid.id });
              expect(result.errors).toBeUndefined();
              expect(result.data.kid).toEqual(kid.parent === null ? null : { id: kid.id, parent: { id: kid.parent } });
              expect(requests.byOperation).toEqual({ Query: 1 });
            }
          });
        }),
        { numRuns: RUNS },
      );
    },
    patience(600_000),
  );
});
