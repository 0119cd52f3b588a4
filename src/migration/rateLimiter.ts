/**
 * A token bucket over capacity units: `take(units)` waits until the bucket
 * holds them, `settle(estimated, actual)` corrects the bucket once a write
 * reports what it really consumed (DynamoDB's ConsumedCapacity), so the
 * long-run rate is the units actually consumed, not the estimates.
 *
 * The bucket holds at most one second of units (burst), starts full, and
 * may go into debt after an under-estimate: the next take waits it off.
 */
import { sleep } from '../dynamo/backoff.js';

export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly unitsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    if (!(unitsPerSecond > 0)) throw new Error(`unitsPerSecond must be > 0; got ${unitsPerSecond}`);
    this.tokens = unitsPerSecond;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.unitsPerSecond, this.tokens + ((t - this.last) / 1000) * this.unitsPerSecond);
    this.last = t;
  }

  async take(units: number): Promise<void> {
    // A single write larger than the burst still passes once the bucket is full.
    const need = Math.min(units, this.unitsPerSecond);
    for (;;) {
      this.refill();
      if (this.tokens >= need) {
        this.tokens -= units;
        return;
      }
      await this.wait(Math.max(1, ((need - this.tokens) / this.unitsPerSecond) * 1000));
    }
  }

  settle(estimated: number, actual: number): void {
    this.tokens -= actual - estimated;
  }
}
