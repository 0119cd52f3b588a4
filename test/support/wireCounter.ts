/**
 * An HTTP proxy on 127.0.0.1 in front of the run's DynamoDB Local that
 * counts the requests reaching it, by operation (`x-amz-target`): what
 * was sent at the wire, whichever path (SDK or read path), retries
 * included. `endpoint` is what to hand the gateway.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireCounter {
  endpoint: string;
  /** Requests forwarded, by operation (e.g. `Query`). */
  byOperation: Record<string, number>;
  /** All requests forwarded since the last reset. */
  total(): number;
  reset(): void;
  stop(): Promise<void>;
}

export async function startWireCounter(target: string): Promise<WireCounter> {
  const upstream = new URL(target);
  const byOperation: Record<string, number> = {};
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const operation = String(req.headers['x-amz-target'] ?? 'unknown').replace(/^.*\./, '');
    byOperation[operation] = (byOperation[operation] ?? 0) + 1;
    const out = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.once('error', () => res.destroy());
    req.pipe(out);
  };
  const server = createServer(forward);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    byOperation,
    total: () => Object.values(byOperation).reduce((a, b) => a + b, 0),
    reset: () => {
      for (const key of Object.keys(byOperation)) delete byOperation[key];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
