/**
 * The gateway against the GraphQL-over-HTTP specification: graphql-http's
 * server audit (every MUST and SHOULD passes), and the status a client sees
 * for each kind of refusal under `application/json` (200, errors readable)
 * and `application/graphql-response+json` (4xx).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditServer } from 'graphql-http';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let url: string;

beforeAll(async () => {
  gw = await testGateway();
  url = await gw.listen();
});
afterAll(() => gw.stop());

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

async function post(body: unknown, accept?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', json: (await res.json()) as any };
}

describe('graphql-http server audit', () => {
  it('passes every MUST and SHOULD audit; only the MAY notices about CSRF-blocked GET form encodings remain', async () => {
    const results = await auditServer({ url });
    const notOk = results.filter((r) => r.status !== 'ok');
    const summary = notOk.map((r) => `${r.status}: ${r.name}`);
    expect(results.length).toBe(61);
    expect(notOk.filter((r) => r.status === 'error')).toEqual([]);
    expect(notOk.filter((r) => r.status === 'warn')).toEqual([]);
    // The CSRF prevention refuses simple GETs without a preflight-forcing header: a MAY of the spec.
    expect(summary.length).toBe(3);
    expect(notOk.every((r) => r.status === 'notice' && /MAY/.test(r.name))).toBe(true);
  });
});

const REFUSALS: { name: string; body: unknown; code: string }[] = [
  { name: 'a document that does not parse', body: { query: '{ student(id: "1") { name ' }, code: 'GRAPHQL_PARSE_FAILED' },
  { name: 'a document that does not validate', body: { query: '{ student(id: "1") { nope } }' }, code: 'GRAPHQL_VALIDATION_FAILED' },
  {
    name: 'variables that do not coerce',
    body: { query: 'query ($id: ID!) { student(id: $id) { name } }', variables: { id: { no: 1 } } },
    code: 'BAD_USER_INPUT',
  },
  { name: 'an id the gateway refuses before execution', body: { query: '{ student(id: "a#b") { id } }' }, code: 'BAD_USER_INPUT' },
  { name: 'a tampered cursor', body: { query: '{ course(id: "A") { students(first: 1, after: "bm9wZQ") { totalCount } } }' }, code: 'BAD_USER_INPUT' },
  { name: 'a page size out of range', body: { query: '{ course(id: "A") { students(first: 1000) { totalCount } } }' }, code: 'BAD_USER_INPUT' },
  {
    name: 'a document over the cost limit',
    body: { query: `{ courses(first: 100) { edges { node { students(first: 100) { edges { node { courses(first: 100) { totalCount } } } } } } } }` },
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
];

describe('HTTP status of an operation refused before execution', () => {
  for (const { name, body, code } of REFUSALS) {
    it(`answers ${name} with 200 and ${code} under application/json, 400 under ${GRAPHQL_RESPONSE}`, async () => {
      for (const accept of [undefined, 'application/json', `application/json, ${GRAPHQL_RESPONSE};q=0.9`]) {
        const json = await post(body, accept);
        expect(json.status).toBe(200);
        expect(json.type).toMatch(/^application\/json/);
        expect(json.json.data).toBeUndefined();
        expect(json.json.errors[0].extensions.code).toBe(code);
      }
      const strict = await post(body, `${GRAPHQL_RESPONSE}, application/json;q=0.9`);
      expect(strict.status).toBe(400);
      expect(strict.type).toMatch(/^application\/graphql-response\+json/);
      expect(strict.json.errors[0].extensions.code).toBe(code);
    });
  }
});

describe('requests that are not well-formed keep their 4xx under application/json', () => {
  it('answers a body that is not JSON with 400 BAD_REQUEST', async () => {
    const res = await post('{"query": ', 'application/json');
    expect(res.status).toBe(400);
    expect(res.json.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('answers a request without a query with 400 BAD_REQUEST', async () => {
    const res = await post({ variables: {} }, 'application/json');
    expect(res.status).toBe(400);
    expect(res.json.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('answers a malformed Idempotency-Key with 400 (a header misuse, not an operation refusal)', async () => {
    const res = await post({ query: 'mutation { createCourse(input: { title: "T" }) { id } }' }, 'application/json', { 'idempotency-key': 'x'.repeat(300) });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', reason: 'IDEMPOTENCY_KEY_INVALID' });
  });

  it('answers a GET with a mutation with 405 and a code', async () => {
    const res = await fetch(`${url}?query=${encodeURIComponent('mutation { createCourse(input: { title: "T" }) { id } }')}`, {
      headers: { 'apollo-require-preflight': '1' },
    });
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('gives an unknown path and an unsupported method a GraphQL error body with a code', async () => {
    const missing = await fetch(url.replace(/\/graphql$/, '/nowhere'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).errors[0].extensions.code).toBe('NOT_FOUND');
    const method = await fetch(url, { method: 'PUT', body: '{}' });
    expect(method.status).toBe(405);
    expect(((await method.json()) as any).errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});
