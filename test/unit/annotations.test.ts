/**
 * Directive uses are read in one place (src/declaration/annotations.ts),
 * once per schema, into typed records; every other file of src/ reads the
 * records. The scan below finds a directive read by name anywhere else:
 * the AST's directive lists, graphql's directive lookups, a visitor or a
 * walk that stops at directive nodes, and the old by-name helpers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildASTSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readAnnotations } from '../../src/declaration/annotations.js';
import { suppliedDefinitions } from '../../src/declaration/buildModel.js';
import { VALID } from '../support/teamsModel.js';
import { numberedProblemsOf } from '../support/problems.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
/** The parse module: the one file that reads directive uses. */
const PARSE_MODULE = 'declaration/annotations.ts';

const BY_NAME: readonly RegExp[] = [
  /\.directives\b/, // a node's directive list
  /\bgetDirective(Values)?\b/, // graphql's lookups of a definition or a use's values
  /\bKind\.DIRECTIVE\b/, // a walk stopping at directive uses
  /\bDirective\s*[(:]/, // a visit() visitor for directive uses
  /\b(directiveArgs|directivesOn|getByOf)\b/, // the by-name helpers the records replaced
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `file:line: text` of each line of `text` reading directives by name. */
export function byNameReads(text: string, file: string): string[] {
  return text.split('\n').flatMap((line, i) => (BY_NAME.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('reading directive uses', () => {
  it('no file of src/ but the parse module reads a directive by name', () => {
    const found = sources(SRC).flatMap((f) => {
      const file = relative(SRC, f).split('\\').join('/');
      return file === PARSE_MODULE ? [] : byNameReads(readFileSync(f, 'utf8'), file);
    });
    expect(found).toEqual([]);
  });

  it('the scan finds each way of reading a directive by name, and not a record read', () => {
    const text = [
      "const d = field.astNode?.directives?.find((x) => x.name.value === 'item');",
      "const v = getDirectiveValues(schema.getDirective('edges')!, node);",
      'if (n.kind === Kind.DIRECTIVE) return;',
      'visit(doc, { Directive(node) { return null; } });',
      "const args = directiveArgs(schema, 'query', field);",
      'const edges = notes.field(field).edges;',
      "problems.add(`${at} @attribute(name)`, 'is empty', field.astNode);",
    ].join('\n');
    expect(byNameReads(text, 'x.ts').map((l) => l.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('the parse module itself reads directives (the scan would find it)', () => {
    expect(byNameReads(readFileSync(join(SRC, PARSE_MODULE), 'utf8'), PARSE_MODULE).length).toBeGreaterThan(0);
  });

  it('gives each use a typed record with its defaults applied and absent arguments null', () => {
    const typeDefs = { kind: 'Document', definitions: [...suppliedDefinitions().definitions, ...parse(VALID).definitions] } as never;
    const schema = buildASTSchema(typeDefs);
    const notes = readAnnotations(schema);
    const team = schema.getType('Team') as import('graphql').GraphQLObjectType;
    expect(notes.type(team).item).toMatchObject({ pk: 'TEAM#{id}', sk: 'META', inverted: false, claim: null, constants: [] });
    expect(notes.field(team.getFields().players!).edges).toMatchObject({
      inverseOf: null,
      copy: [{ field: 'nick', attribute: 'playerNick' }],
      counter: 'playerCount',
      maxShards: 64,
      order: 'ASCENDING',
      shards: null,
    });
    expect(notes.field(team.getFields().seasons!)).toMatchObject({ uses: ['children'], children: { counter: 'seasonCount', index: null, order: 'ASCENDING' } });
    expect(notes.field(team.getFields().name!)).toMatchObject({ uses: [], attribute: null, parent: false });
    expect(notes.type('Season').item?.inverted).toBe(true);
    expect(notes.field((schema.getType('Season') as typeof team).getFields().team!).parent).toBe(true);
    expect(notes.field(schema.getQueryType()!.getFields().team!).get?.by).toBe('KEY');
  });

  it('reads @children and @edges as the @query they are sugar for: one read record of index, order and range', () => {
    const sdl = `
      type Query { a(id: ID!): A @get }
      type A @item(pk: "A#{id}", sk: "A") {
        id: ID!
        bs(first: Int, after: String, last: Int, before: String): BConnection! @children(index: "GSI1", order: DESCENDING, counter: "n")
        cs(first: Int, after: String, last: Int, before: String, since: String): BConnection! @edges(order: DESCENDING, from: "since")
        ds(first: Int, after: String, last: Int, before: String): BConnection! @query(index: "GSI1", order: DESCENDING)
      }
      type B @item(pk: "A#{a}", sk: "B#{id}") { id: ID! a: A! @parent }
      type BConnection { edges: [BEdge!]! pageInfo: PageInfo! }
      type BEdge { cursor: String! node: B! }
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }`;
    const schema = buildASTSchema({ kind: 'Document', definitions: [...suppliedDefinitions().definitions, ...parse(sdl).definitions] } as never);
    const notes = readAnnotations(schema);
    const fields = (schema.getType('A') as import('graphql').GraphQLObjectType).getFields();
    const read = (f: string) => {
      const { node: _node, ...rest } = notes.field(fields[f]!).read!;
      return rest;
    };
    const query = { index: 'GSI1', order: 'DESCENDING', from: null, until: null, filter: null };
    expect(read('ds')).toEqual({ by: 'query', ...query });
    expect(read('bs')).toEqual({ by: 'children', ...query });
    expect(read('cs')).toEqual({ by: 'edges', ...query, index: null, from: 'since' });
    expect(notes.field(fields.id!).read).toBeNull();
  });

  it('refuses an argument whose value is not of its type at start-up, naming the use and its line', () => {
    const model = VALID.replace('type Player @item(pk: "PLAYER#{id}", sk: "META")', 'type Player @item(pk: "PLAYER#{id}", sk: "META", inverted: "yes")');
    const line = model.split('\n').findIndex((l) => l.includes('inverted: "yes"')) + 1;
    expect(numberedProblemsOf(model)).toContain(`${line}: Player @item: Argument "inverted" has invalid value "yes".`);
  });
});
