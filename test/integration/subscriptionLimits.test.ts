/**
 * The WebSocket transport's limits and bad input, against a gateway with
 * small limits: cost and argument checks on a subscription's selection,
 * subscriptions per connection, connections per instance, the
 * `connection_init` timeout, the protocol's close codes for malformed
 * messages, a slow consumer closed instead of buffered, and every count
 * back to zero once clients vanish.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { Gateway } from '../../src/transport/startGateway.js';
import type { ChangeEvent } from '../../src/subscriptions/events.js';
import { localEndpoint, postGraphQL } from '../support/gateway.js';
import { liveDetails, untilOpen, wsClient, wsUrl, type WsClient } from '../support/subscriptions.js';
import { until } from '../support/patience.js';
import { startWsGateway, stopWsGateway } from '../support/wsGateway.js';

let gateway: Gateway;
let url: string;
const tableName = `wslim_${randomUUID().slice(0, 8)}`;
const clients: WsClient[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  gateway = await startWsGateway(tableName, {
    WS_MAX_CONNECTIONS: '3',
    WS_MAX_SUBSCRIPTIONS: '2',
    WS_INIT_TIMEOUT_MS: '300',
    WS_MAX_BUFFERED_BYTES: '65536',
    MAX_BODY_BYTES: '10000',
  });
  url = gateway.url;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose().catch(() => {})));
  for (const s of sockets.splice(0)) s.terminate();
  await untilOpen(url, { connections: 0, subscriptions: 0 });
  expect((await liveDetails(url)).topics).toBe(0);
});

afterAll(() => stopWsGateway(gateway, tableName));

const connect = () => {
  const c = wsClient(url);
  clients.push(c);
  return c;
};

interface Raw {
  ws: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  next(type: string): Promise<any>;
}

async function raw(protocol: string | null = 'graphql-transport-ws'): Promise<Raw> {
  const ws = new WebSocket(wsUrl(url), protocol ? [protocol] : []);
  sockets.push(ws);
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    ws,
    messages,
    closed,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next: (type) => until(() => messages.find((m) => m.type === type), `a ${type} message`, 10_000),
  };
}

async function initialised(): Promise<Raw> {
  const r = await raw();
  r.send({ type: 'connection_init', payload: {} });
  await r.next('connection_ack');
  return r;
}

const codeOf = (w: { error: unknown }) => (w.error as any[])[0].extensions.code;

describe('what a subscription may ask for', () => {
  it('refuses a selection over the cost limit, as a query would be', async () => {
    const w = connect().watch(
      'subscription { courseChanged(id: "c1") { students(first: 100) { edges { node { courses(first: 100) { edges { node { students(first: 100) { totalCount } } } } } } } } }',
    );
    await w.ended();
    expect(codeOf(w)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((w.error as any[])[0].message).toMatch(/cost limit of 20000 exceeded/);
  });

  it('refuses a bad id with BAD_USER_INPUT, and queries and unknown fields as validation failures', async () => {
    const badId = connect().watch('subscription { courseChanged(id: "a#b") { title } }');
    const query = connect().watch('{ course(id: "c1") { title } }');
    const unknown = connect().watch('subscription { courseChanged(id: "c1") { nope } }');
    await Promise.all([badId.ended(), query.ended(), unknown.ended()]);
    expect([codeOf(badId), codeOf(query), codeOf(unknown)]).toEqual(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
  });

  it('answers a subscription beyond WS_MAX_SUBSCRIPTIONS with an error and keeps the others', async () => {
    const c = connect();
    c.watch('subscription { courseChanged(id: "c1") { title } }');
    c.watch('subscription { courseChanged(id: "c2") { title } }');
    await untilOpen(url, { connections: 1, subscriptions: 2 });
    const third = c.watch('subscription { courseChanged(id: "c3") { title } }');
    await third.ended();
    expect((third.error as any[])[0].extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'WS_MAX_SUBSCRIPTIONS' });
    expect(await liveDetails(url)).toMatchObject({ connections: 1, subscriptions: 2, topics: 2 });
  });
});

describe('without AUTH_MODE', () => {
  it('ignores whatever authorization a client sends', async () => {
    const c = wsClient(url, 'not-a-jwt');
    clients.push(c);
    const w = c.watch('subscription { courseChanged(id: "c1") { title } }');
    await untilOpen(url, { subscriptions: 1 });
    expect(w.error).toBeUndefined();
  });
});

describe('over HTTP', () => {
  it('refuses a subscription sent as an HTTP request before execution, with the status the GraphQL-over-HTTP spec gives, and serves queries as before', async () => {
    const query = { query: 'subscription { courseChanged(id: "c1") { title } }' };
    const json = await postGraphQL(url, query);
    const spec = await postGraphQL(url, query, { accept: 'application/graphql-response+json' });
    expect([json.status, spec.status]).toEqual([200, 400]);
    for (const r of [json, spec]) {
      expect(r.json.data).toBeUndefined();
      expect(r.json.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })]);
      expect(r.json.errors[0].message).toMatch(/WebSocket/);
    }
    const read = await postGraphQL(url, { query: '{ course(id: "c1") { title } }' });
    expect(read.json).toEqual({ data: { course: { title: 'Engines' } } });
  });
});

describe('connections', () => {
  it('closes a connection beyond WS_MAX_CONNECTIONS with 1013', async () => {
    await Promise.all([initialised(), initialised(), initialised()]);
    const fourth = await raw();
    expect(await fourth.closed).toEqual({ code: 1013, reason: 'Try again later: too many connections' });
    expect((await liveDetails(url)).refusedConnections).toBe(1);
  });

  it('closes a socket that sends no connection_init in time with 4408', async () => {
    const r = await raw();
    expect((await r.closed).code).toBe(4408);
  });

  it("closes with the protocol's codes: 4406 wrong subprotocol, 4400 malformed, 4401 subscribe before init, 4429 second init, 4409 reused id", async () => {
    const noProtocol = await raw(null);
    const malformed = await initialised();
    malformed.send('not json');
    const clientOnly = await initialised();
    clientOnly.send({ type: 'next', id: '1', payload: {} });
    const early = await raw();
    early.send({ type: 'subscribe', id: '1', payload: { query: 'subscription { courseChanged(id: "c1") { title } }' } });
    const codes = await Promise.all([noProtocol.closed, malformed.closed, clientOnly.closed, early.closed]);
    expect(codes.map((c) => c.code)).toEqual([4406, 4400, 4400, 4401]);
    await untilOpen(url, { connections: 0 });
    const twice = await initialised();
    twice.send({ type: 'connection_init' });
    const reused = await initialised();
    const subscribe = { type: 'subscribe', id: 'a', payload: { query: 'subscription { courseChanged(id: "c1") { title } }' } };
    reused.send(subscribe);
    await untilOpen(url, { subscriptions: 1 });
    reused.send(subscribe);
    expect([(await twice.closed).code, (await reused.closed).code]).toEqual([4429, 4409]);
  });

  it('closes a socket whose message exceeds MAX_BODY_BYTES with 1009', async () => {
    const r = await initialised();
    r.send({ type: 'subscribe', id: '1', payload: { query: `subscription { courseChanged(id: "c1") { title } } # ${'x'.repeat(20_000)}` } });
    expect((await r.closed).code).toBe(1009);
  });
});

describe('slow and vanished clients', () => {
  it('closes a consumer that stops reading once its unsent bytes pass WS_MAX_BUFFERED_BYTES, instead of buffering', async () => {
    const r = await initialised();
    r.send({ type: 'subscribe', id: 's', payload: { query: 'subscription { courseChanged(id: "c1") { title } }' } });
    await untilOpen(url, { subscriptions: 1 });
    // The client stops reading: the kernel's buffers fill, then the server's.
    (r.ws as any)._socket.pause();
    const big = 'x'.repeat(50_000);
    const events: ChangeEvent[] = Array.from({ length: 400 }, (_, i) => ({
      topic: 'Course#c1',
      item: 'COURSE#c1\u0000PROFILE',
      seq: String(10_000_000 + i),
      kind: 'UPDATED',
      image: { PK: 'COURSE#c1', SK: 'PROFILE', title: `${i} ${big}` },
    }));
    const before = (await liveDetails(url)).slowConsumersClosed;
    for (let i = 0; i < events.length; i += 20) {
      await gateway.changes.bus.publish(events.slice(i, i + 20));
      if ((await liveDetails(url)).connections === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = await untilOpen(url, { connections: 0, subscriptions: 0 });
    expect(after.slowConsumersClosed - before).toBe(1);
  });

  it('forgets every socket and subscription of clients that vanish without a word', async () => {
    const rs = await Promise.all([initialised(), initialised(), initialised()]);
    rs.forEach((r, i) => {
      r.send({ type: 'subscribe', id: 'a', payload: { query: `subscription { courseChanged(id: "v${i}") { title } }` } });
      r.send({ type: 'subscribe', id: 'b', payload: { query: 'subscription { courseStudentsChanged(courseId: "c1") { kind } }' } });
    });
    expect(await untilOpen(url, { connections: 3, subscriptions: 6 })).toMatchObject({ topics: 4 });
    for (const r of rs) r.ws.terminate();
    expect(await untilOpen(url, { connections: 0, subscriptions: 0 })).toMatchObject({ topics: 0 });
  });
});
