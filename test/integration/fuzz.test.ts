import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { demoItems } from '../support/demoData.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

let gw: TestGateway;
let url: string;
const realCursors: string[] = [];

const CONNECTIONS = [
  { root: 'student', field: 'courses', ids: ['1', '2', '4'], node: 'title' },
  { root: 'course', field: 'students', ids: ['A', 'B'], node: 'name' },
  { root: 'customer', field: 'orders', ids: ['1'], node: 'total' },
  { root: 'product', field: 'parts', ids: ['bike'], node: 'quantity' },
] as const;

const queryOf = (c: (typeof CONNECTIONS)[number]) => `query($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {
  ${c.root}(id: $id) { ${c.field}(first: $first, last: $last, after: $after, before: $before) {
    totalCount edges { cursor node { ${c.node} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

beforeAll(async () => {
  gw = await testGateway();
  await gw.put(demoItems());
  url = await gw.listen();
  for (const c of CONNECTIONS) {
    for (const id of c.ids) {
      const result = await gw.run(queryOf(c), { id });
      realCursors.push(...result.data[c.root][c.field].edges.map((e: any) => e.cursor));
    }
  }
});
afterAll(() => gw.stop());

const flipAt = (s: string, i: number, ch: string) => (s.length ? s.slice(0, i % s.length) + ch + s.slice((i % s.length) + 1) : ch);

const cursor = () =>
  fc.oneof(
    fc.constantFrom(...realCursors),
    fc.tuple(fc.constantFrom(...realCursors), fc.nat(), fc.constantFrom('A', '_', '-', '.', '=', '0')).map(([s, i, ch]) => flipAt(s, i, ch)),
    fc.tuple(fc.constantFrom(...realCursors), fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1))),
    fc.string({ maxLength: 60 }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    fc.string({ maxLength: 3000, unit: 'binary' }),
  );

const pageSize = () => fc.oneof(fc.integer({ min: -3, max: 105 }), fc.integer(), fc.constant(0));

const ALLOWED = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'UNAVAILABLE']);

describe('random arguments and cursors against the connections', () => {
  it(
    'never answer HTTP 5xx or INTERNAL_SERVER_ERROR',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CONNECTIONS),
          fc.oneof(fc.constantFrom('1', 'A', 'bike', 'nobody'), fc.string({ maxLength: 140 })),
          fc.record(
            { first: fc.option(pageSize()), last: fc.option(pageSize()), after: fc.option(cursor()), before: fc.option(cursor()) },
            {
              requiredKeys: [],
            },
          ),
          async (connection, id, args) => {
            const { status, json, text } = await postGraphQL(url, { query: queryOf(connection), variables: { id, ...args } });
            expect(status, text).toBeLessThan(500);
            expect(json, text).toBeDefined();
            for (const error of json.errors ?? []) expect(ALLOWED, JSON.stringify(error)).toContain(error.extensions?.code);
          },
        ),
        { numRuns: 150 },
      );
    },
    patience(60_000),
  );
});

describe('random nested documents against the limits', () => {
  /** A random selection on Student or Course: nested connections with random sizes, aliases and fragments. */
  const selection = (type: 'Student' | 'Course', depth: number): fc.Arbitrary<string> => {
    const leaf = fc.constant(type === 'Student' ? 'id name' : 'id title');
    if (depth === 0) return leaf;
    const field = type === 'Student' ? 'courses' : 'students';
    const next: 'Student' | 'Course' = type === 'Student' ? 'Course' : 'Student';
    const connection = fc
      .tuple(
        fc.option(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), { nil: undefined }),
        fc.option(fc.integer({ min: -2, max: 120 }), { nil: undefined }),
        fc.boolean(),
        selection(next, depth - 1),
      )
      .map(
        ([alias, n, useLast, inner]) =>
          `${alias ? `${alias}: ` : ''}${field}${n === undefined ? '' : `(${useLast ? 'last' : 'first'}: ${n})`} { totalCount edges { cursor node { ${inner} } } }`,
      );
    return fc.oneof(
      leaf,
      fc.array(connection, { minLength: 1, maxLength: 3 }).map((parts) => `id ${parts.join(' ')}`),
    );
  };

  const root = fc.oneof(
    fc
      .tuple(fc.constantFrom('1', 'nobody'), fc.integer({ min: 0, max: 3 }))
      .chain(([id, depth]) => selection('Student', depth).map((inner) => `student(id: "${id}") { ${inner} }`)),
    fc
      .tuple(fc.constantFrom('A', 'C'), fc.integer({ min: 0, max: 3 }))
      .chain(([id, depth]) => selection('Course', depth).map((inner) => `course(id: "${id}") { ${inner} }`)),
  );

  it(
    'never answer HTTP 5xx or INTERNAL_SERVER_ERROR, and refuse only with documented error codes',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(root, { minLength: 1, maxLength: 4 }), async (roots) => {
          const query = `{ ${roots.map((r, i) => `r${i}: ${r}`).join(' ')} }`;
          const { status, json, text } = await postGraphQL(url, { query });
          expect(status, text).toBeLessThan(500);
          for (const error of json.errors ?? []) expect(ALLOWED, JSON.stringify(error)).toContain(error.extensions?.code);
        }),
        { numRuns: 40 },
      );
    },
    patience(60_000),
  );
});
