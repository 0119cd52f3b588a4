import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { localEndpoint } from '../support/gateway.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/transport/startGateway.js';
import { silentLogger } from '../../src/logger.js';

/** Local addresses (hex, as the kernel lists them) of the sockets listening on `port`. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no IPv6 on this machine
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (local?.endsWith(`:${hexPort}`) && state === '0A') found.push(local.slice(0, -5));
    }
  }
  return found;
}

const LOOPBACK_V4 = '0100007F'; // 127.0.0.1, little-endian
const LOOPBACK_V4_MAPPED = '0000000000000000FFFF00000100007F'; // ::ffff:127.0.0.1

describe('the embedded DynamoDB Local', () => {
  it.runIf(process.platform === 'linux')('listens on 127.0.0.1 only, never on every interface', () => {
    const port = Number(new URL(localEndpoint()).port);
    const addresses = listeningAddresses(port);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect([LOOPBACK_V4, LOOPBACK_V4_MAPPED]).toContain(address);
  });

  it('is refused in production: without DYNAMODB_ENDPOINT the gateway does not start, and says why', async () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_MODE: 'off', CURSOR_SECRET: 's0123456789abcdefghijklmnopqrstuv', PORT: '0', HOST: '127.0.0.1' });
    const started = startGateway(config, silentLogger);
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/NODE_ENV=production needs a real table: set DYNAMODB_ENDPOINT/);
  });
});
