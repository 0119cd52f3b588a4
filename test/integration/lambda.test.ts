import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { loadConfig } from '../../src/config.js';
import { createLambdaHandler, handler, type ApiGatewayHandler } from '../../src/transport/lambdaHandler.js';
import { tableExists } from '../../src/dynamo/table.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';

/** An API Gateway HTTP API (payload format 2.0) event. */
function apiEvent(
  method: string,
  path: string,
  { body, headers = {}, base64 = false, query = '' }: { body?: string; headers?: Record<string, string>; base64?: boolean; query?: string } = {},
): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: query,
    headers: { host: 'abc123.execute-api.eu-west-1.amazonaws.com', ...headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'test' },
      requestId: 'apigw-request',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '29/Nov/2026:12:00:00 +0000',
      timeEpoch: 1795000000000,
    },
    body: body === undefined ? undefined : base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: base64,
  };
}

const graphqlEvent = (query: string, variables?: Record<string, unknown>, options: { base64?: boolean } = {}) =>
  apiEvent('POST', '/graphql', {
    body: JSON.stringify({ query, variables }),
    headers: { 'content-type': 'application/json' },
    ...options,
  });

let invocation = 0;
const lambdaContext = (): LambdaContext =>
  ({ awsRequestId: `aws-req-${++invocation}`, functionName: 'gateway', getRemainingTimeInMillis: () => 10_000 }) as LambdaContext;

const logLines: Array<Record<string, any>> = [];
const logger = pino(
  { level: 'info', base: undefined },
  new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  }),
);

let gw: TestGateway;
let lambda: ApiGatewayHandler;
// Production mode as deployed (infra/lambda.yaml); CURSOR_SECRET for when production requires a cursor key.
const env = () => ({
  DYNAMODB_ENDPOINT: localEndpoint(),
  TABLE_NAME: gw.tableName,
  NODE_ENV: 'production',
  AUTH_MODE: 'off',
  LOG_LEVEL: 'silent',
  CURSOR_SECRET: 'lambda-test-cursor-secret-0123456789abcdef',
});

