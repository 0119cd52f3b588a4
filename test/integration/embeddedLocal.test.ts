/**
 * The embedded DynamoDB Local of `npm start` against what a first run may
 * meet: its port already taken (a second `npm start`, compose's DynamoDB
 * Local, an orphan), and a machine with a Java runtime but no compiler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { freePort, startLocalDynamo } from '../../src/dynamo/local.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint } from '../support/gateway.js';
import { patience } from '../support/patience.js';

let squatter: Server;
let busyPort: number;
beforeAll(async () => {
  busyPort = await freePort();
  squatter = createServer(() => {});
  await new Promise<void>((resolve) => squatter.listen(busyPort, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

describe('a busy port', () => {
  it('stops npm start before any other work, in one line naming DYNAMODB_LOCAL_PORT', async () => {
    const config = loadConfig({ DYNAMODB_LOCAL_PORT: String(busyPort), PORT: '0', HOST: '127.0.0.1' });
    const started = startGateway(config, silentLogger);
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(new RegExp(`^DYNAMODB_LOCAL_PORT ${busyPort} on 127\\.0\\.0\\.1 is in use`));
  });

  it(
    'never takes another DynamoDB Local on the port for its own',
    async () => {
      // The run's DynamoDB Local answers on its port: a second one must fail to bind, not use it.
      const port = Number(new URL(localEndpoint()).port);
      await expect(startLocalDynamo({ port, timeoutMs: patience(30_000) })).rejects.toThrow(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
    },
    patience(60_000),
  );

  it('stops npm start in one line naming PORT when the HTTP port is taken', async () => {
    const config = loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), PORT: String(busyPort), HOST: '127.0.0.1' });
    await expect(startGateway(config, silentLogger)).rejects.toThrow(new RegExp(`^PORT ${busyPort} on 127\\.0\\.0\\.1 is in use`));
  });
});

describe('Java', () => {
  it.runIf(process.platform === 'linux')(
    'a runtime without javac is enough',
    async () => {
      // A PATH whose only Java tool is `java`: no javac, as with a JRE.
      const bin = mkdtempSync(join(tmpdir(), 'jre-only-'));
      try {
        const java = execFileSync('sh', ['-c', 'readlink -f "$(command -v java)"']).toString().trim();
        symlinkSync(java, join(bin, 'java'));
        const path = process.env.PATH;
        process.env.PATH = bin;
        let local;
        try {
          local = await startLocalDynamo({ timeoutMs: patience(60_000) });
        } finally {
          process.env.PATH = path;
        }
        expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        await local.stop();
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    },
    patience(90_000),
  );
});
