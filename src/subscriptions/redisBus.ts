/**
 * The bus over Redis or Valkey (REDIS_URL), through ioredis.
 *
 * - publish: the events of one record go out in one script that first
 *   claims the record (`SET <prefix>seen:<seq>:<item> NX EX 86400`): a
 *   record the processor hands over again (a restart from its checkpoint, a
 *   Lambda retry) is published once. The claim lives as long as the
 *   stream keeps records (24 hours). The scripts of a batch go in one
 *   pipeline, in order: Redis runs them in that order, and Pub/Sub keeps it.
 * - listen/unlisten: SUBSCRIBE/UNSUBSCRIBE on the channel of each topic,
 *   on a connection of its own, opened at the first listen: an instance
 *   receives only the topics its clients want. ioredis subscribes again
 *   after a reconnect.
 * Channels are `<prefix><topic>` with prefix `changes:<table>:`, so tables
 * can share a Redis.
 *
 * A publish that fails (Redis unreachable) is logged by the caller and
 * does not hold the stream back: live updates are best effort while Redis
 * is down; the table's own work (copies, cascades) goes on.
 */
import { Redis } from 'ioredis';
import type { ChangeBus } from './bus.js';
import type { ChangeEvent } from './events.js';

const CLAIM_SECONDS = 86_400;

const PUBLISH_ONCE = `
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  for i = 2, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
  return 1
end
return 0`;

export interface RedisBusOptions {
  url: string;
  tableName: string;
  /** Where connection problems are reported (once per change of state). */
  onError?: (err: unknown) => void;
}

export function redisBus({ url, tableName, onError }: RedisBusOptions): ChangeBus & { published: number; claimedBefore: number } {
  const prefix = `changes:${tableName}:`;
  const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  const connect = (role: string) => {
    const client = new Redis(url, { ...options, connectionName: `gateway-${role}` });
    client.on('error', (err) => onError?.(err));
    return client;
  };
  const bus = {
    kind: 'redis' as const,
    published: 0,
    claimedBefore: 0,
    async publish(events: readonly ChangeEvent[]) {
      if (events.length === 0) return;
      pub ??= connect('publisher');
      // Group by record, keeping the order records came in.
      const records = new Map<string, ChangeEvent[]>();
      for (const e of events) {
        const key = `${e.seq}:${e.item}`;
        const group = records.get(key);
        if (group) group.push(e);
        else records.set(key, [e]);
      }
      const pipeline = pub.pipeline();
      for (const [key, group] of records) {
        const args = group.flatMap((e) => [prefix + e.topic, JSON.stringify(e)]);
        pipeline.eval(PUBLISH_ONCE, 1, `${prefix}seen:${key}`, CLAIM_SECONDS, ...args);
      }
      const results = (await pipeline.exec()) ?? [];
      for (const [err, claimed] of results) {
        if (err) throw err;
        if (claimed === 1) bus.published++;
        else bus.claimedBefore++;
      }
    },
    async listen(topic: string) {
      if (!sub) {
        sub = connect('subscriber');
        sub.on('message', (channel: string, message: string) => {
          if (!channel.startsWith(prefix)) return;
          try {
            bus.receive(JSON.parse(message) as ChangeEvent);
          } catch (err) {
            onError?.(err);
          }
        });
      }
      await sub.subscribe(prefix + topic);
    },
    async unlisten(topic: string) {
      await sub?.unsubscribe(prefix + topic);
    },
    receive: (_event: ChangeEvent) => {},
    async close() {
      await Promise.all([pub?.quit().catch(() => pub?.disconnect()), sub?.quit().catch(() => sub?.disconnect())]);
    },
  };
  return bus;
}
