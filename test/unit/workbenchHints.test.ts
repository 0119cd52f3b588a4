/**
 * How the import finds ids in keys, from the export's own hints (facet key
 * aliases, an attribute holding a key piece, what follows a label across
 * keys, repeated shapes), never from digits alone; and what it drafts from
 * an overloaded index and from link items the samples show both ways.
 */
import { describe, expect, it } from 'vitest';
import { convertWorkbench, startupProblems } from '../../scripts/import.js';
import { smallExport } from '../support/workbench.js';

const S = (s: string) => ({ S: s });
const keysOf = (sdl: string) => [...sdl.matchAll(/^type (\w+) @item\(pk: "([^"]*)", sk: "([^"]*)"\)/gm)].map((m) => `${m[1]} ${m[2]} / ${m[3]}`);
const draftOf = (items: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
  const { sdl, draft } = convertWorkbench('t.json', smallExport(items, extra));
  expect(startupProblems(sdl, 't.graphql')).toBeNull();
  return { sdl, draft, keys: keysOf(sdl) };
};

/** An export with one facet per entry: [name, PartitionKeyAlias, SortKeyAlias, samples]. */
function facetExport(facets: [string, string, string, Record<string, unknown>[]][]): string {
  const model = JSON.parse(smallExport([]));
  const names = new Set(facets.flatMap(([, , , items]) => items.flatMap((i) => Object.keys(i))));
  model.DataModel[0].NonKeyAttributes = [...names].filter((n) => n !== 'PK' && n !== 'SK').map((n) => ({ AttributeName: n, AttributeType: 'S' }));
  model.DataModel[0].TableFacets = facets.map(([FacetName, PartitionKeyAlias, SortKeyAlias, TableData]) => ({
    FacetName,
    KeyAttributeAlias: { PartitionKeyAlias, SortKeyAlias },
    TableData,
    NonKeyAttributes: [],
  }));
  return JSON.stringify(model);
}

