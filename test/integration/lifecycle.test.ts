/**
 * The gateway's life: health while DynamoDB goes away and comes back,
 * refusals at start-up in production, settings reaching the running
 * gateway, and a shutdown that drains (SIGTERM to a whole `npm start`:
 * startup.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { silentLogger } from '../../src/logger.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamo } from '../../src/dynamo/client.js';
import { localEndpoint, PATIENT_CLIENT, postGraphQL, TEST_CURSOR_SECRET } from '../support/gateway.js';
import { startProxy } from '../support/proxy.js';

const quiet = silentLogger;

function gatewayConfig(endpoint: string, env: Record<string, string> = {}) {
  return loadConfig({
    // Every /health call checks the table: these tests watch it change from one call to the next.
    HEALTH_CACHE_MS: '0',
    ...env,
    DYNAMODB_ENDPOINT: endpoint,
    PORT: '0',
    HOST: '127.0.0.1',
    TABLE_NAME: `t_${randomUUID().slice(0, 8)}`,
    CURSOR_SECRET: TEST_CURSOR_SECRET,
    LOG_LEVEL: 'silent',
  });
}

const health = async (url: string) => (await fetch(url.replace(/\/graphql$/, '/health'))).status;

describe('health while DynamoDB goes away and comes back', () => {
  it('turns /health 503 while DynamoDB is down and 200 again once it is back, without a restart', async () => {
    // The gateway reaches the run's DynamoDB Local through a proxy that can go away and come back.
    const proxy = await startProxy(localEndpoint());
    const config = gatewayConfig(proxy.endpoint);
    const gateway = await startGateway(config, quiet);
    try {
      expect(await health(gateway.url)).toBe(200);

      await proxy.down();
      expect(await health(gateway.url)).toBe(503);
      const down = await postGraphQL(gateway.url, { query: '{ student(id: "1") { name } }' });
      expect(down.status).toBe(200);
      expect(down.json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAVAILABLE']);

      // An in-memory DynamoDB Local comes back empty: the table goes while it is away.
      const direct = createDynamo({ endpoint: localEndpoint(), ...PATIENT_CLIENT });
      await direct.raw.send(new DeleteTableCommand({ TableName: config.tableName }));
      direct.raw.destroy();
      await proxy.up();
      // Until the table exists again the gateway is not healthy.
      expect(await health(gateway.url)).toBe(503);
      await ensureTable(gateway.dynamo.raw, config.tableName);
      expect(await health(gateway.url)).toBe(200);
      const up = await postGraphQL(gateway.url, { query: '{ student(id: "1") { name } }' });
      expect(up.json).toEqual({ data: { student: null } });
    } finally {
      await gateway.stop();
      await proxy.stop();
    }
  });
});

describe('start-up in production', () => {
  it('refuses to start without AUTH_MODE, naming both ways out, before starting anything', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        CURSOR_SECRET: 'c0123456789abcdefghijklmnopqrstuvwxyzABC',
        AUTH_MODE: '',
        PORT: '0',
        DYNAMODB_LOCAL_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/configuration error: AUTH_MODE is required when NODE_ENV=production: set AUTH_MODE=oidc .* or AUTH_MODE=off/);
    expect(output).not.toMatch(/starting embedded DynamoDB Local/);
  });

  it('refuses to start without CURSOR_SECRET, saying so, before starting anything', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, NODE_ENV: 'production', CURSOR_SECRET: '', PORT: '0', DYNAMODB_LOCAL_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toMatch(/configuration error: CURSOR_SECRET is required when NODE_ENV=production/);
    expect(output).not.toMatch(/starting embedded DynamoDB Local/);
  });
});

describe('configuration reaches the running gateway', () => {
  it('builds the DynamoDB client with the configured attempts and retry mode, and bounds the body size', async () => {
    const gateway = await startGateway(
      gatewayConfig(localEndpoint(), { DYNAMODB_MAX_ATTEMPTS: '5', DYNAMODB_RETRY_MODE: 'adaptive', MAX_BODY_BYTES: '2000' }),
      quiet,
    );
    try {
      expect(await gateway.dynamo.raw.config.maxAttempts()).toBe(5);
      const { retryMode } = gateway.dynamo.raw.config;
      expect(typeof retryMode === 'function' ? await retryMode() : retryMode).toBe('adaptive');
      const big = await postGraphQL(gateway.url, { query: '{ student(id: "1") { id } }', padding: 'x'.repeat(3000) });
      expect(big.status).toBe(413);
    } finally {
      await gateway.stop();
    }
  });
});

describe('shutdown', () => {
  it('lets an in-flight request finish before stop() resolves, and accepts no new ones', async () => {
    const gateway = await startGateway(gatewayConfig(localEndpoint()), quiet);
    const events: string[] = [];
    let reached!: () => void;
    const reachedDynamo = new Promise<void>((resolve) => (reached = resolve));
    // Hold every DynamoDB request 300 ms, so the request is in flight when stop() is called
    // (reads take the read path, everything else the SDK's middleware stack).
    const hold = async () => {
      reached();
      await new Promise((r) => setTimeout(r, 300));
    };
    gateway.dynamo.reads?.onAttempt(hold);
    gateway.dynamo.raw.middlewareStack.add(
      (next: (args: any) => Promise<any>) => async (args: any) => {
        await hold();
        return next(args);
      },
      { step: 'finalizeRequest', name: 'slowDynamo' },
    );
    const inFlight = postGraphQL(gateway.url, { query: '{ student(id: "1") { name } }' }).then((r) => {
      events.push('response');
      return r;
    });
    await reachedDynamo;
    const stopped = gateway.stop().then(() => events.push('stopped'));
    const response = await inFlight;
    await stopped;
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ data: { student: null } });
    expect(events).toEqual(['response', 'stopped']);
    await expect(fetch(gateway.url.replace(/\/graphql$/, '/health'))).rejects.toThrow();
  });
});
