/**
 * Keyless types as parents and owners of connections, in the layout of
 * AWS's published chat design: a user has no item of their own, only the
 * comments in their partition (`User:<user>`, sort key the time of the
 * comment); rooms have an item (`Room:<room>` / `meta`), and a room's
 * comments are read through the index of the natural attributes
 * RoomID/CreatedAt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const CHAT = `
extend schema @index(name: "RoomID_Comment_IDX", pk: ["RoomID"], sk: ["CreatedAt"])
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
"A user is known only by the comments in their partition."
type User {
  id: ID!
  comments(first: Int, after: String, last: Int, before: String): CommentConnection! @children
}
type Room @item(pk: "Room:{id}", sk: "meta") {
  id: ID!
  CreatedBy: String
  comments(first: Int, after: String, last: Int, before: String): CommentConnection! @query(index: "RoomID_Comment_IDX")
}
"A comment: its id is the time it was posted, its partition its author's."
type Comment @item(pk: "User:{user}", sk: "{id}") @indexed(index: "RoomID_Comment_IDX") {
  id: ID!
  Comment: String!
  CreatedAt: String!
  RoomID: Room!
  user: User! @parent
}
type CommentConnection { edges: [CommentEdge!]! pageInfo: PageInfo! totalCount: Int! }
type CommentEdge { cursor: String! node: Comment! }
input PostInput { id: ID! Comment: String! CreatedAt: String! RoomID: ID! }
input RoomInput { id: ID CreatedBy: String }
type Query {
  user(id: ID!): User @get
  room(id: ID!): Room @get
}
type Mutation {
  createRoom(input: RoomInput!): Room! @create
  post(userId: ID!, input: PostInput!): Comment! @create(parent: "userId")
  unpost(userId: ID!, id: ID!): ID! @delete(type: "Comment", parent: "userId")
}
`;

let gw: TestGateway;
const posts = [
  ['UserA', '2023-04-01T12:00:00.001Z', 'Music', 'hello'],
  ['UserB', '2023-04-01T12:00:01.001Z', 'Music', 'hi'],
  ['UserA', '2023-04-01T13:00:00.001Z', 'Art', 'paint'],
  ['UserA', '2023-04-01T14:00:00.001Z', 'Music', 'again'],
] as const;

beforeAll(async () => {
  gw = await testGateway({ model: buildModel(CHAT, 'chat.graphql') });
  for (const room of ['Music', 'Art'])
    expect((await gw.run(`mutation { createRoom(input: { id: "${room}", CreatedBy: "admin" }) { id } }`)).errors).toBeUndefined();
  for (const [user, at, room, text] of posts) {
    const posted = await gw.run(`mutation($u: ID!, $i: PostInput!) { post(userId: $u, input: $i) { id } }`, {
      u: user,
      i: { id: at, Comment: text, CreatedAt: at, RoomID: room },
    });
    expect(posted.errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

const texts = (c: { edges: { node: { Comment: string } }[] }) => c.edges.map((e) => e.node.Comment);

describe('a keyless parent', () => {
  it('holds its children in the partition its key names, as the design lays them out', async () => {
    expect(await gw.get('User:UserA', '2023-04-01T12:00:00.001Z')).toMatchObject({ Comment: 'hello', RoomID: 'Music', CreatedAt: '2023-04-01T12:00:00.001Z' });
  });

  it("lists a user's comments, newest last, in one Query and no read of the user", async () => {
    const { result, requests } = await gw.counted(`{ user(id: "UserA") { id comments(first: 10) { edges { node { Comment user { id } } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(texts(result.data.user.comments)).toEqual(['hello', 'paint', 'again']);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("reads the latest comments of a room through the index, with the room's item", async () => {
    const { result, requests } = await gw.counted(`{ room(id: "Music") { CreatedBy comments(last: 2) { edges { node { Comment user { id } } } } } }`);
    expect(result.data.room).toEqual({
      CreatedBy: 'admin',
      comments: { edges: [{ node: { Comment: 'hi', user: { id: 'UserB' } } }, { node: { Comment: 'again', user: { id: 'UserA' } } }] },
    });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it('deletes a child of a keyless parent, and answers NOT_FOUND the second time', async () => {
    expect((await gw.run(`mutation { unpost(userId: "UserB", id: "2023-04-01T12:00:01.001Z") }`)).errors).toBeUndefined();
    expect(await gw.get('User:UserB', '2023-04-01T12:00:01.001Z')).toBeUndefined();
    const again = await gw.run(`mutation { unpost(userId: "UserB", id: "2023-04-01T12:00:01.001Z") }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('keyless models that cannot be served', () => {
  it('refuses a counter on a keyless owner and @edges on one, naming each', () => {
    const sdl = CHAT.replace(
      'CommentConnection! @children\n}',
      'CommentConnection! @children(counter: "commentCount")\n  rooms(first: Int, after: String, last: Int, before: String): CommentConnection! @edges\n}',
    );
    expect(problemsOf(sdl)).toEqual(
      expect.arrayContaining([
        'User.comments @children(counter): User is keyless: it has no item to hold a counter',
        expect.stringMatching(/^User\.rooms @edges: User is keyless/),
      ]),
    );
  });
});
