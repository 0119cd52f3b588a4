/**
 * The per-caller buckets of DynamoDB requests kept in Redis (REDIS_URL), so
 * that every instance draws from one bucket per caller: a caller spreading
 * its operations over instances gets the same budget as on one.
 *
 * One script reads, refills, takes and writes a bucket atomically (a hash
 * `t` tokens, `a` refilled at, ms); it expires once it would be full again,
 * so Redis holds the buckets of recent callers only. The clock is the
 * instance's (epoch ms): a clock behind the bucket's time refills nothing,
 * so skew between instances never adds requests.
 *
 * `ready` is false while the connection is not up (connecting, Redis
 * down): callerBudget.ts then falls back to its local buckets rather than
 * wait. Commands never queue: a command on a lost connection fails at once.
 */
import { Redis } from 'ioredis';

const TAKE = `
local v = redis.call('HMGET', KEYS[1], 't', 'a')
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tokens = tonumber(v[1])
local at = tonumber(v[2])
if tokens == nil or at == nil then tokens = burst; at = now end
if now > at then
  tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
  at = now
end
tokens = tokens - tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return tostring(tokens)`;

export interface SharedBuckets {
  /** Whether a command can be sent now. */
  readonly ready: boolean;
  /** Takes `spend` requests (0: only reads) from the caller's bucket refilled to `now`; the tokens left. */
  take(key: string, spend: number, rate: { perSecond: number; burst: number }, now: number): Promise<number>;
  close(): Promise<void>;
}

export interface RedisBucketsOptions {
  url: string;
  /** Keys are `<prefix><caller>`; the table's name keeps deployments on one Redis apart. */
  prefix: string;
  /** Connection problems (once per change of state is the caller's affair). */
  onError?: (err: unknown) => void;
}

type WithTake = Redis & { callerBucket(key: string, now: number, perSecond: number, burst: number, spend: number): Promise<string> };

export function redisBuckets({ url, prefix, onError }: RedisBucketsOptions): SharedBuckets {
  const client = new Redis(url, { connectionName: 'gateway-budget', enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500 }) as WithTake;
  client.defineCommand('callerBucket', { numberOfKeys: 1, lua: TAKE });
  client.on('error', (err) => onError?.(err));
  return {
    get ready() {
      return client.status === 'ready';
    },
    async take(key, spend, { perSecond, burst }, now) {
      return Number(await client.callerBucket(prefix + key, now, perSecond, burst, spend));
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
