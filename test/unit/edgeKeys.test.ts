/**
 * @edges(pk, sk, index) at start-up: what a model with edges in partitions
 * of their own, mirrored pairs and inverse sides over an inverted index
 * compiles to (keys, reads, what a link writes), and the layouts refused,
 * one line each.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { writePlanOf } from '../../src/writes/writePlan.js';
import { problemsOf } from '../support/problems.js';

/** A user type with `followers` over `args`, its inverse side `following` over `inverse`, and the rest of a model. */
const model = (args: string, inverse: string | null, rest = '', schema = '@table(pk: "pk", sk: "sk") @index(name: "inverted", pk: ["sk"], sk: ["pk"])') => `
${schema === '' ? '' : `extend schema ${schema}`}
type User @item(pk: "u#{id}", sk: "info") {
  id: ID!
  name: String!
  followers(first: Int, after: String, last: Int, before: String): UserConnection! @edges(${args})
  ${inverse === null ? '' : `following(first: Int, after: String, last: Int, before: String): UserConnection! @edges(inverseOf: "followers"${inverse})`}
}
input UpdateUserInput { name: String }
type Query { user(id: ID!): User @get }
type Mutation { updateUser(id: ID!, input: UpdateUserInput!): User! @update }
${rest}`;

describe('edges with a key of their own', () => {
  it('reads a base side from the partition its pk names and a mirror from its own, each by its sk prefix', () => {
    const plan = compilePlan(buildModel(model('pk: "u#{id}#follower", sk: "u#{follower}"', ', pk: "u#{id}#following", sk: "u#{followed}"'), 'edges.graphql'));
    expect(plan.relation('User.followers').collection('a')).toMatchObject({ pkAttr: 'pk', skAttr: 'sk', pk: 'u#a#follower', prefix: 'u#' });
    expect(plan.relation('User.following').collection('b')).toMatchObject({ pkAttr: 'pk', skAttr: 'sk', pk: 'u#b#following', prefix: 'u#' });
    expect(plan.relation('User.followers').edge({ pk: 'u#a#follower', sk: 'u#b' }).node).toMatchObject({ id: 'b' });
    // Another item under the prefix is no edge of the connection.
    expect(plan.relation('User.following').collection('b').accepts?.({ pk: 'u#b#following', sk: 'u#a#x' })).toBe(false);
    const pair = writePlanOf(plan).pair('User.following');
    expect([pair.edgeKey('a', 'b'), pair.mirrorKey('a', 'b'), pair.gsi1]).toEqual([
      { PK: 'u#a#follower', SK: 'u#b' },
      { PK: 'u#b#following', SK: 'u#a' },
      false,
    ]);
    expect([pair.ends({ pk: 'u#a#follower', sk: 'u#b' }), pair.ends({ pk: 'u#b#following', sk: 'u#a' }), pair.ends({ pk: 'u#a', sk: 'info' })]).toEqual([
      { ownerId: 'a', nodeId: 'b' },
      { ownerId: 'a', nodeId: 'b' },
      null,
    ]);
  });

  it("reads an inverse side through the inverted index: the partition is the edge sort key, the prefix its pk's", () => {
    const plan = compilePlan(buildModel(model('pk: "u#{id}#follower", sk: "u#{follower}"', ', index: "inverted"'), 'edges.graphql'));
    expect(plan.relation('User.following').collection('b')).toMatchObject({ index: 'inverted', pkAttr: 'sk', skAttr: 'pk', pk: 'u#b', prefix: 'u#' });
    // That partition also holds other items whose sort key is u#b (a like list's): they are read past.
    expect(plan.relation('User.following').collection('b').accepts?.({ pk: 'u#a#follower', sk: 'u#b' })).toBe(true);
    expect(plan.relation('User.following').collection('b').accepts?.({ pk: 'u#a#post', sk: 'u#b' })).toBe(false);
    expect(plan.relation('User.following').edge({ pk: 'u#a#follower', sk: 'u#b' }).node).toMatchObject({ id: 'a' });
    expect(writePlanOf(plan).pair('User.followers')).toMatchObject({ gsi1: false });
  });

  it('keeps the default edges as they were: owner PK / node PK, GSI1 keys written, the inverse side on GSI1', () => {
    const plan = compilePlan(buildModel(model('counter: "followerCount"', '', '', ''), 'edges.graphql'));
    expect(plan.relation('User.followers').collection('a')).toEqual({
      name: 'User.followers',
      pkAttr: 'PK',
      skAttr: 'SK',
      pk: 'u#a',
      prefix: 'u#',
      table: { pk: 'PK', sk: 'SK' },
    });
    expect(plan.relation('User.following').collection('b')).toEqual({
      name: 'User.following',
      index: 'GSI1',
      pkAttr: 'GSI1PK',
      skAttr: 'GSI1SK',
      pk: 'u#b',
      prefix: 'u#',
      table: { pk: 'PK', sk: 'SK' },
    });
    expect(writePlanOf(plan).pair('User.followers')).toMatchObject({ gsi1: true });
  });
});

