/**
 * Relations named by any key: what the model check accepts and what it
 * refuses, one line each (the reads themselves: test/integration/relationKeys.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { ModelError } from '../../src/declaration/problems.js';
import { PREAMBLE } from '../support/teamsModel.js';

function problemsOf(sdl: string): string[] {
  try {
    buildModel(sdl, 'model.graphql');
  } catch (error) {
    if (error instanceof ModelError) return error.problems.map((p) => `${p.where}: ${p.message}`);
    throw error;
  }
  return [];
}

const conn = (name: string, node: string) =>
  `type ${name}Connection { edges: [${name}Edge!]! pageInfo: PageInfo! totalCount: Int! } type ${name}Edge { cursor: String! node: ${node}! }`;

const REPOS = `${PREAMBLE}
extend schema @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"]) @index(name: "byChannel", pk: ["GSI2PK"], sk: ["GSI2SK"])
type Repo @item(pk: "REPO#{owner}#{name}", sk: "META") {
  id: ID! owner: String! name: String!
  issues(first: Int, after: String, last: Int, before: String): IssueConnection! @query
}
type Issue @item(pk: "REPO#{repoOwner}#{repoName}", sk: "ISSUE#{number}") { id: ID! repoOwner: String! repoName: String! number: String! }
${conn('Issue', 'Issue')}
type Agent @item(pk: "AGENT#{id}", sk: "AGENT") {
  id: ID!
  messages(channel: String!, first: Int, after: String, last: Int, before: String): MessageConnection! @query(index: "byChannel")
}
type Message @item(pk: "MSG#{id}", sk: "MSG") @indexed(index: "byChannel", pk: ["A#{agent}#C#{channel}"], sk: ["{sentAt}"]) { id: ID! agent: Agent! channel: String! sentAt: String! }
${conn('Message', 'Message')}
type Query { repo(owner: String!, name: String!): Repo @get agent(id: ID!): Agent @get }
`;

describe('relations named by any key', () => {
  it("fills a partition from the owner's key values and from a required argument", () => {
    expect(problemsOf(REPOS)).toEqual([]);
    const model = buildModel(REPOS, 'model.graphql');
    expect(model.relations.get('Repo.issues')).toMatchObject({ via: '', partitionFills: { repoOwner: { ownerKey: 'owner' }, repoName: { ownerKey: 'name' } } });
    expect(model.relations.get('Agent.messages')).toMatchObject({ via: 'agent', partitionFills: { channel: { argument: 'channel' } } });
  });

  it('refuses an optional argument filling the partition, and a placeholder nothing fills', () => {
    expect(problemsOf(REPOS.replace('messages(channel: String!', 'messages(channel: String'))).toEqual([
      'Agent.messages @query(channel): fills {channel} of the partition read: make it required (String!)',
    ]);
    expect(problemsOf(REPOS.replace('messages(channel: String!, ', 'messages('))).toEqual([
      'Agent.messages @query(index: "byChannel"): nothing fills {channel} of Message\'s partition key there, "A#{agent}#C#{channel}": the Agent\'s id fills {agent}; a required argument named like a placeholder fills it',
    ]);
    expect(problemsOf(REPOS.replace('pk: "REPO#{repoOwner}#{repoName}"', 'pk: "REPOS#{repoOwner}#{repoName}"'))).toEqual([
      "Repo.issues @query: Issue has no @parent field or reference of type Repo: nothing names Repo's partition of Issue items",
    ]);
  });

  it('accepts from/until over an index sort key without {id}', () => {
    const bounded = REPOS.replace('messages(channel: String!, ', 'messages(channel: String!, from: String, until: String, ').replace(
      '@query(index: "byChannel")',
      '@query(index: "byChannel", from: "from", until: "until")',
    );
    expect(problemsOf(bounded)).toEqual([]);
  });
});

const NOTES = `${PREAMBLE}
type Agent @item(pk: "AGENT#{id}", sk: "AGENT") {
  id: ID!
  notes(first: Int, after: String, last: Int, before: String): NoteConnection! @children
}
type Note @item(pk: "AGENT#{agent}", sk: "NOTE#{id}") { id: ID! agent: Agent! text: String! }
${conn('Note', 'Note')}
type Query { agent(id: ID!): Agent @get }
`;

describe('@parent inferred', () => {
  it("takes the one reference field of the owner's type that the pk names as the parent", () => {
    expect(buildModel(NOTES, 'model.graphql').items.get('Note')!.parent).toEqual({ field: 'agent', type: 'Agent' });
  });

  it('refuses, in one line naming them, several such references', () => {
    const two = NOTES.replace('pk: "AGENT#{agent}"', 'pk: "AGENT#{agent}#{reviewer}"').replace('agent: Agent! text', 'agent: Agent! reviewer: Agent! text');
    expect(problemsOf(two)).toContainEqual(
      'Note @item(pk): names several references to types listing Note with @children (agent: Agent, reviewer: Agent): mark its parent with @parent',
    );
  });
});
