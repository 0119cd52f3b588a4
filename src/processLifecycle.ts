/**
 * How the two long-running entry points (`npm start`: main.ts, `npm run
 * stream-worker`: streamWorker.ts) live as processes: a configuration error
 * ends them with one readable line, a misspelled setting is warned about,
 * and SIGTERM/SIGINT run their `stop` once, then exit (exit code 1 if
 * stopping takes longer than 10 s).
 * The only file that reads process signals, but for the Lambda API
 * function's SIGTERM (transport/lambdaHandler.ts: the export of its
 * telemetry before Lambda shuts an instance down).
 */
import { ConfigError, type Config } from './config.js';
import { ModelError } from './declaration/problems.js';
import { SubscriptionDeclarationError } from './subscriptions/declared.js';
import type { Logger } from './logger.js';

const FORCE_EXIT_MS = 10_000;

/** One warning per variable with the project's prefixes that no setting reads, naming the closest setting. */
export function warnUnknownSettings(logger: Logger, config: Pick<Config, 'unknownSettings'>): void {
  for (const { name, closest } of config.unknownSettings) {
    logger.warn({ setting: name, closest }, `${name} is not a setting and is ignored; did you mean ${closest}?`);
  }
}

/** Runs `stop` on the first SIGTERM/SIGINT, then exits. */
export function stopOnSignals(logger: Logger, message: string, stop: () => Promise<void>, details: () => object = () => ({})): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, ...details() }, message);
    setTimeout(() => process.exit(1), FORCE_EXIT_MS).unref();
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Runs an entry point; a failure to start ends the process with exit code 1
 * and one line, no stack: a setting's problem as `configuration error: …`
 * naming it, a model's one line per problem, anything else as
 * `start-up failed: <name>: <message>`.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(startupFailure(err));
    process.exit(1);
  });
}

export function startupFailure(err: unknown): string {
  // One line per problem, as the model's own check prints them.
  if (err instanceof ModelError || err instanceof SubscriptionDeclarationError) return err.message;
  if (err instanceof ConfigError) return `configuration error: ${err.message}`;
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return `start-up failed: ${message.replace(/\s*\n\s*/g, ' ')}`;
}
