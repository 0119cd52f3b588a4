/**
 * Memory that grows with what WebSocket clients send is bounded in bytes:
 * the subscription engine's cache of parsed documents (documents padded
 * with comment lines, each a token, all distinct), the documents of one
 * socket's live subscriptions, and the events waiting for one socket's
 * subscriptions (a slow consumer is closed, not buffered).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import WebSocket from 'ws';
import type { Gateway } from '../../src/transport/startGateway.js';
import { DOCUMENT_STORE_BYTES, documentBytes } from '../../src/graphql/documentStore.js';
import { courseItem } from '../support/defaultItems.js';
import { liveDetails, untilOpen, wsUrl } from '../support/subscriptions.js';
import { patience, until } from '../support/patience.js';
import { startWsGateway, stopWsGateway } from '../support/wsGateway.js';

const DOCUMENT_BUDGET = 1_048_576;
const QUEUE_BUDGET = 1_048_576;
let gateway: Gateway;
let url: string;
const tableName = `wsmem_${randomUUID().slice(0, 8)}`;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  gateway = await startWsGateway(tableName, {
    WS_MAX_SUBSCRIPTIONS: '100',
    WS_MAX_DOCUMENT_BYTES: String(DOCUMENT_BUDGET),
    WS_MAX_QUEUED_BYTES: String(QUEUE_BUDGET),
  });
  url = gateway.url;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await untilOpen(url, { connections: 0, subscriptions: 0 });
});

afterAll(() => stopWsGateway(gateway, tableName));

/** A subscription padded with 3,000 comment lines; `n` makes it distinct, at a fixed length. */
const padded = (n: number) => `# ${String(n).padStart(6, '0')}\n${'#\n'.repeat(3000)}subscription { courseChanged(id: "c1") { id } }`;

interface Raw {
  ws: WebSocket;
  messages: any[];
  closed: Promise<number>;
  send(message: unknown): void;
  until(check: (messages: any[]) => boolean): Promise<void>;
}

async function initialised(): Promise<Raw> {
  const ws = new WebSocket(wsUrl(url), ['graphql-transport-ws']);
  sockets.push(ws);
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const raw: Raw = {
    ws,
    messages,
    closed,
    send: (m) => ws.send(JSON.stringify(m)),
    until: async (check) => {
      await until(() => check(messages), 'the expected messages', 20_000);
    },
  };
  raw.send({ type: 'connection_init', payload: {} });
  await raw.until((m) => m.some((x) => x.type === 'connection_ack'));
  return raw;
}

describe('memory bounded in bytes over the WebSocket', () => {
  it("keeps the parsed subscription documents within the document cache's bytes, however many padded documents come", async () => {
    const each = documentBytes(parse(padded(0)));
    const r = await initialised();
    const PAIRS = 60;
    for (let i = 1; i <= PAIRS; i++) {
      r.send({ id: `s${i}`, type: 'subscribe', payload: { query: padded(i) } });
      r.send({ id: `s${i}`, type: 'complete' });
    }
    // A last subscription answers once the pairs before it were handled (messages are handled in order).
    r.send({ id: 'last', type: 'subscribe', payload: { query: 'subscription { courseChanged(id: "c1") { title } }' } });
    await untilOpen(url, { subscriptions: 1 });
    const stats = gateway.changes.engine.stats();
    expect(stats.documentBytes).toBeLessThanOrEqual(DOCUMENT_STORE_BYTES);
    // The padded documents the bytes hold, and the last one.
    expect(stats.documents).toBe(Math.floor((DOCUMENT_STORE_BYTES - documentBytes(parse('subscription { courseChanged(id: "c1") { title } }'))) / each) + 1);
    expect(stats.documents).toBeLessThan(PAIRS);
  });

  it("refuses a subscribe once the documents of the socket's live subscriptions would pass WS_MAX_DOCUMENT_BYTES", async () => {
    const each = documentBytes(parse(padded(0)));
    const fit = Math.floor(DOCUMENT_BUDGET / each);
    expect(fit).toBeGreaterThan(0);
    const r = await initialised();
    for (let i = 1; i <= fit + 1; i++) r.send({ id: `d${i}`, type: 'subscribe', payload: { query: padded(1000 + i) } });
    await r.until((m) => m.some((x) => x.type === 'error'));
    await untilOpen(url, { subscriptions: fit });
    const errors = r.messages.filter((x) => x.type === 'error');
    expect(errors.map((e) => e.id)).toEqual([`d${fit + 1}`]);
    expect(errors[0].payload[0].extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'WS_MAX_DOCUMENT_BYTES' });
    // Completing one frees its bytes.
    r.send({ id: 'd1', type: 'complete' });
    await untilOpen(url, { subscriptions: fit - 1 });
    r.send({ id: 'again', type: 'subscribe', payload: { query: padded(2000) } });
    await untilOpen(url, { subscriptions: fit });
  });

  it('closes a socket whose waiting events pass WS_MAX_QUEUED_BYTES as a slow consumer', async () => {
    const before = (await liveDetails(url)).slowConsumersClosed;
    const r = await initialised();
    r.send({ id: 'q', type: 'subscribe', payload: { query: 'subscription { courseChanged(id: "c1") { id } }' } });
    await untilOpen(url, { subscriptions: 1 });
    // Thirty events of a 100 KB item at once: all but the first wait for the one being executed.
    const image = courseItem({ id: 'c1', title: 'x'.repeat(100_000) });
    for (let i = 1; i <= 30; i++) gateway.changes.hub.receive({ topic: 'Course#c1', item: 'c1', seq: String(10n ** 30n + BigInt(i)), kind: 'UPDATED', image });
    // Bounded wait: without the byte budget the socket stays open.
    expect(await Promise.race([r.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), patience(20_000)))])).toBe(1008);
    expect((await liveDetails(url)).slowConsumersClosed - before).toBe(1);
  });
});
