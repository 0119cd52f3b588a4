/**
 * AWS's published single-table designs (examples/aws/<Design>/), each
 * served from its hand-written model with its demo items put raw, as
 * another program would have written them: every access pattern the
 * example's README lists as served is run through GraphQL here, with its
 * answer and its exact DynamoDB requests; writes go through the declared
 * mutations and are checked where the design puts their items.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

/** A gateway on the design's model, with its demo items put raw. */
async function design(folder: string, name: string): Promise<TestGateway> {
  const file = fileURLToPath(new URL(`../../examples/aws/${folder}/${name}.graphql`, import.meta.url));
  const gw = await testGateway({ model: buildModel(readFileSync(file, 'utf8'), file) });
  const demo = JSON.parse(readFileSync(file.replace(/\.graphql$/, '.demo.json'), 'utf8')) as { items: Record<string, unknown>[] };
  await gw.put(demo.items);
  return gw;
}

type Connection<N> = { edges: { node: N }[] };
const nodes = <N>(c: Connection<N>): N[] => c.edges.map((e) => e.node);

describe('ChatSystem', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await design('ChatSystem', 'chat-system');
  });
  afterAll(() => gw?.stop());

  it('createChatRoom: one room item at Room:<room> / meta, refused when it exists', async () => {
    const { result, requests } = await gw.counted(`mutation { createChatRoom(input: { id: "Games", CreatedBy: "UserB" }) { id CreatedBy } }`);
    expect(result).toEqual({ data: { createChatRoom: { id: 'Games', CreatedBy: 'UserB' } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('Room:Games', 'meta')).toMatchObject({ PK: 'Room:Games', SK: 'meta', CreatedBy: 'UserB' });
    const again = await gw.run(`mutation { createChatRoom(input: { id: "Games", CreatedBy: "UserC" }) { id } }`);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await gw.get('Room:Games', 'meta')).toMatchObject({ CreatedBy: 'UserB' });
  });

  it("deleteChatRoom: the room item is deleted by the gateway's delete (read, mark, remove)", async () => {
    const { result, requests } = await gw.counted(`mutation { deleteChatRoom(id: "Games") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, TransactWriteItems: 1 });
    expect(await gw.get('Room:Games', 'meta')).toBeUndefined();
  });

  it('addComments: one item at User:<user> / <timestamp>, with RoomID and CreatedAt for the index', async () => {
    const at = '2023-04-01T15:00:00.001Z';
    const { result, requests } = await gw.counted(
      `mutation($i: AddCommentInput!) { addComments(userId: "UserB", input: $i) { id Comment RoomID { id } user { id } } }`,
      { i: { id: at, Comment: 'Jazz, please', CreatedAt: at, RoomID: 'Music' } },
    );
    expect(result).toEqual({ data: { addComments: { id: at, Comment: 'Jazz, please', RoomID: { id: 'Music' }, user: { id: 'UserB' } } } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('User:UserB', at)).toEqual({ PK: 'User:UserB', SK: at, Comment: 'Jazz, please', CreatedAt: at, RoomID: 'Music' });
  });

  it('getAllComments: a room\'s comments in the order of CreatedAt, one Query of the index', async () => {
    const { result, requests } = await gw.counted(`{ roomComments(RoomID: "Music", first: 10) { edges { node { id Comment CreatedAt user { id } } } pageInfo { hasNextPage } } }`);
    expect(result.errors).toBeUndefined();
    expect(nodes(result.data.roomComments)).toEqual([
      { id: '2023-04-01T12:00:00.001Z', Comment: 'Hello!', CreatedAt: '2023-04-01T12:00:00.001Z', user: { id: 'UserA' } },
      { id: '2023-04-01T13:00:00.001Z', Comment: 'I like a Rock music.', CreatedAt: '2023-04-01T12:00:50.001Z', user: { id: 'UserA' } },
      { id: '2023-04-01T15:00:00.001Z', Comment: 'Jazz, please', CreatedAt: '2023-04-01T15:00:00.001Z', user: { id: 'UserB' } },
    ]);
    expect(result.data.roomComments.pageInfo.hasNextPage).toBe(false);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('getLatestComments: the last comments of a room, read backward, one Query', async () => {
    const { result, requests } = await gw.counted(`{ roomComments(RoomID: "Music", last: 2) { edges { node { Comment } } pageInfo { hasPreviousPage } } }`);
    expect(nodes(result.data.roomComments)).toEqual([{ Comment: 'I like a Rock music.' }, { Comment: 'Jazz, please' }]);
    expect(result.data.roomComments.pageInfo.hasPreviousPage).toBe(true);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it("a room with its latest comments: the room's GetItem and one Query", async () => {
    const { result, requests } = await gw.counted(`{ room(id: "Art") { CreatedBy comments(last: 10) { edges { node { Comment user { id } } } } } }`);
    expect(result.data.room).toEqual({
      CreatedBy: 'UserF',
      comments: { edges: [{ node: { Comment: 'I love aaa.', user: { id: 'UserC' } } }, { node: { Comment: 'Me too.', user: { id: 'UserA' } } }] },
    });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("a user's comments, oldest first: one Query of their partition, no read of the user", async () => {
    const { result, requests } = await gw.counted(`{ user(id: "UserA") { comments(first: 10) { edges { node { id Comment RoomID { id } } } } } }`);
    expect(nodes(result.data.user.comments).map((c: any) => [c.id, c.RoomID.id])).toEqual([
      ['2023-04-01T12:00:00.001Z', 'Music'],
      ['2023-04-01T13:00:00.001Z', 'Music'],
      ['2023-04-01T14:00:00.001Z', 'Art'],
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('a comment by its user and time: one GetItem', async () => {
    const { result, requests } = await gw.counted(`{ comment(userId: "UserC", id: "2023-04-01T12:00:05.001Z") { Comment RoomID { id CreatedBy } } }`);
    expect(result.data.comment).toEqual({ Comment: 'I love aaa.', RoomID: { id: 'Art', CreatedBy: 'UserF' } });
    expect(requests.byOperation).toEqual({ GetItem: 2 });
  });
});
