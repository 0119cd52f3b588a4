/**
 * Property test over generated layouts of one type with two key shapes in
 * one index (@indexed(when: "parentName") and when: "!parentName"): an
 * original repository is kept under its owner (`<origin pk>{owner}` /
 * `<origin sk>{name}#{id}`), a fork under the name it was forked from
 * (`<fork pk>{parentName}` / `<fork sk>{owner}#{id}`). The literal prefixes
 * and the index's casing are drawn at random (neither prefix beginning the
 * other, as the model check requires).
 * A random run of creates (in either shape) and updates (keeping the shape,
 * moving it to the other, changing the fields its key holds) is applied
 * through the gateway; after each update the partitions the item left and
 * entered are read, and at the end every partition of both shapes is paged
 * at random both ways; each is compared with a reference computed here
 * (every item in the partition its current shape names, sorted by the stored
 * text of that shape's sort key, and in no other). Every create is one
 * PutItem, every update one UpdateItem, every page one Query.
 *
 * TEST_DEPTH (default 1) multiplies the number of runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH as DEPTH } from '../support/depth.js';
import { patience } from '../support/patience.js';

/** Prefixes of the two shapes' keys: [origin pk, fork pk, origin sk, fork sk]; neither of a pair begins the other. */
const PREFIX_SETS = [
  ['O#', 'F#', 'N#', 'W#'],
  ['orig-', 'fork-', 'n.', 'o.'],
  ['REPO#', 'FORK#', 'REPO#', 'FORK#'],
];
const OWNERS = ['ada', 'bob', 'Ada'];
const NAMES = ['engine', 'loom', 'Engine'];

interface Layout {
  prefixes: string[];
  casing: 'NONE' | 'LOWER';
}

/** parentName null: the item is an original (the first shape), else a fork (the second). */
interface Repo {
  id: string;
  owner: string;
  name: string;
  parentName: string | null;
}

type Op =
  | { kind: 'create'; owner: number; name: number; fork: number | null }
  | { kind: 'update'; pick: number; owner: number; name: number; fork: number | null };

const layouts: fc.Arbitrary<Layout> = fc.record({
  prefixes: fc.constantFrom(...PREFIX_SETS),
  casing: fc.constantFrom<'NONE' | 'LOWER'>('NONE', 'LOWER'),
});
const pick3 = fc.nat(2);
const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), owner: pick3, name: pick3, fork: fc.option(pick3, { nil: null }) }),
    fc.record({ kind: fc.constant('update' as const), pick: fc.nat(30), owner: pick3, name: pick3, fork: fc.option(pick3, { nil: null }) }),
  ),
  { minLength: 4, maxLength: 14 },
);
const walks = fc.record({ forward: fc.boolean(), sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }) });

