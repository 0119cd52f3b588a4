import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { getIntrospectionQuery } from 'graphql';
import { demoItems } from '../support/demoData.js';
import { studentKey } from '../support/defaultItems.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let prod: TestGateway;
let dev: TestGateway;
const logLines: any[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  [prod, dev] = await Promise.all([testGateway({ production: true, logger }), testGateway()]);
  // A student item written by another program without its required name: reading it is an internal error.
  const broken = { ...studentKey('broken'), email: 'x@example.com' };
  await Promise.all([prod.put([...demoItems(), broken]), dev.put([...demoItems(), broken])]);
});
afterAll(async () => {
  await prod.stop();
  await dev.stop();
});

describe('production mode', () => {
  it('gives no field suggestions, where development does', async () => {
    const query = '{ student(id: "1") { nme } }';
    const devResult = await dev.run(query);
    expect(devResult.errors![0].message).toMatch(/Did you mean "name"/);
    const prodResult = await prod.run(query);
    expect(codes(prodResult)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(prodResult.errors![0].message).not.toMatch(/Did you mean/);
    expect(prodResult.errors![0].message).not.toMatch(/"name"/);
    // The guess is replaced, the rest of graphql-js's message kept.
    expect(prodResult.errors![0].message).toBe('Cannot query field "nme" on type "Student". [Suggestion hidden]');
  });

  it('lets development answer the full introspection query Apollo Sandbox sends, within the query limits', async () => {
    const result = await dev.run(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(result.errors).toBeUndefined();
    expect(result.data.__schema.queryType.name).toBe('Query');
  });

  it('refuses introspection, where development allows it', async () => {
    const query = '{ __schema { queryType { name } } }';
    expect((await dev.run(query)).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const { result, requests } = await prod.counted(query);
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.errors![0].message).toMatch(/introspection/i);
    expect(requests.requests).toBe(0);
  });

  it('masks an internal error as INTERNAL_SERVER_ERROR with a requestId that the server log holds with the real error', async () => {
    const result = await prod.run('{ student(id: "broken") { id name } }');
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors!;
    expect(error.message).toBe('Internal server error');
    expect(error.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const logged = logLines.find((l) => l.requestId === error.extensions!.requestId && l.msg === 'operation error');
    expect(logged).toMatchObject({ level: 50, code: 'INTERNAL_SERVER_ERROR', path: 'student.name' });
    expect(logged.error.message).toMatch(/stored item lacks name/);
  });

  it('shows the real message and where it was thrown in development', async () => {
    const result = await dev.run('{ student(id: "broken") { id name } }');
    expect(result.errors![0].message).toMatch(/stored item lacks name/);
    expect(result.errors![0].extensions).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', location: expect.stringMatching(/^src\/.+\.ts:\d+$/) });
    expect(result.errors![0].extensions).not.toHaveProperty('stacktrace');
  });

  it('keeps caller mistakes readable and out of the error log', async () => {
    const before = logLines.filter((l) => l.level >= 40).length;
    const result = await prod.run('{ student(id: "a#b") { id } }');
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors![0].message).toMatch(/must not contain "#"/);
    expect(result.errors![0].extensions).not.toHaveProperty('stacktrace');
    expect(logLines.filter((l) => l.level >= 40).length).toBe(before);
  });

  it('serves no landing page, where development serves Apollo Sandbox', async () => {
    const get = async (url: string) => {
      const response = await fetch(url, { headers: { accept: 'text/html' } });
      return { status: response.status, body: await response.text() };
    };
    const devPage = await get(await dev.listen());
    expect(devPage.status).toBe(200);
    expect(devPage.body).toMatch(/sandbox/i);
    const prodPage = await get(await prod.listen());
    expect(prodPage.status).toBe(400);
    expect(prodPage.body).not.toMatch(/sandbox|<html/i);
  });
});
