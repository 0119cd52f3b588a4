/**
 * Relations named by any key: a repository keyed by its owner and name and
 * its issues at `REPO#{repoOwner}#{repoName}` (the owner's key values fill
 * the partition), an agent's messages of one channel over an index keyed
 * on agent and channel (an argument fills the rest), from/until over an
 * index sort key that is a natural attribute without {id}, and a parent
 * found from the one reference field its pk names. Each page is one Query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const MODEL = `
extend schema
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byChannel", pk: ["agentChannel"], sk: ["sentAt"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Repo @item(pk: "REPO#{owner}#{name}", sk: "REPO#{owner}#{name}") {
  id: ID!
  owner: String!
  name: String!
  issues(first: Int, after: String, last: Int, before: String): IssueConnection! @query
}
type Issue @item(pk: "REPO#{repoOwner}#{repoName}", sk: "ISSUE#{number}") {
  id: ID!
  repoOwner: String!
  repoName: String!
  number: String!
  title: String!
}
type IssueConnection { edges: [IssueEdge!]! pageInfo: PageInfo! totalCount: Int! }
type IssueEdge { cursor: String! node: Issue! }
type Agent @item(pk: "AGENT#{id}", sk: "AGENT") {
  id: ID!
  messages(channel: String!, from: String, until: String, first: Int, after: String, last: Int, before: String): MessageConnection!
    @query(index: "byChannel", from: "from", until: "until")
  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @children
}
type Message @item(pk: "MSG#{id}", sk: "MSG") @indexed(index: "byChannel", pk: ["{agent}#{channel}"]) {
  id: ID!
  agent: Agent!
  channel: String!
  sentAt: String!
  text: String!
}
type MessageConnection { edges: [MessageEdge!]! pageInfo: PageInfo! totalCount: Int! }
type MessageEdge { cursor: String! node: Message! }
type Note @item(pk: "AGENT#{agent}", sk: "NOTE#{id}") { id: ID! agent: Agent! text: String! }
type NoteConnection { edges: [NoteEdge!]! pageInfo: PageInfo! totalCount: Int! }
type NoteEdge { cursor: String! node: Note! }
input RepoInput { owner: String! name: String! }
input IssueInput { repoOwner: String! repoName: String! number: String! title: String! }
input AgentInput { id: ID }
input NoteInput { id: ID text: String! }
type Query {
  repo(owner: String!, name: String!): Repo @get
  agent(id: ID!): Agent @get
}
type Mutation {
  createRepo(input: RepoInput!): Repo! @create
  openIssue(input: IssueInput!): Issue! @create
  createAgent(input: AgentInput!): Agent! @create
  addNote(agentId: ID!, input: NoteInput!): Note! @create(parent: "agentId")
}
`;

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ model: buildModel(MODEL, 'relationKeys.graphql') });
  const ok = async (query: string, variables?: Record<string, unknown>) => expect((await gw.run(query, variables)).errors).toBeUndefined();
  for (const [owner, name] of [
    ['ada', 'engine'],
    ['ada', 'loom'],
  ])
    await ok(`mutation($i: RepoInput!) { createRepo(input: $i) { id } }`, { i: { owner, name } });
  for (const [name, number] of [
    ['engine', '001'],
    ['engine', '002'],
    ['loom', '001'],
  ]) {
    await ok(`mutation($i: IssueInput!) { openIssue(input: $i) { id } }`, { i: { repoOwner: 'ada', repoName: name, number, title: `${name} ${number}` } });
  }
  await ok(`mutation { createAgent(input: { id: "a1" }) { id } }`);
  await ok(`mutation { addNote(agentId: "a1", input: { id: "n1", text: "hello" }) { id } }`);
  // Messages as another program writes them: the index key is the natural attribute agentChannel, the sort key sentAt repeats.
  const message = (id: string, channel: string, sentAt: string) => ({
    PK: `MSG#${id}`,
    SK: 'MSG',
    agent: 'a1',
    channel,
    agentChannel: `a1#${channel}`,
    sentAt,
    text: id,
  });
  await gw.put([
    message('m1', 'ops', '2026-03-01'),
    message('m2', 'ops', '2026-03-02'),
    message('m3', 'ops', '2026-03-02'),
    message('m4', 'ops', '2026-03-03'),
    message('m5', 'dev', '2026-03-02'),
  ]);
});
afterAll(() => gw?.stop());

const ids = (c: { edges: { node: { id: string } }[] }) => c.edges.map((e) => e.node.id);

describe("a partition named by the owner's several key values", () => {
  it('reads a repository and its issues from REPO#{repoOwner}#{repoName} in one Query: the repository sorts beside its issues', async () => {
    const { result, requests } = await gw.counted(`{ repo(owner: "ada", name: "engine") { name issues(first: 10) { edges { node { number title } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.repo.name).toBe('engine');
    expect(result.data.repo.issues.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual(['engine 001', 'engine 002']);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });
});

describe('a type field @query whose other placeholders its arguments fill', () => {
  it("reads one channel of an agent's messages in one Query, and pages on with a cursor bound to that channel", async () => {
    const { result, requests } = await gw.counted(
      `{ agent(id: "a1") { messages(channel: "ops", first: 3) { edges { node { id } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(result.errors).toBeUndefined();
    // m2 and m3 share a sort key: DynamoDB orders them by the table key.
    const first = ids(result.data.agent.messages);
    expect([first[0], [...first.slice(1)].sort()]).toEqual(['m1', ['m2', 'm3']]);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const after = result.data.agent.messages.pageInfo.endCursor;
    const next = await gw.counted(
      `query($c: String) { agent(id: "a1") { messages(channel: "ops", first: 3, after: $c) { edges { node { id } } pageInfo { hasNextPage } } } }`,
      { c: after },
    );
    expect(ids(next.result.data.agent.messages)).toEqual(['m4']);
    expect(next.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const other = await gw.run(`query($c: String) { agent(id: "a1") { messages(channel: "dev", first: 3, after: $c) { edges { node { id } } } } }`, {
      c: after,
    });
    expect(other.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('narrows with from/until over a sort key without {id}, paging exactly through items that share a sort key', async () => {
    const page = await gw.counted(
      `{ agent(id: "a1") { messages(channel: "ops", from: "2026-03-02", until: "2026-03-03", first: 1) { edges { node { id } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(page.result.errors).toBeUndefined();
    const [one] = ids(page.result.data.agent.messages);
    expect(['m2', 'm3']).toContain(one);
    expect(page.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const rest = await gw.run(
      `query($c: String) { agent(id: "a1") { messages(channel: "ops", from: "2026-03-02", until: "2026-03-03", first: 5, after: $c) { edges { node { id } } } } }`,
      {
        c: page.result.data.agent.messages.pageInfo.endCursor,
      },
    );
    expect(ids(rest.data.agent.messages)).toEqual([one === 'm2' ? 'm3' : 'm2']);
  });
});

describe('a parent inferred from the one reference field its pk names', () => {
  it("creates a note under its agent and lists it as the agent's child, one Query", async () => {
    const { result, requests } = await gw.counted(`{ agent(id: "a1") { notes(first: 5) { edges { node { id text agent { id } } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.agent.notes.edges).toEqual([{ node: { id: 'n1', text: 'hello', agent: { id: 'a1' } } }]);
    // The agent and its notes share a partition: one Query reads both.
    expect(requests.byOperation).toEqual({ Query: 1 });
  });
});
