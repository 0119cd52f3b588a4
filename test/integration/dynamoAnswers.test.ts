/**
 * What the client does with answers DynamoDB Local never gives, against a
 * fake DynamoDB on 127.0.0.1: credentials refused (revoked, rotated early),
 * a 200 whose body is a proxy's HTML page, on the read path, the SDK's read
 * path and a write; and `NODE_USE_ENV_PROXY`'s proxy settings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo, type Dynamo } from '../../src/dynamo/client.js';
import { REFRESH_INTERVAL_MS } from '../../src/dynamo/credentialRefresh.js';
import { isUnavailableError } from '../../src/errors.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
let dynamo: Dynamo | undefined;

/** What the fake DynamoDB saw: each request's access key id and target. */
const seen: { key: string; target: string }[] = [];

async function fakeDynamo(answer: (key: string, n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
      seen.push({ key, target: String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '' });
      answer(key, seen.length, req, res);
    });
  });
  server.on('connection', (socket: Socket) => {
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
  seen.length = 0;
});

const JSON_TYPE = { 'content-type': 'application/x-amz-json-1.0' };
const refuse = (res: ServerResponse) => {
  res.writeHead(400, JSON_TYPE);
  res.end(
    JSON.stringify({ __type: 'com.amazon.coral.service#UnrecognizedClientException', message: 'The security token included in the request is invalid.' }),
  );
};
const answerEmpty = (res: ServerResponse) => {
  res.writeHead(200, JSON_TYPE);
  res.end('{}');
};
const html = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html><body>502 Bad Gateway</body></html>');
};

/** Credentials that change only when the SDK is made to refresh them (key1, key2, …), counting those refreshes. */
function rotatingCredentials() {
  const state = { generation: 1, forced: 0 };
  const provider = async (options?: { forceRefresh?: boolean }) => {
    if (options?.forceRefresh) {
      state.forced += 1;
      state.generation += 1;
    }
    // Never expiring by the SDK's clock: only a forced refresh replaces them (credentials revoked early).
    return { accessKeyId: `key${state.generation}`, secretAccessKey: 'secret' };
  };
  return { provider, state };
}

const KEY = { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } };

/** One request of each kind the gateway sends: a read on its read path, a read through the SDK, a write. */
const SENDS: [string, (d: Dynamo) => Promise<unknown>][] = [
  ['a read on the read path', (d) => d.reads!.send('GetItem', KEY)],
  ['a read through the SDK', (d) => d.doc.send(new GetCommand(KEY))],
  ['a write', (d) => d.doc.send(new PutCommand({ TableName: 't', Item: { PK: 'A', SK: 'PROFILE' } }))],
];

describe.each(SENDS)('credentials DynamoDB refuses, on %s', (_name, send) => {
  it('forces one refresh of the credentials and succeeds with the new ones, in two requests', async () => {
    const endpoint = await fakeDynamo((key, _n, _req, res) => (key === 'key1' ? refuse(res) : answerEmpty(res)));
    const { provider, state } = rotatingCredentials();
    dynamo = createDynamo({ endpoint, credentials: provider });
    await send(dynamo);
    expect(seen.map((s) => s.key)).toEqual(['key1', 'key2']);
    expect(state.forced).toBe(1);
  });

  it('is UNAVAILABLE when the new credentials are refused too: ten requests together force one refresh and send two requests each', async () => {
    const endpoint = await fakeDynamo((_key, _n, _req, res) => refuse(res));
    const { provider, state } = rotatingCredentials();
    dynamo = createDynamo({ endpoint, credentials: provider });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        send(dynamo!).then(
          () => null,
          (err: unknown) => err,
        ),
      ),
    );
    expect(outcomes.map((err) => (err as Error).name)).toEqual(Array(10).fill('UnrecognizedClientException'));
    expect(outcomes.every(isUnavailableError)).toBe(true);
    expect(state.forced).toBe(1);
    expect(seen.map((s) => s.key).sort()).toEqual([...Array(10).fill('key1'), ...Array(10).fill('key2')]);
    // Refused again within the refresh interval: final at once, no refresh, no retry.
    await expect(send(dynamo)).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    expect(state.forced).toBe(1);
    expect(seen).toHaveLength(21);
    expect(REFRESH_INTERVAL_MS).toBeGreaterThan(1000);
  });
});

describe.each(SENDS)("a 200 whose body is not JSON (a proxy's HTML page), on %s", (_name, send) => {
  it('is retried as a 5xx and answers with the next attempt', async () => {
    const endpoint = await fakeDynamo((_key, n, _req, res) => (n === 1 ? html(res) : answerEmpty(res)));
    dynamo = createDynamo({ endpoint });
    await send(dynamo);
    expect(seen).toHaveLength(2);
  });

  it('is UNAVAILABLE once the attempts are used up', async () => {
    const endpoint = await fakeDynamo((_key, _n, _req, res) => html(res));
    dynamo = createDynamo({ endpoint, maxAttempts: 3 });
    const err = await send(dynamo).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as Error).name).toBe('SyntaxError');
    expect(isUnavailableError(err)).toBe(true);
    expect(seen).toHaveLength(3);
  });
});

describe('proxy settings (HTTP_PROXY / HTTPS_PROXY with NODE_USE_ENV_PROXY=1)', () => {
  it('sends reads on both paths and writes through the proxy the settings name', async () => {
    const endpoint = await fakeDynamo((_key, _n, _req, res) => answerEmpty(res));
    // A forward proxy: it gets each request with the absolute URL of its target, and passes it on.
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const upstream = await fetch(req.url!, { method: req.method, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
        res.writeHead(upstream.status, JSON_TYPE);
        res.end(await upstream.text());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      for (const readPath of ['lean', 'sdk'] as const) {
        dynamo = createDynamo({ endpoint, readPath, proxyEnv: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
        // With `sdk` there is no read path of its own: its reads are the SDK's.
        for (const [, send] of readPath === 'lean' ? SENDS : SENDS.slice(1)) await send(dynamo);
        dynamo.raw.destroy();
      }
      expect(seen.map((s) => s.target)).toEqual(['GetItem', 'GetItem', 'PutItem', 'GetItem', 'PutItem']);
      expect(proxied).toEqual(Array(5).fill(`POST ${endpoint}/`));
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });
});

describe('proxyEnvOf', () => {
  it('gives the environment when NODE_USE_ENV_PROXY=1 or --use-env-proxy asks for it, else nothing', async () => {
    const { proxyEnvOf } = await import('../../src/config/proxy.js');
    const env = { HTTPS_PROXY: 'http://proxy.example:3128' };
    expect(proxyEnvOf({ ...env, NODE_USE_ENV_PROXY: '1' }, [])).toEqual({ ...env, NODE_USE_ENV_PROXY: '1' });
    expect(proxyEnvOf(env, ['--use-env-proxy'])).toBe(env);
    expect(proxyEnvOf({ ...env, NODE_OPTIONS: '--max-old-space-size=512 --use-env-proxy' }, [])).toBeDefined();
    expect(proxyEnvOf(env, [])).toBeUndefined();
    expect(proxyEnvOf({ ...env, NODE_USE_ENV_PROXY: '0' }, [])).toBeUndefined();
  });
});
