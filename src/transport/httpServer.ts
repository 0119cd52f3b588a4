/**
 * createHttpListener(): the node:http server with the limits that keep slow
 * and numerous clients from holding the process (docs/limits.md): header
 * and request timeouts (a body trickled a byte a second is cut off with
 * 408), an idle keep-alive timeout, `maxConnections`, and
 * `maxWaitingPerAddress`: one address may hold at most that many
 * connections *waiting* (no complete request yet, or idle between
 * requests), so one client that opens sockets and never finishes a request
 * cannot take every other client's slots (0: off, for a load balancer).
 *
 * A connection upgraded to a WebSocket leaves both counts
 * (`releaseUpgraded`): WebSockets have a budget of their own, and Node's
 * `server.maxConnections` would count a socket open for hours. The timeout
 * check interval is a fraction of the smaller timeout, so timeouts hold
 * close to their value.
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
