/**
 * Bearer tokens over HTTP (and through the Lambda handler): every token
 * that does not verify answers HTTP 401 UNAUTHENTICATED before any
 * DynamoDB request, and the log says why without the token. The gateway
 * runs as `npm start` would with AUTH_MODE=oidc against a local issuer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { exportSPKI, importJWK, SignJWT, type CryptoKey } from 'jose';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { loadConfig } from '../../src/config.js';
import { createLambdaHandler } from '../../src/transport/lambdaHandler.js';
import { makeSigningKey, type SigningKey } from '../../src/auth/devIssuer.js';
import { courseItem, studentItem } from '../support/defaultItems.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { localEndpoint, postGraphQL } from '../support/gateway.js';
import { AUDIENCE, captureLogger, startTestIssuer, type TestIssuer } from '../support/oidc.js';

let issuer: TestIssuer;
let gateway: Gateway;
let url: string;
const log = captureLogger();
const tableName = `auth_${randomUUID().slice(0, 8)}`;
const env = () => ({
  DYNAMODB_ENDPOINT: localEndpoint(),
  TABLE_NAME: tableName,
  PORT: '0',
  HOST: '127.0.0.1',
  AUTH_MODE: 'oidc',
  AUTH_ISSUER: issuer.url,
  AUTH_AUDIENCE: AUDIENCE,
  CORS_ORIGINS: 'http://127.0.0.1:5173',
});

/** DynamoDB requests sent while `run` runs. */
async function dynamoRequests<T>(run: () => Promise<T>): Promise<{ value: T; requests: number }> {
  const doc = vi.spyOn(gateway.dynamo.doc, 'send');
  const raw = vi.spyOn(gateway.dynamo.raw, 'send');
  // Operations' reads skip both clients' send (src/dynamo/leanReads/readPath.ts).
  const reads = gateway.dynamo.reads ? vi.spyOn(gateway.dynamo.reads, 'send') : undefined;
  try {
    const value = await run();
    return { value, requests: doc.mock.calls.length + raw.mock.calls.length + (reads?.mock.calls.length ?? 0) };
  } finally {
    doc.mockRestore();
    raw.mockRestore();
    reads?.mockRestore();
  }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
/** A token with exactly these claims, signed by the issuer's key. */
const signed = (payload: Record<string, unknown>) =>
  new SignJWT(JSON.parse(JSON.stringify(payload))).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(issuer.key.privateKey);
const claims = () => ({ iss: issuer.url, aud: AUDIENCE, sub: 'x', iat: now(), exp: now() + 600, groups: ['admin'] });

let stranger: SigningKey;

beforeAll(async () => {
  issuer = await startTestIssuer();
  stranger = await makeSigningKey('k1'); // same kid, different key pair
  gateway = await startGateway(loadConfig(env()), log.logger);
  url = gateway.url;
  await batchPut(gateway.dynamo.doc, tableName, [studentItem({ id: 's1', name: 'Ada', email: 'ada@example.com' }), courseItem({ id: 'c1', title: 'Engines' })]);
});

afterAll(async () => {
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
  await issuer?.stop();
});

const QUERY = { query: '{ student(id: "s1") { name email } }' };

describe('a verified bearer token', () => {
  it('is the caller: an administrator reads an email over HTTP', async () => {
    const token = await issuer.token({ groups: ['admin'] });
    const { value, requests } = await dynamoRequests(() => postGraphQL(url, QUERY, { authorization: `Bearer ${token}` }));
    const { status, json } = value;
    expect(requests).toBe(1); // the counter below sees requests when there are some
    expect(status).toBe(200);
    expect(json).toEqual({ data: { student: { name: 'Ada', email: 'ada@example.com' } } });
  });

  it('is optional: without one the caller is anonymous and reads the catalog', async () => {
    const { status, json } = await postGraphQL(url, { query: '{ course(id: "c1") { title } student(id: "s1") { name } }' });
    expect(status).toBe(200);
    expect(json.data).toEqual({ course: { title: 'Engines' }, student: null });
    expect(json.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });
});

describe('with rules on', () => {
  it('logs the kind of caller on each operation line, never who', async () => {
    const token = await issuer.token({ student_id: 's1', customer_id: 'k9' }, { subject: 'user-4711' });
    const before = log.lines.length;
    await postGraphQL(url, QUERY, { authorization: `Bearer ${token}` });
    await postGraphQL(url, QUERY);
    const lines = log.lines.slice(before).filter((l) => l.msg === 'graphql operation');
    expect(lines.map((l) => l.caller)).toEqual(['student+customer', 'anonymous']);
    expect(log.raw.slice(before).join('\n')).not.toMatch(/user-4711|"s1"|k9/);
  });

  it('still lets anyone introspect the schema outside production (Sandbox works signed out)', async () => {
    const { status, json } = await postGraphQL(url, { query: '{ __schema { queryType { name } } __typename }' });
    expect(status).toBe(200);
    expect(json).toEqual({ data: { __schema: { queryType: { name: 'Query' } }, __typename: 'Query' } });
  });
});

describe('a token that does not verify answers 401 UNAUTHENTICATED, with no DynamoDB request, and a log line saying why', () => {
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['a bad signature (another key under the same kid)', () => issuer.token({ groups: ['admin'] }, { key: stranger }), /bad signature/],
    ['an expired token', () => issuer.token({ groups: ['admin'] }, { expiresIn: -60 }), /expired/],
    ['a token not yet valid (nbf in the future)', () => issuer.token({ groups: ['admin'], nbf: now() + 120 }), /not yet valid/],
    ['a wrong issuer', () => issuer.token({ groups: ['admin'] }, { issuer: 'https://evil.example.com' }), /wrong issuer/],
    ['a wrong audience', () => issuer.token({ groups: ['admin'] }, { audience: 'another-api' }), /wrong audience/],
    ['alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`, /algorithm not allowed/],
    [
      'an HMAC token keyed with the public key',
      async () => {
        // The classic confusion attack: the published public key used as an HMAC secret.
        const pem = await exportSPKI((await importJWK(issuer.key.publicJwk, 'ES256', { extractable: true })) as CryptoKey);
        return new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(new TextEncoder().encode(pem));
      },
      /algorithm not allowed/,
    ],
    ['an unknown key id', async () => issuer.token({ groups: ['admin'] }, { key: await makeSigningKey('k-unknown') }), /unknown signing key/],
    [
      'a header claiming RS256 for an EC key',
      async () => `${b64({ alg: 'RS256', kid: 'k1' })}.${b64(claims())}.${'A'.repeat(342)}`,
      /unknown signing key|bad signature/,
    ],
    ['a token issued a day in the future (iat)', async () => signed({ ...claims(), iat: now() + 86_400 }), /issued in the future/],
    ['a token that never expires (exp: 1e300)', async () => signed({ ...claims(), exp: 1e300 }), /lifetime longer than 86400/],
    ['a token living two days (exp − iat)', async () => signed({ ...claims(), exp: now() + 2 * 86_400 }), /lifetime longer than/],
    ['a token without iat whose exp is two days away', async () => signed({ ...claims(), iat: undefined, exp: now() + 2 * 86_400 }), /lifetime longer than/],
    [
      'a token without exp',
      () =>
        new SignJWT({ groups: ['admin'] })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer(issuer.url)
          .setAudience(AUDIENCE)
          .sign(issuer.key.privateKey),
      /exp is required/,
    ],
    ['garbage', async () => 'not-a-jwt', /malformed/],
    ['two segments', async () => 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0', /malformed/],
    ['a header that is not JSON', async () => 'bm90IGpzb24.eyJzdWIiOiJ4In0.c2ln', /malformed/],
    ['an oversized token', async () => `${'a'.repeat(9000)}.b.c`, /longer than/],
  ];

  it.each(cases)('%s', async (_, make, reason) => {
    const token = await make();
    const before = log.lines.length;
    const { value, requests } = await dynamoRequests(() => postGraphQL(url, QUERY, { authorization: `Bearer ${token}` }));
    expect(value.status).toBe(401);
    expect(value.json.data).toBeUndefined();
    expect(value.json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect(requests).toBe(0);
    const lines = log.lines.slice(before).filter((l) => l.auth === 'rejected');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.reason).toMatch(reason);
    expect(log.raw.join('\n')).not.toContain(token.slice(-20));
  });

  it("never repeats the header's alg text, in the answer or the log", async () => {
    const token = `${b64({ alg: 'ada@example.com<script>', typ: 'JWT' })}.${b64(claims())}.`;
    const before = log.raw.length;
    const { status, json } = await postGraphQL(url, QUERY, { authorization: `Bearer ${token}` });
    expect(status).toBe(401);
    expect(JSON.stringify(json)).not.toContain('ada@example.com');
    expect(log.raw.slice(before).join('\n')).not.toContain('ada@example.com');
  });

  it('a header that is not "Bearer <token>"', async () => {
    for (const authorization of ['Basic YWRhOnNlY3JldA==', 'Bearer', 'Bearer a b', 'token abc']) {
      const { value, requests } = await dynamoRequests(() => postGraphQL(url, QUERY, { authorization }));
      expect(value.status).toBe(401);
      expect(value.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(requests).toBe(0);
    }
  });

  it('says so in WWW-Authenticate, readable by a frontend on an allowed origin', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:5173', authorization: 'Bearer not-a-jwt' },
      body: JSON.stringify(QUERY),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('an unknown kid right after a key-set fetch refetches nothing (rate limited)', async () => {
    const before = issuer.served.jwks;
    for (let i = 0; i < 5; i++) {
      const token = await issuer.token({}, { key: await makeSigningKey(`made-up-${i}`) });
      expect((await postGraphQL(url, QUERY, { authorization: `Bearer ${token}` })).status).toBe(401);
    }
    expect(issuer.served.jwks).toBe(before);
  });
});

describe('CORS', () => {
  it('lets a browser on an allowed origin send Authorization (preflight)', async () => {
    for (const requested of ['authorization,content-type', undefined]) {
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://127.0.0.1:5173',
          'access-control-request-method': 'POST',
          ...(requested ? { 'access-control-request-headers': requested } : {}),
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
  });
});

describe('the Lambda handler', () => {
  const event = (authorization?: string, query = QUERY.query): APIGatewayProxyEventV2 =>
    ({
      version: '2.0',
      routeKey: 'POST /graphql',
      rawPath: '/graphql',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      requestContext: {
        http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 't' },
        requestId: 'r',
        stage: '$default',
      },
      body: JSON.stringify({ query }),
      isBase64Encoded: false,
    }) as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as LambdaContext;

  it('verifies the same way: 401 for a bad token, the rules for good and absent ones', async () => {
    const config = loadConfig({ ...env(), NODE_ENV: 'production', CURSOR_SECRET: 'lambda-test-cursor-secret-0123456789abcdef', LOG_LEVEL: 'silent' });
    const lambda = createLambdaHandler(config, { logger: captureLogger().logger, dynamo: gateway.dynamo });
    const bad = await lambda(event(`Bearer ${await issuer.token({ groups: ['admin'] }, { expiresIn: -60 })}`), context);
    expect(bad.statusCode).toBe(401);
    expect(JSON.parse(bad.body!).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const admin = await lambda(event(`Bearer ${await issuer.token({ groups: ['admin'] })}`), context);
    expect(JSON.parse(admin.body!)).toEqual({ data: { student: { name: 'Ada', email: 'ada@example.com' } } });
    const student = await lambda(event(`Bearer ${await issuer.token({ student_id: 'someone-else' })}`), context);
    expect(JSON.parse(student.body!)).toMatchObject({ data: { student: { name: 'Ada', email: null } }, errors: [{ extensions: { code: 'FORBIDDEN' } }] });
    const anonymous = await lambda(event(undefined, 'mutation { deleteStudent(id: "s1") }'), context);
    expect(JSON.parse(anonymous.body!)).toMatchObject({ data: null, errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
  });
});
