/**
 * Several key shapes of one type in one index (@indexed(when:)): served
 * when their conditions exclude each other on one stored field and their
 * keys cannot meet; otherwise refused, one line naming the type and index.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';

const model = (shapes: string) => `
type Repo @item(pk: "REPO#{id}", sk: "META") ${shapes} {
  id: ID!
  owner: String!
  name: String!
  parentOwner: String
  parentName: String
}
type Query { repo(id: ID!): Repo @get }
`;
const ORIGINAL = '@indexed(index: "GSI2", pk: ["REPO#{owner}#{name}"], sk: ["REPO#{owner}#{name}"], when: "!parentName")';
const FORK = '@indexed(index: "GSI2", pk: ["FORK#{parentOwner}#{parentName}"], sk: ["FORK#{owner}"], when: "parentName")';

describe('several key shapes of one type in one index', () => {
  it('reads two shapes whose when: fields exclude each other, each with its condition', () => {
    const repo = buildModel(model(`${ORIGINAL} ${FORK}`), 'repos.graphql').items.get('Repo')!;
    expect(repo.indexed.map((p) => [p.index, p.pk[0]!.template.source, p.when])).toEqual([
      ['GSI2', 'REPO#{owner}#{name}', { field: 'parentName', set: false }],
      ['GSI2', 'FORK#{parentOwner}#{parentName}', { field: 'parentName', set: true }],
    ]);
  });

  it('refuses a second key in one index without when:, as before', () => {
    expect(problemsOf(model(`${ORIGINAL.replace(', when: "!parentName"', '')} ${FORK.replace(', when: "parentName"', '')}`))).toEqual([
      'Repo @indexed(index: "GSI2"): Repo is already in GSI2: one key per index (or one per when: shape)',
    ]);
  });

  it('refuses two shapes that could both hold for one item', () => {
    expect(problemsOf(model(`${ORIGINAL.replace('!parentName', 'parentOwner')} ${FORK}`))).toEqual([
      'Repo @indexed(index: "GSI2"): Repo is already in GSI2: both shapes could hold for one item: give them when: "<field>" and when: "!<field>" of one stored field',
    ]);
    expect(problemsOf(model(`${ORIGINAL.replace(', when: "!parentName"', '')} ${FORK}`))).toHaveLength(1);
  });

  it('refuses two shapes whose keys could be the same for different items', () => {
    expect(problemsOf(model(`${ORIGINAL} ${FORK.replaceAll('FORK#', 'REPO#')}`))).toEqual([
      "Repo @indexed(index: \"GSI2\"): Repo's two shapes in GSI2 could write the same key for different items: their partition or sort keys must start with literal prefixes neither of which begins the other",
    ]);
  });

  it('refuses an update input holding a field of a shaped key without the when field that chooses the shape', () => {
    const sdl = model(`${ORIGINAL} ${FORK}`).replace(
      'type Query { repo(id: ID!): Repo @get }',
      `input RepoUpdate { owner: String parentOwner: String }
type Query { repo(id: ID!): Repo @get }
type Mutation { updateRepo(id: ID!, input: RepoUpdate!): Repo! @update }`,
    );
    const problems = problemsOf(sdl);
    expect(problems.filter((p) => p.includes('(@indexed(when:))'))).toEqual([
      "RepoUpdate.owner: Repo.owner is in Repo's keys in the index GSI2, whose shape parentName chooses (@indexed(when:)): an update writes the shape that holds without a read, so the input needs parentName too (or leave owner out of it)",
      "RepoUpdate.parentOwner: Repo.parentOwner is in Repo's keys in the index GSI2, whose shape parentName chooses (@indexed(when:)): an update writes the shape that holds without a read, so the input needs parentName too (or leave parentOwner out of it)",
    ]);
  });

  it('refuses a when: that names no stored field', () => {
    expect(problemsOf(model(`${ORIGINAL} ${FORK.replace('when: "parentName"', 'when: "parent"')}`))).toEqual([
      'Repo @indexed(index: "GSI2")(when): "parent" names no stored field of Repo: when: "<field>" (written while it is set) or "!<field>" (while it is not)',
    ]);
  });
});