beforeAll(async () => {
  gw = await testGateway();
  await gw.put([
    studentItem({ id: 's1', name: 'Ada', courseCount: 1 }),
    courseItem({ id: 'c1', title: 'Engines', studentCount: 1 }),
    enrollmentItem({ studentId: 's1', courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Engines', studentName: 'Ada' }),
  ]);
  lambda = createLambdaHandler(loadConfig(env()), { logger });
});
afterAll(() => gw.stop());

const parse = (result: { body?: string }) => JSON.parse(result.body ?? 'null');

describe('Lambda handler (API Gateway HTTP API v2 events)', () => {
  it('answers a POST /graphql with the data from the configured table', async () => {
    const result = await lambda(
      graphqlEvent(`query StudentCourses($id: ID!) { student(id: $id) { name courses { totalCount edges { node { title } } } } }`, { id: 's1' }),
      lambdaContext(),
    );
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/^application\/json/);
    expect(parse(result)).toEqual({
      data: { student: { name: 'Ada', courses: { totalCount: 1, edges: [{ node: { title: 'Engines' } }] } } },
    });
  });

  it('accepts a base64-encoded body', async () => {
    const result = await lambda(graphqlEvent(`{ course(id: "c1") { title } }`, undefined, { base64: true }), lambdaContext());
    expect(parse(result)).toEqual({ data: { course: { title: 'Engines' } } });
  });

  it('answers GET /graphql?query=… like the HTTP server', async () => {
    const query = new URLSearchParams({ query: '{ course(id: "c1") { title } }' }).toString();
    const result = await lambda(apiEvent('GET', '/graphql', { query, headers: { 'apollo-require-preflight': 'true' } }), lambdaContext());
    expect(parse(result)).toEqual({ data: { course: { title: 'Engines' } } });
  });

  it('logs one operation line per invocation under Lambda’s request id with its DynamoDB requests', async () => {
    const context = lambdaContext();
    await lambda(graphqlEvent(`query One { student(id: "s1") { name } }`), context);
    const line = logLines.find((l) => l.requestId === context.awsRequestId && l.msg === 'graphql operation');
    expect(line).toMatchObject({ operationName: 'One', dynamodb: { requests: 1, byOperation: { GetItem: 1 } }, errorCodes: [] });
  });

  it('makes fresh loaders for every invocation, so a changed item is read anew', async () => {
    const query = `{ course(id: "c1") { title } }`;
    expect(parse(await lambda(graphqlEvent(query), lambdaContext())).data.course.title).toBe('Engines');
    await gw.put([courseItem({ id: 'c1', title: 'Analytical Engines', studentCount: 1 })]);
    expect(parse(await lambda(graphqlEvent(query), lambdaContext())).data.course.title).toBe('Analytical Engines');
    await gw.put([courseItem({ id: 'c1', title: 'Engines', studentCount: 1 })]);
  });

  it('answers an invalid id with a BAD_USER_INPUT GraphQL error', async () => {
    const result = await lambda(graphqlEvent(`{ student(id: "a#b") { name } }`), lambdaContext());
    // Arguments are checked before execution (argumentCheck.ts): no data; HTTP 200 under application/json.
    expect(result.statusCode).toBe(200);
    expect(parse(result).data).toBeUndefined();
    expect(parse(result).errors.map((e: any) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('answers a document that does not parse with GRAPHQL_PARSE_FAILED: 200 under application/json, 400 under application/graphql-response+json', async () => {
    const result = await lambda(graphqlEvent(`{ student(id: "s1") { name }`), lambdaContext());
    expect(result.statusCode).toBe(200);
    const strictEvent = graphqlEvent(`{ student(id: "s1") { name }`);
    strictEvent.headers = { ...strictEvent.headers, accept: 'application/graphql-response+json' };
    const strict = await lambda(strictEvent, lambdaContext());
    expect(strict.statusCode).toBe(400);
    expect(parse(strict).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(parse(result).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('answers a body that is not JSON with 400 and a GraphQL-shaped BAD_REQUEST error', async () => {
    const result = await lambda(apiEvent('POST', '/graphql', { body: '{"query": ', headers: { 'content-type': 'application/json' } }), lambdaContext());
    expect(result.statusCode).toBe(400);
    expect(parse(result)).toEqual({ errors: [{ message: 'Request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('keeps introspection off in production', async () => {
    const result = await lambda(graphqlEvent(`{ __schema { types { name } } }`), lambdaContext());
    expect(parse(result).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers GET /health with 200 when the table is reachable and 503 when it is not', async () => {
    expect((await lambda(apiEvent('GET', '/health'), lambdaContext())).statusCode).toBe(200);
    const missing = createLambdaHandler(loadConfig({ ...env(), TABLE_NAME: 'no_such_table' }), { logger });
    const result = await missing(apiEvent('GET', '/health'), lambdaContext());
    expect(result.statusCode).toBe(503);
    expect(parse(result)).toEqual({ status: 'unavailable' });
  });

  it('reports a missing table as UNAVAILABLE rather than creating it', async () => {
    const missing = createLambdaHandler(loadConfig({ ...env(), TABLE_NAME: 'no_such_table' }), { logger });
    const result = await missing(graphqlEvent(`{ student(id: "s1") { name } }`), lambdaContext());
    expect(parse(result).errors[0].extensions.code).toBe('UNAVAILABLE');
    expect(await tableExists(gw.dynamo.raw, 'no_such_table')).toBe(false);
  });
});

describe('exported handler', () => {
  it('configures itself from the environment on first use and reuses that server', async () => {
    for (const [key, value] of Object.entries(env())) vi.stubEnv(key, value);
    try {
      const first = await handler(graphqlEvent(`{ student(id: "s1") { name } }`), lambdaContext());
      expect(parse(first)).toEqual({ data: { student: { name: 'Ada' } } });
      vi.stubEnv('TABLE_NAME', 'changed_after_start');
      const second = await handler(graphqlEvent(`{ student(id: "s1") { name } }`), lambdaContext());
      expect(parse(second)).toEqual({ data: { student: { name: 'Ada' } } });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
