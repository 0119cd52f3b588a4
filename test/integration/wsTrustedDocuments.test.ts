/**
 * TRUSTED_DOCUMENTS over the WebSocket: a subscribe whose document is not
 * in the manifest is refused before it is parsed (a text that would not
 * even parse is refused as not in the list, not as a parse failure); the
 * manifest's operations, by text or by id, go live.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Gateway } from '../../src/transport/startGateway.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { courseItem } from '../support/defaultItems.js';
import { untilOpen, wsClient, type WsClient } from '../support/subscriptions.js';
import { startWsGateway, stopWsGateway } from '../support/wsGateway.js';

const TRUSTED = 'subscription Course($id: ID!) { courseChanged(id: $id) { id title } }';
const TRUSTED_ID = `sha256:${createHash('sha256').update(TRUSTED).digest('hex')}`;
const HEAVY =
  'subscription { courseChanged(id: "c1") { students(first: 99) { edges { node { courses(first: 1) { edges { node { students(first: 100) { edges { node { courses(first: 1) { edges { node { id } } } } } } } } } } } } } }';

let gateway: Gateway;
let url: string;
const tableName = `wstrust_${randomUUID().slice(0, 8)}`;
const clients: WsClient[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trusted-ws-'));
  const manifest = join(dir, 'persisted-documents.json');
  writeFileSync(manifest, JSON.stringify({ [TRUSTED_ID]: TRUSTED }));
  gateway = await startWsGateway(tableName, {
    TRUSTED_DOCUMENTS: manifest,
  });
  url = gateway.url;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose().catch(() => {})));
  await untilOpen(url, { connections: 0, subscriptions: 0 });
});

afterAll(() => stopWsGateway(gateway, tableName));

const connect = () => {
  const c = wsClient(url);
  clients.push(c);
  return c;
};

/** Subscribes with a raw payload; resolves with the error, or the first result `wanted` accepts. */
function subscribeRaw(c: WsClient, payload: Record<string, unknown>, wanted: (data: any) => boolean = () => true): Promise<{ error?: any[]; data?: any }> {
  return new Promise((resolve) => {
    c.client.subscribe(payload as never, {
      next: (m) => wanted((m as { data?: any }).data) && resolve(m as { data?: any }),
      error: (e) => resolve({ error: e as any[] }),
      complete: () => {},
    });
  });
}

const codes = (w: { error: unknown }) => (w.error as any[]).map((e) => e.extensions.code);

describe('trusted documents over the WebSocket', () => {
  it('refuses a subscription whose document is not in the manifest, before parsing it', async () => {
    const c = connect();
    const heavy = c.watch(HEAVY);
    await heavy.ended();
    expect(codes(heavy)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    // Text that does not parse: refused as untrusted, never reaching the parser.
    const broken = c.watch('subscription { courseChanged(id: "c1") { ');
    await broken.ended();
    expect(codes(broken)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    const unknown = await subscribeRaw(c, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
    expect(unknown.error!.map((e) => e.extensions.code)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect((await untilOpen(url, { subscriptions: 0 })).subscriptions).toBe(0);
  });

  it("subscribes the manifest's operation by its text and by its id", async () => {
    const c = connect();
    const byText = c.watch(TRUSTED, { id: 'c1' });
    const renamed = (data: any) => data?.courseChanged?.title === 'Engines II';
    const byId = subscribeRaw(c, { query: '', variables: { id: 'c1' }, extensions: { persistedQuery: { version: 1, sha256Hash: TRUSTED_ID } } }, renamed);
    await untilOpen(url, { subscriptions: 2 });
    await batchPut(gateway.dynamo.doc, tableName, [courseItem({ id: 'c1', title: 'Engines II' })]);
    // The item written at the start may arrive first: wait for the rename.
    for (let n = 1; !byText.messages.some((m) => renamed(m.data)); n++) await byText.untilCount(n);
    expect(byText.messages.find((m) => renamed(m.data))!.data).toEqual({ courseChanged: { id: 'c1', title: 'Engines II' } });
    expect((await byId).data).toEqual({ courseChanged: { id: 'c1', title: 'Engines II' } });
  });
});
