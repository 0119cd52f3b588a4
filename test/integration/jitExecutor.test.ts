/**
 * The executor port (src/graphql/executor/): the same operations against
 * compiled execution (graphql-jit, the default) and Apollo's own graphql-js
 * execution must give identical responses, errors and HTTP statuses (byte
 * for byte apart from the random request id) and the same DynamoDB
 * requests. graphql-jit's errors pass through the error adapter
 * (`asLocatedError`), so this is where a difference in codes, paths or
 * messages shows. The benchmark's operations are compared in
 * readPaths.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { formatGlobalId } from '../../src/plan/globalId.js';
import type { JitOptions } from '../../src/graphql/executor/jit.js';

type Name = 'jit' | 'onRepeat' | 'graphqlJs' | 'jitProd' | 'graphqlJsProd';
const servers = {} as Record<Name, { gw: TestGateway; url: string }>;

/** A customer whose second order lacks its non-null total: an error inside a list. */
const BROKEN_ORDERS = [
  { PK: 'CUSTOMER#9', SK: 'PROFILE', name: 'Broken', email: 'b@example.com', orderCount: 2 },
  ...[1, 2].map((n) => ({
    PK: 'CUSTOMER#9',
    SK: `ORDER#01JBROKEN000000000000000${n}`,
    GSI1PK: `ORDER#01JBROKEN000000000000000${n}`,
    GSI1SK: 'CUSTOMER#9',
    GSI2PK: 'ORDERS#9',
    GSI2SK: `2026-02-0${n}T09:00:00.000Z#01JBROKEN000000000000000${n}`,
    placedAt: `2026-02-0${n}T09:00:00.000Z`,
    ...(n === 1 ? { total: 5 } : {}),
  })),
];

/** Operations compiled per server: proof that the graphql-jit servers run compiled code. */
const compiles = { jit: 0, onRepeat: 0 };
const counting = (name: keyof typeof compiles): JitOptions => ({
  load: async () => {
    const real = await import('graphql-jit');
    const compileQuery = ((...args: Parameters<typeof real.compileQuery>) => (compiles[name]++, real.compileQuery(...args))) as typeof real.compileQuery;
    return { ...real, compileQuery };
  },
});

beforeAll(async () => {
  const setups: [Name, Parameters<typeof testGateway>[0]][] = [
    // Compiled from the first execution, so every comparison below is graphql-jit's answer.
    ['jit', { executor: 'graphql-jit', jit: { compileAfter: 0, ...counting('jit') } }],
    // As served: graphql-js first, compiled from the second execution.
    ['onRepeat', { executor: 'graphql-jit', jit: counting('onRepeat') }],
    ['graphqlJs', { executor: 'graphql-js' }],
    ['jitProd', { executor: 'graphql-jit', jit: { compileAfter: 0 }, production: true }],
    ['graphqlJsProd', { executor: 'graphql-js', production: true }],
  ];
  for (const [name, options] of setups) {
    const gw = await testGateway(options);
    await gw.put([...demoItems(), { PK: 'STUDENT#nameless', SK: 'PROFILE', email: 'n@example.com' }, ...BROKEN_ORDERS]);
    servers[name] = { gw, url: await gw.listen() };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.gw.stop()));
});

const withoutRequestIds = (json: any) =>
  JSON.parse(JSON.stringify(json), (key, value) => (key === 'requestId' ? '<id>' : key === 'stacktrace' ? '<stack>' : key === 'location' ? undefined : value));

async function post(name: Name, body: unknown) {
  const { status, json } = await postGraphQL(servers[name].url, body);
  return { status, json: withoutRequestIds(json) };
}

/** One body to the compiled and the graphql-js server (development or production mode). */
async function both(body: unknown, mode: 'dev' | 'prod' = 'dev') {
  const [jit, graphqlJs] = mode === 'dev' ? await Promise.all([post('jit', body), post('graphqlJs', body)]) : await Promise.all([post('jitProd', body), post('graphqlJsProd', body)]);
  return { jit, graphqlJs };
}

