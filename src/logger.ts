/**
 * The process logger: structured JSON lines (pino). Level from config
 * (`LOG_LEVEL`). Never log secrets or personal data (names, emails): log
 * ids, operation names, counts and error codes.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level = 'info'): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

/** A logger that drops everything (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });

/** A plain message callback, as older callers of startGateway pass (`() => {}` to be quiet). */
export type LogFn = (message: string) => void;

/** A Logger as is; a LogFn becomes a logger that hands it each line's message. */
export function asLogger(log: Logger | LogFn, level = 'info'): Logger {
  if (typeof log !== 'function') return log;
  return pino({ level, base: undefined }, { write: (line: string) => log(String(JSON.parse(line).msg ?? '')) });
}
