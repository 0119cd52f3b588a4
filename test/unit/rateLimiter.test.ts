import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/migration/rateLimiter.js';

/** A limiter on a fake clock: waiting advances time instead of sleeping. */
function fakeLimiter(unitsPerSecond: number) {
  let now = 0;
  const limiter = new RateLimiter(
    unitsPerSecond,
    () => now,
    async (ms) => {
      now += ms;
    },
  );
  return { limiter, elapsed: () => now };
}

describe('the migration rate limiter', () => {
  it('lets one second of units through at once, then paces to the rate', async () => {
    const { limiter, elapsed } = fakeLimiter(100);
    for (let i = 0; i < 100; i++) await limiter.take(1);
    expect(elapsed()).toBe(0);
    for (let i = 0; i < 300; i++) await limiter.take(1);
    expect(elapsed()).toBeGreaterThanOrEqual(2990);
    expect(elapsed()).toBeLessThanOrEqual(3010);
  });

  it('charges what a write really consumed, so under-estimates are paid back by waiting', async () => {
    const { limiter, elapsed } = fakeLimiter(10);
    await limiter.take(10);
    limiter.settle(10, 30); // it cost three times the estimate
    await limiter.take(1);
    expect(elapsed()).toBeGreaterThanOrEqual(2000);
  });

  it('passes a write bigger than one second of units once the bucket is full', async () => {
    const { limiter } = fakeLimiter(5);
    await expect(limiter.take(50)).resolves.toBeUndefined();
  });
});
