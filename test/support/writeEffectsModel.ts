/** Counted references, a sequence, an index key an update moves, a child without a counter, an item alone (writeEffects, writeCosts). */
export const WRITE_EFFECTS = `
extend schema @index(name: "byStatus", pk: ["statusKey"], sk: ["rankKey"])
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Project @item(pk: "P#{id}", sk: "META") {
  id: ID!  name: String!  starCount: Int
  tasks(first: Int, after: String, last: Int, before: String): TaskConnection! @children
  comments(first: Int, after: String, last: Int, before: String): CommentConnection! @children
}
type Task @item(pk: "P#{project}", sk: "TASK#{number}") @indexed(index: "byStatus", pk: ["S#{status}"], sk: ["{owner}#{title}"]) {
  id: ID!  number: Int! @attribute(sequence: "lastTask", pad: 4)  title: String!  status: String!  owner: String!  project: Project! @parent
}
type Comment @item(pk: "P#{project}", sk: "C#{id}") { id: ID!  text: String!  project: Project! @parent }
type Star @item(pk: "STAR#{id}", sk: "META") { id: ID!  project: Project! @attribute(counter: "starCount")  user: String! }
type TaskConnection { edges: [TaskEdge!]! pageInfo: PageInfo! }
type TaskEdge { cursor: String! node: Task! }
type CommentConnection { edges: [CommentEdge!]! pageInfo: PageInfo! }
type CommentEdge { cursor: String! node: Comment! }
input CreateProjectInput { id: ID  name: String! }
input AddTaskInput { title: String!  status: String!  owner: String! }
input UpdateTaskInput { title: String  status: String  owner: String }
input AddCommentInput { id: ID  text: String! }
input StarInput { id: ID  project: ID!  user: String! }
type Repo @item(pk: "REPO#{owner}#{name}", sk: "META") { id: ID!  owner: String!  name: String!  description: String }
input CreateRepoInput { owner: String!  name: String!  description: String }
input UpdateRepoInput { description: String }
type Query {
  project(id: ID!): Project @get
  task(id: ID!): Task @get
  tasksByStatus(status: String!, first: Int, after: String, last: Int, before: String): TaskConnection! @query(index: "byStatus")
}
type Mutation {
  createProject(input: CreateProjectInput!): Project! @create
  addTask(project: ID!, input: AddTaskInput!): Task! @create(parent: "project")
  updateTask(id: ID!, input: UpdateTaskInput!): Task! @update
  addComment(project: ID!, input: AddCommentInput!): Comment! @create(parent: "project")
  star(input: StarInput!): Star! @create
  unstar(id: ID!): ID! @delete(type: "Star")
  deleteComment(project: ID!, id: ID!): ID! @delete(type: "Comment", parent: "project")
  createRepo(input: CreateRepoInput!): Repo! @create
  updateRepo(owner: String!, name: String!, input: UpdateRepoInput!): Repo! @update
  deleteRepo(owner: String!, name: String!): ID! @delete(type: "Repo")
}
`;