describe('edge layouts refused at start-up, one line each', () => {
  it('a template naming a field that can change', () => {
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{name}"', null))).toEqual([
      "User.followers @edges(sk): placeholder {name} names the field User.name, which can change after the edge is written: an edge's key holds the ends' ids and edge fields set by @addEdge",
    ]);
  });

  it('a pk that does not name the owner alone, an sk without the node, and one template without the other', () => {
    expect(problemsOf(model('pk: "u#{follower}#follower", sk: "u#{x}"', null))).toEqual([
      "User.followers @edges(pk): template \"u#{follower}#follower\" must name {id} (the owner's id) and no other placeholder: the owner's id alone names the edges' partition",
    ]);
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "follower"', null))).toEqual([
      'User.followers @edges(sk): template "follower" must hold one placeholder for the node\'s id besides edge fields and {id} (sk: "u#{follower}"); it has none',
    ]);
    expect(problemsOf(model('pk: "u#{id}#follower"', null))).toEqual(['User.followers @edges(sk): an edge key takes both templates, pk and sk']);
  });

  it('an inverse side reading an index the model does not declare, or one not over the table keys swapped', () => {
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{follower}"', ', index: "byFollower"'))).toEqual([
      'User.following @edges(index): reads the index byFollower, which the model does not declare (inverted): add @index(name: "byFollower", pk: ["sk"], sk: ["pk"])',
    ]);
    const other = '@table(pk: "pk", sk: "sk") @index(name: "inverted", pk: ["sk"], sk: ["name"])';
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{follower}"', ', index: "inverted"', '', other))).toEqual([
      'User.following @edges(index): the index inverted is keyed on pk sk, sk name; an inverse side reads an index over the table\'s keys swapped (pk: ["sk"], sk: ["pk"])',
    ]);
  });

  it('an index on the base side, and copies on a mirrored pair', () => {
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{follower}", index: "inverted"', null))).toEqual([
      'User.followers @edges(index): belongs on the inverse side (with inverseOf): the other direction, read back through the index',
    ]);
    expect(
      problemsOf(
        model(
          'pk: "u#{id}#follower", sk: "u#{follower}", copy: [{ field: "name", attribute: "followerName" }]',
          ', pk: "u#{id}#following", sk: "u#{followed}"',
        ),
      ),
    ).toEqual(['User.following @edges(copy): a mirrored pair (an inverse side with its own pk/sk) keeps no copies: a rename would not reach them']);
  });

  it('default-keyed edges to or from a keyless type, and a counter on a keyless owner', () => {
    const keyless = 'type Fan { id: ID!  idols(first: Int, after: String, last: Int, before: String): UserConnection! @edges }';
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{follower}"', null, keyless))).toEqual([
      "Fan.idols @edges: Fan is keyless: an edge is written beside its owner's item, which Fan does not have (declare the edge's own key with pk and sk)",
    ]);
    const counted =
      'type Fan { id: ID!  idols(first: Int, after: String, last: Int, before: String): UserConnection! @edges(pk: "f#{id}", sk: "u#{idol}", counter: "idolCount") }';
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "u#{follower}"', null, counted))).toEqual([
      'Fan.idols @edges(counter): Fan is keyless: it has no item to hold a counter',
    ]);
  });

  it('own-keyed edges whose partition holds another type with an overlapping prefix', () => {
    expect(problemsOf(model('pk: "u#{id}", sk: "i{follower}"', null))).toEqual([
      'User.followers: its sort-key prefix "i" overlaps "info" of User items (sk "info") in the partition "u#{}" of the table: a read of one would return the other',
    ]);
  });
});

