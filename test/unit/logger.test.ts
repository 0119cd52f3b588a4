import { describe, expect, it } from 'vitest';
import { asLogger, createLogger, silentLogger } from '../../src/logger.js';

describe('asLogger', () => {
  it('hands a plain callback the message of every line at or above the level', () => {
    const messages: string[] = [];
    const logger = asLogger((m) => messages.push(m), 'info');
    logger.info({ table: 'AppTable' }, 'table created');
    logger.debug('not shown');
    logger.warn('careful');
    expect(messages).toEqual(['table created', 'careful']);
  });

  it('returns a pino logger unchanged', () => {
    expect(asLogger(silentLogger)).toBe(silentLogger);
  });
});

describe('createLogger', () => {
  it('uses the configured level', () => {
    expect(createLogger('warn').level).toBe('warn');
    expect(createLogger('warn').isLevelEnabled('info')).toBe(false);
  });
});
