/**
 * Cased keys (@table/@index(casing:)): keys written and matched in one case,
 * literal text and values alike, as ElectroDB writes them; values read back
 * from the attributes beside them; and what a model with cased keys is
 * refused, one line each.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { parseTemplate } from '../../src/declaration/template.js';
import { compilePlan } from '../../src/plan/plan.js';
import { problemsOf } from '../support/problems.js';

describe('a cased template', () => {
  it('writes the whole key in its case, literal text and values alike, and matches keys in that case', () => {
    const t = parseTemplate('$Shop#Order_{id}#Day_{day}', 'LOWER');
    expect(t.fill({ id: 'AbC', day: '2026-03-02T10:00:00.000Z' })).toBe('$shop#order_abc#day_2026-03-02t10:00:00.000z');
    expect(t.prefix).toBe('$shop#order_');
    expect(t.match('$shop#order_abc#day_x')).toEqual({ id: 'abc', day: 'x' });
    expect(t.match('$Shop#Order_abc#Day_x')).toBeNull();
    expect(parseTemplate('T#{id}', 'UPPER').fill({ id: 'ab' })).toBe('T#AB');
    expect(parseTemplate('T#{id}', 'UPPER').valueOf('T#AB', 'id')).toBe('AB');
    expect(parseTemplate('T#{id}').fill({ id: 'Ab' })).toBe('T#Ab');
  });
});

const CASED = `
extend schema @table(pk: "pk", sk: "sk", casing: LOWER)
  @index(name: "byCity", pk: ["gpk"], sk: ["gsk"], casing: LOWER)
enum Kind { SHOP @attribute(name: "Shop") CAFE @attribute(name: "Café") }
type Store @item(pk: "Store#{id}", sk: "Meta", constants: [{ attribute: "__edb_e__", value: "store" }])
  @indexed(index: "byCity", pk: ["City#{city}"], sk: ["Kind#{kind}#{id}"]) {
  id: ID! @attribute(name: "storeId")
  city: String!
  kind: Kind!
}
type Shelf @item(pk: "Store#{store}", sk: "Shelf#{code}#{id}") { id: ID! code: String! store: Store! @parent }
type Query { store(id: ID!): Store @get }
`;

describe('an item in a table with cased keys', () => {
  const plan = compilePlan(buildModel(CASED, 'cased.graphql'));
  const store = plan.item('Store');
  const shelf = plan.item('Shelf');

  it('is keyed in lower case however its id is given', () => {
    expect(store.key('Big-1')).toEqual({ PK: 'store#big-1', SK: 'meta' });
    expect(store.key('big-1')).toEqual(store.key('Big-1'));
  });

  it('reads its id, its parent id and the fields its key holds from its attributes, not from the cased key', () => {
    const item = { pk: 'store#big-1', sk: 'shelf#a7#s1', id: 'S1', code: 'A7', store: 'Big-1' };
    expect(shelf.map(item)).toMatchObject({ id: 'S1', code: 'A7', storeId: 'Big-1' });
    expect(store.map({ pk: 'store#big-1', sk: 'meta', storeId: 'Big-1', city: 'Paris', kind: 'Café' })).toMatchObject({
      id: 'Big-1',
      city: 'Paris',
      kind: 'Café',
    });
  });

  it('reads an id as its key holds it where the item lacks the attribute (it still finds the item), and a key-held field as absent', () => {
    const item = { pk: 'store#big-1', sk: 'shelf#a7#s1' };
    expect(shelf.map(item)).toMatchObject({ id: 's1', code: undefined, storeId: 'big-1' });
    // An attribute that is not what the key holds (another item's id) is not taken either.
    expect(shelf.map({ ...item, id: 'X9' }).id).toBe('s1');
  });

  it('is stored with its id under the declared attribute, and the id and the parent id beside cased keys', () => {
    const model = buildModel(CASED, 'cased.graphql');
    expect(model.items.get('Store')).toMatchObject({ idStoredAs: 'storeId', parentStoredAs: null, constants: [{ attribute: '__edb_e__', value: 'store' }] });
    expect(model.items.get('Shelf')).toMatchObject({ idStoredAs: 'id', parentStoredAs: 'store' });
    // Written templates in a cased index are cased; the table's keys too.
    expect(model.items.get('Store')!.indexed[0]!.sk[0]!.template.fill({ kind: 'Café', id: 'B' })).toBe('kind#café#b');
  });

  it('is not stored with an id attribute where neither the keys are cased nor the id declares one', () => {
    const model = buildModel(CASED.replace('casing: LOWER)\n  @index', ')\n  @index'), 'plain.graphql');
    expect(model.items.get('Shelf')).toMatchObject({ idStoredAs: null, parentStoredAs: null });
    expect(model.items.get('Store')).toMatchObject({ idStoredAs: 'storeId' });
  });
});

describe('a model with cased keys is refused, one line each', () => {
  it('with @edges: an edge names its node by a key alone', () => {
    const problems = problemsOf(`
extend schema @table(casing: LOWER) @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"])
type Team @item(pk: "TEAM#{id}", sk: "META") { id: ID!  players(first: Int, after: String, last: Int, before: String): PlayerConnection! @edges }
type Player @item(pk: "PLAYER#{id}", sk: "META") { id: ID! }
type Query { team(id: ID!): Team @get }`);
    expect(problems).toEqual([
      expect.stringContaining("Team.players @edges: the table's keys are written LOWER (@table(casing:)): an edge names its node by a key alone"),
    ]);
  });

  it("with an index casing one of the table's keys otherwise than the table, or casing a stored field itself", () => {
    const problems = problemsOf(`
extend schema @table(pk: "pk", sk: "sk", casing: LOWER)
  @index(name: "inverted", pk: ["sk"], sk: ["pk"], casing: NONE)
  @index(name: "byCity", pk: ["city"], sk: ["pk"], casing: UPPER)
type Store @item(pk: "S#{id}", sk: "meta") @indexed(index: "byCity") { id: ID! city: String! }
type Query { store(id: ID!): Store @get }`);
    expect(problems).toEqual([
      'schema @index(name: "inverted", casing): sk is the table\'s sort key, written LOWER (@table(casing:)): one attribute has one casing',
      'schema @index(name: "inverted", casing): pk is the table\'s partition key, written LOWER (@table(casing:)): one attribute has one casing',
      'schema @index(name: "byCity", casing): pk is the table\'s partition key, written LOWER (@table(casing:)): one attribute has one casing',
      'Store @indexed(index: "byCity"): its key attribute city there is the field Store.city itself, which casing UPPER would change: give the index templates, or leave its casing out',
    ]);
  });

  it('with an inverted type whose GSI1 is cased otherwise than the table', () => {
    const problems = problemsOf(`
extend schema @table(casing: LOWER) @index(name: "GSI1", pk: ["GSI1PK"], sk: ["GSI1SK"], casing: UPPER)
type Team @item(pk: "TEAM#{id}", sk: "META") { id: ID!  seasons(first: Int, after: String, last: Int, before: String): SeasonConnection! @children }
type Season @item(pk: "TEAM#{team}", sk: "SEASON#{id}", inverted: true) { id: ID! team: Team! @parent }
type Query { team(id: ID!): Team @get }`);
    expect(problems).toEqual(['Season @item(inverted): its GSI1 keys are its table keys swapped, written LOWER, but GSI1 declares casing UPPER']);
  });
});
