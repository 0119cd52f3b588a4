/**
 * Property test over generated layouts of one index partition shared by
 * several types (a collection over a union, as ElectroDB's collections
 * are), with updates that move items in the index:
 * - two or three item types, each keyed in the index by the same partition
 *   template (`G#{group}`) and a sort key of its own label before
 *   `{tag}#{id}`; the index's keys written as given or lower-cased;
 * - a random run of creates and updates (of the group, the tag or both:
 *   an update moving the item to another partition or place in it).
 * After each update the item is found exactly where its new key says and
 * no longer where its old key was; at the end every partition is paged at
 * random both ways and compared with an in-memory reference (the items
 * sorted by the stored text of their index sort key). Every page costs one
 * Query, every update one UpdateItem.
 *
 * TEST_DEPTH (default 1) multiplies the number of runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH as DEPTH } from '../support/depth.js';
import { patience } from '../support/patience.js';

const TYPES = ['Alpha', 'Beta', 'Gamma'] as const;
/** Labels of the types' sort keys, none a prefix of another's (so an item's label names its type). */
const LABEL_SETS = [
  ['$alpha_1#', '$beta_1#', '$gamma_1#'],
  ['A#', 'B#', 'C#'],
  ['k', 'm', 'z'],
];
const GROUPS = ['g1', 'g2', 'G3'];

interface Layout {
  types: number;
  labels: string[];
  casing: 'NONE' | 'LOWER';
}

type Op = { kind: 'create'; type: number; group: number; tag: string } | { kind: 'update'; pick: number; group: number | null; tag: string | null };

interface Item {
  id: string;
  type: number;
  group: string;
  tag: string;
}

const layouts: fc.Arbitrary<Layout> = fc.record({
  types: fc.constantFrom(2, 3),
  labels: fc.constantFrom(...LABEL_SETS),
  casing: fc.constantFrom<'NONE' | 'LOWER'>('NONE', 'LOWER'),
});
const tags = fc.stringMatching(/^[a-cA-C0-9]{1,2}$/);
const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), type: fc.nat(2), group: fc.nat(2), tag: tags }),
    fc.record({ kind: fc.constant('update' as const), pick: fc.nat(30), group: fc.option(fc.nat(2), { nil: null }), tag: fc.option(tags, { nil: null }) }),
  ),
  { minLength: 4, maxLength: 14 },
);
const walks = fc.record({ forward: fc.boolean(), sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }) });

function sdlOf(layout: Layout): string {
  const types = TYPES.slice(0, layout.types);
  const page = 'first: Int, after: String, last: Int, before: String';
  return `
    extend schema @table(casing: ${layout.casing}) @index(name: "byP", pk: ["gpk"], sk: ["gsk"], casing: ${layout.casing})
    ${types
      .map(
        (t, i) => `
    type ${t} @item(pk: "${t.toUpperCase()}#{id}", sk: "${t.toUpperCase()}") @indexed(index: "byP", pk: ["G#{group}"], sk: ["${layout.labels[i]}{tag}#{id}"]) {
      id: ID!
      group: String!
      tag: String!
    }
    input New${t} { id: ID group: String! tag: String! }
    input Change${t} { group: String tag: String }`,
      )
      .join('\n')}
    union Member = ${types.join(' | ')}
    type Query {
      ${types.map((t) => `get${t}(id: ID!): ${t} @get`).join('\n      ')}
      grouped(group: String!, ${page}): MemberConnection! @query(index: "byP")
    }
    type Mutation {
      ${types.map((t) => `create${t}(input: New${t}!): ${t}! @create\n      update${t}(id: ID!, input: Change${t}!): ${t}! @update`).join('\n      ')}
    }`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The reference: a group's items in the order of their index sort key as stored. */
function expected(layout: Layout, items: Item[], group: string): string[] {
  const stored = (text: string) => (layout.casing === 'LOWER' ? text.toLowerCase() : text);
  // A group's partition as stored: groups equal once lower-cased share it.
  return items
    .filter((x) => stored(x.group) === stored(group))
    .map((x) => ({ id: x.id, key: stored(`${layout.labels[x.type]}${x.tag}#${x.id}`) }))
    .sort((a, b) => byText(a.key, b.key))
    .map((x) => x.id);
}

const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gw of gateways) await gw.stop();
});

