/**
 * `npm start` → http://localhost:4000/graphql: loads the configuration,
 * starts the gateway (transport/startGateway.ts binds the port) and drains
 * it on SIGTERM/SIGINT (processLifecycle.ts).
 */
import { loadConfig } from './config.js';
import { runMain, stopOnSignals, warnUnknownSettings } from './processLifecycle.js';
import { startGateway } from './transport/startGateway.js';
import { createLogger } from './logger.js';

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  warnUnknownSettings(logger, config);
  const gateway = await startGateway(config, logger);
  // The settings that differ from their defaults (secrets redacted): how this process was configured.
  logger.info({ url: gateway.url, startupMs: Date.now() - started, settings: config.changedSettings }, `gateway ready at ${gateway.url}`);
  stopOnSignals(logger, 'draining requests and stopping', () => gateway.stop());
}

runMain(main);
