import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

describe('createLogger', () => {
  it('uses the configured level', () => {
    expect(createLogger('warn').level).toBe('warn');
    expect(createLogger('warn').isLevelEnabled('info')).toBe(false);
  });
});
