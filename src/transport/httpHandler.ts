/**
 * The HTTP transport: routes `/graphql` to Apollo, answers `/health`, and
 * applies CORS. Apollo's own CSRF prevention stays on: a browser can only
 * send JSON POSTs (which force a CORS preflight) or requests carrying an
 * `apollo-require-preflight` header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import { DEFAULTS } from '../config.js';
import type { Context } from '../graphql/context.js';
import type { Logger } from '../logger.js';
import type { HealthReport } from '../dynamo/layoutHealth.js';
import { OperationMetrics, type RequestLimits } from '../dynamo/metrics.js';
import type { Explorer } from './explorer.js';
import { checkTrustedBody, checkTrustedSearch, refusalResponse, type Refusal, type TrustedDocuments } from './trustedDocuments.js';

export interface HttpOptions {
  /** Allowed origins; `*` allows any; undefined allows any http://localhost or 127.0.0.1 origin. */
  corsOrigins: string[] | undefined;
  /** Largest request body accepted, in bytes (default: the configuration's, MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** `/health`: healthy or not, with details for the body when `details` (dynamo/layoutHealth.ts). */
  health: (details: boolean) => Promise<boolean | HealthReport>;
  /** Whether this request may see `/health`'s details (HEALTH_DETAILS=admins: an administrator's token); absent: everyone. */
  healthDetailsFor?: (req: IncomingMessage) => Promise<boolean>;
  /** Extra figures for `/health` (`details`): what the table lacks, the stream processor's progress, copies pending and stale. */
  healthDetails?: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The request's context; may throw a GraphQLError carrying an HTTP status (a bearer token that does not verify: 401). */
  context: (metrics: OperationMetrics, req: IncomingMessage) => Promise<Context>;
  /** Where failures outside GraphQL execution are logged (default: stderr). */
  logger?: Logger;
  /** Caps on each operation's DynamoDB requests (config MAX_DYNAMODB_REQUESTS / MAX_DYNAMODB_IN_FLIGHT); none when absent. */
  requestLimits?: RequestLimits;
  /** The offline explorer at /graphiql (explorer.ts): development only, absent in prod mode. */
  explorer?: Explorer;
  /** TRUSTED_DOCUMENTS: only the manifest's operations run; others are refused before parsing (trustedDocuments.ts). */
  trusted?: TrustedDocuments;
}

/** The JSON media types a POST body may have; anything else is HTTP 415. */
export const JSON_MEDIA_TYPES = new Set(['application/json', 'application/graphql-response+json']);

/**
 * The media type of a Content-Type header: lower-cased, parameters
 * (`; charset=utf-8`) dropped. Media types are case-insensitive and must
 * match exactly: `Application/JSON` is JSON, `application/jsonx` is not.
 */
export function mediaType(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence) ? essence : null;
}

/** A client that went away mid-request: nothing to answer, nothing wrong on our side. */
function clientGone(req: IncomingMessage, err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return req.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as Error)?.message === 'aborted';
}

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

function allowedOrigin(origin: string | undefined, allowed: string[] | undefined): string | null {
  if (!origin) return null;
  if (allowed === undefined) return LOCAL_ORIGIN.test(origin) ? origin : null;
  if (allowed.includes('*')) return '*';
  return allowed.includes(origin) ? origin : null;
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/**
 * A request refused before GraphQL: answered, then the connection closed.
 * Its body may be unread (413, 404, 405), and a client that reuses the
 * socket would otherwise have its next request read from the rest of it.
 */
function refuse(res: ServerResponse, status: number, body: unknown) {
  res.setHeader('connection', 'close');
  send(res, status, body);
}

const refusal = (message: string, code = 'BAD_REQUEST') => ({ errors: [{ message, extensions: { code } }] });

/**
 * The request target as a URL, or null when it is not an origin-form path
 * (`/graphql?…`) with well-formed percent-escapes (`//%zz`, `*`,
 * `http://…`): a caller's mistake, answered 400 and never logged.
 */
export function requestUrl(target: string | undefined): URL | null {
  const path = target ?? '/';
  if (!path.startsWith('/') || /%(?![0-9a-fA-F]{2})/.test(path)) return null;
  try {
    return new URL(`http://localhost${path}`);
  } catch {
    return null;
  }
}

/**
 * An unexpected failure as logged: its name, code and stack frames, not its
 * message (a parser's message may quote what the client sent).
 */
export const loggedFailure = (err: unknown) => ({
  name: (err as Error)?.name ?? typeof err,
  code: (err as NodeJS.ErrnoException)?.code ?? null,
  stack: typeof (err as Error)?.stack === 'string' ? (err as Error).stack!.split('\n').slice(1).join('\n') : null,
});

/** An operation outside the trusted documents, refused before Apollo parses anything. */
function answerRefusal(res: ServerResponse, refused: Refusal, accept: string | undefined) {
  const { status, contentType, body } = refusalResponse(refused, accept);
  res.statusCode = status;
  res.setHeader('content-type', contentType);
  res.end(body);
}

/** CORS headers for an allowed origin; the origin allowed, or null. */
function allowCors(req: IncomingMessage, res: ServerResponse, corsOrigins: string[] | undefined): string | null {
  const origin = allowedOrigin(req.headers.origin, corsOrigins);
  if (!origin) return null;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  // Credentials may not be combined with a wildcard origin.
  if (origin !== '*') res.setHeader('access-control-allow-credentials', 'true');
  // A frontend may read why its token was refused (401 answers carry it).
  res.setHeader('access-control-expose-headers', 'www-authenticate');
  return origin;
}

function answerPreflight(req: IncomingMessage, res: ServerResponse, origin: string | null): void {
  if (origin) {
    res.setHeader('access-control-allow-methods', 'GET,POST,OPTIONS');
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? 'content-type,apollo-require-preflight,authorization');
    res.setHeader('access-control-max-age', '600');
  }
  res.statusCode = 204;
  res.end();
}

