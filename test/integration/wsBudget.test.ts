/**
 * WebSockets cannot starve HTTP: sockets have a budget of their own (in
 * total and per client address), apart from HTTP's open and waiting
 * connections. With the WebSocket budget full of idle, initialized sockets
 * from two addresses, HTTP queries and `/health` from those addresses and
 * a third still answer; a socket over the budget is closed with 1013 and
 * counted. The HTTP limits are set below the sockets held, so a socket
 * counted as an HTTP connection would show.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { localEndpoint } from '../support/gateway.js';
import { liveDetails, untilOpen, wsUrl } from '../support/subscriptions.js';
import { startWsGateway, stopWsGateway } from '../support/wsGateway.js';

const WS_TOTAL = 20;
const WS_PER_ADDRESS = 10;
let gateway: Gateway;
let url: string;
const tableName = `wsbud_${randomUUID().slice(0, 8)}`;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  gateway = await startWsGateway(tableName, {
    WS_MAX_CONNECTIONS: String(WS_TOTAL),
    WS_MAX_CONNECTIONS_PER_ADDRESS: String(WS_PER_ADDRESS),
    // Fewer than the sockets held: were they HTTP connections, HTTP would be refused.
    HTTP_MAX_CONNECTIONS: '8',
    HTTP_MAX_WAITING_PER_ADDRESS: '4',
  });
  url = gateway.url;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await untilOpen(url, { connections: 0 });
});

afterAll(() => stopWsGateway(gateway, tableName));

/** An initialized, idle socket from `from`; or the close code when the server closes it first. */
async function idleSocket(from: string, target = url): Promise<{ ws: WebSocket; refused?: number }> {
  const ws = new WebSocket(wsUrl(target), ['graphql-transport-ws'], { localAddress: from });
  sockets.push(ws);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const acked = new Promise<void>((resolve) => ws.on('message', (m) => JSON.parse(String(m)).type === 'connection_ack' && resolve()));
  ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  const first = await Promise.race([acked.then(() => undefined), closed]);
  return first === undefined ? { ws } : { ws, refused: first };
}

/** An HTTP request from `from` on a fresh connection: its status and body. */
function httpFrom(from: string, path: string, body?: string, base = url): Promise<{ status: number; body: string }> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: body ? 'POST' : 'GET',
        localAddress: from,
        agent: false,
        headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const QUERY = JSON.stringify({ query: '{ course(id: "c1") { title } }' });

describe('a WebSocket budget apart from HTTP', () => {
  it('keeps HTTP and /health answering from every address while the WebSocket budget is full of idle sockets', async () => {
    const refusedBefore = (await liveDetails(url)).refusedConnections;
    // One address fills its share; one more from it is refused though the total has room.
    for (let i = 0; i < WS_PER_ADDRESS; i++) expect((await idleSocket('127.0.0.1')).refused).toBeUndefined();
    expect((await idleSocket('127.0.0.1')).refused).toBe(1013);
    for (let i = 0; i < WS_PER_ADDRESS; i++) expect((await idleSocket('127.0.0.2')).refused).toBeUndefined();
    // The total is full: a third address is refused too.
    expect((await idleSocket('127.0.0.3')).refused).toBe(1013);
    const details = await untilOpen(url, { connections: WS_TOTAL });
    expect(details.refusedConnections - refusedBefore).toBe(2);

    for (const from of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) {
      // More requests than HTTP_MAX_WAITING_PER_ADDRESS, one after another.
      for (let i = 0; i < 6; i++) {
        const health = await httpFrom(from, '/health');
        expect(health.status).toBe(200);
        const answer = await httpFrom(from, '/graphql', QUERY);
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ data: { course: { title: 'Engines' } } });
      }
    }
    // Requests at once from the addresses holding sockets, within HTTP's own limits (this file's fetch of
    // /health keeps a connection of 127.0.0.1 alive).
    const together = await Promise.all(['127.0.0.2', '127.0.0.3'].flatMap((from) => Array.from({ length: 3 }, () => httpFrom(from, '/graphql', QUERY))));
    expect(together.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect((await liveDetails(url)).connections).toBe(WS_TOTAL);
  });

  it('accepts new sockets again once the held ones close', async () => {
    const held = [];
    for (let i = 0; i < WS_PER_ADDRESS; i++) held.push(await idleSocket('127.0.0.1'));
    expect((await idleSocket('127.0.0.1')).refused).toBe(1013);
    held[0]!.ws.close();
    await untilOpen(url, { connections: WS_PER_ADDRESS - 1 });
    expect((await idleSocket('127.0.0.1')).refused).toBeUndefined();
  });
});

describe('the default WebSocket budget', () => {
  it('holds a thousand idle sockets from ten addresses with HTTP and /health answering from eleven, and closes the next socket with 1013', async () => {
    // Defaults: 1,000 sockets in all, 100 per address, HTTP's own 1,000 connections apart.
    const defaults = await startGateway(
      loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), TABLE_NAME: tableName, PORT: '0', HOST: '127.0.0.1', STREAM_WORKER: '0', LOG_LEVEL: 'silent' }),
      silentLogger,
    );
    try {
      const addresses = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 1}`);
      for (const from of addresses) {
        const opened = await Promise.all(Array.from({ length: 100 }, () => idleSocket(from, defaults.url)));
        expect(opened.filter((o) => o.refused !== undefined)).toEqual([]);
      }
      await untilOpen(defaults.url, { connections: 1000 });
      expect((await idleSocket('127.0.0.11', defaults.url)).refused).toBe(1013);
      expect((await liveDetails(defaults.url)).refusedConnections).toBe(1);
      for (const from of [...addresses, '127.0.0.11']) {
        expect((await httpFrom(from, '/health', undefined, defaults.url)).status).toBe(200);
        const answer = await httpFrom(from, '/graphql', QUERY, defaults.url);
        expect(JSON.parse(answer.body)).toEqual({ data: { course: { title: 'Engines' } } });
      }
    } finally {
      for (const s of sockets.splice(0)) s.terminate();
      await defaults.stop();
    }
  });
});
