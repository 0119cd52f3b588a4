/** The bundle's stand-ins for dependency modules (scripts/bundleShims/) answer exactly as the modules they replace. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HeaderMap } from '@apollo/server';
import { createHash } from '../../scripts/bundleShims/createHash.js';
import { APOLLO_SERVER_VERSION, makeGatewayGraphQLRequestContext } from '../../scripts/bundleShims/makeGatewayGraphQLRequestContext.js';

const require = createRequire(import.meta.url);
const apolloDir = join(dirname(require.resolve('@apollo/server')), '../..');

/** A request context as Apollo hands it to makeGatewayGraphQLRequestContext. */
function requestContext() {
  return {
    request: { query: '{ a }', operationName: 'Q', variables: { v: 1 }, http: { method: 'POST', headers: new HeaderMap([['x-a', '1']]), search: 'b=2' } },
    response: { http: { headers: new HeaderMap([['x-r', 'r']]), status: undefined as number | undefined } },
    schema: {},
    contextValue: { ctx: true },
    queryHash: 'h',
    document: {},
    source: '{ a }',
    operationName: 'Q',
    operation: {},
    errors: undefined,
    metrics: {},
    overallCachePolicy: {},
    requestIsBatched: false,
  };
}

describe('bundle shims', () => {
  it('hash queries to the same digest as Apollo', async () => {
    const { createHash: apollos } = require('@apollo/utils.createhash');
    expect(createHash('sha256').update('{ student(id: "1") { name } }').digest('hex')).toBe(
      apollos('sha256').update('{ student(id: "1") { name } }').digest('hex'),
    );
  });

  it("give a gateway executor the same request context as Apollo's own, status written through", async () => {
    expect(require(join(apolloDir, 'package.json')).version).toBe(APOLLO_SERVER_VERSION);
    const original = await import(pathToFileURL(join(apolloDir, 'dist/esm/utils/makeGatewayGraphQLRequestContext.js')).href);
    const server = { logger: { name: 'logger' }, cache: { name: 'cache' } };
    const internals = { includeStacktraceInErrorResponses: true };
    const theirs = original.makeGatewayGraphQLRequestContext(requestContext(), server, internals);
    const rc = requestContext();
    const ours = makeGatewayGraphQLRequestContext(rc, server, internals);

    const { request: theirRequest, response: theirResponse, ...theirRest } = theirs;
    const { request: ourRequest, response: ourResponse, ...ourRest } = ours;
    expect(ourRest).toEqual(theirRest);
    expect({ ...ourRequest, http: { ...(ourRequest.http as object), headers: [...(ourRequest.http as any).headers] } }).toEqual({
      ...theirRequest,
      http: { ...theirRequest.http, headers: [...theirRequest.http.headers] },
    });
    expect([...ourResponse.http.headers]).toEqual([...theirResponse.http.headers]);
    ourResponse.http.headers.append('x-r', 's');
    expect(rc.response.http.headers.get('x-r')).toBe('r, s');
    expect(ourResponse.http.status).toBeUndefined();
    ourResponse.http.status = 418;
    expect(rc.response.http.status).toBe(418);
    expect(ourResponse.http.status).toBe(418);
  });
});
