/**
 * The process logger: structured JSON lines (pino). Level from config
 * (`LOG_LEVEL`). Never log secrets or personal data (names, emails): log
 * ids, operation names, counts and error codes.
 */
import { pino, type Logger } from 'pino';
import { DEFAULTS, type LogLevel } from './config.js';

export type { Logger };

export function createLogger(level: LogLevel = DEFAULTS.logLevel): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

/** A logger that drops everything (tests, tools). */
export const silentLogger: Logger = pino({ level: 'silent' });
