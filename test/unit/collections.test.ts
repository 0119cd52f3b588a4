/**
 * Collections at start-up: what a connection over a union or interface of
 * item types reads (its members, range, what it reads past, where its
 * partition's values come from), and every layout it cannot serve refused
 * with one line naming the field and the reason. Also: a declared
 * connection type without totalCount is served.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { problemsOf } from '../support/problems.js';

const PAGE = 'first: Int, after: String, last: Int, before: String';
const BASE = `
  type Org @item(pk: "ORG#{id}", sk: "#ORG") {
    id: ID!
    feed(${PAGE}): FeedConnection! @query
  }
  type Post @item(pk: "ORG#{org}", sk: "POST#{id}") { id: ID! title: String! org: Org! @parent }
  type Event @item(pk: "ORG#{org}", sk: "EVENT#{id}") { id: ID! name: String! org: Org! @parent }
  union Feed = Post | Event
  type Query { org(id: ID!): Org @get feed(org: ID!, ${PAGE}): FeedConnection! @query }`;

/** Repos and gists of an owner in the index byOwner, each keyed by its own id in the table. */
const INDEXED = `
  extend schema @index(name: "byOwner", pk: ["ownerKey"], sk: ["ownerSort"])
  type Repo @item(pk: "REPO#{id}", sk: "REPO") @indexed(index: "byOwner", pk: ["OWNER#{owner}"], sk: ["R#{name}#{id}"]) { id: ID! name: String! owner: String! }
  type Gist @item(pk: "GIST#{id}", sk: "GIST") @indexed(index: "byOwner", pk: ["OWNER#{owner}"], sk: ["G#{id}"]) { id: ID! title: String! owner: String! }
  union Owned = Repo | Gist
  type Query { owned(owner: String!, ${PAGE}): OwnedConnection! @query(index: "byOwner") }`;

const served = (sdl: string) => buildModel(sdl, 'model.graphql');

describe('a collection as declared', () => {
  it("reads the members' range, matches literal prefixes first, and takes its values from the arguments or the parent", () => {
    const model = served(`${BASE}
      type Pinned @item(pk: "ORG#{org}", sk: "PIN") { id: ID! org: Org! @parent }`);
    const root = model.collections.get('Query.feed')!;
    expect(root.members.map((m) => m.type)).toEqual(['Event', 'Post']);
    expect(root).toMatchObject({ root: true, index: null, prefix: '', range: { lo: 'EVENT#', hi: 'POST$' }, slots: [{ argument: 'org' }] });
    expect(root.passes.map((p) => p.sk.source)).toEqual(['PIN']);
    expect(model.collections.get('Org.feed')).toMatchObject({ root: false, slots: [{ parentField: 'id' }] });
    // The narrowest range: a common prefix's when the members fill it (read with begins_with), else from the lowest to past the highest.
    const shared = served(BASE.replace('"POST#{id}"', '"F#P#{id}"').replace('"EVENT#{id}"', '"F#E#{id}"'));
    expect(shared.collections.get('Query.feed')).toMatchObject({ prefix: 'F#', range: { lo: 'F#E#', hi: 'F#P$' } });
    const one = served(BASE.replace('union Feed = Post | Event', 'union Feed = Post'));
    expect(one.collections.get('Query.feed')).toMatchObject({ prefix: 'POST#', range: null });
  });

  it('writes <Union>Connection and its edge when the model leaves them out', () => {
    const model = served(BASE);
    expect(model.collections.get('Query.feed')).toMatchObject({ connectionType: 'FeedConnection', edgeType: 'FeedEdge', node: 'Feed' });
  });

  it('serves a declared connection type without totalCount (no resolver for a field it lacks)', () => {
    const model = served(`${BASE}
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
      type FeedConnection { edges: [FeedEdge!]! pageInfo: PageInfo! }
      type FeedEdge { cursor: String! node: Feed! }
      type Note @item(pk: "NOTE#{id}", sk: "N") { id: ID! }
      type NoteConnection { edges: [NoteEdge!]! pageInfo: PageInfo! }
      type NoteEdge { cursor: String! node: Note! }
      extend type Query { notes(id: ID!, ${PAGE}): NoteConnection! @query }`);
    expect(() => gatewaySchema(model, undefined)).not.toThrow();
    expect(compilePlan(model).collections.get('Query.feed')).toBeDefined();
  });
});

