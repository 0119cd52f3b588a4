/**
 * attachSubscriptions(): the graphql-ws protocol (`graphql-transport-ws`)
 * on the gateway's own HTTP server and path, for Apollo Client, urql and
 * Relay. graphql-ws's protocol machine (`makeServer`) runs over `ws`
 * sockets wired here, so that the limits sit where the bytes are: who may
 * connect (the HTTP authenticator, token expiry closes the socket), how
 * many sockets and subscriptions, message and document sizes, slow
 * consumers (closed, never buffered without bound), keep-alive. Each limit
 * and its close code: docs/subscriptions.md. Parsing, selection limits,
 * rules and events are the subscription engine's (graphql/subscriptionEngine.ts).
 * `details()` counts open sockets and subscriptions for `/health`.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { decodeJwt } from 'jose';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  CloseCode,
  GRAPHQL_TRANSPORT_WS_PROTOCOL,
  makeServer,
  type Context,
  type ExecutionResult,
  type Server as Protocol,
  type WebSocket as ProtocolSocket,
} from 'graphql-ws';
import { GraphQLError } from 'graphql';
import type { SubscriptionConfig } from '../config.js';
import type { Identity } from '../auth/identity.js';
import { ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Prepared, SubscribePayload, SubscriptionEngine } from '../graphql/subscriptionEngine.js';
import { SocketBudget } from '../graphql/socketBudget.js';
import { releaseUpgraded } from './httpServer.js';
import type { CallerBuckets } from '../graphql/plugins/callerBudget.js';
import { checkTrusted, type TrustedDocuments } from './trustedDocuments.js';

export interface SubscriptionServerOptions {
  engine: SubscriptionEngine;
  /** The Authorization value → identity; throws a GraphQLError (UNAUTHENTICATED / UNAVAILABLE) when it does not verify. */
  identify: (authorization: string | undefined) => Promise<Identity>;
  /** Tokens are verified (AUTH_MODE=oidc): a socket closes when its token expires. */
  verifiesTokens: boolean;
  limits: Omit<SubscriptionConfig, 'redisUrl'> & { maxMessageBytes: number };
  logger: Logger;
  /** The per-caller buckets of DynamoDB requests, shared with HTTP (plugins/callerBudget.ts). */
  callers?: CallerBuckets;
  /** TRUSTED_DOCUMENTS: only the manifest's operations are subscribed, others refused before parsing. */
  trusted?: TrustedDocuments;
  /** Keep-alive ping interval (default 12 s). */
  keepAliveMs?: number;
}

export interface SubscriptionServer {
  details(): { connections: number; slowConsumersClosed: number; refusedConnections: number };
  close(): Promise<void>;
}

interface Extra {
  socket: WebSocket;
  /** The client's address, read at the upgrade. */
  address: string;
  budget: SocketBudget;
  identity: Identity;
  expiry: NodeJS.Timeout | undefined;
}

