/**
 * One benchmark server in its own process, so each gets the event loop to
 * itself: `gateway` (the gateway as `npm start` runs it), `naive` (the
 * gateway with GATEWAY_NAIVE=1) or `direct` (bench/direct.ts behind a bare
 * HTTP server). Prints `READY <url>` on stdout once listening on 127.0.0.1.
 * Configuration comes from the environment the runner sets. The runner
 * normally starts the compiled bundle of this file (scripts/bundle.ts), so
 * both servers run compiled JavaScript on the same Node, as production does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway } from '../src/transport/startGateway.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { dynamoFromConfig } from '../src/dynamo/client.js';
import { metricsClient, OperationMetrics } from '../src/dynamo/metrics.js';
import { LeanReads } from '../src/dynamo/leanReads/leanReads.js';
import { directCases, directClient } from './direct.js';

const mode = process.argv[2];

async function serveDirect(): Promise<string> {
  const config = loadConfig();
  // The gateway's own client (src/dynamo/client.ts), from the same configuration: same retries and timeouts.
  const { doc, reads } = dynamoFromConfig(config);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const name = (req.url ?? '').replace(/^\/direct\//, '');
    const handler = directCases[name];
    if (!handler) {
      res.statusCode = 404;
      res.end();
      return;
    }
    try {
      const { variables } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const metrics = new OperationMetrics();
      // Counted the way the gateway counts (a per-operation view of the client, a read port on the read path), so both pay the same.
      const client = directClient(metricsClient(doc, metrics), reads && new LeanReads(reads, metrics));
      const body = (await handler(client, config.tableName, variables ?? {})) as Record<string, unknown>;
      if (req.headers['x-dynamodb-metrics'] === '1') body.extensions = { dynamodb: metrics.summary() };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    } catch (err) {
      res.statusCode = 500;
      res.end(JSON.stringify({ errors: [{ message: String(err) }] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/direct`;
}

/** Compiled by scripts/bundle.ts (`.mjs`) or run from source through tsx (`.ts`). */
const bundled = import.meta.url.endsWith('.mjs');
const ready = (url: string) => console.log(`READY ${url} node=${process.version} bundle=${bundled ? 'yes' : 'no'}`);

async function main() {
  if (mode === 'direct') {
    ready(await serveDirect());
    return;
  }
  if (mode !== 'gateway' && mode !== 'naive') throw new Error(`unknown mode ${mode}; expected gateway, naive or direct`);
  const config = loadConfig();
  const gateway = await startGateway({ ...config, naive: mode === 'naive' }, silentLogger);
  ready(gateway.url);
}

// Exit normally on SIGTERM so `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
