/**
 * `npm start` → http://localhost:4000/graphql: loads the configuration,
 * starts the gateway (transport/startGateway.ts binds the port) and is the
 * only file that reads process signals (drain on SIGTERM/SIGINT).
 */
import { ConfigError, loadConfig } from './config.js';
import { startGateway } from './transport/startGateway.js';
import { createLogger } from './logger.js';

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const gateway = await startGateway(config, logger);
  logger.info({ url: gateway.url, startupMs: Date.now() - started }, `gateway ready at ${gateway.url}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining requests and stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await gateway.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
