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

const OWNED = `${PREAMBLE}
type Repo @item(pk: "REPO#{owner}#{name}", sk: "REPO#{owner}#{name}") {
  id: ID! owner: String! name: String!
  issues(first: Int, after: String, last: Int, before: String): IssueConnection! @children(counter: "issueCount")
}
type Issue @item(pk: "REPO#{repoOwner}#{repoName}", sk: "ISSUE#{number}") { id: ID! repo: Repo! @parent repoOwner: String! repoName: String! number: String! }
${conn('Issue', 'Issue')}
input IssueInput { number: String! }
type Query { repo(owner: String!, name: String!): Repo @get }
type Mutation { openIssue(repo: ID!, input: IssueInput!): Issue! @create(parent: "repo") }
`;

describe("@children named by the parent's key values", () => {
  it("takes the child's fields at the places of the parent's pk placeholders as the parent's key values", () => {
    expect(problemsOf(OWNED)).toEqual([]);
    const model = buildModel(OWNED, 'model.graphql');
    expect(model.items.get('Issue')!.parent).toEqual({ field: 'repo', type: 'Repo', keys: ['repoOwner', 'repoName'] });
    expect(model.relations.get('Repo.issues')).toMatchObject({
      owned: true,
      via: 'repo',
      partitionFills: { repoOwner: { ownerKey: 'owner' }, repoName: { ownerKey: 'name' } },
    });
  });

  it("refuses a child key that neither holds the parent's id nor repeats its pk, and a parent whose id is not derived", () => {
    const hint = `, or be Repo's pk "REPO#{owner}#{name}" with fields of Issue for its placeholders (Repo's id is derived from them)`;
    expect(problemsOf(OWNED.replace('pk: "REPO#{repoOwner}#{repoName}"', 'pk: "REPOS#{repoOwner}#{repoName}"'))).toContain(
      `Issue @item: a child's key holds its parent's id: pk or sk must hold {repo}${hint}`,
    );
    // A parent whose id holds a value its pk does not (its sk's {name}): the child's key cannot give it back.
    const split = OWNED.replace('@item(pk: "REPO#{owner}#{name}", sk: "REPO#{owner}#{name}")', '@item(pk: "REPO#{owner}", sk: "R#{name}")').replace(
      'pk: "REPO#{repoOwner}#{repoName}", sk: "ISSUE#{number}"',
      'pk: "REPO#{repoOwner}", sk: "ISSUE#{repoName}#{number}"',
    );
    expect(problemsOf(split)).toContain(
      "Issue @item: a child's key holds its parent's id: pk or sk must hold {repo} (Repo's id also holds {name}, which its pk does not, so no key repeating its pk gives the id back)",
    );
    expect(
      problemsOf(OWNED.replace('@item(pk: "REPO#{owner}#{name}", sk: "REPO#{owner}#{name}")', '@item(pk: "REPO#{owner}#{name}", sk: "R#{id}")')),
    ).toContain("Issue @item: a child's key holds its parent's id: pk or sk must hold {repo}");
  });

  it("refuses a field holding a parent's key value that is not text of the parent's kind", () => {
    const dated = OWNED.replace('id: ID! owner: String! name: String!', 'id: ID! owner: String! name: DateTime!');
    expect(problemsOf(dated)).toEqual([
      "Issue.repoName: holds Repo.name (DateTime), a key value of its parent written from the parent's id: make it a String, ID or DateTime of the same kind",
    ]);
    expect(problemsOf(`${dated.replace('repoName: String!', 'repoName: DateTime!')}`)).toEqual([]);
  });

  it("refuses a create input giving a field the parent's id fills", () => {
    expect(problemsOf(OWNED.replace('input IssueInput { number: String! }', 'input IssueInput { number: String! repoOwner: String }'))).toEqual([
      "IssueInput.repoOwner: Issue.repoOwner holds a key value of its parent Repo, taken from the parent's id: remove it from the create input",
    ]);
  });
});
