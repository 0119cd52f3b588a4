/**
 * @delete(match): a delete that names values the item must hold (a board
 * deleted only by its owner). A mismatch is CONFLICT with nothing written,
 * the item and its children left as they were; a match deletes as every
 * delete does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Board @item(pk: "BOARD#{id}", sk: "META") {
  id: ID!
  owner: String!
  cards(first: Int, after: String, last: Int, before: String): CardConnection! @children(counter: "cardCount")
}
type Card @item(pk: "BOARD#{board}", sk: "CARD#{id}") { id: ID! text: String! board: Board! @parent }
type CardConnection { edges: [CardEdge!]! pageInfo: PageInfo! totalCount: Int! }
type CardEdge { cursor: String! node: Card! }
input NewBoardInput { id: ID owner: String! }
input NewCardInput { id: ID text: String! }
type Query { board(id: ID!): Board @get }
type Mutation {
  createBoard(input: NewBoardInput!): Board! @create
  addCard(boardId: ID!, input: NewCardInput!): Card! @create(parent: "boardId")
  "Only its owner deletes a board."
  deleteBoard(id: ID!, owner: String!): ID! @delete(type: "Board", match: ["owner"])
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'boards.graphql') });
  expect((await gw.run(`mutation { createBoard(input: { id: "b1", owner: "ann" }) { id } }`)).errors).toBeUndefined();
  expect((await gw.run(`mutation { addCard(boardId: "b1", input: { id: "c1", text: "todo" }) { id } }`)).errors).toBeUndefined();
});
afterAll(() => gw?.stop());

describe('@delete(match)', () => {
  it('refuses a delete naming another value with CONFLICT after one read, leaving the item and its children', async () => {
    const { result, requests } = await gw.counted(`mutation { deleteBoard(id: "b1", owner: "bob") }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(result.errors?.[0]?.message).toBe('Board b1 does not have owner "bob": not deleted');
    expect(requests.byOperation).toEqual({ GetItem: 1 });
    expect(await gw.get('BOARD#b1', 'META')).toEqual({ PK: 'BOARD#b1', SK: 'META', owner: 'ann', cardCount: 1 });
    expect(await gw.get('BOARD#b1', 'CARD#c1')).toBeDefined();
  });

  it('deletes the item with its children when it holds the value (marked here, finished by the stream processor)', async () => {
    const { result, requests } = await gw.counted(`mutation { deleteBoard(id: "b1", owner: "ann") }`);
    expect(result).toEqual({ data: { deleteBoard: 'b1' } });
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1 });
    await gw.settle();
    expect(await gw.get('BOARD#b1', 'META')).toBeUndefined();
    expect(await gw.get('BOARD#b1', 'CARD#c1')).toBeUndefined();
  });

  it('answers NOT_FOUND for a missing item', async () => {
    const { result } = await gw.counted(`mutation { deleteBoard(id: "b1", owner: "ann") }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses a match naming no stored field, no argument, or a child type, one line each', () => {
    const sdl = MODEL.replace(
      'deleteBoard(id: ID!, owner: String!): ID! @delete(type: "Board", match: ["owner"])',
      `deleteBoard(id: ID!, owner: String!): ID! @delete(type: "Board", match: ["colour"])
  dropBoard(id: ID!): ID! @delete(type: "Board", match: ["owner"])
  dropCard(boardId: ID!, id: ID!, text: String!): ID! @delete(type: "Card", parent: "boardId", match: ["text"])`,
    );
    expect(problemsOf(sdl)).toEqual(
      expect.arrayContaining([
        'Mutation.deleteBoard @delete(match): colour is no stored field of Board holding a scalar or an enum',
        'Mutation.dropBoard @delete(match): takes no argument owner holding the value Board.owner must have',
        "Mutation.dropCard @delete(match): Card is a child type: match is not supported on a child's delete yet",
      ]),
    );
  });
});
