/** Waiting between retries of DynamoDB requests: one jitter formula for every retry loop. */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Full jitter before the `retry`-th retry (1 for the first): a random delay up to base·2^(retry-1). */
export const backoff = (baseMs: number, retry: number) => sleep(Math.random() * baseMs * 2 ** (retry - 1));
