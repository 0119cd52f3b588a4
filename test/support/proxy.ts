/**
 * A TCP proxy on 127.0.0.1 in front of the run's DynamoDB Local, for tests
 * that watch DynamoDB go away and come back: `down()` closes every
 * connection and stops listening (clients then meet ECONNREFUSED, as with a
 * stopped process), `up()` listens again on the same port. Starting and
 * stopping a JVM of its own would cost each such test seconds of CPU.
 *
 * `trickle(ms)` makes it a DynamoDB that answers slowly rather than not at
 * all: each answer's headers pass at once, its body one byte every `ms`.
 * An answer that began trickling goes on trickling after `trickle(null)`
 * (as a slow server's would); new answers pass whole again.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DynamoProxy {
  /** `http://127.0.0.1:<port>`: the endpoint to hand the gateway. */
  endpoint: string;
  down(): Promise<void>;
  up(): Promise<void>;
  /** From now on answers trickle: headers at once, then one byte of body every `ms` (null: whole again). */
  trickle(ms: number | null): void;
  /** Connections the client holds open with an answer still trickling to it. */
  trickling(): number;
  /** Connections clients opened through the proxy so far. */
  connections(): number;
  stop(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** The upstream → client direction of one connection, trickling when told to. */
class Downstream {
  private pending = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(private readonly client: Socket) {}

  get trickling(): boolean {
    return this.pending.length > 0 && !this.client.destroyed;
  }

  write(chunk: Buffer, trickleMs: number | null) {
    if (this.pending.length === 0 && trickleMs === null) {
      this.client.write(chunk);
      return;
    }
    if (this.pending.length === 0) {
      // A new answer: its headers now, its body a byte at a time.
      const end = chunk.indexOf(HEAD_END);
      if (end >= 0) {
        this.client.write(chunk.subarray(0, end + HEAD_END.length));
        chunk = chunk.subarray(end + HEAD_END.length);
      }
    }
    this.pending = Buffer.concat([this.pending, chunk]);
    if (this.pending.length > 0) this.timer ??= setInterval(() => this.drip(), trickleMs ?? 0);
  }

  /** The upstream closed its side: so does the client's, once what is pending has passed. */
  end() {
    this.ended = true;
    if (this.pending.length === 0) this.client.end();
  }

  private drip() {
    if (this.client.destroyed || this.pending.length === 0) return this.stop();
    this.client.write(this.pending.subarray(0, 1));
    this.pending = this.pending.subarray(1);
    if (this.pending.length === 0 && this.ended) this.client.end();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

export async function startProxy(target: string): Promise<DynamoProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  const downstreams = new Set<Downstream>();
  let server: Server | undefined;
  let trickleMs: number | null = null;
  let opened = 0;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = createServer((client) => {
        opened += 1;
        const upstream = connect(Number(targetPort), hostname);
        const down = new Downstream(client);
        downstreams.add(down);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
          // A reset on one side ends the other: the client sees what a dying server does.
          socket.once('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.on('data', (chunk: Buffer) => down.write(chunk, trickleMs));
        // The upstream gone ends the client's side once its answer has passed; the client gone ends the upstream.
        upstream.once('close', () => down.end());
        client.once('close', () => {
          upstream.destroy();
          down.stop();
          downstreams.delete(down);
        });
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
    trickle: (ms) => {
      trickleMs = ms;
    },
    trickling: () => [...downstreams].filter((d) => d.trickling).length,
    connections: () => opened,
    stop: down,
  };
}
