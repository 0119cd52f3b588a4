/**
 * The SDK's HTTP handler with one deadline over each whole exchange:
 * waiting for a pooled socket, connecting, the answer's headers and its
 * body. The SDK handler's own `requestTimeout` stops counting once the
 * headers arrive; an answer whose body then trickles (a byte now and then,
 * never a long pause) would hold its socket for as long as the server
 * likes, and 50 such answers hold the whole pool. Here the body gets what
 * is left of the deadline; an answer that misses it is destroyed with its
 * socket (never returned to the pool) and fails as a `TimeoutError`, which
 * the retry strategy retries as transient. Every DynamoDB client of the
 * gateway sends through one (client.ts; the stream's, stream/streamsClient.ts).
 */
import type { IncomingMessage } from 'node:http';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export interface DeadlineOptions {
  /** A socket that has not connected by then is given up (ms). */
  connectionTimeoutMs: number;
  /** The whole exchange, from sending to the answer's last byte (ms). */
  requestTimeoutMs: number;
  /**
   * Proxy settings (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`) for the
   * handler's agents: Node's own proxy support, given the environment
   * when `NODE_USE_ENV_PROXY=1` (config/proxy.ts); undefined: no proxy.
   */
  proxyEnv?: NodeJS.ProcessEnv;
}

/** The SDK handler's pool (keep-alive, 50 sockets a host), with Node's proxy support when asked for. */
const agentOptions = (proxyEnv: NodeJS.ProcessEnv | undefined) => ({ keepAlive: true, maxSockets: 50, ...(proxyEnv ? { proxyEnv } : {}) });

const deadlineError = (ms: number) =>
  Object.assign(new Error(`DynamoDB's answer did not complete within ${ms} ms (request timeout)`), { name: 'TimeoutError', code: 'ETIMEDOUT' });

export class DeadlineHandler extends NodeHttpHandler {
  private readonly deadlineMs: number;

  constructor({ connectionTimeoutMs, requestTimeoutMs, proxyEnv }: DeadlineOptions) {
    super({
      connectionTimeout: connectionTimeoutMs,
      // Until the headers: the SDK handler's timer (it destroys the request, socket included).
      requestTimeout: requestTimeoutMs,
      // Without this the handler only logs a warning when requestTimeout passes, and waits on.
      throwOnRequestTimeout: true,
      httpAgent: agentOptions(proxyEnv),
      httpsAgent: agentOptions(proxyEnv),
    });
    this.deadlineMs = requestTimeoutMs;
  }

  override async handle(...args: Parameters<NodeHttpHandler['handle']>): ReturnType<NodeHttpHandler['handle']> {
    const started = performance.now();
    const deadlineMs = args[1]?.requestTimeout ?? this.deadlineMs;
    const out = await super.handle(...args);
    const body = out.response.body as IncomingMessage | undefined;
    if (body && typeof body.destroy === 'function') guardBody(body, deadlineMs, Math.max(0, deadlineMs - (performance.now() - started)));
    return out;
  }
}

/** Destroys the body (and its socket) unless it has ended within `leftMs`. */
function guardBody(body: IncomingMessage, deadlineMs: number, leftMs: number) {
  if (body.complete) return;
  const timer = setTimeout(() => body.destroy(deadlineError(deadlineMs)), leftMs);
  body.once('end', () => clearTimeout(timer));
  body.once('close', () => clearTimeout(timer));
}
