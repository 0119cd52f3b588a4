import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studentItem } from '../support/defaultItems.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { serverBuild } from '../support/serverBuild.js';

// What the Docker image runs: the compiled bundle, built outside the
// repository (no node_modules to fall back on), started by plain `node`.
let gw: TestGateway;
let outDir: string;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put([studentItem({ id: 's1', name: 'Compiled' })]);
  // The run's one build (test/support/serverBuild.ts), shared with composeStreamWorker.test.ts.
  outDir = await serverBuild();
});
afterAll(() => gw.stop());

describe('gateway bundle (npm run build)', () => {
  it('serves GraphQL under plain node outside the repository and drains on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--enable-source-maps', join(outDir, 'src', 'transport', 'main.mjs')], {
      cwd: outDir,
      env: {
        PATH: process.env.PATH,
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        CURSOR_SECRET: 'bundle-test-cursor-secret-0123456789abcdef',
        AUTH_MODE: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /"url":"([^"]+)"/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`bundle exited (${code}): ${out}`)));
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ student(id: "s1") { name } }' }),
    });
    expect(await res.json()).toEqual({ data: { student: { name: 'Compiled' } } });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const log = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(log.find((l) => l.msg === 'graphql operation')).toMatchObject({ dynamodb: { requests: 1 } });
  });

  it('serves the offline explorer in development from the assets copied beside it (no node_modules)', async () => {
    const child = spawn(process.execPath, [join(outDir, 'src', 'transport', 'main.mjs')], {
      cwd: outDir,
      env: {
        PATH: process.env.PATH,
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        STREAM_WORKER: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /"url":"([^"]+)"/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`bundle exited (${code}): ${out}`)));
      });
      const base = url.replace(/\/graphql$/, '');
      expect((await fetch(`${base}/graphiql`)).status).toBe(200);
      for (const asset of ['graphiql.min.js', 'graphiql.min.css', 'react.production.min.js', 'react-dom.production.min.js']) {
        const res = await fetch(`${base}/graphiql/${asset}`);
        expect(res.status, asset).toBe(200);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
