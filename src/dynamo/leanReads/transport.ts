/**
 * One HTTP exchange of the read path: the signed POST out, the whole answer
 * back as text. It keeps what the SDK's HTTP handler does with the client's
 * settings (keep-alive sockets, 50 a host; the connection timeout; the
 * request timeout as one deadline over the whole exchange, as
 * ../deadlineHandler.ts sets it for the SDK: an answer that misses it is
 * destroyed with its socket, never pooled; errors named so the SDK's
 * classification retries them) without what a general handler sets up per request for
 * requests of any kind: four timers, listeners, header copies.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface TransportOptions {
  /** A socket that has not connected by then is given up (ms; 0: never). */
  connectionTimeoutMs: number;
  /** The whole exchange (a pooled socket, connecting, headers, body) by then, or given up with its socket (ms; 0: never). */
  requestTimeoutMs: number;
}

export interface Target {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
}

export interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** The SDK handler's default pool: keep-alive, 50 sockets a host. */
const POOL = { keepAlive: true, maxSockets: 50 };

/** Socket errors the SDK's handler renames TimeoutError (retried as transient). */
const TIMEOUT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

const timeoutError = (message: string, code?: string) => Object.assign(new Error(message), { name: 'TimeoutError', ...(code ? { code } : {}) });

export class ReadTransport {
  private http: HttpAgent | undefined;
  private https: HttpsAgent | undefined;

  constructor(private readonly options: TransportOptions) {}

  send(target: Target, headers: Record<string, string>, body: string): Promise<Answer> {
    const secure = target.protocol === 'https:';
    const agent = secure ? (this.https ??= new HttpsAgent(POOL)) : (this.http ??= new HttpAgent(POOL));
    // An IPv6 literal comes bracketed in a URL, bare in a request's options.
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    const { connectionTimeoutMs, requestTimeoutMs } = this.options;
    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(connecting);
        req.destroy();
        reject(error.name !== 'TimeoutError' && TIMEOUT_CODES.has((error as { code?: string }).code ?? '') ? Object.assign(error, { name: 'TimeoutError' }) : error);
      };
      const req = (secure ? httpsRequest : httpRequest)(
        { host, port: target.port, path: target.path, method: 'POST', headers, agent },
        (res: IncomingMessage) => {
          clearTimeout(connecting);
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ statusCode: res.statusCode ?? -1, headers: res.headers, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', fail);
          res.on('close', () => {
            if (!res.complete) fail(Object.assign(new Error('DynamoDB closed the connection before its answer was complete'), { code: 'ECONNRESET' }));
          });
        },
      );
      const timer =
        requestTimeoutMs > 0
          ? setTimeout(() => fail(timeoutError(`DynamoDB's answer did not complete within ${requestTimeoutMs} ms (request timeout)`, 'ETIMEDOUT')), requestTimeoutMs)
          : undefined;
      let connecting: NodeJS.Timeout | undefined;
      if (connectionTimeoutMs > 0) {
        req.once('socket', (socket) => {
          if (!socket.connecting) return;
          connecting = setTimeout(() => fail(timeoutError(`no connection to DynamoDB within ${connectionTimeoutMs} ms (connection timeout)`)), connectionTimeoutMs);
          socket.once('connect', () => clearTimeout(connecting));
        });
      }
      req.on('error', fail);
      req.end(body);
    });
  }

  /** Closes the pooled sockets (the client's destroy). */
  destroy(): void {
    this.http?.destroy();
    this.https?.destroy();
  }
}
