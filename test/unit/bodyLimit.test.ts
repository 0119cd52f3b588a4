/** The HTTP handler's body limit when none is passed: the configuration's default (MAX_BODY_BYTES). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, loadConfig } from '../../src/config.js';
import type { Context } from '../../src/graphql/context.js';
import { createHttpHandler } from '../../src/transport/httpHandler.js';

/** Stands in for Apollo: answers every request that gets past the handler with 200. */
const apollo = {
  executeHTTPGraphQLRequest: async () => ({
    status: 200,
    headers: new HeaderMap([['content-type', 'application/json']]),
    body: { kind: 'complete', string: '{"data":{}}' },
  }),
} as unknown as ApolloServer<Context>;

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer(
    createHttpHandler(apollo, {
      corsOrigins: undefined,
      health: async () => true,
      context: async () => {
        throw new Error('not used');
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A JSON body of exactly `bytes` bytes. */
function bodyOf(bytes: number): string {
  const frame = JSON.stringify({ query: '{ __typename }', padding: '' });
  return JSON.stringify({ query: '{ __typename }', padding: 'x'.repeat(bytes - frame.length) });
}

const post = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('HTTP body limit default', () => {
  it('is the configuration default of 100000 bytes', () => {
    expect(DEFAULTS.security.maxBodyBytes).toBe(100_000);
    expect(loadConfig({}).security.maxBodyBytes).toBe(DEFAULTS.security.maxBodyBytes);
  });

  it('accepts a body of exactly the default limit', async () => {
    const body = bodyOf(DEFAULTS.security.maxBodyBytes);
    expect(Buffer.byteLength(body)).toBe(100_000);
    expect((await post(body)).status).toBe(200);
  });

  it('refuses a body one byte above the default limit with 413', async () => {
    const res = await post(bodyOf(DEFAULTS.security.maxBodyBytes + 1));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { errors: { message: string }[] }).errors[0].message).toBe('Request body exceeds 100000 bytes');
  });
});