/** The `exp` of a verified bearer token (AUTH_MODE=off verifies nothing: then anything may come, and nothing expires). */
function expiryOf(authorization: string | undefined): number | undefined {
  const token = authorization?.replace(/^Bearer +/i, '').trim();
  if (!token) return undefined;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

interface Started {
  prepared: Prepared;
  extra: Extra;
}

const SLOW_CONSUMER = 1008;
const TRY_AGAIN_LATER = 1013;
const PATHS = new Set(['/graphql', '/']);

/** Sockets open and refused, and slow consumers closed: `/health`'s figures, and the budget of new sockets. */
interface Counts {
  connections: number;
  /** Open sockets per client address (only with a per-address budget). */
  perAddress: Map<string, number>;
  slowConsumersClosed: number;
  refusedConnections: number;
}

type ProtocolContext = Context<Record<string, unknown> | undefined, Extra>;

function closeSlow(counts: Counts, logger: Logger, socket: WebSocket, why: string): void {
  if (socket.readyState !== socket.OPEN && socket.readyState !== socket.CONNECTING) return;
  counts.slowConsumersClosed++;
  logger.warn({ why }, 'closing a slow subscription consumer');
  socket.close(SLOW_CONSUMER, `Slow consumer: ${why}`);
  // Its close frame waits behind what it does not read: the socket goes now.
  socket.terminate();
}

/** `connection_init`: the caller's identity from its payload, and a timer that closes the socket when its token expires. */
async function onConnect(o: SubscriptionServerOptions, ctx: ProtocolContext): Promise<boolean> {
  const raw = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
  const authorization = typeof raw === 'string' ? raw : undefined;
  try {
    ctx.extra.identity = await o.identify(authorization);
  } catch (err) {
    if ((err as GraphQLError)?.extensions?.code === ErrorCode.UNAVAILABLE) {
      ctx.extra.socket.close(TRY_AGAIN_LATER, 'Try again later: cannot verify tokens right now');
    }
    return false; // 4403 Forbidden
  }
  ctx.extra.budget.callerIs(o.callers, { identity: ctx.extra.identity, clientAddress: ctx.extra.address });
  // The client may have left while its token was verified: nothing to arm then.
  if (ctx.extra.socket.readyState !== ctx.extra.socket.OPEN) return false;
  const exp = o.verifiesTokens ? expiryOf(authorization) : undefined;
  if (typeof exp === 'number') armExpiry(ctx.extra, exp);
  return true;
}

function armExpiry(extra: Extra, exp: number): void {
  const socket = extra.socket;
  // setTimeout holds at most 2^31-1 ms; a longer-lived token is re-armed on the way.
  const arm = () => {
    const left = exp * 1000 - Date.now();
    extra.expiry = setTimeout(
      () => (left > 2 ** 31 - 1 ? arm() : socket.close(CloseCode.Forbidden, 'Forbidden: the token expired')),
      Math.min(Math.max(0, left), 2 ** 31 - 1),
    );
  };
  arm();
}

/** `subscribe`: refusals as errors, or the execution arguments graphql-ws hands to `subscribe`. */
async function onSubscribe(o: SubscriptionServerOptions, ctx: ProtocolContext, payload: unknown) {
  const { engine, limits, logger } = o;
  // The new id is already counted in ctx.subscriptions.
  if (Object.keys(ctx.subscriptions).length > limits.perConnection) {
    return [
      new GraphQLError(`At most ${limits.perConnection} subscriptions per connection; complete one first`, {
        extensions: { code: ErrorCode.BAD_USER_INPUT, limit: 'WS_MAX_SUBSCRIPTIONS' },
      }),
    ];
  }
  let subscribe = payload as SubscribePayload;
  if (o.trusted) {
    // As over HTTP: a manifest id or text becomes the manifest's text; anything else is never parsed.
    const checked = checkTrusted(o.trusted, payload);
    if ('refusal' in checked) return [new GraphQLError(checked.refusal.message, { extensions: { code: checked.refusal.code } })];
    subscribe = checked.params as unknown as SubscribePayload;
  }
  let prepared: GraphQLError[] | Prepared;
  try {
    prepared = engine.prepare(subscribe, ctx.extra.identity, ctx.extra.budget);
  } catch (err) {
    logger.error({ err }, 'subscription could not be prepared');
    return [new GraphQLError('Internal server error', { extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } })];
  }
  if (Array.isArray(prepared)) return prepared;
  // The document's bytes against the socket's, its address's and the instance's budgets.
  const refused = engine.hold(prepared, ctx.extra.budget);
  if (refused) return [refused];
  // contextValue carries what the engine prepared, and for whom.
  const started: Started = { prepared, extra: ctx.extra };
  return {
    schema: undefined as never,
    document: prepared.document,
    contextValue: started,
    variableValues: prepared.variables,
    operationName: prepared.operationName,
  };
}

function protocolOf(o: SubscriptionServerOptions, counts: Counts): Protocol<Extra> {
  const { engine, limits, logger } = o;
  return makeServer<Record<string, unknown> | undefined, Extra>({
    connectionInitWaitTimeout: limits.initTimeoutMs,
    onConnect: (ctx) => onConnect(o, ctx),
    onSubscribe: (ctx, _id, payload) => onSubscribe(o, ctx, payload),
    // onSubscribe always gives the execution arguments, so graphql-ws never parses or validates itself.
    subscribe: async (args) => {
      const { prepared, extra } = args.contextValue as Started;
      const onSlow = () => closeSlow(counts, logger, extra.socket, `more than ${limits.maxQueued} events or ${limits.maxQueuedBytes} bytes waiting`);
      try {
        return await engine.start(prepared, extra.identity, onSlow, extra.budget);
      } catch (err) {
        engine.release(prepared, extra.budget);
        logger.error({ err, topic: prepared.topic }, 'could not start a subscription');
        return {
          errors: [new GraphQLError('Live updates are unavailable; try again shortly', { extensions: { code: ErrorCode.UNAVAILABLE } })],
        } as ExecutionResult;
      }
    },
    // Results come formatted from the engine (codes, prod masking).
    onNext: (_ctx, _id, _payload, _args, result) => result as never,
    onError: (_ctx, _id, _payload, errors) =>
      errors.map((e) => ({ message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions: e.extensions })) as never,
  });
}