const COURSES = `query ($id: ID!, $first: Int, $after: String) {
  student(id: $id) { name courses(first: $first, after: $after) { edges { cursor node { id title } } pageInfo { hasNextPage } } } }`;

const READS: [string, Record<string, unknown>][] = [
  [COURSES, { id: '1', first: 2 }],
  ['{ course(id: "A") { __typename id title students(first: 3) { totalCount edges { node { id name } } } } }', {}],
  ['query ($g: ID!) { node(id: $g) { __typename ... on Student { id name } ... on Course { title } } }', { g: formatGlobalId('Student', ['1']) }],
  ['query ($c: ID!, $more: Boolean!) { customer(id: $c) { name ...orders @include(if: $more) } } fragment orders on Customer { orders(first: 2) { edges { node { id total status } } } }', { c: '1', more: true }],
  ['query ($c: ID!, $less: Boolean!) { customer(id: $c) { name ...orders @skip(if: $less) } } fragment orders on Customer { orders(first: 2) { edges { node { id total status } } } }', { c: '1', less: true }],
  ['{ missing: student(id: "nobody") { id } a: course(id: "A") { id } }', {}],
  ['{ __schema { queryType { name } } __type(name: "OrderStatus") { enumValues { name } } }', {}],
];

describe('compiled execution (graphql-jit) against graphql-js', () => {
  it('answers reads identically: nested pages, abstract types, fragments, directives, absent items, introspection', async () => {
    const before = compiles.jit;
    for (const [query, variables] of READS) {
      const { jit, graphqlJs } = await both({ query, variables });
      expect(jit.json.errors, query).toBeUndefined();
      expect(jit, query).toEqual(graphqlJs);
    }
    expect(compiles.jit - before).toBe(READS.length);
  });

  it('answers the same before and after an operation is compiled (on its second execution)', async () => {
    for (const [query, variables] of READS) {
      const reference = await post('graphqlJs', { query, variables });
      const before = compiles.onRepeat;
      for (let run = 1; run <= 3; run++) {
        expect(await post('onRepeat', { query, variables }), `${query} run ${run}`).toEqual(reference);
        expect(compiles.onRepeat - before, `${query} run ${run}`).toBe(run === 1 ? 0 : 1);
      }
    }
  });

  it('gives errors thrown by resolvers the same code, message, path, locations and HTTP status', async () => {
    const cases = [
      ['mutation { updateStudent(id: "missing", input: { name: "X" }) { id } }', 'NOT_FOUND'],
      ['mutation { createStudent(input: { id: "1", name: "Again" }) { id } }', 'CONFLICT'],
      ['mutation ($s: ID!) { updateStudent(id: $s, input: { name: " " }) { id } }', 'BAD_USER_INPUT'],
    ];
    for (const [query, code] of cases) {
      // Only declared variables are accepted: send `s` only where the operation declares it.
      const { jit, graphqlJs } = await both({ query, variables: query!.includes('$s') ? { s: '1' } : {} });
      expect(jit.json.errors[0], query).toMatchObject({ path: [expect.any(String)], extensions: { code } });
      expect(jit.json.errors[0].locations).toHaveLength(1);
      expect(jit, query).toEqual(graphqlJs);
    }
  });

  it('runs a mutation\'s fields one after another, keeping the first\'s write when the second fails', async () => {
    const query = 'mutation { a: createStudent(input: { id: "serial", name: "First" }) { id name } b: createStudent(input: { id: "serial", name: "Second" }) { id } }';
    const { jit, graphqlJs } = await both({ query });
    // createStudent is non-null: the second field's CONFLICT nulls the whole data.
    expect(jit.json.data).toBeNull();
    expect(jit.json.errors.map((e: any) => [e.path, e.extensions.code])).toEqual([[['b'], 'CONFLICT']]);
    expect(jit).toEqual(graphqlJs);
    const written = await both({ query: '{ student(id: "serial") { name } }' });
    expect(written.jit.json).toEqual({ data: { student: { name: 'First' } } });
    expect(written.jit).toEqual(written.graphqlJs);
  });

  it('answers a wrongly typed or missing variable with BAD_USER_INPUT and HTTP 200 (application/json), in the same words', async () => {
    const cases: [string, Record<string, unknown>][] = [
      [COURSES, { id: '1', first: 'ten' }],
      [COURSES, {}],
      // Input objects and enums are coerced by graphql-js before the compiled query runs.
      ['mutation ($input: CreateStudentInput!) { createStudent(input: $input) { id } }', { input: { name: 5 } }],
      ['mutation ($input: CreateStudentInput!) { createStudent(input: $input) { id } }', { input: { id: 'x' } }],
      ['mutation ($input: PlaceOrderInput!) { placeOrder(customerId: "1", input: $input) { id } }', { input: { total: 3, status: 'LOST' } }],
    ];
    for (const [query, variables] of cases) {
      const { jit, graphqlJs } = await both({ query, variables });
      expect(jit.status).toBe(200);
      expect(jit.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(jit).toEqual(graphqlJs);
    }
  });

  it('reports a null in a non-null field the same way, alone and inside a list', async () => {
    const alone = await both({ query: '{ student(id: "nameless") { name email } }' });
    expect(alone.jit.json.data).toEqual({ student: null });
    expect(alone.jit).toEqual(alone.graphqlJs);
    const inList = await both({ query: '{ customer(id: "9") { name orders(first: 5) { edges { node { id total } } } } }' });
    expect(inList.jit.json.errors.map((e: any) => e.path)).toEqual([['customer', 'orders', 'edges', 1, 'node', 'total']]);
    expect(inList.jit).toEqual(inList.graphqlJs);
  });

  it('keeps operation resolution, argument checks and query limits ahead of execution', async () => {
    for (const query of ['{ student(id: "1") { courses(first: 101) { totalCount } } }', '{ student(id: "a#b") { name } }']) {
      const { jit, graphqlJs } = await both({ query });
      expect(jit.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(jit).toEqual(graphqlJs);
    }
    const { jit, graphqlJs } = await both({ query: 'query A { course(id: "A") { id } }', operationName: 'B' });
    expect(jit.json.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(jit).toEqual(graphqlJs);
  });

  it('turns DynamoDB failing into UNAVAILABLE with the same shape', async () => {
    const removers = Object.values(servers).map(({ gw }) => injectFaults(gw.dynamo, () => dynamoFault('ServiceUnavailable')));
    try {
      for (const mode of ['dev', 'prod'] as const) {
        const { jit, graphqlJs } = await both({ query: '{ a: student(id: "1") { name } b: course(id: "A") { title } }' }, mode);
        expect(jit.json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE']);
        expect(jit).toEqual(graphqlJs);
      }
    } finally {
      for (const remove of removers) remove();
    }
  });

  it('masks and words errors alike in production mode', async () => {
    const cases = [
      { query: COURSES, variables: { id: '1', first: 'ten' } },
      { query: 'mutation { updateStudent(id: "missing", input: { name: "X" }) { id } }' },
      { query: '{ customer(id: "9") { orders(first: 5) { edges { node { total } } } } }' },
    ];
    for (const body of cases) {
      const { jit, graphqlJs } = await both(body, 'prod');
      expect(jit.json.errors.length, body.query).toBeGreaterThan(0);
      expect(jit, body.query).toEqual(graphqlJs);
    }
  });

  it('counts the same DynamoDB requests, compiled and not', async () => {
    for (const [query, variables] of READS) {
      const graphqlJs = await servers.graphqlJs.gw.counted(query, variables);
      expect((await servers.jit.gw.counted(query, variables)).requests.summary(), query).toEqual(graphqlJs.requests.summary());
      for (let run = 0; run < 2; run++) expect((await servers.onRepeat.gw.counted(query, variables)).requests.summary(), query).toEqual(graphqlJs.requests.summary());
    }
  });
});
