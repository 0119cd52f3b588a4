/** A small model of its own (not the default one) for the model checks' tests. */
export const PREAMBLE = `
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;

/** A small valid model: teams and players (many-to-many with a copy), leagues with their teams' seasons as children. */
export const VALID = `${PREAMBLE}
type Team @item(pk: "TEAM#{id}", sk: "META") {
  id: ID!
  name: String!
  players(first: Int, after: String, last: Int, before: String): TeamPlayerConnection!
    @edges(copy: [{ field: "nick", attribute: "playerNick" }], counter: "playerCount")
  seasons(first: Int, after: String, last: Int, before: String): SeasonConnection! @children(counter: "seasonCount")
}
type TeamPlayerConnection { edges: [TeamPlayerEdge!]! pageInfo: PageInfo! totalCount: Int! }
type TeamPlayerEdge { cursor: String! joinedAt: DateTime! @createdAt number: Int node: Player! }
type Player @item(pk: "PLAYER#{id}", sk: "META") {
  id: ID!
  nick: String!
  teams(first: Int, after: String, last: Int, before: String): PlayerTeamConnection! @edges(inverseOf: "players")
}
type PlayerTeamConnection { edges: [PlayerTeamEdge!]! pageInfo: PageInfo! totalCount: Int! }
type PlayerTeamEdge { cursor: String! joinedAt: DateTime! number: Int node: Team! }
type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}", inverted: true) { id: ID! year: Int! team: Team! @parent }
type SeasonConnection { edges: [SeasonEdge!]! pageInfo: PageInfo! totalCount: Int! }
type SeasonEdge { cursor: String! node: Season! }
input CreateTeamInput { id: ID name: String! }
input UpdateTeamInput { name: String }
input AddSeasonInput { id: ID year: Int! }
type Query {
  team(id: ID!): Team @get
  player(id: ID!): Player @get
  season(id: ID!): Season @get
}
type Mutation {
  createTeam(input: CreateTeamInput!): Team! @create
  updateTeam(id: ID!, input: UpdateTeamInput!): Team! @update
  deleteTeam(id: ID!): ID! @delete(type: "Team")
  addSeason(teamId: ID!, input: AddSeasonInput!): Season! @create(parent: "teamId")
  join(teamId: ID!, playerId: ID!, number: Int): TeamPlayerEdge! @addEdge(edges: "Team.players", from: "teamId", to: "playerId")
  leave(teamId: ID!, playerId: ID!): Boolean! @removeEdge(edges: "Team.players", from: "teamId", to: "playerId")
}
`;
