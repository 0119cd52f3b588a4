/**
 * Property test of connections over an index sort key of two attributes
 * (level, then name): items generated at random in a few groups, read by
 * random arguments (a level fixed or not, from/until over the attribute
 * left), ascending or newest-first, in random walks of pages both ways.
 * Every page is compared with an in-memory reference (the group's items
 * the arguments select, sorted by level then name), both flags must be
 * exact, and each page costs one Query, plus one for the flag on a
 * cursor's side. Then a parent's @children over such an index: its order,
 * a level fixed by argument, and its counter used only unnarrowed.
 *
 * TEST_DEPTH (default 1) multiplies the number of cases tried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { TEST_DEPTH as DEPTH } from '../support/depth.js';

const SDL = `
  extend schema @index(name: "byLevel", pk: ["group"], sk: ["level", "name"]) @index(name: "byTeam", pk: ["teamKey"], sk: ["level", "name"])
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Thing @item(pk: "THING#{id}", sk: "meta") @indexed(index: "byLevel") { id: ID! group: String! level: String! name: String! }
  type ThingConnection { edges: [ThingEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type ThingEdge { cursor: String! node: Thing! }
  type Team @item(pk: "TEAM#{id}", sk: "META") {
    id: ID!
    members(level: String, first: Int, after: String, last: Int, before: String): MemberConnection! @children(index: "byTeam", counter: "memberCount")
  }
  type Member @item(pk: "TEAM#{team}", sk: "M#{id}") @indexed(index: "byTeam", pk: ["T#{team}"]) { id: ID! level: String! name: String! team: Team! @parent }
  type MemberConnection { edges: [MemberEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type MemberEdge { cursor: String! node: Member! }
  input AddMemberInput { id: ID level: String! name: String! }
  type Mutation {
    addTeam(input: AddTeamInput!): Team! @create
    addMember(team: ID!, input: AddMemberInput!): Member! @create(parent: "team")
  }
  input AddTeamInput { id: ID }
  type Query {
    team(id: ID!): Team @get
    thing(id: ID!): Thing @get
    things(group: String!, level: String, from: String, until: String, first: Int, after: String, last: Int, before: String): ThingConnection!
      @query(index: "byLevel", from: "from", until: "until")
    newest(group: String!, level: String, from: String, until: String, first: Int, after: String, last: Int, before: String): ThingConnection!
      @query(index: "byLevel", from: "from", until: "until", order: DESCENDING)
  }`;

interface Thing {
  id: string;
  group: string;
  level: string;
  name: string;
}

const GROUPS = ['g1', 'g2'];
const LEVELS = ['a', 'b', 'bb', 'c'];
// Names unique across items: no two items share both sort values, so the reference order is the index's.
const things: Thing[] = fc
  .sample(
    fc.uniqueArray(fc.record({ group: fc.constantFrom(...GROUPS), level: fc.constantFrom(...LEVELS), name: fc.stringMatching(/^[a-z]{1,4}$/) }), {
      selector: (t) => t.name,
      minLength: 30,
      maxLength: 36,
    }),
    { numRuns: 1, seed: 7 },
  )[0]!
  .map((t, i) => ({ ...t, id: `t${i}` }));

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(SDL, 'sorted.graphql') });
  await gw.put(things.map((t) => ({ ...gw.plan.keys.key({ PK: `THING#${t.id}`, SK: 'meta' }), group: t.group, level: t.level, name: t.name })));
});
afterAll(() => gw?.stop());

interface Args {
  group: string;
  level: string | null;
  from: string | null;
  until: string | null;
}

/** The reference: the group's items the arguments select, in the connection's order. */
function reference(args: Args, descending: boolean): string[] {
  const ranged = (t: Thing) => (args.level === null ? t.level : t.name);
  const selected = things
    .filter((t) => t.group === args.group && (args.level === null || t.level === args.level))
    .filter((t) => (args.from === null || ranged(t) >= args.from) && (args.until === null || ranged(t) < args.until))
    .sort((x, y) => (x.level !== y.level ? (x.level < y.level ? -1 : 1) : x.name < y.name ? -1 : 1))
    .map((t) => t.id);
  return descending ? selected.reverse() : selected;
}