async function answerHealth(req: IncomingMessage, res: ServerResponse, options: HttpOptions): Promise<void> {
  const details = options.healthDetailsFor ? await options.healthDetailsFor(req).catch(() => false) : true;
  const report = await options.health(details);
  const ok = typeof report === 'boolean' ? report : report.ok;
  const missing = typeof report !== 'boolean' && report.missing === true;
  const layout = !details || typeof report === 'boolean' || !report.table ? {} : { table: report.table };
  send(res, ok ? 200 : 503, {
    // `table-missing`: DynamoDB answers, the table is not there (docs/operations.md#start-up-failures).
    status: ok ? 'ok' : missing ? 'table-missing' : 'unavailable',
    ...layout,
    ...(details && options.healthDetails ? { details: await options.healthDetails() } : {}),
  });
}

/** The operation of a GET or POST as Apollo takes it, or null when it was refused (answered here). */
async function readOperation(req: IncomingMessage, res: ServerResponse, url: URL, options: HttpOptions, maxBodyBytes: number) {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  let body: unknown = undefined;
  if (req.method === 'POST') {
    const type = mediaType(headers.get('content-type'));
    if (type === null || !JSON_MEDIA_TYPES.has(type)) {
      refuse(res, 415, refusal('Send the operation as JSON: Content-Type: application/json'));
      return null;
    }
    const text = await readBody(req, maxBodyBytes);
    try {
      body = text.length ? JSON.parse(text) : undefined;
    } catch {
      refuse(res, 400, refusal('Request body is not valid JSON'));
      return null;
    }
  }
  let search = url.search;
  if (options.trusted) {
    const checked = req.method === 'POST' ? checkTrustedBody(options.trusted, body) : checkTrustedSearch(options.trusted, search);
    if ('refusal' in checked) {
      answerRefusal(res, checked.refusal, headers.get('accept'));
      return null;
    }
    if ('body' in checked) body = checked.body;
    else search = checked.search;
  }
  return { method: req.method!, headers, search, body };
}

async function serveGraphQL(
  apollo: ApolloServer<Context>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: HttpOptions & { maxBodyBytes: number },
) {
  const httpGraphQLRequest = await readOperation(req, res, url, options, options.maxBodyBytes);
  if (httpGraphQLRequest === null) return;
  const metrics = new OperationMetrics(options.requestLimits);
  const response = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest,
    // The address read now: after a reset it may be undefined.
    context: async () => ({ ...(await options.context(metrics, req)), clientAddress: req.socket.remoteAddress }),
  });
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
  } else {
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  }
}

function answerFailure(req: IncomingMessage, res: ServerResponse, err: unknown, options: HttpOptions & { maxBodyBytes: number }): void {
  if (err instanceof BodyTooLarge) {
    refuse(res, 413, refusal(`Request body exceeds ${options.maxBodyBytes} bytes`));
    return;
  }
  if (clientGone(req, err)) {
    // Aborted uploads and dropped connections are routine on the internet: debug, no stack.
    options.logger?.debug({ code: (err as NodeJS.ErrnoException)?.code ?? null }, 'client went away mid-request');
    if (!res.headersSent) res.destroy();
    return;
  }
  if (options.logger) options.logger.error({ error: loggedFailure(err) }, 'request failed outside GraphQL execution');
  else console.error('request failed outside GraphQL execution', loggedFailure(err));
  if (!res.headersSent) send(res, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
  else res.end();
}

export function createHttpHandler(apollo: ApolloServer<Context>, httpOptions: HttpOptions) {
  const options = { ...httpOptions, maxBodyBytes: httpOptions.maxBodyBytes ?? DEFAULTS.security.maxBodyBytes };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = requestUrl(req.url);
      if (url === null) {
        refuse(res, 400, refusal('Malformed request target: send requests to /graphql'));
        return;
      }
      const origin = allowCors(req, res, options.corsOrigins);
      if (req.method === 'OPTIONS') return answerPreflight(req, res, origin);
      if (url.pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) return await answerHealth(req, res, options);
      if (options.explorer?.handle(req, res, url.pathname)) return;
      if (url.pathname !== '/graphql' && url.pathname !== '/') {
        refuse(res, 404, refusal('Not found: the GraphQL endpoint is /graphql', 'NOT_FOUND'));
        return;
      }
      if (req.method !== 'GET' && req.method !== 'POST') {
        res.setHeader('allow', 'GET, POST');
        refuse(res, 405, refusal('Method not allowed: send GET or POST'));
        return;
      }
      await serveGraphQL(apollo, req, res, url, options);
    } catch (err) {
      answerFailure(req, res, err, options);
    }
  };
}
