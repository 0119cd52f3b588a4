import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';

// The same operations against the compiled executor (graphql-jit, the default)
// and against Apollo's own graphql-js execution: answers, errors and HTTP
// statuses must be identical, byte for byte apart from the random request id.
const servers: Record<'jit' | 'graphqlJs', { gw: TestGateway; url: string }> = {} as never;

beforeAll(async () => {
  for (const [name, executor] of [['jit', 'jit'], ['graphqlJs', 'graphql-js']] as const) {
    // Compiled from the first execution, so every case below compares graphql-jit's answer.
    const gw = await testGateway({ executor, jitCompileAfter: 0 });
    await gw.put([...demoItems(), { PK: 'STUDENT#nameless', SK: 'PROFILE', email: 'n@example.com' }]);
    servers[name] = { gw, url: await gw.listen() };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.gw.stop()));
});

const withoutRequestIds = (json: any) =>
  JSON.parse(JSON.stringify(json), (key, value) => (key === 'requestId' ? '<id>' : key === 'stacktrace' ? '<stack>' : key === 'location' ? undefined : value));

async function both(body: unknown) {
  const [jit, graphqlJs] = await Promise.all([postGraphQL(servers.jit.url, body), postGraphQL(servers.graphqlJs.url, body)]);
  return { jit: { status: jit.status, json: withoutRequestIds(jit.json) }, graphqlJs: { status: graphqlJs.status, json: withoutRequestIds(graphqlJs.json) } };
}

const COURSES = `query ($id: ID!, $first: Int, $after: String) {
  student(id: $id) { name courses(first: $first, after: $after) { edges { cursor node { id title } } pageInfo { hasNextPage } } } }`;

describe('compiled execution (graphql-jit) against graphql-js', () => {
  it('answers a nested read identically', async () => {
    const { jit, graphqlJs } = await both({ query: COURSES, variables: { id: '1', first: 2 } });
    expect(jit.json.errors).toBeUndefined();
    expect(jit).toEqual(graphqlJs);
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
      expect(jit.json.errors[0]).toMatchObject({ path: [expect.any(String)], extensions: { code } });
      expect(jit.json.errors[0].locations).toHaveLength(1);
      expect(jit).toEqual(graphqlJs);
    }
  });

  it('answers a wrongly typed or missing variable with BAD_USER_INPUT and HTTP 200 (application/json), in the same words', async () => {
    for (const variables of [{ id: '1', first: 'ten' }, {}]) {
      const { jit, graphqlJs } = await both({ query: COURSES, variables });
      expect(jit.status).toBe(200);
      expect(jit.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(jit).toEqual(graphqlJs);
    }
  });

  it('reports a null in a non-null field of a foreign item the same way', async () => {
    const { jit, graphqlJs } = await both({ query: '{ student(id: "nameless") { name email } }' });
    expect(jit.json.data).toEqual({ student: null });
    expect(jit).toEqual(graphqlJs);
  });

  it('keeps argument checks and query limits ahead of execution', async () => {
    for (const query of ['{ student(id: "1") { courses(first: 101) { totalCount } } }', '{ student(id: "a#b") { name } }']) {
      const { jit, graphqlJs } = await both({ query });
      expect(jit.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(jit).toEqual(graphqlJs);
    }
  });

  it('turns DynamoDB failing into UNAVAILABLE with the same shape', async () => {
    const removers = Object.values(servers).map(({ gw }) => injectFaults(gw.dynamo, () => dynamoFault('ServiceUnavailable')));
    try {
      const { jit, graphqlJs } = await both({ query: '{ a: student(id: "1") { name } b: course(id: "A") { title } }' });
      expect(jit.json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE']);
      expect(jit).toEqual(graphqlJs);
    } finally {
      for (const remove of removers) remove();
    }
  });

  it('counts the same DynamoDB requests', async () => {
    const jit = await servers.jit.gw.counted(COURSES, { id: '1', first: 2 });
    const graphqlJs = await servers.graphqlJs.gw.counted(COURSES, { id: '1', first: 2 });
    expect(jit.requests.summary()).toEqual(graphqlJs.requests.summary());
  });
});
