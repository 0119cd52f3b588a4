/**
 * Helpers for subscription tests: a graphql-ws client that records what
 * arrives, the gateway's open sockets and subscriptions from `/health`,
 * and a real redis-server on a free port of 127.0.0.1, stopped by the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { until } from './patience.js';

export interface Received {
  data?: any;
  errors?: any[];
}

export interface Watch {
  messages: Received[];
  /** The error message graphql-ws delivered (refused subscription), or the close event. */
  error: unknown;
  completed: boolean;
  /** Resolves once `n` messages arrived (or rejects after `timeoutMs`, stretched by the machine's load: patience.ts). */
  untilCount(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Resolves once the subscription errored or completed. */
  ended(timeoutMs?: number): Promise<void>;
  stop(): void;
}

export interface WsClient {
  client: Client;
  closes: { code: number; reason: string }[];
  watch(query: string, variables?: Record<string, unknown>): Watch;
  dispose(): Promise<void>;
}

export const wsUrl = (httpUrl: string) => httpUrl.replace(/^http/, 'ws');

export function wsClient(httpUrl: string, token?: string): WsClient {
  const closes: { code: number; reason: string }[] = [];
  const client = createClient({
    url: wsUrl(httpUrl),
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
    on: { closed: (e) => closes.push({ code: (e as { code: number }).code, reason: String((e as { reason: string }).reason) }) },
  });
  return {
    client,
    closes,
    watch(query, variables) {
      const w: Watch = {
        messages: [],
        error: undefined,
        completed: false,
        untilCount: (n, timeoutMs = 20_000) =>
          until(
            () => w.messages.length >= n && w.messages,
            () => `${n} messages (have ${w.messages.length})`,
            timeoutMs,
          ),
        ended: async (timeoutMs = 20_000) => {
          await until(() => w.completed || w.error !== undefined, 'the subscription to end', timeoutMs);
        },
        stop: () => {},
      };
      w.stop = client.subscribe(
        { query, variables },
        {
          next: (m) => void w.messages.push(m as Received),
          error: (e) => void (w.error = e ?? 'error'),
          complete: () => void (w.completed = true),
        },
      );
      return w;
    },
    dispose: () => client.dispose() as Promise<void>,
  };
}

/** `details.subscriptions` of the gateway's `/health`. */
export async function liveDetails(httpUrl: string): Promise<Record<string, any>> {
  const res = await fetch(httpUrl.replace(/\/graphql$/, '/health'));
  return ((await res.json()) as any).details.subscriptions;
}

/** Waits until `/health` shows exactly these open sockets and subscriptions. */
export async function untilOpen(httpUrl: string, open: { connections?: number; subscriptions?: number }, timeoutMs = 20_000) {
  let last: Record<string, any> = {};
  return until(
    async () => {
      last = await liveDetails(httpUrl);
      const matches =
        (open.connections === undefined || last.connections === open.connections) &&
        (open.subscriptions === undefined || last.subscriptions === open.subscriptions);
      return matches && last;
    },
    () =>
      `open sockets/subscriptions: want ${JSON.stringify(open)}, have ${JSON.stringify({ connections: last.connections, subscriptions: last.subscriptions })}`,
    timeoutMs,
    25,
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  /** The redis-server process (SIGSTOP hangs it: connections stay open, nothing is answered). */
  pid: number;
  stop(): Promise<void>;
}

/** redis-server on a free port of 127.0.0.1, nothing saved (with a password when given); resolves once it accepts connections. */
export async function startRedis({ password }: { password?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  const auth = password ? ['--requirepass', password] : [];
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  await until(() => /Ready to accept connections/.test(out) || child.exitCode !== null, 'redis-server to start', 15_000);
  if (child.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
  return {
    url: password ? `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
  };
}
