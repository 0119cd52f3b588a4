/**
 * Children named by their parent's key values: a repository keyed by its
 * owner and name (its id derived from them) owns issues at
 * `REPO#{repoOwner}#{repoName}` (the issues' own fields for the parent's
 * placeholders, no {repo} in their key) and releases read through an index
 * of the same partition, newest first. Created under the parent by its id
 * (the parent's key values written into the child's key and fields), listed
 * one Query a page both ways, counted, deleted with their parent, and the
 * child's @parent field read back from its key. Requests are counted
 * exactly, beside an ordinary child (a label at `REPO#{repo}`) for
 * comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { formatDerivedId } from '../../src/plan/derivedId.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const PAGE = 'first: Int, after: String, last: Int, before: String';
const REPOS_BY_KEY = `
extend schema
  @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
  @index(name: "byPublished", pk: ["relPk"], sk: ["relSk"])
scalar DateTime
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Repo @item(pk: "REPO#{owner}#{name}", sk: "REPO#{owner}#{name}") {
  id: ID!
  owner: String!
  name: String!
  issues(${PAGE}): IssueConnection! @children(counter: "issueCount")
  releases(${PAGE}): ReleaseConnection! @children(index: "byPublished", order: DESCENDING)
  labels(${PAGE}): LabelConnection! @children(counter: "labelCount")
}
type Issue @item(pk: "REPO#{repoOwner}#{repoName}", sk: "ISSUE#{number}") {
  id: ID!
  repo: Repo! @parent
  repoOwner: String!
  repoName: String!
  number: String!
  title: String!
}
type Release @item(pk: "REPO#{repoOwner}#{repoName}", sk: "REL#{id}")
  @indexed(index: "byPublished", pk: ["REPO#{repoOwner}#{repoName}"], sk: ["{publishedAt}#{id}"]) {
  id: ID!
  repo: Repo! @parent
  repoOwner: String!
  repoName: String!
  publishedAt: DateTime!
}
type Label @item(pk: "LABELS#{repo}", sk: "LABEL#{id}") { id: ID! repo: Repo! @parent text: String! }
type IssueConnection { edges: [IssueEdge!]! pageInfo: PageInfo! totalCount: Int! }
type IssueEdge { cursor: String! node: Issue! }
type ReleaseConnection { edges: [ReleaseEdge!]! pageInfo: PageInfo! totalCount: Int! }
type ReleaseEdge { cursor: String! node: Release! }
type LabelConnection { edges: [LabelEdge!]! pageInfo: PageInfo! totalCount: Int! }
type LabelEdge { cursor: String! node: Label! }
input RepoInput { owner: String! name: String! }
input IssueInput { number: String! title: String! }
input ReleaseInput { id: ID publishedAt: DateTime! }
input LabelInput { id: ID text: String! }
type Query {
  repo(owner: String!, name: String!): Repo @get
  repoById(id: ID!): Repo @get
  issue(id: ID!): Issue @get
  issueAt(repo: ID!, number: String!): Issue @get
  release(repo: ID!, id: ID!): Release @get
}
type Mutation {
  createRepo(input: RepoInput!): Repo! @create
  deleteRepo(id: ID!): ID! @delete(type: "Repo")
  openIssue(repo: ID!, input: IssueInput!): Issue! @create(parent: "repo")
  closeIssue(id: ID!): ID! @delete(type: "Issue")
  closeIssueAt(repo: ID!, number: String!): ID! @delete(type: "Issue", parent: "repo")
  publish(repo: ID!, input: ReleaseInput!): Release! @create(parent: "repo")
  unpublish(repo: ID!, id: ID!): ID! @delete(type: "Release", parent: "repo")
  addLabel(repo: ID!, input: LabelInput!): Label! @create(parent: "repo")
}
`;

const ENGINE = formatDerivedId(['ada', 'engine']);
const LOOM = formatDerivedId(['ada', 'loom']);
const issueId = (name: string, number: string) => formatDerivedId(['ada', name, number]);

let gw: TestGateway;
beforeAll(async () => {
  // The cascade in the request, so its requests are counted here.
  gw = await testGateway({ model: buildModel(REPOS_BY_KEY, 'reposByKey.graphql'), fanOut: 'inRequest' });
  for (const name of ['engine', 'loom']) {
    const made = await gw.run(`mutation($i: RepoInput!) { createRepo(input: $i) { id } }`, { i: { owner: 'ada', name } });
    expect(made.errors).toBeUndefined();
  }
});
afterAll(() => gw?.stop());

const open = (repo: string, number: string) =>
  gw.counted(`mutation($r: ID!, $i: IssueInput!) { openIssue(repo: $r, input: $i) { id number repoOwner repoName repo { id name } } }`, {
    r: repo,
    i: { number, title: `bug ${number}` },
  });
type Page = {
  edges: { node: { number?: string; id?: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string };
};

describe("children whose key holds their parent's key values", () => {
  it("are created under the parent's id in one transaction with its counter, their key and fields holding the parent's key values", async () => {
    const { result, requests } = await open(ENGINE, '001');
    expect(result.errors).toBeUndefined();
    expect(result.data.openIssue).toEqual({
      id: issueId('engine', '001'),
      number: '001',
      repoOwner: 'ada',
      repoName: 'engine',
      repo: { id: ENGINE, name: 'engine' },
    });
    // The issue and the parent's counter in one TransactWriteItems; the parent read for repo { name }.
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1, GetItem: 1 });
    expect(await gw.get('REPO#ada#engine', 'ISSUE#001')).toMatchObject({ repoOwner: 'ada', repoName: 'engine', number: '001', title: 'bug 001' });
    expect(await gw.get('REPO#ada#engine', 'REPO#ada#engine')).toMatchObject({ issueCount: 1 });
    for (const n of ['002', '003', '004']) expect((await open(ENGINE, n)).result.errors).toBeUndefined();
    expect((await open(LOOM, '001')).result.errors).toBeUndefined();
  });

  it('costs what an ordinary child costs: one TransactWriteItems', async () => {
    const { result, requests } = await gw.counted(`mutation($r: ID!) { addLabel(repo: $r, input: { id: "l1", text: "bug" }) { id } }`, { r: ENGINE });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    const issue = await open(ENGINE, '005');
    expect(issue.result.errors).toBeUndefined();
    expect(issue.requests.byOperation).toEqual({ TransactWriteItems: 1, GetItem: 1 });
    expect((await gw.run(`mutation($id: ID!) { closeIssue(id: $id) }`, { id: issueId('engine', '005') })).errors).toBeUndefined();
  });

  it('is NOT_FOUND under a missing parent, and writes nothing', async () => {
    const { result, requests } = await open(formatDerivedId(['ada', 'ghost']), '001');
    expect(codes(result)).toEqual(['NOT_FOUND']);
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('REPO#ada#ghost', 'ISSUE#001')).toBeUndefined();
  });

  it("are listed from the parent's partition one Query a page, forward and backward, with the parent itself beside them", async () => {
    const first = await gw.counted(
      `{ repo(owner: "ada", name: "engine") { name issues(first: 3) { totalCount edges { node { number } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(first.result.errors).toBeUndefined();
    // The repository's own item sorts beside its issues: it and the first page are one Query, its counter the totalCount.
    expect(first.requests.byOperation).toEqual({ Query: 1 });
    const page = first.result.data.repo.issues as Page;
    expect(page.edges.map((e) => e.node.number)).toEqual(['001', '002', '003']);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(first.result.data.repo.issues.totalCount).toBe(4);
    const next = await gw.counted(
      `query($c: String) { repoById(id: "${ENGINE}") { issues(first: 3, after: $c) { edges { node { number } } pageInfo { hasNextPage } } } }`,
      {
        c: page.pageInfo.endCursor,
      },
    );
    expect((next.result.data.repoById.issues as Page).edges.map((e) => e.node.number)).toEqual(['004']);
    expect(next.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const back = await gw.counted(`{ repoById(id: "${ENGINE}") { issues(last: 2) { edges { node { number } } pageInfo { hasPreviousPage } } } }`);
    expect((back.result.data.repoById.issues as Page).edges.map((e) => e.node.number)).toEqual(['003', '004']);
    expect(back.result.data.repoById.issues.pageInfo.hasPreviousPage).toBe(true);
    expect(back.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const loom = await gw.run(`{ repo(owner: "ada", name: "loom") { issues(first: 5) { edges { node { number repo { id } } } } } }`);
    expect(loom.data.repo.issues.edges).toEqual([{ node: { number: '001', repo: { id: LOOM } } }]);
  });

  it('reads the @parent field back from the key: the parent found by the id its key values make', async () => {
    const { result, requests } = await gw.counted(`query($id: ID!) { issue(id: $id) { title repo { id owner name } } }`, { id: issueId('engine', '002') });
    expect(result.data.issue).toEqual({ title: 'bug 002', repo: { id: ENGINE, owner: 'ada', name: 'engine' } });
    expect(requests.byOperation).toEqual({ GetItem: 2 });
  });

  it("is found and deleted by the parent's id and its own key value, one request each; an id of no repository is BAD_USER_INPUT", async () => {
    const got = await gw.counted(`query($r: ID!) { issueAt(repo: $r, number: "003") { id title } }`, { r: ENGINE });
    expect(got.result.data.issueAt).toEqual({ id: issueId('engine', '003'), title: 'bug 003' });
    expect(got.requests.byOperation).toEqual({ GetItem: 1 });
    const bad = await gw.counted(`{ issueAt(repo: "no id", number: "003") { id } }`);
    expect(codes(bad.result)).toEqual(['BAD_USER_INPUT']);
    expect(bad.requests.byOperation).toEqual({});
    expect((await open(ENGINE, '006')).result.errors).toBeUndefined();
    const gone = await gw.counted(`mutation($r: ID!) { closeIssueAt(repo: $r, number: "006") }`, { r: ENGINE });
    expect(gone.result.data.closeIssueAt).toBe(issueId('engine', '006'));
    expect(gone.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('REPO#ada#engine', 'ISSUE#006')).toBeUndefined();
  });

  it('keeps the counter on a delete of a child found by its id alone, in one transaction', async () => {
    const { result, requests } = await gw.counted(`mutation($id: ID!) { closeIssue(id: $id) }`, { id: issueId('engine', '004') });
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('REPO#ada#engine', 'ISSUE#004')).toBeUndefined();
    expect(await gw.get('REPO#ada#engine', 'REPO#ada#engine')).toMatchObject({ issueCount: 3 });
  });
});

describe("children named by their parent's key values, read through an index", () => {
  it('are created under the parent with {id} in their key and listed newest first through the index, one Query a page', async () => {
    for (const [id, at] of [
      ['v1', '2026-01-01T00:00:00Z'],
      ['v2', '2026-02-01T00:00:00Z'],
      ['v3', '2026-03-01T00:00:00Z'],
    ]) {
      const made = await gw.counted(`mutation($r: ID!, $i: ReleaseInput!) { publish(repo: $r, input: $i) { id repoName } }`, {
        r: ENGINE,
        i: { id, publishedAt: at },
      });
      expect(made.result.errors).toBeUndefined();
      expect(made.result.data.publish).toEqual({ id, repoName: 'engine' });
      // No counter: the parent is checked in the same transaction.
      expect(made.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    }
    expect(await gw.get('REPO#ada#engine', 'REL#v2')).toMatchObject({ relPk: 'REPO#ada#engine', relSk: '2026-02-01T00:00:00.000Z#v2' });
    const { result, requests } = await gw.counted(
      `{ repoById(id: "${ENGINE}") { releases(first: 2) { edges { node { id repo { id } } } pageInfo { hasNextPage endCursor } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const page = result.data.repoById.releases as Page;
    expect(page.edges.map((e) => e.node.id)).toEqual(['v3', 'v2']);
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const rest = await gw.counted(
      `query($c: String) { repoById(id: "${ENGINE}") { releases(first: 2, after: $c) { edges { node { id } } pageInfo { hasNextPage } } } }`,
      {
        c: page.pageInfo.endCursor,
      },
    );
    expect((rest.result.data.repoById.releases as Page).edges.map((e) => e.node.id)).toEqual(['v1']);
    expect(rest.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("are found and deleted with the parent's id and their own, one request each", async () => {
    const got = await gw.counted(`query($r: ID!) { release(repo: $r, id: "v1") { id publishedAt } }`, { r: ENGINE });
    expect(got.result.data.release).toEqual({ id: 'v1', publishedAt: '2026-01-01T00:00:00.000Z' });
    expect(got.requests.byOperation).toEqual({ GetItem: 1 });
    for (const bad of [`{ release(repo: "no id", id: "v1") { id } }`, `mutation { unpublish(repo: "bm8", id: "v1") }`]) {
      const refused = await gw.counted(bad);
      expect(codes(refused.result)).toEqual(['BAD_USER_INPUT']);
      expect(refused.requests.byOperation).toEqual({});
    }
    const gone = await gw.counted(`mutation($r: ID!) { unpublish(repo: $r, id: "v1") }`, { r: ENGINE });
    expect(gone.result.errors).toBeUndefined();
    expect(await gw.get('REPO#ada#engine', 'REL#v1')).toBeUndefined();
  });
});

describe('a parent whose children hold its key values, deleted', () => {
  it('removes its children with it, each as an ordinary child is removed, and nothing of another parent', async () => {
    const { result, requests } = await gw.counted(`mutation { deleteRepo(id: "${ENGINE}") }`);
    expect(result.errors).toBeUndefined();
    // The read and the mark; per connection (issues, releases, labels) the Query of its partition and the one finding it empty;
    // each of the 6 children in a transaction of its own (as the ordinary label), then the repository.
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, Query: 6, TransactWriteItems: 7 });
    for (const sk of ['REPO#ada#engine', 'ISSUE#001', 'ISSUE#003', 'REL#v2', 'REL#v3']) expect(await gw.get('REPO#ada#engine', sk)).toBeUndefined();
    expect(await gw.get('LABELS#' + ENGINE, 'LABEL#l1')).toBeUndefined();
    expect(await gw.get('REPO#ada#loom', 'ISSUE#001')).toBeDefined();
  });
});
