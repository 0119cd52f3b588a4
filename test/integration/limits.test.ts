import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { codes, postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ maxBodyBytes: 20_000 });
  await gw.put(demoItems());
});
afterAll(() => gw.stop());

/** `courses(first: a) { … students(first: b) { … courses(first: c) … } }`, alternating, under student(id: "1"). */
function nested(sizes: number[]): string {
  const fields = sizes.map((n, i) => `${i % 2 === 0 ? 'courses' : 'students'}(first: ${n}) { edges { node { `);
  const leaf = sizes.length % 2 === 1 ? 'title' : 'name';
  return `{ student(id: "1") { ${fields.join('')}${leaf}${' } } }'.repeat(sizes.length)} } }`;
}

/** A query exactly `levels` deep: order → customer → orders → edges → node → customer → … → a leaf. */
function deep(levels: number): string {
  const chain = ['order(id: "x")', 'customer', 'orders(first: 1)', 'edges', 'node'];
  const leafAfter: Record<string, string> = { order: 'id', customer: 'id', orders: 'totalCount', edges: 'cursor', node: 'id' };
  const fields = Array.from({ length: levels - 1 }, (_, i) => (i === 0 ? chain[0] : chain[1 + ((i - 1) % 4)]));
  const last = fields[fields.length - 1].replace(/\(.*/, '');
  return `{ ${fields.map((f) => `${f} { `).join('')}${leafAfter[last]}${' }'.repeat(fields.length)} }`;
}

/** Expects the operation refused as a validation failure naming `limit`, with no DynamoDB request. */
async function refused(query: string, limit: RegExp, variables?: Record<string, unknown>) {
  const { result, requests } = await gw.counted(query, variables);
  expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  expect(result.errors![0].message).toMatch(limit);
  expect(requests.requests).toBe(0);
}

describe('connection cost limit', () => {
  it('allows student → courses(first: 10) → students(first: 10)', async () => {
    const result = await gw.run(nested([10, 10]));
    expect(result.errors).toBeUndefined();
    expect(result.data.student.courses.edges).toHaveLength(3);
  });

  it('allows three nested connections at the default page size', async () => {
    const result = await gw.run(`{ student(id: "1") { courses { edges { node { students { edges { node { courses { totalCount } } } } } } } } }`);
    expect(result.errors).toBeUndefined();
  });

  it('allows four nested connections of 10 and refuses four of 100, naming the cost limit, before any DynamoDB request', async () => {
    const ok = await gw.run(nested([10, 10, 10, 10]));
    expect(ok.errors).toBeUndefined();
    await refused(nested([100, 100, 100, 100]), /Query cost limit of 20000 exceeded, found 101010101\./);
  });

  it('refuses three nested connections of 100', async () => {
    await refused(nested([100, 100, 100]), /cost limit/);
  });

  it('counts page sizes passed as variables', async () => {
    const query = `query($n: Int) { student(id: "1") { courses(first: $n) { edges { node { students(first: $n) { edges { node { courses(first: $n) { totalCount } } } } } } } } }`;
    await refused(query, /cost limit/, { n: 100 });
    const allowed = await gw.run(query, { n: 5 });
    expect(allowed.errors).toBeUndefined();
  });

  it('counts connections inside fragments', async () => {
    const query = `{ student(id: "1") { ...C } }
      fragment C on Student { courses(first: 100) { edges { node { ...S } } } }
      fragment S on Course { students(first: 100) { edges { node { courses(first: 100) { totalCount } } } } }`;
    await refused(query, /cost limit/);
  });
});

describe('alias, depth and token limits', () => {
  it('refuses 300 aliases of student(id:) before any DynamoDB request (3000 tokens: the token limit speaks first)', async () => {
    const query = `{ ${Array.from({ length: 300 }, (_, i) => `s${i}: student(id: "${i}") { id }`).join(' ')} }`;
    await refused(query, /Query token limit of 2000 exceeded/);
  });

  it('refuses 31 aliases and allows 30', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: student(id: "${i}") { id }`).join(' ')} }`;
    await refused(aliases(31), /Aliases limit of 30 exceeded, found 31/);
    const ok = await gw.run(aliases(30));
    expect(ok.errors).toBeUndefined();
  });

  it('counts aliases of __typename toward the alias limit: refuses 600 and 31, allows 30', async () => {
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    await refused(typenames(600), /Aliases limit of 30 exceeded, found 600/);
    await refused(typenames(31), /Aliases limit of 30 exceeded, found 31/);
    const ok = await gw.run(typenames(30));
    expect(ok.errors).toBeUndefined();
    expect(Object.keys(ok.data)).toHaveLength(30);
  });

  it('refuses a query deeper than 15 levels and allows 15', async () => {
    await refused(deep(16), /Query depth limit of 15 exceeded, found 16/);
    const ok = await gw.run(deep(15));
    expect(ok.errors).toBeUndefined();
  });

  it('refuses a document of more than 2000 tokens as a validation failure, before any DynamoDB request', async () => {
    const query = `{ student(id: "1") { ${'id '.repeat(2100)} } }`;
    await refused(query, /Query token limit of 2000 exceeded/);
  });
});

describe('HTTP request limits', () => {
  it('answers a refused limit over HTTP with the validation code: 200 under application/json, 400 under application/graphql-response+json', async () => {
    const url = await gw.listen();
    const { status, json } = await postGraphQL(url, { query: nested([100, 100, 100, 100]) });
    expect(status).toBe(200);
    expect(json.data).toBeUndefined();
    const strict = await postGraphQL(url, { query: nested([100, 100, 100, 100]) }, { accept: 'application/graphql-response+json' });
    expect(strict.status).toBe(400);
    expect(strict.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses a body above the configured size with 413', async () => {
    const url = await gw.listen();
    const { status, json } = await postGraphQL(url, { query: `{ student(id: "1") { id } }`, padding: 'x'.repeat(25_000) });
    expect(status).toBe(413);
    expect(json.errors[0].message).toMatch(/exceeds 20000 bytes/);
  });

  it('refuses batched requests unless configured', async () => {
    const url = await gw.listen();
    const { status } = await postGraphQL(url, [{ query: '{ student(id: "1") { id } }' }, { query: '{ course(id: "A") { id } }' }]);
    expect(status).toBe(400);
  });

  it('serves batched requests when configured', async () => {
    const batching = await testGateway({ allowBatchedRequests: true });
    try {
      await batching.put(demoItems());
      const url = await batching.listen();
      const { status, json } = await postGraphQL(url, [{ query: '{ student(id: "1") { id } }' }, { query: '{ course(id: "A") { id } }' }]);
      expect(status).toBe(200);
      expect(json).toEqual([{ data: { student: { id: '1' } } }, { data: { course: { id: 'A' } } }]);
    } finally {
      await batching.stop();
    }
  });
});
