/**
 * createHttpListener(): the node:http server with the limits that keep slow
 * and numerous clients from holding the process (docs/limits.md):
 *
 * - `headersTimeout`: a client must send its headers within this time;
 * - `requestTimeout`: …and its whole request, body included (a body
 *   trickled at a byte a second is cut off here with 408 and the connection
 *   closed, instead of holding a socket and a buffer for minutes);
 * - `keepAliveTimeout`: an idle kept-alive connection is closed after this;
 * - `maxConnections`: HTTP connections beyond this many are closed at once;
 * - `maxWaitingPerAddress`: one client address may hold at most this many
 *   connections that are *waiting*: not yet delivered a complete request
 *   (headers and body), or idle between requests. A connection is not
 *   waiting while its request is served. Beyond the budget a new connection
 *   from that address is closed at once, and a kept-alive one is closed
 *   after its response, so one client that opens sockets and never finishes
 *   a request cannot take the connection slots every other client needs.
 *   0 turns the budget off (behind a load balancer every connection comes
 *   from its few addresses: docs/security.md).
 *
 * A connection upgraded to a WebSocket leaves both counts
 * (`releaseUpgraded`, called by the subscription server): WebSockets have
 * a budget of their own (transport/subscriptionServer.ts), and a socket
 * open for hours is not a connection waiting for its request. Node's own
 * `server.maxConnections` would count it for its whole life.
 *
 * Node checks the two request timeouts on an interval
 * (`connectionsCheckingInterval`, 30 s by default); it is set to a fraction
 * of the smaller timeout so they are enforced close to their value.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HttpConfig } from '../config.js';

export const DEFAULT_HTTP: HttpConfig = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
  maxWaitingPerAddress: 100,
};

/** Waiting connections per client address; a socket is counted at most once. */
class WaitingBudget {
  private readonly waiting = new Map<string, number>();
  private readonly counted = new WeakSet<Socket>();
  constructor(private readonly limit: number) {}

  /** Counts the socket as waiting; false when its address is already at the budget. */
  take(socket: Socket): boolean {
    if (this.counted.has(socket)) return true;
    const address = socket.remoteAddress ?? '';
    const n = this.waiting.get(address) ?? 0;
    if (n >= this.limit) return false;
    this.waiting.set(address, n + 1);
    this.counted.add(socket);
    return true;
  }

  give(socket: Socket): void {
    if (!this.counted.delete(socket)) return;
    const address = socket.remoteAddress ?? '';
    const n = (this.waiting.get(address) ?? 1) - 1;
    if (n > 0) this.waiting.set(address, n);
    else this.waiting.delete(address);
  }

  /** Addresses with waiting connections (tests). */
  get size(): number {
    return this.waiting.size;
  }
}

/** Per server: takes an upgraded connection out of the HTTP counts. */
const upgrades = new WeakMap<Server, (socket: Duplex) => void>();

/** The connection of an upgrade request leaves HTTP's counts (open and waiting): it is a WebSocket's now. */
export function releaseUpgraded(server: Server, socket: Duplex): void {
  upgrades.get(server)?.(socket);
}

export function createHttpListener(handler: RequestListener, http: HttpConfig = DEFAULT_HTTP): Server {
  // Node requires headersTimeout ≤ requestTimeout.
  const headersTimeout = Math.min(http.headersTimeoutMs, http.requestTimeoutMs);
  const budget = http.maxWaitingPerAddress > 0 ? new WaitingBudget(http.maxWaitingPerAddress) : null;
  const served: RequestListener = budget === null ? handler : (req, res) => serve(budget, handler, req, res);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    served,
  );
  let open = 0;
  const counted = new WeakSet<Duplex>();
  server.on('connection', (socket: Socket) => {
    // The remote address is read once here: after a reset it may be undefined.
    if (open >= http.maxConnections || (budget && !budget.take(socket))) {
      socket.destroy();
      return;
    }
    open++;
    counted.add(socket);
    socket.once('close', () => {
      if (!counted.delete(socket)) return;
      open--;
      budget?.give(socket);
    });
  });
  upgrades.set(server, (socket) => {
    if (!counted.delete(socket)) return;
    open--;
    budget?.give(socket as Socket);
  });
  return server;
}

/** A request whose headers arrived: it stops waiting once its body has (at once when it has none). */
function serve(budget: WaitingBudget, handler: RequestListener, req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody) req.once('end', () => budget.give(socket));
  else budget.give(socket);
  res.once('finish', () => {
    if (socket.destroyed) return;
    // Idle and kept alive: waiting again; over the budget it is closed (the client opens another).
    if (!budget.take(socket)) socket.end();
  });
  return void handler(req, res);
}
