/**
 * The gateway over HTTP on 127.0.0.1 against DynamoDB Local: /graphql,
 * /health, CORS, CSRF prevention, the Sandbox landing page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint } from '../support/gateway.js';

let gateway: Gateway;
let base: string;
const tableName = `http_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const config = loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), TABLE_NAME: tableName, PORT: '0', HOST: '127.0.0.1' });
  gateway = await startGateway(config, silentLogger);
  base = gateway.url.replace(/\/graphql$/, '');
});
afterAll(async () => {
  await gateway.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway.stop();
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('start-up on a configured endpoint', () => {
  it('creates the missing table and loads no demo data there', async () => {
    const res = await post({ query: '{ student(id: "1") { name } }' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { student: null } });
  });
});

describe('GET /health', () => {
  it('answers 200 while the table is reachable, with what its layout lacks', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    const body: any = await res.json();
    // The table was created by this gateway: its items are at the current layout.
    expect(body).toMatchObject({
      status: 'ok',
      table: { needsMigration: false, itemsLayoutVersion: 2 },
      details: { table: { lacks: [] }, stream: { mode: 'stream' } },
    });
  });
});

describe('/graphql', () => {
  it('answers a JSON POST', async () => {
    const res = await post({ query: '{ course(id: "x") { id } }' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('refuses bad arguments with BAD_USER_INPUT, not a 5xx (HTTP 200 under application/json, as the GraphQL-over-HTTP spec asks)', async () => {
    const res = await post({ query: '{ student(id: "a#b") { id } }' });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('blocks a simple cross-site GET without a preflight header (CSRF prevention)', async () => {
    const res = await fetch(`${base}/graphql?query=${encodeURIComponent('{ student(id: "1") { id } }')}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/CSRF/i);
  });

  it('serves the Sandbox landing page to a browser in development', async () => {
    const res = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/sandbox/i);
  });

  it('answers 404 for other paths', async () => {
    const res = await fetch(`${base}/nowhere`);
    expect(res.status).toBe(404);
  });
});

describe('CORS', () => {
  it('lets a frontend on another local port call the API', async () => {
    const preflight = await fetch(`${base}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const res = await post({ query: '{ student(id: "1") { id } }' }, { origin: 'http://localhost:5173' });
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('does not grant an unknown remote origin', async () => {
    const res = await post({ query: '{ student(id: "1") { id } }' }, { origin: 'https://evil.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