describe('an inverse side with its own key in an overloaded index (@edges(inverseOf, index, pk, sk))', () => {
  const overloaded = '@table(pk: "pk", sk: "sk") @index(name: "GSI1", pk: ["gpk"], sk: ["gsk"])';
  const base = 'pk: "u#{id}#follower", sk: "u#{follower}"';
  const inverse = ', index: "GSI1", pk: "f#{id}", sk: "u#{followed}"';

  it('writes the inverse key on each base item and reads it from the index by its own templates', () => {
    const plan = compilePlan(buildModel(model(base, inverse, '', overloaded), 'edges.graphql'));
    expect(plan.relation('User.following').collection('b')).toMatchObject({ index: 'GSI1', pkAttr: 'gpk', skAttr: 'gsk', pk: 'f#b', prefix: 'u#' });
    expect(plan.relation('User.following').edge({ pk: 'u#a#follower', sk: 'u#b', gpk: 'f#b', gsk: 'u#a' }).node).toMatchObject({ id: 'a' });
    const pair = writePlanOf(plan).pair('User.following');
    expect([pair.edgeKey('a', 'b'), pair.mirrorKey('a', 'b'), pair.gsi1, pair.indexKeys('a', 'b')]).toEqual([
      { PK: 'u#a#follower', SK: 'u#b' },
      null,
      false,
      { gpk: 'f#b', gsk: 'u#a' },
    ]);
  });

  it('refuses an index not declared, one keyed on a table key or on several attributes, edge fields in either key, other items overlapping there, and copies', () => {
    expect(problemsOf(model(base, inverse.replace('GSI1', 'byFan'), '', overloaded))).toEqual([
      'User.following @edges(index): reads the index byFan, which the model does not declare (GSI1)',
    ]);
    for (const schema of [
      '@table(pk: "pk", sk: "sk") @index(name: "GSI1", pk: ["sk"], sk: ["pk"])',
      '@table(pk: "pk", sk: "sk") @index(name: "GSI1", pk: ["gpk", "x"], sk: ["gsk"])',
    ])
      expect(problemsOf(model(base, inverse, '', schema))[0]).toMatch(
        /^User\.following @edges\(index\): with pk and sk, writes this side's key in GSI1 on each edge item: the index must be keyed on one attribute each that is not a table key/,
      );
    const edgeType =
      'type UserEdge { cursor: String! since: String! node: User! } type UserConnection { edges: [UserEdge!]! pageInfo: PageInfo! totalCount: Int! }';
    expect(problemsOf(model('pk: "u#{id}#follower", sk: "{since}#u#{follower}"', inverse, edgeType, overloaded))).toContain(
      "User.following @edges(sk): an inverse side read through its key in an index reads edges whose keys hold the two ends' ids alone (User.followers and this side hold {since})",
    );
    // Another type's items in the same index partitions, under an overlapping sort-key prefix: a read of one would return the other.
    const beside = 'type Badge @item(pk: "b#{id}", sk: "badge") @indexed(index: "GSI1", pk: ["f#{user}"], sk: ["u#{id}"]) { id: ID! user: String! }';
    expect(problemsOf(model(base, inverse, beside, overloaded))).toEqual([
      'User.following: its sort-key prefix "u#" overlaps "u#" of Badge items in GSI1 (gsk "u#{id}") in the partition "f#{}" of GSI1: a read of one would return the other',
    ]);
    expect(problemsOf(model(`${base}, copy: [{ field: "name", attribute: "followerName" }]`, inverse, '', overloaded))).toEqual([
      'User.following @edges(copy): an inverse side read through its key in an index keeps no copies: give it index: without pk/sk, or drop copy',
    ]);
  });
});