const bound = fc.option(fc.oneof(fc.constantFrom(...LEVELS), fc.stringMatching(/^[a-z]{1,2}$/)), { nil: null, freq: 2 });
const cases = fc.record({
  args: fc.record({ group: fc.constantFrom(...GROUPS), level: fc.option(fc.constantFrom(...LEVELS), { nil: null, freq: 2 }), from: bound, until: bound }),
  descending: fc.boolean(),
  forward: fc.boolean(),
  sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }),
});

describe('paging over two sort attributes, against a reference', () => {
  it('gives every page of random arguments and walks exactly, both flags exact, one Query a page', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ args, descending, forward, sizes }) => {
        fc.pre(args.from === null || args.until === null || args.from < args.until);
        const field = descending ? 'newest' : 'things';
        const query = `query($group: String!, $level: String, $from: String, $until: String, $first: Int, $after: String, $last: Int, $before: String) {
          c: ${field}(group: $group, level: $level, from: $from, until: $until, first: $first, after: $after, last: $last, before: $before) {
            edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
        const expected = reference(args, descending);
        // Forward: pages from the start; backward: from the end. `done` counts the items walked past.
        let cursor: string | undefined;
        let done = 0;
        for (const size of sizes) {
          const page = forward ? { first: size, after: cursor } : { last: size, before: cursor };
          const { result, requests } = await gw.counted(query, { ...args, ...page });
          expect(result.errors).toBeUndefined();
          const c = result.data.c;
          const got = c.edges.map((e: { node: { id: string } }) => e.node.id);
          const want = forward ? expected.slice(done, done + size) : expected.slice(Math.max(0, expected.length - done - size), expected.length - done);
          expect(got).toEqual(want);
          const before = forward ? done : expected.length - done - want.length;
          const after = expected.length - before - want.length;
          expect(c.pageInfo).toMatchObject({ hasPreviousPage: before > 0, hasNextPage: after > 0 });
          expect(requests.byOperation).toEqual({ Query: cursor === undefined ? 1 : 2 });
          done += want.length;
          if (want.length === 0 || done === expected.length) break;
          cursor = forward ? c.pageInfo.endCursor : c.pageInfo.startCursor;
        }
      }),
      { numRuns: 40 * DEPTH },
    );
  });
});

describe('@children over two sort attributes', () => {
  it('lists a parent children by level then name, fixes the level by its argument, and counts by its counter only unnarrowed', async () => {
    const ok = async (query: string) => {
      const result = await gw.run(query);
      expect(result.errors).toBeUndefined();
      return result.data;
    };
    await ok(`mutation { addTeam(input: { id: "x" }) { id } }`);
    for (const [id, level, name] of [
      ['m1', 'b', 'zed'],
      ['m2', 'a', 'kim'],
      ['m3', 'b', 'amy'],
      ['m4', 'a', 'bo'],
    ]) {
      await ok(`mutation { addMember(team: "x", input: { id: "${id}", level: "${level}", name: "${name}" }) { id } }`);
    }
    const MEMBERS = (args: string) =>
      `{ team(id: "x") { members(${args}) { totalCount edges { node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`;
    const all = await gw.counted(MEMBERS('first: 3'));
    expect(all.result.data.team.members.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['m4', 'm2', 'm3']);
    expect(all.result.data.team.members).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    // The team (its counter holds totalCount) and the page.
    expect(all.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const next = await ok(MEMBERS(`first: 3, after: "${all.result.data.team.members.pageInfo.endCursor}"`));
    expect(next.team.members.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['m1']);
    const levelB = await gw.counted(MEMBERS('level: "b", first: 5'));
    expect(levelB.result.errors).toBeUndefined();
    expect(levelB.result.data.team.members.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(['m3', 'm1']);
    // Narrowed by the level: the team, the page, and a COUNT Query instead of the team's counter of all four.
    expect(levelB.result.data.team.members.totalCount).toBe(2);
    expect(levelB.requests.byOperation).toEqual({ GetItem: 1, Query: 2 });
    expect(await gw.get('TEAM#x', 'META')).toMatchObject({ memberCount: 4 });
  });
});
