import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { demoItems } from '../support/demoData.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';

const lines: Record<string, any>[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  }),
);

let gw: TestGateway;
let url: string;
beforeAll(async () => {
  gw = await testGateway({ production: true, logger });
  await gw.put(demoItems());
  url = await gw.listen();
});
afterAll(() => gw.stop());

/**
 * A refusal of the caller's operation: never a 5xx, logged without a stack. Under
 * application/json (no Accept header) a well-formed request is answered 200 with the
 * code, as the GraphQL-over-HTTP spec asks; under application/graphql-response+json
 * the same refusal is a 4xx.
 */
async function expectClientFault(body: unknown, code = 'BAD_USER_INPUT', strictStatus: 'client-error' | 200 = 'client-error') {
  lines.length = 0;
  const { status, json } = await postGraphQL(url, body);
  expect(status).toBe(200);
  expect(json.errors.map((e: any) => e.extensions.code)).toEqual([code]);
  const strict = await postGraphQL(url, body, { accept: 'application/graphql-response+json' });
  const statusClass = (s: number) => (s >= 400 && s < 500 ? 'client-error' : s);
  expect(statusClass(strict.status)).toBe(strictStatus);
  expect(strict.json.errors.map((e: any) => e.extensions.code)).toEqual([code]);
  // Logged at info or below, never with a stack.
  expect(lines.filter((l) => l.level > 30)).toEqual([]);
  expect(JSON.stringify(lines)).not.toContain('stack');
  return json;
}

describe("errors that are the caller's fault are never 5xx", () => {
  it('refuses variables nested 5,000 deep', async () => {
    // Written out as text: JSON.stringify itself would overflow the stack on this.
    const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
    const query = JSON.stringify('query($id: ID!) { student(id: $id) { name } }');
    await expectClientFault(`{"query":${query},"variables":{"id":${deep}}}`);
    await expectClientFault(`{"query":${query},"variables":{"id":"1","junk":${deep}}}`);
  });

  it('refuses variables the operation does not declare', async () => {
    const json = await expectClientFault({ query: '{ student(id: "1") { name } }', variables: { blob: 'x'.repeat(50_000) } });
    expect(json.errors[0].message).toBe('Variables not declared by the operation: $blob');
  });

  it('refuses an order total beyond what DynamoDB stores exactly, and writes nothing', async () => {
    const before = (await gw.scan()).length;
    await expectClientFault({ query: 'mutation { placeOrder(customerId: "1", input: { total: 1e17 }) { id } }' });
    await expectClientFault({ query: 'mutation($t: Float!) { placeOrder(customerId: "1", input: { total: $t }) { id } }', variables: { t: 2 ** 53 } });
    expect((await gw.scan()).length).toBe(before);
  });

  it('refuses a persisted query whose hash does not match its text, or an unknown version', async () => {
    const query = '{ student(id: "1") { name } }';
    const wrong = createHash('sha256').update('something else').digest('hex');
    await expectClientFault({ query, extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } });
    await expectClientFault({ query, extensions: { persistedQuery: { version: 2, sha256Hash: wrong } } });
    // The protocol's normal first step (the client then sends the text): Apollo answers it with 200 under either media type.
    await expectClientFault({ extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } }, 'PERSISTED_QUERY_NOT_FOUND', 200);
  });

  it('refuses ids that are not well-formed Unicode: lone surrogates would collide in DynamoDB', async () => {
    await expectClientFault({ query: 'query($id: ID!) { student(id: $id) { name } }', variables: { id: 'x\ud800' } });
    await expectClientFault({ query: 'mutation($id: ID) { createStudent(input: { id: $id, name: "a" }) { id } }', variables: { id: 'y\udbff' } });
    await expectClientFault({ query: 'mutation($id: ID) { createStudent(input: { id: $id, name: "a" }) { id } }', variables: { id: '\udc00z' } });
    expect((await gw.run('{ student(id: "1") { name } }')).data.student.name).toBeTruthy();
  });
});

describe('logs carry no client text', () => {
  it('logs the operation name only when the document defines it, truncated; otherwise a placeholder', async () => {
    lines.length = 0;
    await postGraphQL(url, { query: 'query Lookup { student(id: "1") { name } }', operationName: 'Lookup' });
    await postGraphQL(url, { query: 'query Lookup { student(id: "1") { name } }', operationName: `ada@example.com${'x'.repeat(90_000)}` });
    const long = `Q${'x'.repeat(500)}`;
    await postGraphQL(url, { query: `query ${long} { student(id: "1") { name } }` });
    const names = lines.filter((l) => l.msg === 'graphql operation').map((l) => l.operationName);
    expect(names[0]).toBe('Lookup');
    expect(names[1]).toBe('(unknown operation)');
    expect(names[2]).toBe(`${long.slice(0, 64)}…`);
    expect(JSON.stringify(lines)).not.toContain('ada@example.com');
  });
});
