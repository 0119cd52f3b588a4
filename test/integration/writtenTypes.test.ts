/**
 * A model may leave out PageInfo and the connection and edge types of its
 * connections named `<Node>Connection`: the gateway writes them, and a
 * model that declares one keeps its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
type Board @item(pk: "BOARD#{id}", sk: "META") {
  id: ID!
  name: String!
  cards(first: Int, after: String, last: Int, before: String): CardConnection! @children(counter: "cardCount")
}
type Card @item(pk: "BOARD#{board}", sk: "CARD#{id}") { id: ID! text: String! board: Board! @parent }
input NewBoard { id: ID name: String! }
input NewCard { id: ID text: String! }
type Query { board(id: ID!): Board @get }
type Mutation {
  createBoard(input: NewBoard!): Board! @create
  addCard(boardId: ID!, input: NewCard!): Card! @create(parent: "boardId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'board.graphql') });
  expect((await gw.run(`mutation { createBoard(input: { id: "b1", name: "Todo" }) { id } }`)).errors).toBeUndefined();
  for (const id of ['c1', 'c2', 'c3'])
    expect((await gw.run(`mutation { addCard(boardId: "b1", input: { id: "${id}", text: "${id}" }) { id } }`)).errors).toBeUndefined();
});
afterAll(() => gw?.stop());

describe('types the gateway writes', () => {
  it('serves a connection whose connection, edge and PageInfo types the model left out', async () => {
    const { result, requests } = await gw.counted(
      `{ board(id: "b1") { name cards(first: 2) { totalCount edges { cursor node { text } } pageInfo { hasNextPage hasPreviousPage } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.board.cards.totalCount).toBe(3);
    expect(result.data.board.cards.edges.map((e: { node: { text: string } }) => e.node.text)).toEqual(['c1', 'c2']);
    expect(result.data.board.cards.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    expect(requests.requests).toBe(1);
  });

  it('keeps a connection type the model declares itself', () => {
    const own = buildModel(`${MODEL}\ntype CardConnection { edges: [CardEdge!]! pageInfo: PageInfo! }`, 'board.graphql');
    expect(Object.keys((own.schema.getType('CardConnection') as { getFields(): object }).getFields())).toEqual(['edges', 'pageInfo']);
    const written = buildModel(MODEL, 'board.graphql');
    expect(Object.keys((written.schema.getType('CardConnection') as { getFields(): object }).getFields())).toEqual(['edges', 'pageInfo', 'totalCount']);
    expect(written.schema.getType('CardEdge')).toBeDefined();
    expect(written.schema.getType('PageInfo')).toBeDefined();
  });
});