type Page = { edges: { node: { __typename: string; id: string } }[]; pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean; endCursor?: string; startCursor?: string } };

async function readGroup(gw: TestGateway, layout: Layout, group: string, args: string, flags: string) {
  const fragments = TYPES.slice(0, layout.types).map((t) => `... on ${t} { id }`).join(' ');
  const { result, requests } = await gw.counted(`query($g: String!) { grouped(group: $g, ${args}) { edges { node { __typename ${fragments} } } pageInfo { ${flags} } } }`, { g: group });
  expect(result.errors).toBeUndefined();
  expect(requests.byOperation).toEqual({ Query: 1 });
  return result.data.grouped as Page;
}

describe('generated partitions of several types, with updates that move items in the index', () => {
  it('lists every type of a partition in key order, one Query a page, and finds a moved item only where its new key says', async () => {
    await fc.assert(
      fc.asyncProperty(layouts, ops, walks, async (layout, run, w) => {
        const gw = await testGateway({ model: buildModel(sdlOf(layout), 'generated.graphql') });
        gateways.push(gw);
        try {
          const items: Item[] = [];
          for (const op of run) {
            if (op.kind === 'create') {
              const item = { id: `i${items.length}`, type: op.type % layout.types, group: GROUPS[op.group]!, tag: op.tag };
              const t = TYPES[item.type];
              const made = await gw.run(`mutation($i: New${t}!) { create${t}(input: $i) { id } }`, { i: { id: item.id, group: item.group, tag: item.tag } });
              expect(made.errors).toBeUndefined();
              items.push(item);
              continue;
            }
            if (items.length === 0 || (op.group === null && op.tag === null)) continue;
            const item = items[op.pick % items.length]!;
            const before = item.group;
            const change = { ...(op.group === null ? {} : { group: GROUPS[op.group]! }), ...(op.tag === null ? {} : { tag: op.tag }) };
            const t = TYPES[item.type];
            const { result, requests } = await gw.counted(`mutation($id: ID!, $c: Change${t}!) { update${t}(id: $id, input: $c) { id group tag } }`, { id: item.id, c: change });
            expect(result.errors).toBeUndefined();
            expect(requests.byOperation).toEqual({ UpdateItem: 1 });
            Object.assign(item, change);
            expect(result.data[`update${t}`]).toEqual({ id: item.id, group: item.group, tag: item.tag });
            // Found exactly where the new key says, and no longer where the old key was.
            for (const group of new Set([before, item.group])) {
              const page = await readGroup(gw, layout, group, 'first: 50', 'hasNextPage');
              expect(page.edges.map((e) => e.node.id)).toEqual(expected(layout, items, group));
            }
            const got = await gw.run(`query($id: ID!) { get${t}(id: $id) { group tag } }`, { id: item.id });
            expect(got.data[`get${t}`]).toEqual({ group: item.group, tag: item.tag });
          }
          // Every partition paged from one end, each page the next slice of the reference, its type the item's.
          for (const group of GROUPS) {
            const order = expected(layout, items, group);
            let seen = 0;
            let cursor: string | null = null;
            for (const n of w.sizes) {
              const args = w.forward ? `first: ${n}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${n}${cursor ? `, before: "${cursor}"` : ''}`;
              const page = await readGroup(gw, layout, group, args, w.forward ? 'hasNextPage endCursor' : 'hasPreviousPage startCursor');
              const rest = w.forward ? order.slice(seen) : order.slice(0, order.length - seen);
              const want = w.forward ? rest.slice(0, n) : rest.slice(Math.max(0, rest.length - n));
              expect(page.edges.map((e) => e.node.id)).toEqual(want);
              expect(page.edges.map((e) => e.node.__typename)).toEqual(want.map((id) => TYPES[items.find((x) => x.id === id)!.type]));
              expect(w.forward ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage).toBe(rest.length > n);
              seen += want.length;
              cursor = (w.forward ? page.pageInfo.endCursor : page.pageInfo.startCursor) ?? null;
              if (rest.length <= n) break;
            }
          }
        } finally {
          await gw.stop();
          gateways.splice(gateways.indexOf(gw), 1);
        }
      }),
      { numRuns: 5 * DEPTH },
    );
  }, patience(600_000));
});
