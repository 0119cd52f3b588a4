/**
 * A type whose sort key is one placeholder alone (`{id}`, no literal
 * prefix) sharing its partition with a type of a literal prefix
 * (`B:{id}`): its reads pass the other's items by, and an id that would
 * give its key the other's prefix is refused, so neither is ever read as
 * the other. (A prefix holding `#` needs no such refusal: ids never hold
 * `#`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Member {
  id: ID!
  posts(first: Int, after: String, last: Int, before: String): PostConnection! @children
  badges(first: Int, after: String, last: Int, before: String): BadgeConnection! @children
}
type Post @item(pk: "M#{member}", sk: "{id}") { id: ID! text: String! member: Member! @parent }
type Badge @item(pk: "M#{member}", sk: "B:{id}") { id: ID! member: Member! @parent }
type PostConnection { edges: [PostEdge!]! pageInfo: PageInfo! totalCount: Int! }
type PostEdge { cursor: String! node: Post! }
type BadgeConnection { edges: [BadgeEdge!]! pageInfo: PageInfo! totalCount: Int! }
type BadgeEdge { cursor: String! node: Badge! }
input PostInput { id: ID! text: String! }
input BadgeInput { id: ID! }
type Query { member(id: ID!): Member @get  post(memberId: ID!, id: ID!): Post @get }
type Mutation {
  post(memberId: ID!, input: PostInput!): Post! @create(parent: "memberId")
  award(memberId: ID!, input: BadgeInput!): Badge! @create(parent: "memberId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'members.graphql') });
  for (const [field, id] of [
    ['post', 'A1'],
    ['award', 'gold'],
    ['post', 'C3'],
    ['award', 'silver'],
  ] as const) {
    const input = field === 'post' ? `{ id: "${id}", text: "t" }` : `{ id: "${id}" }`;
    expect((await gw.run(`mutation { ${field}(memberId: "m1", input: ${input}) { id } }`)).errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

describe('a bare sort key beside a literal prefix in one partition', () => {
  it("reads each type's items alone, one Query each, the other's items passed by", async () => {
    const { result, requests } = await gw.counted(
      `{ member(id: "m1") { posts(first: 10) { edges { node { id } } pageInfo { hasNextPage } } badges(first: 10) { edges { node { id } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    // B:gold and B:silver sort between A1 and C3: the posts' page reads past them.
    expect(result.data.member.posts.edges.map((e: any) => e.node.id)).toEqual(['A1', 'C3']);
    expect(result.data.member.posts.pageInfo.hasNextPage).toBe(false);
    expect(result.data.member.badges.edges.map((e: any) => e.node.id)).toEqual(['gold', 'silver']);
    expect(requests.byOperation).toEqual({ Query: 2 });
  });

  it('refuses an id that would give the bare key the other prefix, before any request', async () => {
    const created = await gw.counted(`mutation { post(memberId: "m1", input: { id: "B:x", text: "t" }) { id } }`);
    expect(created.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const read = await gw.counted(`{ post(memberId: "m1", id: "B:y") { id } }`);
    expect(read.result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(read.result.errors?.[0]?.message).toBe('Post id B:y may not begin with "B:": the keys of other items in its partition do');
    expect(created.requests.requests + read.requests.requests).toBe(0);
  });

  it('still refuses two literal prefixes that overlap, and two bare sort keys', () => {
    expect(problemsOf(MODEL.replace('sk: "B:{id}"', 'sk: "{id}#B"'))).toEqual([
      'Badge: its sort-key prefix "" overlaps "" of Post items (sk "{id}") in the partition "M#{}" of the table: a read of one would return the other',
    ]);
  });
});
