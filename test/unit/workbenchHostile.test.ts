/**
 * `npm run import` on exports made to hurt it: text from the export never
 * leaves a comment or a string of the draft, names the gateway would refuse
 * are refused up front, nesting, sizes and the number of key shapes are
 * bounded with one line each, and the work grows linearly with the samples.
 */
import { mkdtempSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kind, parse, type ObjectTypeDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { convertWorkbench, main, startupProblems } from '../../scripts/import.js';
import { LIMITS } from '../../scripts/workbench/limits.js';
import { bigExport, smallExport } from '../support/workbench.js';

/** Runs the CLI on an export written to a fresh directory: exit code, output lines, the files left. */
function importText(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  writeFileSync(join(dir, 'export.json'), text);
  const out: string[] = [];
  const err: string[] = [];
  const code = main(['export.json', '--out', 'draft.graphql'], { out: (l) => out.push(l), err: (l) => err.push(l) }, dir);
  return { code, out, err, files: readdirSync(dir).sort() };
}

const INJECTED = '\ntype Evil @item(pk: "E#{id}", sk: "E") { id: ID! }\nextend schema @index(name: "evil", pk: ["x"])\n';
const typeNames = (sdl: string) =>
  parse(sdl)
    .definitions.filter((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION)
    .map((d) => d.name.value);

describe('text from the export in the draft', () => {
  it('keeps a newline in the table name or a sample key inside its comment, escaped: no live SDL from the export', () => {
    const text = JSON.parse(
      smallExport([
        { PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, name: { S: 'Ada' } },
        { PK: { S: 'USER#u2' }, SK: { S: 'PROFILE' }, name: { S: 'Alan' } },
        { PK: { S: `JUNK${INJECTED}` }, SK: { S: `X${INJECTED}` }, name: { S: 'x' } },
      ]),
    );
    text.DataModel[0].TableName = `shop${INJECTED}`;
    const { sdl } = convertWorkbench('shop.json', JSON.stringify(text));
    expect(typeNames(sdl)).not.toContain('Evil');
    expect(sdl).not.toMatch(/^(type Evil|extend schema @index)/m);
    expect(sdl).toContain('TABLE_NAME=shop\\ntype Evil');
    expect(sdl).toMatch(/^# TODO: items keyed like JUNK\\ntype Evil .*$/m);
    expect(startupProblems(sdl, 'shop.graphql')).toBeNull();
  });

  it('writes a key holding a tab, a line separator or a lone surrogate as a GraphQL string the gateway reads back', () => {
    const key = 'F#<sub>\t\u2028\ud800';
    const { sdl } = convertWorkbench(
      'shop.json',
      smallExport([
        { PK: { S: 'USER#u1' }, SK: { S: key } },
        { PK: { S: 'USER#u2' }, SK: { S: key } },
      ]),
    );
    expect(sdl).toContain('type User @item(pk: "USER#{id}", sk: "F#<sub>\\t\u2028\ufffd")');
    expect(startupProblems(sdl, 'shop.graphql')).toBeNull();
  });
});

describe('names the gateway would refuse', () => {
  it.each(['__proto__', '__typename', 'constructor', 'toString'])('refuses an attribute named %s: one line, exit code 1, nothing written', (name) => {
    const { code, out, err, files } = importText(smallExport([{ PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, [name]: { S: 'x' } }]));
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      expect.stringMatching(new RegExp(`^import: export\\.json: an attribute of sample item 1 is named "${name}", a name .*: rename it in the export$`)),
    ]);
    expect(files).toEqual(['export.json']);
  });

  it('refuses a declared attribute of such a name the same way', () => {
    const text = JSON.parse(smallExport([]));
    text.DataModel[0].NonKeyAttributes.push({ AttributeName: '__proto__', AttributeType: 'S' });
    const { code, err } = importText(JSON.stringify(text));
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^import: export\.json: table shop NonKeyAttributes\[5\] is named "__proto__", a name opening with __/)]);
  });

  it('checks a draft as the gateway starts it: a field opening with __ passes the model check and is still reported', () => {
    const sdl = 'type Thing @item(pk: "T#{id}", sk: "T") { id: ID! __x: String }\ntype Query { thing(id: ID!): Thing @get }\n';
    expect(() => buildModel(sdl, 'thing.graphql')).not.toThrow();
    expect(startupProblems(sdl, 'thing.graphql')).toMatch(/Name "__x" must not begin with "__"/);
  });
});

