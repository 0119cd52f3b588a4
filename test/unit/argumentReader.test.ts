import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchema, getArgumentValues, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { argumentReader } from '../../src/graphql/plugins/argumentCheck.js';

const schema = buildSchema(`
  type Query {
    f(id: ID!, n: Int, s: String = "dflt", b: Boolean! = true, list: [ID!], e: Color): Int
  }
  enum Color { RED GREEN }
`);
const field = schema.getQueryType()!.getFields().f!;

/** What the argument check got before: graphql-js's values, `{}` when they fail. */
function graphqlJs(node: FieldNode, variables: Record<string, unknown>) {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

const fieldOf = (query: string) => (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;

const ARGUMENT_FORMS = {
  id: ['$v1', '"7"', '7', 'null', null],
  n: ['$v2', '5', '"x"', 'null', null],
  s: ['$v3', '"lit"', 'null', null],
  b: ['$v4', 'false', 'null', null],
  list: ['$v5', '["a", "b"]', '"a"', 'null', null],
  e: ['$v6', 'RED', 'BLUE', null],
};
const VALUES = fc.constantFrom<unknown>('a', '', 3, 3.5, null, undefined, true, ['x'], { o: 1 }, 'RED', 2 ** 40);

describe('argumentReader', () => {
  it('reads the same arguments as graphql-js getArgumentValues for literals, bare variables and their absence', () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(Object.entries(ARGUMENT_FORMS).map(([k, forms]) => [k, fc.constantFrom(...forms)]))),
        fc.dictionary(fc.constantFrom('v1', 'v2', 'v3', 'v4', 'v5', 'v6'), VALUES),
        (forms, variables) => {
          const args = Object.entries(forms)
            .filter(([, form]) => form !== null)
            .map(([name, form]) => `${name}: ${form}`);
          const node = fieldOf(`{ f${args.length ? `(${args.join(', ')})` : ''} }`);
          const reader = argumentReader(field, node);
          expect(reader).not.toBeNull();
          expect(reader!(variables)).toStrictEqual(graphqlJs(node, variables));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads an enum argument given in a variable as its stored text, as execution coerces it, where the enum stores other text', () => {
    const stored = buildSchema(`type Query { f(s: Status, l: [Status!]): Int } enum Status { OPEN IN_PROGRESS }`);
    const status = stored.getType('Status') as import('graphql').GraphQLEnumType;
    status.getValue('IN_PROGRESS')!.value = 'in-progress';
    status.getValue('OPEN')!.value = 'open';
    const f = stored.getQueryType()!.getFields().f!;
    const reader = argumentReader(f, fieldOf('{ f(s: $s, l: $l) }'))!;
    expect(reader({ s: 'IN_PROGRESS', l: ['OPEN', 'IN_PROGRESS'] })).toEqual({ s: 'in-progress', l: ['open', 'in-progress'] });
    expect(reader({ s: null })).toEqual({ s: null });
    // An enum stored as its names is read as given.
    expect(argumentReader(field, fieldOf('{ f(id: "1", e: $e) }'))!({ e: 'RED' })).toEqual({ id: '1', s: 'dflt', b: true, e: 'RED' });
  });

  it('leaves variables nested in a list to graphql-js', () => {
    expect(argumentReader(field, fieldOf('{ f(id: "1", list: [$a]) }'))).toBeNull();
  });
});
