/**
 * The read path's HTTP exchange, which is the client's own request handler
 * (src/dynamo/leanReads/sdkExchange.ts through src/dynamo/deadlineHandler.ts),
 * against a local server: kept-alive sockets shared with the client and
 * closed with it, one deadline over the whole exchange, and the failures
 * the retry strategy must see as transient (named TimeoutError, as the
 * SDK's handler names them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo, type Dynamo } from '../../src/dynamo/client.js';
import { patience } from '../support/patience.js';

let server: Server | undefined;
let dynamo: Dynamo | undefined;
const sockets = new Set<Socket>();
let connections = 0;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  // Idle sockets stay open on the server's side: only the client closes them here.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  dynamo?.raw.destroy();
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = dynamo = undefined;
  connections = 0;
});

const JSON_TYPE = { 'content-type': 'application/x-amz-json-1.0' };
const KEY = { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } };
const ITEM = JSON.stringify({ Item: { PK: { S: 'A' }, SK: { S: 'PROFILE' } } });
const get = (d: Dynamo) => d.reads!.send('GetItem', KEY);

/** Waits for the socket's close, or 2 s: a socket left open would otherwise stay so until the server's 60 s keep-alive. */
const closedSoon = (closed: Promise<unknown>) => Promise.race([closed, new Promise((resolve) => setTimeout(resolve, patience(2000)))]);

describe("the read path's exchange", () => {
  it("sends the client's reads and writes over one kept-alive connection, and closes it with the client", async () => {
    const endpoint = await serve((_req, res) => res.end(ITEM));
    dynamo = createDynamo({ endpoint, maxAttempts: 1 });
    for (let n = 0; n < 3; n++) expect((await get(dynamo)).Item).toEqual({ PK: 'A', SK: 'PROFILE' });
    await dynamo.doc.send(new PutCommand({ TableName: 't', Item: { PK: 'A', SK: 'PROFILE' } }));
    expect(connections).toBe(1);
    expect(sockets.size).toBe(1);
    const closed = new Promise((resolve) => [...sockets][0]!.once('close', resolve));
    dynamo.raw.destroy();
    await closedSoon(closed);
    expect(sockets.size).toBe(0);
  });

  it('gives up on an answer whose body stalls past the request timeout, as a TimeoutError, and destroys its socket', async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, JSON_TYPE);
      res.write('{"Items":[');
      // …and nothing more.
    });
    dynamo = createDynamo({ endpoint, maxAttempts: 1, requestTimeoutMs: 150 });
    await expect(get(dynamo)).rejects.toMatchObject({ name: 'TimeoutError' });
    await closedSoon(new Promise((resolve) => [...sockets][0]?.once('close', resolve) ?? resolve(null)));
    expect(sockets.size).toBe(0);
  });

  it('gives up on an answer that trickles past the request timeout, though it never pauses that long, and destroys its socket', async () => {
    let dripping: NodeJS.Timeout | undefined;
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, { ...JSON_TYPE, 'content-length': String(ITEM.length) });
      let sent = 0;
      // A byte every 20 ms: the whole answer would take about 1 s, each pause far shorter than the 300 ms deadline.
      dripping = setInterval(() => (sent < ITEM.length ? res.write(ITEM[sent++]!) : clearInterval(dripping)), 20);
    });
    dynamo = createDynamo({ endpoint, maxAttempts: 1, requestTimeoutMs: 300 });
    try {
      await expect(get(dynamo)).rejects.toMatchObject({ name: 'TimeoutError' });
      await closedSoon(new Promise((resolve) => [...sockets][0]?.once('close', resolve) ?? resolve(null)));
      expect(sockets.size).toBe(0);
    } finally {
      clearInterval(dripping);
    }
  });

  it('gives up on a server that never answers, as a TimeoutError', async () => {
    const endpoint = await serve(() => {});
    dynamo = createDynamo({ endpoint, maxAttempts: 1, requestTimeoutMs: 150 });
    await expect(get(dynamo)).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('fails an answer cut off halfway as a reset connection (ECONNRESET), which the SDK classifies as transient', async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, { ...JSON_TYPE, 'content-length': '100' });
      res.write('{"Item":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    dynamo = createDynamo({ endpoint, maxAttempts: 1 });
    await expect(get(dynamo)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it("uses the client's request timeout, and the next read after a timeout answers on a fresh socket", async () => {
    let answer = true;
    const endpoint = await serve((_req, res) => {
      if (answer) res.end(ITEM);
    });
    // Answered reads must come back within it, however busy the machine.
    dynamo = createDynamo({ endpoint, maxAttempts: 1, requestTimeoutMs: patience(1000) });
    expect((await get(dynamo)).Item).toEqual({ PK: 'A', SK: 'PROFILE' });
    answer = false;
    await expect(get(dynamo)).rejects.toMatchObject({ name: 'TimeoutError' });
    answer = true;
    expect((await get(dynamo)).Item).toEqual({ PK: 'A', SK: 'PROFILE' });
    expect(connections).toBe(2);
  });

  it('passes a refused connection on with its code', async () => {
    const endpoint = await serve(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    dynamo = createDynamo({ endpoint, maxAttempts: 1 });
    await expect(get(dynamo)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