describe('bounds', () => {
  const deep = (levels: number) => `${'{"M":{"x":'.repeat(levels)}{"S":"deep"}${'}}'.repeat(levels)}`;

  it('refuses 20,000 levels of nesting with one line, without overflowing the stack', () => {
    const text = smallExport([]).replace('"TableData":[]', `"TableData":[{"PK":{"S":"USER#u1"},"SK":{"S":"PROFILE"},"tags":${deep(20_000)}}]`);
    const { code, err, files } = importText(text);
    expect(code).toBe(1);
    expect(err).toEqual([
      `import: export.json: sample item 1 of shop nests its values more than ${LIMITS.depth} levels deep: DynamoDB holds 32 levels of maps and lists`,
    ]);
    expect(files).toEqual(['export.json']);
  });

  it('reads 31 levels of maps, which DynamoDB holds', () => {
    const text = smallExport([]).replace('"TableData":[]', `"TableData":[{"PK":{"S":"USER#u1"},"SK":{"S":"PROFILE"},"tags":${deep(31)}}]`);
    expect(importText(text).code).toBe(0);
  });

  const refusals: [string, () => string, RegExp][] = [
    [
      'a sample over 400 KB',
      () => smallExport([{ PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, name: { S: 'x'.repeat(410_000) } }]),
      /sample item 1 of shop holds more than 400 KB/,
    ],
    [
      'a partition key over 2,048 bytes',
      () => smallExport([{ PK: { S: `USER#${'é'.repeat(1100)}` }, SK: { S: 'PROFILE' } }]),
      /sample item 1 of shop has a PK of 2205 bytes: DynamoDB keys hold at most 2048/,
    ],
    [
      'a key that is a map',
      () => smallExport([{ PK: { M: {} }, SK: { S: 'PROFILE' } }]),
      /sample item 1 of shop lacks its key PK as a string, number or binary value/,
    ],
    [
      'an attribute name of 300 characters',
      () => smallExport([{ PK: { S: 'USER#u1' }, SK: { S: 'PROFILE' }, ['a'.repeat(300)]: { S: 'x' } }]),
      /is named "a{40}…", 300 characters: the import reads names of at most 255/,
    ],
    [
      'more key shapes than types a draft holds',
      // Each sample under a label of its own (`K0#x`, `K1#x`, …): a shape, hence a type, each.
      () => smallExport(Array.from({ length: LIMITS.shapes + 1 }, (_, i) => ({ PK: { S: `USER#u${i}` }, SK: { S: `K${i}#x` } }))),
      /its samples show more than 500 key shapes \(a type each\): the import drafts at most 500 types/,
    ],
  ];
  it.each(refusals)('refuses %s with one line, writing nothing', (_, make, message) => {
    const { code, out, err, files } = importText(make());
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]!.split('\n')).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(files).toEqual(['export.json']);
  });

  it('refuses a file over 256 MB before reading it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, LIMITS.fileBytes + 1);
    const err: string[] = [];
    expect(main([file], { out: () => {}, err: (l) => err.push(l) }, dir)).toBe(1);
    expect(err).toEqual([expect.stringMatching(/huge\.json: 268435457 bytes: the import reads exports of at most 256 MB$/)]);
  });
});

describe('time', () => {
  const cpuMs = (work: () => void): number => {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };

  it('grows linearly with the samples: 8 times the samples cost well under 64 times (quadratic) the CPU time', () => {
    const small = bigExport(2_500);
    const large = bigExport(20_000);
    convertWorkbench('warm.json', small);
    // The least of three runs each: a collection or another thread's work lands in one run, not in all three.
    const least = (work: () => void) => Math.min(cpuMs(work), cpuMs(work), cpuMs(work));
    const one = least(() => convertWorkbench('small.json', small));
    let converted!: ReturnType<typeof convertWorkbench>;
    const eight = least(() => {
      converted = convertWorkbench('large.json', large);
    });
    const { draft } = converted;
    expect(draft.types.map((t) => [t.name, t.pk, t.sk])).toEqual([
      ['User', 'USER#{id}', 'PROFILE'],
      ['Order', 'USER#{user}', 'ORDER#{id}'],
    ]);
    // Linear is 8 times; 24 leaves room for a loaded machine's garbage collection, quadratic (64) does not pass.
    expect(eight / one).toBeLessThan(24);
  });
});
