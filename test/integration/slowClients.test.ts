/**
 * One client address cannot take the connection slots others need: 1,200
 * sockets from 127.0.0.1 that send part of a request and never finish it
 * (reopened when closed, as a slow-loris client does) leave 127.0.0.2's
 * queries served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { demoItemsOf } from '../../src/transport/demoData.js';
import { DEFAULT_SCHEMA_FILE } from '../../src/declaration/loadModel.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { DEFAULT_HTTP } from '../../src/transport/httpServer.js';
import { patience, until } from '../support/patience.js';

let gw: TestGateway;
let url: URL;
beforeAll(async () => {
  // The defaults of config.ts: 1000 connections, 100 waiting per address.
  gw = await testGateway({ http: DEFAULT_HTTP });
  await gw.put(demoItemsOf(DEFAULT_SCHEMA_FILE)!);
  url = new URL(await gw.listen());
});
afterAll(() => gw.stop());

/** A socket from 127.0.0.1 that sends half a request and never the rest. */
function lingering(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port: Number(url.port), host: '127.0.0.1', localAddress: '127.0.0.1' });
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\n');
      resolve(socket);
    });
    socket.once('close', () => resolve(socket));
  });
}

/** A query from 127.0.0.2, answered or not within the time given. */
function query(timeoutMs: number): Promise<number | 'no answer'> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ query: '{ course(id: "A") { title } }' });
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(url.port),
        localAddress: '127.0.0.2',
        path: '/graphql',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve('no answer'));
    req.end(body);
  });
}

describe('a client that opens sockets and never finishes a request', () => {
  it(
    'holds at most its waiting budget, and another address is still served',
    async () => {
      const sockets: Socket[] = [];
      try {
        for (let wave = 0; wave < 12; wave++) sockets.push(...(await Promise.all(Array.from({ length: 100 }, lingering))));
        expect(sockets).toHaveLength(1200);
        // Let the server's closes arrive.
        const stillOpen = () => sockets.filter((s) => !s.destroyed && !s.closed).length;
        await until(
          () => stillOpen() <= DEFAULT_HTTP.maxWaitingPerAddress,
          () => `the server's closes (${stillOpen()} open)`,
          15_000,
          100,
        );
        const open = stillOpen();
        expect(open).toBeLessThanOrEqual(DEFAULT_HTTP.maxWaitingPerAddress);
        expect(open).toBeGreaterThan(0);

        // The attacker reopens what was closed, while 20 queries come from another address.
        const reopened = Array.from({ length: 200 }, lingering);
        const answers = await Promise.all(Array.from({ length: 20 }, () => query(patience(10_000))));
        sockets.push(...(await Promise.all(reopened)));
        expect(answers).toEqual(Array(20).fill(200));
      } finally {
        for (const s of sockets) s.destroy();
      }
    },
    patience(60_000),
  );
});
