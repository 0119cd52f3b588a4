/**
 * createHttpListener(): the node:http server with the limits that keep slow
 * and numerous clients from holding the process (docs/limits.md):
 *
 * - `headersTimeout`: a client must send its headers within this time;
 * - `requestTimeout`: …and its whole request, body included (a body
 *   trickled at a byte a second is cut off here with 408 and the connection
 *   closed, instead of holding a socket and a buffer for minutes);
 * - `keepAliveTimeout`: an idle kept-alive connection is closed after this;
 * - `maxConnections`: connections beyond this many are closed at once.
 *
 * Node checks the two request timeouts on an interval
 * (`connectionsCheckingInterval`, 30 s by default); it is set to a fraction
 * of the smaller timeout so they are enforced close to their value.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpConfig } from '../config.js';

export const DEFAULT_HTTP: HttpConfig = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
};

export function createHttpListener(handler: RequestListener, http: HttpConfig = DEFAULT_HTTP): Server {
  // Node requires headersTimeout ≤ requestTimeout.
  const headersTimeout = Math.min(http.headersTimeoutMs, http.requestTimeoutMs);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    handler,
  );
  server.maxConnections = http.maxConnections;
  return server;
}
