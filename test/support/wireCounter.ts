/**
 * An HTTP proxy on 127.0.0.1 in front of the run's DynamoDB Local that
 * counts every request it forwards by its operation (the `X-Amz-Target`
 * header: `GetItem`, `Query`, `PutItem`…): what was sent at the wire,
 * retries included. Two clients pointed at it are counted the same way:
 * the gateway (SDK and read path alike) and another library (ElectroDB on
 * its own document client).
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireCounter {
  /** `http://127.0.0.1:<port>`: the endpoint to hand the clients. */
  endpoint: string;
  /** Requests forwarded since the last reset, by operation (e.g. `Query`). */
  byOperation: Record<string, number>;
  /** All requests forwarded since the last reset. */
  total(): number;
  reset(): void;
  /** The requests of `run`, by operation (only those, whatever else the counter saw before). */
  count<T>(run: () => Promise<T>): Promise<{ value: T; requests: Record<string, number> }>;
  stop(): Promise<void>;
}

export async function startWireCounter(target: string): Promise<WireCounter> {
  const { hostname, port } = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const byOperation: Record<string, number> = {};
  const reset = () => {
    for (const key of Object.keys(byOperation)) delete byOperation[key];
  };
  const server = createServer((req, res) => {
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() || 'unknown';
    byOperation[operation] = (byOperation[operation] ?? 0) + 1;
    const upstream = request({ host: hostname, port: Number(port), method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    byOperation,
    total: () => Object.values(byOperation).reduce((a, b) => a + b, 0),
    reset,
    async count(run) {
      reset();
      const value = await run();
      const requests = { ...byOperation };
      reset();
      return { value, requests };
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
