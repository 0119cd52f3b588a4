/**
 * The per-caller buckets of DynamoDB requests kept in Redis (REDIS_URL), so
 * that every instance draws from one bucket per caller: a caller spreading
 * its operations over instances gets the same budget as on one.
 *
 * One script refills a bucket (a hash: `t` tokens, `a` refilled at, ms)
 * and either reserves from it, never below empty, or gives back to it (a
 * negative amount charges), atomically; it expires once it would be full
 * again, so Redis holds the buckets of recent callers only. The clock is
 * the instance's (epoch ms): a clock behind the bucket's time refills
 * nothing, so skew between instances never adds requests.
 *
 * `ready` is false while the connection is not up (connecting, Redis
 * down) and, a circuit breaker, from the first command that fails (a hung
 * Redis: no answer within the command timeout) until a probe is answered
 * again: callerBudget.ts then serves from its local buckets at once rather
 * than wait, so a hung Redis costs one command timeout, not one per
 * request. Commands never queue: a command on a lost connection fails at once.
 */
import { Redis } from 'ioredis';

const BUCKET = `
local v = redis.call('HMGET', KEYS[1], 't', 'a')
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local amount = tonumber(ARGV[4])
local tokens = tonumber(v[1])
local at = tonumber(v[2])
if tokens == nil or at == nil then tokens = burst; at = now end
if now > at then
  tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
  at = now
end
local granted = 0
if ARGV[5] == 'reserve' then
  granted = math.max(0, math.min(amount, math.floor(tokens)))
  tokens = tokens - granted
else
  tokens = math.min(burst, tokens + amount)
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {granted, tostring(tokens)}`;

interface Rate {
  perSecond: number;
  burst: number;
}

export interface SharedBuckets {
  /** Whether a command can be sent now (connected, and the breaker closed). */
  readonly ready: boolean;
  /** Reserves up to `wanted` whole requests (0: only reads) of the caller's bucket refilled to `now`, never below empty. */
  reserve(key: string, wanted: number, rate: Rate, now: number): Promise<{ granted: number; tokens: number }>;
  /** Gives back `requests` to the caller's bucket (a negative number charges). */
  release(key: string, requests: number, rate: Rate, now: number): Promise<void>;
  close(): Promise<void>;
}

export interface RedisBucketsOptions {
  url: string;
  /** Keys are `<prefix><caller>`; the table's name keeps deployments on one Redis apart. */
  prefix: string;
  /** Connection problems, and the breaker opening (once per change of state is the caller's affair). */
  onError?: (err: unknown) => void;
  /** How long a command may wait for its answer before Redis counts as hung (default 500 ms). */
  commandTimeoutMs?: number;
  /** How often an open breaker asks Redis whether it answers again (default 1000 ms). */
  probeMs?: number;
}

type WithBucket = Redis & { callerBucket(key: string, now: number, perSecond: number, burst: number, amount: number, mode: string): Promise<[number, string]> };

export function redisBuckets({ url, prefix, onError, commandTimeoutMs = 500, probeMs = 1000 }: RedisBucketsOptions): SharedBuckets {
  const client = new Redis(url, {
    connectionName: 'gateway-budget',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
  }) as WithBucket;
  client.defineCommand('callerBucket', { numberOfKeys: 1, lua: BUCKET });
  client.on('error', (err) => onError?.(err));
  let open = false;
  let probe: NodeJS.Timeout | undefined;
  let closed = false;
  const ask = () => {
    probe = setTimeout(() => {
      client.ping().then(
        () => (open = false),
        () => !closed && ask(),
      );
    }, probeMs);
    probe.unref();
  };
  /** A command failed: skip Redis until a probe is answered. */
  const trip = (err: unknown) => {
    if (open || closed) return;
    open = true;
    onError?.(err);
    ask();
  };
  const send = async (key: string, amount: number, { perSecond, burst }: Rate, now: number, mode: string) => {
    try {
      return await client.callerBucket(prefix + key, now, perSecond, burst, amount, mode);
    } catch (err) {
      trip(err);
      throw err;
    }
  };
  return {
    get ready() {
      return !open && client.status === 'ready';
    },
    async reserve(key, wanted, rate, now) {
      const [granted, tokens] = await send(key, wanted, rate, now, 'reserve');
      return { granted: Number(granted), tokens: Number(tokens) };
    },
    async release(key, requests, rate, now) {
      await send(key, requests, rate, now, 'release');
    },
    async close() {
      closed = true;
      clearTimeout(probe);
      await client.quit().catch(() => client.disconnect());
    },
  };
}
