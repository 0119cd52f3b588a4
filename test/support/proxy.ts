/**
 * A TCP proxy on 127.0.0.1 in front of the run's DynamoDB Local, for tests
 * that watch DynamoDB go away and come back: `down()` closes every
 * connection and stops listening (clients then meet ECONNREFUSED, as with a
 * stopped process), `up()` listens again on the same port. Starting and
 * stopping a JVM of its own would cost each such test seconds of CPU.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DynamoProxy {
  /** `http://127.0.0.1:<port>`: the endpoint to hand the gateway. */
  endpoint: string;
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startProxy(target: string): Promise<DynamoProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(Number(targetPort), hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          // A reset on one side ends the other: the client sees what a dying server does.
          socket.once('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve((s.address() as AddressInfo).port);
      });
    });

  const down = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  const port = await listen(0);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    down,
    up: async () => {
      if (!server) await listen(port);
    },
    stop: down,
  };
}
