/**
 * Stands in for @apollo/server's internal `utils/makeGatewayGraphQLRequestContext.js`
 * in bundles (scripts/bundle.ts), for the Apollo Server version named in
 * APOLLO_SERVER_VERSION: the same function, returning the same values,
 * except that `response.http.status` is a getter/setter of a class instead
 * of an object literal's.
 *
 * Why: Apollo calls this for every operation it hands to a gateway executor
 * (ours: graphql-jit, src/graphql/jitExecutor.ts). An object literal with
 * `get status()`/`set status()` gets a hidden class of its own on every call,
 * made in V8's old generation and holding the accessors' closures, which hold
 * the whole request context (our context, its loaders and their items, the
 * response). Young-generation collections count those as live until the
 * next full collection, so every request's objects were copied and promoted:
 * scavenges of 10–60 ms instead of under 1 ms, the largest single cost of
 * the GraphQL layer.
 */
import type { HeaderMap } from '@apollo/server';

/** The Apollo Server release this copy was made from (the bundle refuses another one). */
export const APOLLO_SERVER_VERSION = '5.5.1';

interface HttpHead {
  headers: HeaderMap;
  status?: number;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function makeGatewayGraphQLRequestContext(newRequestContext: any, server: any, internals: any) {
  const request: Record<string, unknown> = {};
  if ('query' in newRequestContext.request) {
    request.query = newRequestContext.request.query;
  }
  if ('operationName' in newRequestContext.request) {
    request.operationName = newRequestContext.request.operationName;
  }
  if ('variables' in newRequestContext.request) {
    request.variables = newRequestContext.request.variables;
  }
  if ('extensions' in newRequestContext.request) {
    request.extensions = newRequestContext.request.extensions;
  }
  if (newRequestContext.request.http) {
    const newHttp = newRequestContext.request.http;
    const needQuestion = newHttp.search !== '' && !newHttp.search.startsWith('?');
    request.http = {
      method: newHttp.method,
      url: `https://unknown-url.invalid/${needQuestion ? '?' : ''}${newHttp.search}`,
      headers: new FetcherHeadersForHeaderMap(newHttp.headers),
    };
  }
  const response = { http: new GatewayResponseHttp(newRequestContext.response.http) };
  return {
    request,
    response,
    logger: server.logger,
    schema: newRequestContext.schema,
    schemaHash: 'schemaHash no longer exists since Apollo Server 4',
    context: newRequestContext.contextValue,
    cache: server.cache,
    queryHash: newRequestContext.queryHash,
    document: newRequestContext.document,
    source: newRequestContext.source,
    operationName: newRequestContext.operationName,
    operation: newRequestContext.operation,
    errors: newRequestContext.errors,
    metrics: newRequestContext.metrics,
    debug: internals.includeStacktraceInErrorResponses,
    overallCachePolicy: newRequestContext.overallCachePolicy,
    requestIsBatched: newRequestContext.requestIsBatched,
  };
}

/** `headers` and `status` of the response, written through to Apollo's own. */
class GatewayResponseHttp {
  readonly headers: FetcherHeadersForHeaderMap;
  readonly #http: HttpHead;

  constructor(http: HttpHead) {
    this.#http = http;
    this.headers = new FetcherHeadersForHeaderMap(http.headers);
  }

  get status(): number | undefined {
    return this.#http.status;
  }

  set status(newStatus: number | undefined) {
    this.#http.status = newStatus;
  }
}

class FetcherHeadersForHeaderMap {
  constructor(private map: HeaderMap) {}
  append(name: string, value: string) {
    if (this.map.has(name)) {
      this.map.set(name, this.map.get(name) + ', ' + value);
    } else {
      this.map.set(name, value);
    }
  }
  delete(name: string) {
    this.map.delete(name);
  }
  get(name: string): string | null {
    return this.map.get(name) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name);
  }
  set(name: string, value: string) {
    this.map.set(name, value);
  }
  entries() {
    return this.map.entries();
  }
  keys() {
    return this.map.keys();
  }
  values() {
    return this.map.values();
  }
  [Symbol.iterator]() {
    return this.map.entries();
  }
}
