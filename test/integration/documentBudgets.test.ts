/**
 * The documents live subscriptions hold are bounded across the instance,
 * not only per socket: per client address (WS_MAX_DOCUMENT_BYTES_PER_ADDRESS)
 * and in all (WS_MAX_DOCUMENT_BYTES_TOTAL), each distinct document counted
 * once, with the refusal of the socket's own budget (an `error` message
 * naming the setting). Sockets from several addresses subscribe distinct
 * documents of about 100 KB (a long comment line: few tokens, so each
 * socket's own budget holds many): the bytes held never pass the caps, a
 * document shared by many sockets is held once, and the accounting returns
 * to zero when the sockets close. (RSS under the full load of the finding:
 * bench/subscriptionDocuments.ts, figures in docs/limits.md.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import WebSocket from 'ws';
import type { Gateway } from '../../src/transport/startGateway.js';
import { documentBytes } from '../../src/graphql/documentStore.js';
import { liveDetails, untilOpen, wsUrl } from '../support/subscriptions.js';
import { startWsGateway, stopWsGateway } from '../support/wsGateway.js';

const PER_ADDRESS = 1_048_576;
const TOTAL = 2_621_440;
let gateway: Gateway;
let url: string;
const tableName = `wsdocs_${randomUUID().slice(0, 8)}`;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  gateway = await startWsGateway(
    tableName,
    {
      STREAM_WORKER: '0',
      WS_MAX_DOCUMENT_BYTES_PER_ADDRESS: String(PER_ADDRESS),
      WS_MAX_DOCUMENT_BYTES_TOTAL: String(TOTAL),
    },
    { seed: false },
  );
  url = gateway.url;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await untilOpen(url, { connections: 0, subscriptions: 0 });
});

afterAll(() => stopWsGateway(gateway, tableName));

/** A distinct document of about 100 KB of text, all of the same length: one comment line and the subscription. */
const documentOf = (n: number) => `# ${String(n).padStart(8, '0')} ${'x'.repeat(50_000)}\nsubscription { courseChanged(id: "c1") { title } }`;
const EACH = documentBytes(parse(documentOf(0)));

interface Socket {
  /** The `limit` of each refused subscribe, in arrival order. */
  refusals: string[];
}

/** An initialised socket from `from` that subscribes `documents`. */
async function subscribing(from: string, documents: string[]): Promise<Socket> {
  const ws = new WebSocket(wsUrl(url), ['graphql-transport-ws'], { localAddress: from });
  sockets.push(ws);
  const socket: Socket = { refusals: [] };
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const acked = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'connection_ack') resolve();
      if (m.type === 'error') socket.refusals.push(m.payload[0].extensions.limit);
    }),
  );
  ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  await acked;
  documents.forEach((query, i) => ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query } })));
  return socket;
}

/** Waits until every subscribe sent was started or refused: `open` subscriptions in all, `refused` refusals. */
async function settled(all: Socket[], open: number, refused: number) {
  for (let i = 0; i < 1000; i++) {
    const refusals = all.reduce((n, s) => n + s.refusals.length, 0);
    if (refusals === refused && (await liveDetails(url)).subscriptions === open) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`subscribes not settled: want ${open} open and ${refused} refused, have ${JSON.stringify(await liveDetails(url))}`);
}

describe('subscription documents bounded across the instance', () => {
  it('holds a document many sockets share once, for the address and the instance', async () => {
    const shared = documentOf(1);
    const all: Socket[] = [];
    // Twenty copies would pass the address's budget if each were charged.
    expect(20 * EACH).toBeGreaterThan(PER_ADDRESS);
    for (let i = 0; i < 20; i++) all.push(await subscribing('127.0.0.40', [shared]));
    await settled(all, 20, 0);
    expect(await liveDetails(url)).toMatchObject({ heldDocuments: 1, heldDocumentBytes: EACH, documentAddresses: 1 });
  });

  it("refuses distinct documents past the address's and then the instance's budget, never holding more, and returns to zero once the sockets close", async () => {
    const perAddress = Math.floor(PER_ADDRESS / EACH);
    const inAll = Math.floor(TOTAL / EACH);
    // Three addresses' full shares do not fit the instance: the third is stopped by the total.
    expect(3 * perAddress).toBeGreaterThan(inAll);
    expect(2 * perAddress).toBeLessThan(inAll);
    const all: Socket[] = [];
    let n = 100;
    const next = (k: number) => Array.from({ length: k }, () => documentOf(n++));
    const sent = (address: string) => Promise.all([0, 1, 2].map(() => subscribing(address, next(5))));
    // Fifteen distinct documents from each address, over three sockets.
    const a = await sent('127.0.0.41');
    all.push(...a);
    await settled(all, perAddress, 15 - perAddress);
    const b = await sent('127.0.0.42');
    all.push(...b);
    await settled(all, 2 * perAddress, 30 - 2 * perAddress);
    const held = (await liveDetails(url)).heldDocumentBytes;
    expect(held).toBe(2 * perAddress * EACH);
    const c = await sent('127.0.0.43');
    all.push(...c);
    await settled(all, inAll, 45 - inAll);
    const refusals = (group: Socket[]) => group.flatMap((s) => s.refusals);
    expect(new Set(refusals([...a, ...b]))).toEqual(new Set(['WS_MAX_DOCUMENT_BYTES_PER_ADDRESS']));
    expect(new Set(refusals(c))).toEqual(new Set(['WS_MAX_DOCUMENT_BYTES_TOTAL']));
    const full = await liveDetails(url);
    expect(full).toMatchObject({ heldDocuments: inAll, heldDocumentBytes: inAll * EACH, documentAddresses: 3 });
    expect(full.heldDocumentBytes).toBeLessThanOrEqual(TOTAL);

    // The instance is full: a new document from a new address is refused before it is parsed (not kept for reuse).
    const cached = full.documents;
    const late = await subscribing('127.0.0.44', next(1));
    all.push(late);
    await settled(all, inAll, 46 - inAll);
    expect(late.refusals).toEqual(['WS_MAX_DOCUMENT_BYTES_TOTAL']);
    expect((await liveDetails(url)).documents).toBe(cached);

    for (const s of sockets.splice(0)) s.terminate();
    await untilOpen(url, { connections: 0, subscriptions: 0 });
    expect(await liveDetails(url)).toMatchObject({ heldDocuments: 0, heldDocumentBytes: 0, documentAddresses: 0 });
  });
});