function sdlOf({ prefixes: [originPk, forkPk, originSk, forkSk], casing }: Layout): string {
  const page = 'first: Int, after: String, last: Int, before: String';
  return `
    extend schema @index(name: "byShape", pk: ["spk"], sk: ["ssk"], casing: ${casing})
    type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    type Repo @item(pk: "R#{id}", sk: "META")
      @indexed(index: "byShape", pk: ["${originPk}{owner}"], sk: ["${originSk}{name}#{id}"], when: "!parentName")
      @indexed(index: "byShape", pk: ["${forkPk}{parentName}"], sk: ["${forkSk}{owner}#{id}"], when: "parentName") {
      id: ID!
      owner: String!
      name: String!
      parentName: String
    }
    type RepoConnection { edges: [RepoEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type RepoEdge { cursor: String! node: Repo! }
    input NewRepo { id: ID owner: String! name: String! parentName: String }
    input ChangeRepo { owner: String name: String parentName: String }
    type Query {
      repo(id: ID!): Repo @get
      originals(owner: String!, ${page}): RepoConnection! @query(index: "byShape")
      forks(parentName: String!, ${page}): RepoConnection! @query(index: "byShape")
    }
    type Mutation {
      createRepo(input: NewRepo!): Repo! @create
      updateRepo(id: ID!, input: ChangeRepo!): Repo! @update
    }`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A partition of the index: the originals of one owner, or the forks of one name. */
type Partition = { field: 'originals'; owner: string } | { field: 'forks'; parentName: string };
const partitionsOf = (r: Repo): Partition[] =>
  r.parentName === null ? [{ field: 'originals', owner: r.owner }] : [{ field: 'forks', parentName: r.parentName }];
const ALL: Partition[] = [
  ...OWNERS.map((owner) => ({ field: 'originals' as const, owner })),
  ...NAMES.map((parentName) => ({ field: 'forks' as const, parentName })),
];

/** The index's partitions, once each: names equal once lower-cased are one partition of a LOWER index. */
function distinct({ casing }: Layout): Partition[] {
  const seen = new Set<string>();
  return ALL.filter((p) => {
    const name = `${p.field}:${p.field === 'originals' ? p.owner : p.parentName}`;
    const key = casing === 'LOWER' ? name.toLowerCase() : name;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

/** The reference: the ids a partition holds, in the order of their stored sort key in the shape that holds for each. */
function expected({ prefixes, casing }: Layout, repos: Repo[], p: Partition): string[] {
  const stored = (text: string) => (casing === 'LOWER' ? text.toLowerCase() : text);
  const [, , originSk, forkSk] = prefixes;
  const members =
    p.field === 'originals'
      ? repos
          .filter((r) => r.parentName === null && stored(r.owner) === stored(p.owner))
          .map((r) => ({ id: r.id, key: stored(`${originSk}${r.name}#${r.id}`) }))
      : repos
          .filter((r) => r.parentName !== null && stored(r.parentName) === stored(p.parentName))
          .map((r) => ({ id: r.id, key: stored(`${forkSk}${r.owner}#${r.id}`) }));
  return members.sort((a, b) => byText(a.key, b.key)).map((x) => x.id);
}

type Page = { edges: { node: { id: string } }[]; pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean; endCursor?: string; startCursor?: string } };

async function readPartition(gw: TestGateway, p: Partition, args: string, flags: string): Promise<Page> {
  const [argument, value] = p.field === 'originals' ? ['owner', p.owner] : ['parentName', p.parentName];
  const { result, requests } = await gw.counted(`query($v: String!) { ${p.field}(${argument}: $v, ${args}) { edges { node { id } } pageInfo { ${flags} } } }`, {
    v: value,
  });
  expect(result.errors).toBeUndefined();
  expect(requests.byOperation).toEqual({ Query: 1 });
  return result.data[p.field] as Page;
}

const gateways: TestGateway[] = [];
afterAll(async () => {
  for (const gw of gateways) await gw.stop();
});

describe('generated layouts of two key shapes of one type in one index, with updates moving items between them', () => {
  it(
    'finds every item in the partition its current shape names and in no other, one PutItem a create, one UpdateItem an update, one Query a page',
    async () => {
      await fc.assert(
        fc.asyncProperty(layouts, ops, walks, async (layout, run, w) => {
          const gw = await testGateway({ model: buildModel(sdlOf(layout), 'generatedShapes.graphql') });
          gateways.push(gw);
          try {
            const repos: Repo[] = [];
            for (const op of run) {
              const values = { owner: OWNERS[op.owner]!, name: NAMES[op.name]!, parentName: op.fork === null ? null : NAMES[op.fork]! };
              if (op.kind === 'create') {
                const repo = { id: `r${repos.length}`, ...values };
                const made = await gw.counted(`mutation($i: NewRepo!) { createRepo(input: $i) { id } }`, { i: repo });
                expect(made.result.errors).toBeUndefined();
                expect(made.requests.byOperation).toEqual({ PutItem: 1 });
                repos.push(repo);
                continue;
              }
              if (repos.length === 0) continue;
              const repo = repos[op.pick % repos.length]!;
              const left = partitionsOf(repo);
              // The when field always, and every field of the shape that then holds (the update reads nothing).
              const { result, requests } = await gw.counted(
                `mutation($id: ID!, $c: ChangeRepo!) { updateRepo(id: $id, input: $c) { id owner name parentName } }`,
                { id: repo.id, c: values },
              );
              expect(result.errors).toBeUndefined();
              expect(requests.byOperation).toEqual({ UpdateItem: 1 });
              Object.assign(repo, values);
              expect(result.data.updateRepo).toEqual(repo);
              // Found exactly where its new shape says, and no longer where its old one was.
              for (const p of [...left, ...partitionsOf(repo)]) {
                const page = await readPartition(gw, p, 'first: 50', 'hasNextPage');
                expect(page.edges.map((e) => e.node.id)).toEqual(expected(layout, repos, p));
              }
            }
            // Every partition of both shapes, paged from one end: each page the next slice of the reference.
            const listed: string[] = [];
            for (const p of distinct(layout)) {
              const order = expected(layout, repos, p);
              const whole = await readPartition(gw, p, 'first: 50', 'hasNextPage');
              expect(whole.edges.map((e) => e.node.id)).toEqual(order);
              listed.push(...order);
              let seen = 0;
              let cursor: string | null = null;
              for (const n of w.sizes) {
                const args = w.forward ? `first: ${n}${cursor ? `, after: "${cursor}"` : ''}` : `last: ${n}${cursor ? `, before: "${cursor}"` : ''}`;
                const page = await readPartition(gw, p, args, w.forward ? 'hasNextPage endCursor' : 'hasPreviousPage startCursor');
                const rest = w.forward ? order.slice(seen) : order.slice(0, order.length - seen);
                const want = w.forward ? rest.slice(0, n) : rest.slice(Math.max(0, rest.length - n));
                expect(page.edges.map((e) => e.node.id)).toEqual(want);
                expect(w.forward ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage).toBe(rest.length > n);
                seen += want.length;
                cursor = (w.forward ? page.pageInfo.endCursor : page.pageInfo.startCursor) ?? null;
                if (rest.length <= n) break;
              }
            }
            // Each item in exactly one partition of the index.
            expect(listed.sort()).toEqual(repos.map((r) => r.id).sort());
          } finally {
            await gw.stop();
            gateways.splice(gateways.indexOf(gw), 1);
          }
        }),
        { numRuns: 5 * DEPTH },
      );
    },
    patience(600_000),
  );
});
