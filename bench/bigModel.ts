/**
 * A model of 50 item types and 10 indexes for the model-size check: the
 * default model (schema.graphql, 6 item types, GSI1 and GSI2) plus 44
 * generated types (22 parent/child pairs, each parent with a @children
 * connection, a many-to-many to the next parent, and a key in one of 8
 * more declared indexes read by a root @query), so the default model's
 * cases can be counted against a model of 50 types and 10 indexes: the
 * engine's per-request work must not grow with the size of the model.
 *
 * test/integration/modelSize.test.ts asserts that, request for request.
 */
import { readFileSync } from 'node:fs';

export const EXTRA_INDEXES = 8;
const PAGE = 'first: Int, after: String, last: Int, before: String';

export function bigModel(pairs = 22): string {
  const base = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
  const indexes = Array.from({ length: EXTRA_INDEXES }, (_, k) => `  @index(name: "things${k}", pk: ["T${k}PK"], sk: ["T${k}SK"])`);
  const types: string[] = [];
  const queries: string[] = [];
  for (let i = 0; i < pairs; i++) {
    const next = (i + 1) % pairs;
    const k = i % EXTRA_INDEXES;
    types.push(`
type Thing${i} implements Node @item(pk: "THING${i}#{id}", sk: "META") @indexed(index: "things${k}", pk: ["L#{label}"], sk: ["T${i}#{id}"]) @access(rule: ANYONE) {
  globalId: ID!
  id: ID!
  label: String!
  parts(${PAGE}): Thing${i}PieceConnection! @children(counter: "pieceCount")
  links(${PAGE}): Thing${i}LinkConnection! @edges(copy: [{ field: "label", attribute: "linkLabel" }], counter: "linkCount")
  linkedFrom(${PAGE}): Thing${i}LinkedFromConnection! @edges(inverseOf: "links")
}
type Piece${i} implements Node @item(pk: "THING${i}#{thing}", sk: "PIECE#{id}") @access(rule: ANYONE) { globalId: ID! id: ID! size: Int! thing: Thing${i}! @parent }
type Thing${i}Connection { edges: [Thing${i}Edge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}Edge { cursor: String! node: Thing${i}! }
type Thing${i}PieceConnection { edges: [Thing${i}PieceEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}PieceEdge { cursor: String! node: Piece${i}! }
type Thing${i}LinkConnection { edges: [Thing${i}LinkEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}LinkEdge { cursor: String! linkedAt: DateTime! @createdAt node: Thing${next}! }
type Thing${i}LinkedFromConnection { edges: [Thing${i}LinkedFromEdge!]! pageInfo: PageInfo! totalCount: Int! }
type Thing${i}LinkedFromEdge { cursor: String! linkedAt: DateTime! node: Thing${(i + pairs - 1) % pairs}! }
`);
    queries.push(
      `  thing${i}(id: ID!): Thing${i} @get @access(rule: ANYONE)`,
      `  things${i}ByLabel(label: String!, ${PAGE}): Thing${i}Connection! @query(index: "things${k}") @access(rule: ANYONE)`,
    );
  }
  // Declaring one index means declaring all it reads: the default model's GSI1 and GSI2 too.
  const schema = `extend schema\n  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])\n  @index(name: "GSI2", pk: ["GSI2PK"], sk: ["GSI2SK"])\n${indexes.join('\n')}\n`;
  return `${base}\n${schema}${types.join('')}\nextend type Query {\n${queries.join('\n')}\n}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(bigModel());
