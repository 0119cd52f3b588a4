/**
 * The read path's HTTP exchange (src/dynamo/leanReads/transport.ts) against
 * a local server: kept-alive sockets, and the failures the retry strategy
 * must see as transient (named TimeoutError, as the SDK's handler names them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ReadTransport } from '../../src/dynamo/leanReads/transport.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { patience } from '../support/patience.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
let connections = 0;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
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
  return { protocol: 'http:', hostname: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' };
}

afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  connections = 0;
});

const HEADERS = { 'content-type': 'application/x-amz-json-1.0' };

/** Waits for the socket's close, or 2 s (stretched by the load): a socket left open would otherwise stay so until the server's 60 s keep-alive. */
const closedSoon = (closed: Promise<unknown>) => Promise.race([closed, new Promise((resolve) => setTimeout(resolve, patience(2000)))]);
/** A request timeout live answers always beat, however busy the machine. */
const ANSWERED_WITHIN = () => patience(2000);

describe('the read path transport', () => {
  it('sends every read of a client over one kept-alive connection, and closes it with the client', async () => {
    const target = await serve((req, res) => res.end(JSON.stringify({ got: req.headers['x-amz-target'] })));
    const transport = new ReadTransport({ connectionTimeoutMs: ANSWERED_WITHIN(), requestTimeoutMs: ANSWERED_WITHIN() });
    for (const n of [1, 2, 3]) {
      const answer = await transport.send(target, { ...HEADERS, 'x-amz-target': `T${n}` }, '{}');
      expect(answer).toMatchObject({ statusCode: 200, text: JSON.stringify({ got: `T${n}` }) });
    }
    expect(connections).toBe(1);
    expect(sockets.size).toBe(1);
    const closed = new Promise((resolve) => [...sockets][0]!.once('close', resolve));
    transport.destroy();
    await closedSoon(closed);
    expect(sockets.size).toBe(0);
  });

  it('gives up on an answer whose body pauses longer than the request timeout, as a TimeoutError', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, HEADERS);
      res.write('{"Items":[');
      // …and nothing more.
    });
    const transport = new ReadTransport({ connectionTimeoutMs: ANSWERED_WITHIN(), requestTimeoutMs: 150 });
    await expect(transport.send(target, HEADERS, '{}')).rejects.toMatchObject({ name: 'TimeoutError' });
    transport.destroy();
  });

  it('gives up on a server that never answers, as a TimeoutError with ETIMEDOUT', async () => {
    const target = await serve(() => {});
    const transport = new ReadTransport({ connectionTimeoutMs: ANSWERED_WITHIN(), requestTimeoutMs: 150 });
    await expect(transport.send(target, HEADERS, '{}')).rejects.toMatchObject({ name: 'TimeoutError', code: 'ETIMEDOUT' });
    transport.destroy();
  });

  it('fails an answer cut off halfway as a reset connection, named TimeoutError so it is retried', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200, { ...HEADERS, 'content-length': '100' });
      res.write('{"Item":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const transport = new ReadTransport({ connectionTimeoutMs: ANSWERED_WITHIN(), requestTimeoutMs: ANSWERED_WITHIN() });
    await expect(transport.send(target, HEADERS, '{}')).rejects.toMatchObject({ name: 'TimeoutError', code: 'ECONNRESET' });
    transport.destroy();
  });

  it("is the client's: its reads use the client's request timeout, and its sockets close with the client", async () => {
    const item = JSON.stringify({ Item: { PK: { S: 'A' }, SK: { S: 'PROFILE' } } });
    let answer = true;
    const target = await serve((_req, res) => {
      if (answer) res.end(item);
    });
    // Answered reads must come back within it, however busy the machine; the unanswered one then times out after it.
    const dynamo = createDynamo({ endpoint: `http://127.0.0.1:${target.port}`, maxAttempts: 1, requestTimeoutMs: ANSWERED_WITHIN() });
    const out = await dynamo.reads!.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } });
    expect(out.Item).toEqual({ PK: 'A', SK: 'PROFILE' });
    answer = false;
    await expect(dynamo.reads!.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } })).rejects.toMatchObject({ name: 'TimeoutError' });
    answer = true;
    await dynamo.reads!.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } });
    expect(sockets.size).toBe(1);
    const closed = new Promise((resolve) => [...sockets][0]!.once('close', resolve));
    dynamo.raw.destroy();
    await closedSoon(closed);
    expect(sockets.size).toBe(0);
  });

  it('passes a refused connection on with its code', async () => {
    const target = await serve(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const transport = new ReadTransport({ connectionTimeoutMs: ANSWERED_WITHIN(), requestTimeoutMs: ANSWERED_WITHIN() });
    await expect(transport.send(target, HEADERS, '{}')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