/** Takes a place for a new socket from `address` in the budgets; false (and counted) when there is none. */
function admit(counts: Counts, limits: SubscriptionServerOptions['limits'], address: string): boolean {
  const fromAddress = counts.perAddress.get(address) ?? 0;
  if (counts.connections >= limits.maxConnections || (limits.maxPerAddress > 0 && fromAddress >= limits.maxPerAddress)) {
    counts.refusedConnections++;
    return false;
  }
  counts.connections++;
  if (limits.maxPerAddress > 0) counts.perAddress.set(address, fromAddress + 1);
  return true;
}

function release(counts: Counts, limits: SubscriptionServerOptions['limits'], address: string): void {
  counts.connections--;
  if (limits.maxPerAddress <= 0) return;
  const left = (counts.perAddress.get(address) ?? 1) - 1;
  if (left > 0) counts.perAddress.set(address, left);
  else counts.perAddress.delete(address);
}

/** Pings every `keepAliveMs`; a socket that did not answer the previous ping is ended. Returns the timer. */
function keepAlive(socket: WebSocket, keepAliveMs: number): NodeJS.Timeout {
  let alive = true;
  const ping = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, keepAliveMs);
  socket.on('pong', () => (alive = true));
  return ping;
}

/** graphql-ws's view of a socket: sends past the unsent-bytes budget close it as a slow consumer. */
function transportOf(socket: WebSocket, limits: SubscriptionServerOptions['limits'], logger: Logger, slow: (why: string) => void): ProtocolSocket {
  return {
    protocol: socket.protocol,
    send: async (data) => {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount + data.length > limits.maxBufferedBytes) return slow(`more than ${limits.maxBufferedBytes} bytes unsent`);
      // Not waiting for the kernel: bufferedAmount is the measure of a slow consumer.
      socket.send(data, (err) => err && logger.debug({ err: err.message }, 'subscription send failed'));
    },
    close: (code, reason) => socket.close(code, reason),
    onMessage: (cb) =>
      socket.on('message', async (data, isBinary) => {
        try {
          await cb(isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data));
        } catch (err) {
          // graphql-ws throws for a message type a client may not send (next, error, connection_ack).
          logger.debug({ err: (err as Error).message }, 'invalid subscription message');
          socket.close(CloseCode.BadRequest, 'Invalid message received');
        }
      }),
  };
}

export function attachSubscriptions(http: Server, o: SubscriptionServerOptions): SubscriptionServer {
  const { limits, logger } = o;
  const keepAliveMs = o.keepAliveMs ?? 12_000;
  const counts: Counts = { connections: 0, perAddress: new Map(), slowConsumersClosed: 0, refusedConnections: 0 };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    handleProtocols: (protocols) => (protocols.has(GRAPHQL_TRANSPORT_WS_PROTOCOL) ? GRAPHQL_TRANSPORT_WS_PROTOCOL : false),
  });
  const protocol = protocolOf(o, counts);

  function onConnection(socket: WebSocket, address: string) {
    if (!admit(counts, limits, address)) {
      socket.close(TRY_AGAIN_LATER, 'Try again later: too many connections');
      return;
    }
    const budget = new SocketBudget(limits.maxDocumentBytes, limits.maxQueuedBytes, {
      perSecond: limits.eventRequestsPerSecond,
      burst: limits.eventRequestsBurst,
    });
    budget.address = address;
    const extra: Extra = { socket, address, budget, identity: { kind: 'anonymous' }, expiry: undefined };
    socket.on('error', (err) => {
      logger.debug({ err: (err as Error).message }, 'subscription socket error');
      socket.terminate();
    });
    const ping = keepAlive(socket, keepAliveMs);
    const closed = protocol.opened(
      transportOf(socket, limits, logger, (why) => closeSlow(counts, logger, socket, why)),
      extra,
    );
    socket.once('close', (code, reason) => {
      release(counts, limits, address);
      clearInterval(ping);
      if (extra.expiry) clearTimeout(extra.expiry);
      void closed(code, String(reason));
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    releaseUpgraded(http, socket);
    // Read now: after a reset it may be undefined.
    const address = request.socket.remoteAddress ?? '';
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (!PATHS.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws, address));
  };
  http.on('upgrade', onUpgrade);

  return {
    details: () => ({ connections: counts.connections, slowConsumersClosed: counts.slowConsumersClosed, refusedConnections: counts.refusedConnections }),
    async close() {
      http.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of wss.clients) client.terminate();
    },
  };
}
