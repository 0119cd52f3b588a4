/**
 * `npm run import` without DynamoDB: the seven AWS designs' exports become
 * drafts the gateway's model check accepts, declaring the table and every
 * index as published, a @get per type, and the samples as demo data; a
 * file that is not an export is one line on stderr, exit code 1, nothing
 * written.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, Kind, type ObjectTypeDefinitionNode, type SchemaExtensionNode, type ValueNode } from 'graphql';
import { buildModel } from '../../src/declaration/buildModel.js';
import { demoFileOf, demoItemsOf } from '../../src/transport/demoData.js';
import { convertWorkbench, main } from '../../scripts/import.js';
import { plainItem } from '../../scripts/workbench/demo.js';
import { DESIGNS, exportPath, keyValues, readExport, RECEIPT_SAMPLES, smallExport, TEAM_SAMPLES } from '../support/workbench.js';

const value = (v: ValueNode): unknown => (v.kind === Kind.LIST ? v.values.map(value) : 'value' in v ? v.value : null);
const argsOf = (d: { arguments?: readonly { name: { value: string }; value: ValueNode }[] }) =>
  Object.fromEntries((d.arguments ?? []).map((a) => [a.name.value, value(a.value)]));

function capture(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe.each(DESIGNS)('the draft of %s', (design, file) => {
  const published = JSON.parse(readExport(design, file)).DataModel[0];
  const { sdl, demo, draft } = convertWorkbench(file, readExport(design, file));
  const document = parse(sdl);

  it("passes the gateway's model check", () => {
    expect(() => buildModel(sdl, `${design}.graphql`)).not.toThrow();
  });

  it("declares the table's keys and every index as published", () => {
    const extension = document.definitions.find((d): d is SchemaExtensionNode => d.kind === Kind.SCHEMA_EXTENSION)!;
    const table = extension.directives!.filter((d) => d.name.value === 'table').map(argsOf);
    expect(table).toEqual([{ pk: published.KeyAttributes.PartitionKey.AttributeName, sk: published.KeyAttributes.SortKey.AttributeName }]);
    const indexes = extension.directives!.filter((d) => d.name.value === 'index').map(argsOf);
    expect(indexes).toEqual(
      (published.GlobalSecondaryIndexes ?? []).map((g: any) => ({
        name: g.IndexName,
        pk: [g.KeyAttributes.PartitionKey.AttributeName],
        sk: [g.KeyAttributes.SortKey.AttributeName],
      })),
    );
  });

  it('has a @get root field for every @item type and every keyless parent', () => {
    const keyless = (d: ObjectTypeDefinitionNode) => draft.types.some((t) => t.standIn && t.name === d.name.value);
    const items = document.definitions.filter(
      (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && (d.directives!.some((x) => x.name.value === 'item') || keyless(d)),
    );
    const query = document.definitions.find((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Query')!;
    const gets = query
      .fields!.filter((f) => f.directives!.some((x) => x.name.value === 'get'))
      .map((f) => (f.type.kind === Kind.NAMED_TYPE ? f.type.name.value : ''));
    expect(items.length).toBeGreaterThan(0);
    expect(gets.sort()).toEqual(items.map((t) => t.name.value).sort());
  });

  it("keeps the samples as plain demo items, each declared type's samples matching its keys", () => {
    const samples = [...(published.TableData ?? []), ...(published.TableFacets ?? []).flatMap((f: any) => f.TableData ?? [])];
    expect(demo.items.length + draft.excluded.size).toBe(samples.length);
    expect(demo.items.every((i) => typeof i.PK === 'string' && typeof i.SK === 'string')).toBe(true);
    for (const type of draft.types) for (const s of type.samples) expect(keyValues(type, s), `${type.name} ${String(s.PK)}`).not.toBeNull();
  });
});

describe("keys holding more values than an id and a parent's in the AWS designs", () => {
  const typesOf = (design: string, file: string) => convertWorkbench(file, readExport(design, file));

  it('declares each such key shape as a type over key fields, in no draft a TODO that it is not served', () => {
    const keyed = DESIGNS.flatMap(([design, file]) =>
      typesOf(design, file)
        .draft.types.filter((t) => t.keyFields.length > 0)
        .map((t) => [design, t.name, t.pk, t.sk, t.derivedId, t.parent?.field ?? null]),
    );
    expect(keyed).toEqual([
      ['ComplainManagement', 'Comm', '{complaint}', 'comm#{comm_date}#{id}', false, 'complaint'],
      ['ConnectedVehicles', 'VehicleF', 'VIN#{vehicle}', 'F#{id}#{value1}#{value2}#{sub_feature}', false, 'vehicle'],
      ['ConnectedVehicles', 'UserF', 'ID#{user}', 'F#{f}#{value1}#{sub_feature}', true, 'user'],
      ['RecurringPayments', 'Receipts', 'ACC#{acc}', 'REC#{rec}#SKU#{SKU}', true, 'acc'],
      ['SocialNetwork', 'Timeline', 'u#{u}#timeline', 'p#{p}#u#{u_}', true, 'u'],
    ]);
    for (const [design, file] of DESIGNS) expect(typesOf(design, file).sdl, design).not.toMatch(/more values in their keys|written as literal text/);
  });

  it("renames a key field the parent's field would shadow, in the keys, the fields and the TODO", () => {
    const { sdl } = typesOf('SocialNetwork', 'SocialNetworkSchema.json');
    expect(sdl).toContain('"Items keyed PK u#<u>#timeline, SK p#<p>#u#<u_>: 3 samples."');
    expect(sdl).toContain('type Timeline @item(pk: "u#{u}#timeline", sk: "p#{p}#u#{u_}") {\n  id: ID!\n  u: U! @parent\n  p: String!\n  u_: String!\n');
    expect(sdl).toMatch(/# TODO: the key's values \{p\} \(after "p#"\), \{u_\} \(after "#u#"\) are named by guess/);
  });

  it('types a key value String when the samples do not write it as a stored DateTime', () => {
    const { sdl } = typesOf('RecurringPayments', 'RecurringPaymentsSchema.json');
    expect(sdl).toMatch(/^ {2}rec: String!$/m);
    expect(sdl).toContain('  receipts(id: ID!): Receipts @get');
  });
});

describe('reading samples', () => {
  it('converts DynamoDB JSON to plain values, keeping values that are not typed', () => {
    expect(
      plainItem({
        PK: { S: 'A#1' },
        n: { N: '12.5' },
        b: { BOOL: true },
        m: { M: { x: { N: '1' }, y: true } },
        l: { L: [{ S: 'a' }] },
        ss: { SS: ['a', 'b'] },
      }),
    ).toEqual({
      PK: 'A#1',
      n: 12.5,
      b: true,
      m: { x: 1, y: true },
      l: ['a'],
      ss: ['a', 'b'],
    });
  });
});

describe('link items read back through an overloaded index', () => {
  const S = (text: string) => ({ S: text });
  const link = (guest: string, restaurant: string) => ({
    PK: S(`GUEST#${guest}`),
    SK: S(`FAV#${restaurant}`),
    GSI1PK: S(`REST#${restaurant}`),
    GSI1SK: S(`GUEST#${guest}`),
  });
  const { sdl: s, demo } = convertWorkbench(
    'dine.json',
    smallExport(
      [
        { PK: S('GUEST#g1'), SK: S('PROFILE'), name: S('Ada') },
        { PK: S('GUEST#g2'), SK: S('PROFILE'), name: S('Bob') },
        { PK: S('REST#r1'), SK: S('PROFILE'), title: S('Noma') },
        { PK: S('REST#r2'), SK: S('PROFILE'), title: S('Geranium') },
        link('g1', 'r1'),
        link('g2', 'r1'),
        link('g1', 'r2'),
      ],
      {
        NonKeyAttributes: ['name', 'title', 'GSI1PK', 'GSI1SK'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeyAttributes: { PartitionKey: { AttributeName: 'GSI1PK', AttributeType: 'S' }, SortKey: { AttributeName: 'GSI1SK', AttributeType: 'S' } },
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      },
    ),
  );

  it('are drafted as @edges on both ends, the inverse side reading its key in the index, not as a child type and a root @query', () => {
    expect(s).toContain('rests(first: Int, after: String, last: Int, before: String): RestConnection! @edges(pk: "GUEST#{id}", sk: "FAV#{restId}")');
    expect(s).toContain(
      'guests(first: Int, after: String, last: Int, before: String): GuestConnection! @edges(inverseOf: "rests", index: "GSI1", pk: "REST#{id}", sk: "GUEST#{guestId}")',
    );
    expect(s).not.toMatch(/type Fav\b|@query\(index: "GSI1"\)/);
    expect(demo.items).toHaveLength(7);
    expect(() => buildModel(s, 'dine.graphql')).not.toThrow();
  });
});

describe('a small export without facets', () => {
  const exported = smallExport;
  const { draft, sdl } = convertWorkbench(
    'shop.json',
    exported([
      { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' }, tags: { L: [] } },
      { PK: { S: 'USER#u2' }, SK: { S: 'PROFILE' }, name: { S: 'Alan' }, big: { N: '3000000000' } },
      { PK: { S: 'USER#u1' }, SK: { S: 'ORDER#o1' }, total: { N: '12.5' }, 'item-count': { N: '2' } },
    ]),
  );

  it("groups items by the literal text of their keys: a type per key shape, a child in its parent's partition", () => {
    expect(draft.types.map((t) => [t.name, t.pk, t.sk, t.parent?.type ?? null])).toEqual([
      ['User', 'USER#{id}', 'PROFILE', null],
      ['Order', 'USER#{user}', 'ORDER#{id}', 'User'],
    ]);
    expect(sdl).toContain('orders(first: Int, after: String, last: Int, before: String): OrderConnection! @children');
  });

  it('types numbers from the samples, stores a field under an attribute with no GraphQL name, leaves lists out with a TODO', () => {
    expect(sdl).toContain('total: Float');
    expect(sdl).toContain('big: Float'); // beyond a GraphQL Int
    expect(sdl).toContain('item_count: Int @attribute(name: "item-count")');
    expect(sdl).not.toMatch(/TODO: the attribute "item-count"/);
    expect(sdl).not.toMatch(/^\s+tags:/m);
    expect(sdl).toMatch(/# TODO: left out: tags \(a list\); declare each as a map type or a list with its max/);
  });

  it('declares a stand-in parent, with a TODO and a root @query over its children, when no sample is the parent', () => {
    const { draft: d, sdl: s } = convertWorkbench('shop.json', exported([{ PK: { S: 'CART#c1' }, SK: { S: 'LINE#l1' }, name: { S: 'x' } }]));
    expect(d.types.map((t) => [t.name, t.pk, t.sk, t.standIn])).toEqual([
      ['Line', 'CART#{cart}', 'LINE#{id}', false],
      ['Cart', 'CART#{id}', 'META', true],
    ]);
    expect(s).toMatch(/# TODO: no sample item is keyed CART#\{id\}/);
    expect(s).toContain('linesOfCart(cartId: ID!, first: Int, after: String, last: Int, before: String): LineConnection! @query');
    expect(() => buildModel(s, 'cart.graphql')).not.toThrow();
  });

  it('a key holding a date and a SKU becomes a template over two fields with a derived id', () => {
    const { draft: d, sdl: s } = convertWorkbench('shop.json', exported(RECEIPT_SAMPLES));
    const receipt = d.types.find((t) => !t.standIn)!;
    expect([receipt.pk, receipt.sk, receipt.derivedId, receipt.keyFields]).toEqual(['ACC#{acc}', 'REC#{rec}#SKU#{SKU}', true, ['rec', 'SKU']]);
    expect(s).toContain(
      `type ${receipt.name} @item(pk: "ACC#{acc}", sk: "REC#{rec}#SKU#{SKU}") {\n  id: ID!\n  acc: Acc! @parent\n  rec: DateTime!\n  SKU: String!\n  name: String\n}`,
    );
    expect(s).toContain(`  ${receipt.get}(id: ID!): ${receipt.name} @get`);
    expect(s).toMatch(/# TODO: the key's value \{rec\} \(after "REC#"\) is named by guess/);
    expect(s).toMatch(/# TODO: no value of the key is the item's own id .*derived from the key's values/);
    expect(s).not.toMatch(/more values in their keys|written as literal text/);
    expect(() => buildModel(s, 'receipts.graphql')).not.toThrow();
  });

  it('keeps {id} on the key value an id-named attribute holds, the others key fields the @get takes', () => {
    const { draft: d, sdl: s } = convertWorkbench(
      'shop.json',
      exported([
        { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' } },
        { PK: { S: 'USER#u1' }, SK: { S: 'MSG#2023-01-01#m1' }, msg_id: { S: 'm1' } },
        { PK: { S: 'USER#u1' }, SK: { S: 'MSG#2023-01-02#m2' }, msg_id: { S: 'm2' } },
      ]),
    );
    expect(d.types.map((t) => [t.name, t.pk, t.sk, t.derivedId])).toEqual([
      ['User', 'USER#{id}', 'PROFILE', false],
      ['Msg', 'USER#{user}', 'MSG#{msg}#{id}', false],
    ]);
    expect(s).toContain('  msg: String!\n  msg_id: String\n');
    expect(s).toContain('  msg(userId: ID!, msg: String!, id: ID!): Msg @get');
    // Not canonical DateTime text: a String, which reads back as stored.
    expect(s).not.toMatch(/msg: DateTime/);
    expect(s).not.toMatch(/derived from the key's values/);
    expect(() => buildModel(s, 'msgs.graphql')).not.toThrow();
  });

  it('names key values it cannot name from an attribute or the text before them by their place', () => {
    const { draft: d, sdl: s } = convertWorkbench(
      'shop.json',
      exported([
        { PK: { S: 'G#g1' }, SK: { S: 'T#t1#x1' } },
        { PK: { S: 'G#g2' }, SK: { S: 'T#t2#y1' } },
      ]),
    );
    expect(d.types.map((t) => [t.pk, t.sk, t.derivedId])).toEqual([
      ['G#{g}', 'T#{t}#{value1}', true],
      ['G#{id}', 'META', false],
    ]);
    expect(s).toMatch(/# TODO: the key's values \{t\} \(after "T#"\), \{value1\} \(by its place in the key\) are named by guess/);
    expect(() => buildModel(s, 'g.graphql')).not.toThrow();
  });

  it('declares no parent for keys whose PK holds several values, and lists their partition by a root @query taking each value', () => {
    const { draft: d, sdl: s } = convertWorkbench('shop.json', exported(TEAM_SAMPLES));
    expect(d.types.map((t) => [t.name, t.pk, t.sk, t.parent, t.derivedId, t.standIn])).toEqual([
      ['OrgTeam', 'ORG#{org}#TEAM#{team}', 'MEMBER#{member}', null, true, false],
    ]);
    expect(s).toContain('  orgTeamsOfOrgTeam(org: String!, team: String!, first: Int, after: String, last: Int, before: String): OrgTeamConnection! @query');
    expect(s).toMatch(/# TODO: its PK holds 2 values: no parent's id alone names its partition/);
    expect(() => buildModel(s, 'teams.graphql')).not.toThrow();
  });

  it('puts a type in an index its samples carry the keys of, with a root @query over its partitions', () => {
    const { sdl: s } = convertWorkbench(
      'shop.json',
      exported([{ PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' }, total: { N: '1' } }], {
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byName',
            KeyAttributes: { PartitionKey: { AttributeName: 'name', AttributeType: 'S' }, SortKey: { AttributeName: 'total', AttributeType: 'N' } },
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    expect(s).toContain('type User @item(pk: "USER#{id}", sk: "PROFILE") @indexed(index: "byName")');
    expect(s).toContain('usersByByName(name: String!, first: Int, after: String, last: Int, before: String): UserConnection! @query(index: "byName")');
    expect(() => buildModel(s, 'shop.graphql')).not.toThrow();
  });
});

describe('npm run import', () => {
  it('writes the draft and its demo data beside it, and prints the types, indexes and TODO count', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    const out = join(dir, 'chat.graphql');
    const { code, out: lines, err } = capture([exportPath('ChatSystem', 'ChatSystemSchema.json'), '--out', out]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/chat\.graphql: 3 types \(.*\), 1 indexes \(RoomID_Comment_IDX\), \d+ TODO comments; passes the model check/);
    expect(() => buildModel(readFileSync(out, 'utf8'), out)).not.toThrow();
    expect(demoItemsOf(out)).toHaveLength(8);
    expect(existsSync(demoFileOf(out))).toBe(true);
  });

  it("reads and writes paths from the caller's directory, by default the export's name with .graphql", () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    writeFileSync(join(dir, 'social.json'), readExport('SocialNetwork', 'SocialNetworkSchema.json'));
    const code = main(['social.json'], { out: () => {}, err: () => {} }, dir);
    expect(code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['social.demo.json', 'social.graphql', 'social.json']);
  });

  it('refuses an --out in a directory that does not exist, writing nothing', () => {
    const { code, err } = capture([exportPath('ChatSystem', 'ChatSystemSchema.json'), '--out', join(tmpdir(), 'no-such-dir-for-import', 'x.graphql')]);
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/no-such-dir-for-import\/x\.graphql: no such directory$/)]);
  });

  const bad: [string, (dir: string) => string, RegExp][] = [
    ['a file that does not exist', (dir) => join(dir, 'missing.json'), /missing\.json: no such file$/],
    ['a file that is not JSON', (dir) => write(dir, 'notjson.json', '{ "DataModel": ['), /notjson\.json: not JSON/],
    ['JSON without DataModel', (dir) => write(dir, 'nomodel.json', '{ "ModelName": "x" }'), /nomodel\.json: no DataModel list/],
    [
      'a facet naming an attribute the table lacks',
      (dir) => {
        const model = JSON.parse(readExport('GamingPlayerProfiles', 'GamePlayerProfilesSchema.json'));
        model.DataModel[0].TableFacets[1].NonKeyAttributes.push('NoSuchAttribute');
        return write(dir, 'facet.json', JSON.stringify(model));
      },
      /facet\.json: facet Friends names the attribute NoSuchAttribute, which table game-player-profiles lacks$/,
    ],
  ];
  it.each(bad)('refuses %s: one line on stderr naming the file, exit code 1, nothing written', (_, make, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    const file = make(dir);
    const before = readdirSync(dir);
    const { code, out, err } = capture([file, '--out', join(dir, 'draft.graphql')]);
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]!.split('\n')).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(readdirSync(dir)).toEqual(before);
  });
});

function write(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('a parent no sample shows', () => {
  it('is declared keyless (no @item), its children listed through it', () => {
    const path = exportPath('ChatSystem', 'ChatSystemSchema.json');
    const { sdl } = convertWorkbench(path, readFileSync(path, 'utf8'));
    const user = parse(sdl).definitions.find((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'User')!;
    expect(user.directives).toEqual([]);
    expect(user.fields!.map((f) => [f.name.value, f.directives!.map((x) => x.name.value)])).toEqual([
      ['id', []],
      ['userItems', ['children']],
    ]);
  });
});
