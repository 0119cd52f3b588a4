/**
 * Deadlines in tests guard against a hang; they never measure speed. Each
 * is the time the wait takes at most on a 2-core machine running the suite
 * alone, stretched by how busy the machine is when the wait starts: by the
 * load average per core, so a machine at load 8 on 2 cores waits four times
 * as long. A test asserts what happens (an outcome, a count, an order),
 * never how fast; waiting for something is `until`, not a sleep.
 */
import { availableParallelism, loadavg } from 'node:os';

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** How many times slower than its own share of the machine a wait may be now: the load per core, at least 1. */
export const slowdown = (): number => Math.max(1, loadavg()[0]! / availableParallelism());

/** `ms` (sized for a machine running the suite alone) stretched by the machine's load now. */
export const patience = (ms: number): number => Math.round(ms * slowdown());

/**
 * Polls `check` every `intervalMs` until it returns a truthy value, which it
 * returns; past `patience(timeoutMs)` it throws, naming `what` (a function
 * is called then, to say what was seen).
 */
export async function until<T>(check: () => T | Promise<T>, what: string | (() => string), timeoutMs = 30_000, intervalMs = 20): Promise<Truthy<T>> {
  const deadline = Date.now() + patience(timeoutMs);
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
