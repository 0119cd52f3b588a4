/**
 * The only file that binds a port or reads process signals.
 * `npm start` → http://localhost:4000/graphql.
 */
import { ConfigError, loadConfig } from './config.js';
import { startGateway } from './app.js';

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const gateway = await startGateway(config);
  console.log(`gateway ready at ${gateway.url} in ${Date.now() - started} ms`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining requests and stopping…`);
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
