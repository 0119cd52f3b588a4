/**
 * A model of 50 item types for the model-size check: the default
 * model (schema.graphql, 6 item types) plus 44 generated ones (22
 * parent/child pairs, each parent with a @children connection and a
 * many-to-many to the next parent), so a request of the default model's
 * cases can be timed against a model of 50 types: the engine's per-request
 * work must not grow with the size of the model.
 *
 * test/integration/modelSize.test.ts asserts that, request for request.
 */
import { readFileSync } from 'node:fs';

export function bigModel(pairs = 22): string {
  const base = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
  const types: string[] = [];
  const queries: string[] = [];
  for (let i = 0; i < pairs; i++) {
    const next = (i + 1) % pairs;
    types.push(`
type Thing${i} implements Node @item(pk: "THING${i}#{id}", sk: "META") @access(rule: ANYONE) {
  globalId: ID!
  id: ID!
  label: String!
  parts(first: Int, after: String, last: Int, before: String): Thing${i}PieceConnection! @children(counter: "pieceCount")
  links(first: Int, after: String, last: Int, before: String): Thing${i}LinkConnection!
    @edges(copy: [{ field: "label", attribute: "linkLabel" }], counter: "linkCount")
  linkedFrom(first: Int, after: String, last: Int, before: String): Thing${next}LinkedFromConnection! @edges(inverseOf: "links")
}
type Piece${i} implements Node @item(pk: "THING${i}#{thing}", sk: "PIECE#{id}") @access(rule: ANYONE) { globalId: ID! id: ID! size: Int! thing: Thing${i}! @parent }
type Thing${i}PieceConnection { edges: [Thing${i}PieceEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}PieceEdge { cursor: String! node: Piece${i}! }
type Thing${i}LinkConnection { edges: [Thing${i}LinkEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}LinkEdge { cursor: String! linkedAt: DateTime! @createdAt node: Thing${next}! }
type Thing${next}LinkedFromConnection { edges: [Thing${next}LinkedFromEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${next}LinkedFromEdge { cursor: String! linkedAt: DateTime! node: Thing${i}! }
`);
    queries.push(`  thing${i}(id: ID!): Thing${i} @get @access(rule: ANYONE)`);
  }
  // The edges of Thing(i).links lead to Thing(i+1), whose linkedFrom side names Thing(i) as node.
  const fixed = types.map((t, i) => t.replace(`linkedFrom(first: Int, after: String, last: Int, before: String): Thing${(i + 1) % pairs}LinkedFromConnection! @edges(inverseOf: "links")`, `linkedFrom(first: Int, after: String, last: Int, before: String): Thing${i}LinkedFromConnection! @edges(inverseOf: "links")`));
  return `${base}\n${fixed.join('')}\nextend type Query {\n${queries.join('\n')}\n}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(bigModel());
