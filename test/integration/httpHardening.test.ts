import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { cachedProbe } from '../../src/dynamo/health.js';
import { patience, until } from '../support/patience.js';

/** Every log line the gateway's HTTP handler writes, parsed. */
const lines: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  }),
);

let gw: TestGateway;
let url: URL;
beforeAll(async () => {
  gw = await testGateway({
    maxBodyBytes: 2000,
    http: { headersTimeoutMs: 400, requestTimeoutMs: 400, keepAliveTimeoutMs: 1000, maxConnections: 3, maxWaitingPerAddress: 0 },
    httpLogger: logger,
  });
  url = new URL(await gw.listen());
});
afterAll(() => gw.stop());

/** A raw TCP connection to the gateway, with everything it receives and whether the server closed it. */
function rawConnection() {
  const socket: Socket = connect(Number(url.port), url.hostname);
  const state = { received: '', closed: false };
  socket.on('data', (chunk) => (state.received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => ((state.closed = true), resolve())));
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, state, closed, opened };
}

describe('slow clients', () => {
  it('cuts off a body trickled a byte at a time once the request timeout passes, with 408 and a closed connection', async () => {
    const { socket, state, closed, opened } = rawConnection();
    await opened;
    socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    let sent = 0;
    const trickle = setInterval(() => {
      if (!state.closed && sent < 1000) {
        socket.write('{');
        sent += 1;
      }
    }, 50);
    await closed;
    clearInterval(trickle);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
    // The client was cut off long before it had sent its body.
    expect(sent).toBeLessThan(1000);
  });

  it('closes connections beyond the maximum at once', async () => {
    const held = [rawConnection(), rawConnection(), rawConnection()];
    await Promise.all(held.map((c) => c.opened));
    const extra = rawConnection();
    await extra.closed;
    expect(extra.state.received).toBe('');
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
  });

  it('logs a client that goes away mid-body at debug level, without a stack', async () => {
    const { socket, opened, closed } = rawConnection();
    await opened;
    socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"query":`);
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await closed;
    const line = await until(() => lines.find((l) => l.msg === 'client went away mid-request'), 'the log line of the client gone mid-request', 1000);
    expect(line).toMatchObject({ level: 20 });
    expect(JSON.stringify(lines)).not.toMatch(/stack|"level":50/);
  });
});

describe('early refusals', () => {
  it('answers a body over the limit with 413 and Connection: close, so a reused socket is not read from the rest of it', async () => {
    const { socket, state, closed, opened } = rawConnection();
    await opened;
    socket.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n${'x'.repeat(5000)}`);
    await closed;
    expect(state.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(state.received.toLowerCase()).toContain('connection: close');
  });

  it('parses the JSON media type case-insensitively with parameters, and refuses look-alikes with 415', async () => {
    const query = { query: '{ __typename }' };
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8', 'application/graphql-response+json']) {
      const { status, json } = await postGraphQL(url.href, query, { 'content-type': type });
      expect({ type, status, data: json?.data }).toEqual({ type, status: 200, data: { __typename: 'Query' } });
    }
    for (const type of ['application/jsonx', 'text/plain', 'application/x-www-form-urlencoded', 'json']) {
      const { status } = await postGraphQL(url.href, query, { 'content-type': type, 'apollo-require-preflight': '1' });
      expect({ type, status }).toEqual({ type, status: 415 });
    }
  });
});

describe('/health', () => {
  it('reuses its table check within the cache interval: a flood of checks is one DescribeTable', async () => {
    let probes = 0;
    const probe = cachedProbe(async () => {
      probes += 1;
      return true;
    }, patience(60_000));
    const answers = await Promise.all(Array.from({ length: 100 }, () => probe()));
    expect(answers.every(Boolean)).toBe(true);
    expect(probes).toBe(1);
    const fresh = cachedProbe(async () => (probes += 1) > 0, 0);
    await fresh();
    await fresh();
    expect(probes).toBe(3);
  });
});