describe('a collection that cannot be served is refused at start-up, one line each', () => {
  it.each([
    [
      'a member in another partition',
      BASE.replace('type Event @item(pk: "ORG#{org}"', 'type Event @item(pk: "EVT#{org}"'),
      'Query.feed @query: Post and Event (in Feed) are in no one partition of the table: their partition keys there are "ORG#{org}" and "EVT#{org}"',
    ],
    [
      'a member that is no @item type',
      BASE.replace('union Feed = Post | Event', 'type Ad { id: ID! }\n union Feed = Post | Event | Ad'),
      'Query.feed @query: Ad (in Feed) is no @item type: a collection lists items',
    ],
    [
      'a member with no key in the index',
      `extend schema @index(name: "byOrg", pk: ["orgKey"], sk: ["orgSort"])
       ${BASE.replace('type Query {', `type Query { byOrg(org: ID!, ${PAGE}): FeedConnection! @query(index: "byOrg")`)}`,
      'Query.byOrg @query(index: "byOrg"): Post (in Feed) has no key with a sort attribute in byOrg, so it is in no partition there (declare it with @indexed)',
    ],
    [
      "ambiguous members (keys one could take for the other's)",
      BASE.replace('"EVENT#{id}"', '"POST#E#{id}"'),
      'Event: its sort-key prefix "POST#E#" overlaps "POST#" of Post items (sk "POST#{id}") in the partition "ORG#{}" of the table: a read of one would return the other',
    ],
    [
      "another type with many items a partition inside the members' range",
      `${BASE}
       type Like @item(pk: "ORG#{org}", sk: "LIKE#{id}") { id: ID! org: Org! @parent }`,
      'Query.feed @query: the partition "ORG#{}" of the table also holds Like items (sk "LIKE#{id}"), whose sort keys fall inside the members\' range ("EVENT#" to "POST$"): add Like to Feed, or give it a sort-key prefix outside that range',
    ],
    [
      "edges inside the members' range",
      `${BASE.replace(`feed(${PAGE}): FeedConnection! @query\n`, `feed(${PAGE}): FeedConnection! @query\n fans(${PAGE}): FanConnection! @edges(pk: "ORG#{id}", sk: "FAN#{fan}")\n`)}
       type Fan { id: ID! }`,
      'Query.feed @query: the partition "ORG#{}" of the table also holds Org.fans edges (sk "FAN#{fan}"), whose sort keys fall inside the members\' range ("EVENT#" to "POST$"): give these edges a sort-key prefix outside that range',
    ],
    [
      '@children over a union',
      BASE.replace('feed(${PAGE}): FeedConnection! @query'.replace('${PAGE}', PAGE), `feed(${PAGE}): FeedConnection! @children`),
      'Org.feed: @children reads one item type; a connection over the union Feed is read with @query',
    ],
    [
      'from/until on a collection',
      BASE.replace(`feed(org: ID!, ${PAGE}): FeedConnection! @query`, `feed(org: ID!, since: String, ${PAGE}): FeedConnection! @query(from: "since")`),
      'Query.feed @query(from): a collection over the union Feed reads whole partitions: from is not supported on it',
    ],
    [
      'a root field whose arguments fill no placeholder',
      BASE.replace(`feed(org: ID!, ${PAGE})`, `feed(${PAGE})`),
      'Query.feed @query: no argument fills {org} of the partition "ORG#{}" (expected an argument org or orgId)',
    ],
    [
      'a root field whose arguments fill one placeholder twice',
      BASE.replace(`feed(org: ID!, ${PAGE})`, `feed(org: ID!, orgId: ID!, ${PAGE})`),
      'Query.feed @query: org and orgId both fill {org} of the partition "ORG#{}": keep one',
    ],
    [
      'a nullable argument naming the partition',
      BASE.replace(`feed(org: ID!, ${PAGE})`, `feed(org: ID, ${PAGE})`),
      'Query.feed(org): names the partition to read: make it non-null',
    ],
    [
      'an argument nothing reads',
      BASE.replace(`feed(org: ID!, ${PAGE})`, `feed(org: ID!, tag: String, ${PAGE})`),
      'Query.feed(tag): no directive reads this argument',
    ],
    [
      'an edge type with fields of its own',
      `${BASE}
       type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
       type FeedConnection { edges: [FeedEdge!]! pageInfo: PageInfo! }
       type FeedEdge { cursor: String! node: Feed! pinned: Boolean }`,
      'FeedEdge.pinned: the edge type of a collection holds cursor and node only (its edges are the items themselves)',
    ],
    [
      'an interface with an implementation in another partition',
      `${BASE.replace('union Feed = Post | Event', 'interface Feed { id: ID! }').replace('type Post @item', 'type Post implements Feed @item').replace('type Event @item', 'type Event implements Feed @item')}
       type Ad implements Feed @item(pk: "AD#{id}", sk: "AD") { id: ID! }`,
      'Query.feed @query: Post and Ad (in Feed) are in no one partition of the table: their partition keys there are "ORG#{org}" and "AD#{id}"',
    ],
    [
      'a member keyed on several index attributes',
      `extend schema @index(name: "byOrg", pk: ["orgKey", "kind"], sk: ["orgSort"])
       ${BASE.replace(
         'type Query {',
         'type Query { byOrg(org: ID!, kind: String!, first: Int, after: String, last: Int, before: String): FeedConnection! @query(index: "byOrg")',
       )
         .replace(
           'type Post @item(pk: "ORG#{org}", sk: "POST#{id}")',
           'type Post @item(pk: "ORG#{org}", sk: "POST#{id}") @indexed(index: "byOrg", pk: ["O#{org}", "{title}"], sk: ["P#{id}"])',
         )
         .replace(
           'type Event @item(pk: "ORG#{org}", sk: "EVENT#{id}")',
           'type Event @item(pk: "ORG#{org}", sk: "EVENT#{id}") @indexed(index: "byOrg", pk: ["O#{org}", "{name}"], sk: ["E#{id}"])',
         )}`,
      'Query.byOrg @query(index: "byOrg"): Post\'s key in byOrg has several attributes: a collection reads keys of one partition and one sort attribute',
    ],
    [
      'members in two partitions of an index',
      INDEXED.replace('pk: ["OWNER#{owner}"], sk: ["G#{id}"]', 'pk: ["USER#{owner}"], sk: ["G#{id}"]'),
      'Query.owned @query(index: "byOwner"): Repo and Gist (in Owned) are in no one partition of byOwner: their partition keys there are "OWNER#{owner}" and "USER#{owner}"',
    ],
    [
      "members an index's sort keys cannot tell apart (one prefix inside the other)",
      INDEXED.replace('["G#{id}"]', '["R#{id}"]'),
      'Gist: its sort-key prefix "R#" overlaps "R#" of Repo items in byOwner (ownerSort "R#{name}#{id}") in the partition "OWNER#{}" of byOwner: a read of one would return the other',
    ],
    [
      "a member whose index sort key is a bare placeholder beside another member's prefix",
      INDEXED.replace('["G#{id}"]', '["{id}"]'),
      'Gist: its sort-key prefix "" overlaps "R#" of Repo items in byOwner (ownerSort "R#{name}#{id}") in the partition "OWNER#{}" of byOwner: a read of one would return the other',
    ],
    [
      'an interface nothing implements',
      BASE.replace('union Feed = Post | Event', 'interface Feed { id: ID! }'),
      'Query.feed @query: the interface Feed has no object type to list',
    ],
  ])('%s', (_, sdl, line) => {
    expect(problemsOf(sdl)).toContain(line);
  });
});
