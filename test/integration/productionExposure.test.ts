/**
 * What a production gateway shows an anonymous caller on the network:
 * `/health` is the status alone (details for an administrator's token),
 * an origin it was not told about gets no CORS grant, and the Lambda
 * handler applies MAX_BODY_BYTES as the HTTP server does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { loadConfig } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { createLambdaHandler } from '../../src/transport/lambdaHandler.js';
import { localEndpoint } from '../support/gateway.js';
import { AUDIENCE, captureLogger, startTestIssuer, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
let gateway: Gateway;
let base: string;
const tableName = `prod_${randomUUID().slice(0, 8)}`;
const env = () => ({
  NODE_ENV: 'production',
  DYNAMODB_ENDPOINT: localEndpoint(),
  TABLE_NAME: tableName,
  PORT: '0',
  HOST: '127.0.0.1',
  AUTH_MODE: 'oidc',
  AUTH_ISSUER: issuer.url,
  AUTH_AUDIENCE: AUDIENCE,
  CURSOR_SECRET: 'production-exposure-secret-0123456789abcdef',
  LOG_LEVEL: 'silent',
});

beforeAll(async () => {
  issuer = await startTestIssuer();
  gateway = await startGateway(loadConfig(env()), captureLogger().logger);
  base = gateway.url.replace(/\/graphql$/, '');
});
afterAll(async () => {
  await gateway?.stop();
  await issuer?.stop();
});

describe('/health in production', () => {
  it('tells an anonymous caller the status and nothing else', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it("tells a caller whose token is not an administrator's the status alone too", async () => {
    const res = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${await issuer.token({ student_id: 's1' })}` } });
    expect(await res.json()).toEqual({ status: 'ok' });
    const forged = await fetch(`${base}/health`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(await forged.json()).toEqual({ status: 'ok' });
  });

  it("shows an administrator the table layout and the stream processor's figures", async () => {
    const res = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${await issuer.token({ groups: ['admin'] })}` } });
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', table: { lacks: [] }, details: { stream: { mode: expect.any(String) } } });
  });
});

describe('CORS in production without CORS_ORIGINS', () => {
  it.each(['http://localhost:5173', 'http://127.0.0.1:3000', 'https://evil.example'])('grants nothing to %s', async (origin) => {
    const preflight = await fetch(gateway.url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('the Lambda handler', () => {
  const event = (body: string, isBase64Encoded = false) =>
    ({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/graphql',
      rawQueryString: '',
      headers: { 'content-type': 'application/json' },
      requestContext: {
        http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
        requestId: 'r1',
        routeKey: '$default',
        stage: '$default',
        timeEpoch: Date.now(),
      },
      body,
      isBase64Encoded,
    }) as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as LambdaContext;

  it('refuses a body over MAX_BODY_BYTES with 413 before parsing it, base64 or not', async () => {
    const lambda = createLambdaHandler(loadConfig({ ...env(), MAX_BODY_BYTES: '100000' }), { logger: captureLogger().logger, dynamo: gateway.dynamo });
    const big = JSON.stringify({ query: '{ course(id: "c1") { title } }', variables: { pad: 'x'.repeat(5_000_000) } });
    for (const e of [event(big), event(Buffer.from(big).toString('base64'), true)]) {
      const result = await lambda(e, context);
      expect(result.statusCode).toBe(413);
      expect(JSON.parse(result.body!)).toEqual({ errors: [{ message: 'Request body exceeds 100000 bytes', extensions: { code: 'BAD_REQUEST' } }] });
    }
    const small = await lambda(event(JSON.stringify({ query: '{ course(id: "c1") { title } }' })), context);
    expect(small.statusCode).toBe(200);
  });
});