describe('ids in keys', () => {
  it('reads slug ids as values where several follow one label, one type for all restaurants', () => {
    const { keys } = draftOf([
      { PK: S('REST#tasca-lx'), SK: S('META'), name: S('Tasca') },
      { PK: S('REST#mar-azul'), SK: S('META'), name: S('Mar') },
      { PK: S('REST#tasca-lx'), SK: S('TABLE#window') },
      { PK: S('REST#mar-azul'), SK: S('TABLE#terrace') },
    ]);
    expect(keys).toEqual(['Rest REST#{id} / META', 'Table REST#{rest} / TABLE#{id}']);
  });

  it('reads a value the facet alias names, or an attribute of the item holds, where one sample shows it', () => {
    const { draft } = convertWorkbench(
      't.json',
      facetExport([
        ['Player', 'playerID', 'PROFILE', [{ PK: S('hero'), SK: S('PROFILE'), nick: S('Hero') }]],
        ['Room', 'PK', 'SK', [{ PK: S('ROOM#lobby'), SK: S('META'), roomId: S('lobby') }]],
      ]),
    );
    expect(draft.types.map((t) => `${t.name} ${t.pk} / ${t.sk}`)).toEqual(['Player {id} / PROFILE', 'Room ROOM#{id} / META']);
    expect(draft.types.flatMap((t) => t.todos)).toEqual([]);
  });

  it("keeps a key's first piece literal though an attribute holds it (an entity type), and a label followed by labels", () => {
    const { keys } = draftOf([
      { PK: S('ORDER#o-aa'), SK: S('ORDER#ITEM#i-aa'), entity: S('ORDER'), sku: S('a') },
      { PK: S('ORDER#o-aa'), SK: S('ORDER#ITEM#i-bb'), entity: S('ORDER'), sku: S('b') },
      { PK: S('ORDER#o-bb'), SK: S('ORDER#PAYMENT#p-aa'), entity: S('ORDER'), amount: S('1') },
      { PK: S('ORDER#o-bb'), SK: S('ORDER#PAYMENT#p-bb'), entity: S('ORDER'), amount: S('2') },
    ]);
    expect(keys).toEqual(['OrderItem ORDER#{order} / ORDER#ITEM#{id}', 'OrderPayment ORDER#{order} / ORDER#PAYMENT#{id}']);
  });

  it('reads ids the items do not store from shapes that differ in one piece, each in one sample', () => {
    const { keys } = draftOf([
      { PK: S('REST#tasca-lx'), SK: S('RES#2026-05-01#ana-may') },
      { PK: S('REST#tasca-lx'), SK: S('RES#2026-05-01#bruno-late') },
      { PK: S('REST#mar-azul'), SK: S('RES#2026-05-02#carla-lunch') },
      { PK: S('REST#mar-azul'), SK: S('RES#2026-05-03#dina-dinner') },
    ]);
    expect(keys).toEqual(['Res REST#{rest} / RES#{res}#{value1}']);
  });

  it('reads a piece written as a placeholder (<sub_feature>) as a value of that name', () => {
    const { keys, sdl } = draftOf([
      { PK: S('USER#ann'), SK: S('F#ACTIVE#<sub_feature>') },
      { PK: S('USER#bob'), SK: S('F#EXPIRED#<sub_feature>') },
    ]);
    expect(keys).toEqual(['F USER#{user} / F#{f}#{sub_feature}']);
    expect(sdl).not.toMatch(/every sample holds "<sub_feature>"/);
  });

  it("says a single sample's ids are a guess only where no hint shows them", () => {
    const hinted = draftOf([{ PK: S('ROOM#lobby'), SK: S('META'), roomId: S('lobby') }]);
    expect(hinted.sdl).not.toMatch(/which parts of its keys are ids is a guess/);
    const guessed = draftOf([{ PK: S('ROOM#r1'), SK: S('META') }]);
    expect(guessed.keys).toEqual(['Room ROOM#{id} / META']);
    expect(guessed.sdl).toMatch(/# TODO: one sample \(ROOM#r1 \/ META\): which parts of its keys are ids is a guess/);
  });
});

const GSI1 = {
  GlobalSecondaryIndexes: [
    {
      IndexName: 'GSI1',
      KeyAttributes: { PartitionKey: { AttributeName: 'GSI1PK', AttributeType: 'S' }, SortKey: { AttributeName: 'GSI1SK', AttributeType: 'S' } },
      Projection: { ProjectionType: 'ALL' },
    },
  ],
};
const withGsi1 = (extra: string[] = []) => {
  const model = JSON.parse(smallExport([], GSI1));
  model.DataModel[0].NonKeyAttributes.push(...['GSI1PK', 'GSI1SK', 'city', 'guestId', ...extra].map((n) => ({ AttributeName: n, AttributeType: 'S' })));
  return model;
};
const convert = (model: any, items: Record<string, unknown>[]) => {
  model.DataModel[0].TableData = items;
  const { sdl, draft } = convertWorkbench('t.json', JSON.stringify(model));
  expect(startupProblems(sdl, 't.graphql')).toBeNull();
  return { sdl, draft };
};

describe('an overloaded index', () => {
  it("declares each type's index keys as templates over its id, parent and fields, a partition named by a reference read from the referred type", () => {
    const { sdl, draft } = convert(withGsi1(), [
      { PK: S('REST#tasca'), SK: S('META'), city: S('lisbon'), GSI1PK: S('CITY#lisbon'), GSI1SK: S('REST#tasca') },
      { PK: S('REST#azul'), SK: S('META'), city: S('porto'), GSI1PK: S('CITY#porto'), GSI1SK: S('REST#azul') },
      { PK: S('GUEST#ana'), SK: S('PROFILE') },
      { PK: S('GUEST#bea'), SK: S('PROFILE') },
      { PK: S('REST#tasca'), SK: S('RES#r-one'), guestId: S('ana'), GSI1PK: S('GUEST#ana'), GSI1SK: S('RES#r-one') },
      { PK: S('REST#azul'), SK: S('RES#r-two'), guestId: S('bea'), GSI1PK: S('GUEST#bea'), GSI1SK: S('RES#r-two') },
    ]);
    expect(sdl).toContain('type Rest @item(pk: "REST#{id}", sk: "META") @indexed(index: "GSI1", pk: ["CITY#{city}"], sk: ["REST#{id}"])');
    expect(sdl).toContain('type Res @item(pk: "REST#{rest}", sk: "RES#{id}") @indexed(index: "GSI1", pk: ["GUEST#{guestId}"], sk: ["RES#{id}"])');
    expect(sdl).toContain('  guestId: Guest\n');
    expect(sdl).toContain(
      'type Guest @item(pk: "GUEST#{id}", sk: "PROFILE") {\n  id: ID!\n  res(first: Int, after: String, last: Int, before: String): ResConnection! @query(index: "GSI1")\n}',
    );
    expect(sdl).toContain('  restsByGsi1(city: String!, first: Int, after: String, last: Int, before: String): RestConnection! @query(index: "GSI1")');
    expect(draft.types.flatMap((t) => t.todos)).toEqual([]);
  });

  it("says so, once, where a type's samples carry index keys no template of its fields gives", () => {
    const { sdl } = convert(withGsi1(), [
      { PK: S('REST#tasca'), SK: S('META'), GSI1PK: S('CITY#lisbon'), GSI1SK: S('X') },
      { PK: S('REST#azul'), SK: S('META'), GSI1PK: S('TOWN#porto'), GSI1SK: S('Y') },
    ]);
    expect(sdl).not.toMatch(/@indexed\(/);
    expect(
      sdl.match(
        /# TODO: its samples carry the keys of GSI1 \(GSI1PK, GSI1SK\), which no template over its id and fields gives in every sample: not declared @indexed/g,
      ),
    ).toHaveLength(1);
  });
});

describe('link items the samples show both ways', () => {
  it('become a mirrored pair of @edges, one side on each end', () => {
    const { sdl, draft } = draftOf([
      { PK: S('VIN#car-one'), SK: S('#META#'), vin: S('car-one') },
      { PK: S('VIN#car-two'), SK: S('#META#'), vin: S('car-two') },
      { PK: S('ID#ann'), SK: S('#META#'), name: S('Ann') },
      { PK: S('ID#bob'), SK: S('#META#'), name: S('Bob') },
      { PK: S('VIN#car-one'), SK: S('ID#ann') },
      { PK: S('ID#ann'), SK: S('VIN#car-one') },
      { PK: S('VIN#car-two'), SK: S('ID#bob') },
    ]);
    expect(draft.types.map((t) => t.name)).toEqual(['Vin', 'Id']);
    expect(sdl).toContain('  ids(first: Int, after: String, last: Int, before: String): IdConnection! @edges(pk: "VIN#{id}", sk: "ID#{idId}")');
    expect(sdl).toContain(
      '  vins(first: Int, after: String, last: Int, before: String): VinConnection! @edges(inverseOf: "ids", pk: "ID#{id}", sk: "VIN#{vinId}")',
    );
  });
});
