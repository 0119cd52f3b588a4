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
 * - privacy: each image goes through `redact` first (redaction.ts): Redis
 *   holds no field that only some subscribers may read.
 * - authenticity: with a secret (REDIS_EVENT_SECRET, the same on the
 *   processor and every instance) each message is `<mac>.<sent at>.<event
 *   JSON>`, the MAC an HMAC-SHA256 over the channel, the time (ms) and the
 *   JSON. A message that does not verify (forged, altered, sent to another
 *   channel, unsigned) or was sent more than a minute ago (a genuine one
 *   replayed) is dropped and counted (`rejected`): whoever can PUBLISH to
 *   the Redis cannot feed subscribers, nor push a sequence number ahead so
 *   that the next genuine event looks older; a replay within the minute is
 *   a sequence number the hub has delivered already. Without a secret
 *   (development) events go unsigned and are taken as they come.
 *
 * A publish that fails (Redis unreachable) is logged by the caller and
 * does not hold the stream back: live updates are best effort while Redis
 * is down; the table's own work (copies, cascades) goes on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ChangeBus } from './bus.js';
import type { ChangeEvent } from './events.js';
import type { Redaction } from './redaction.js';

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
  /** Signs published events and verifies received ones (REDIS_EVENT_SECRET). */
  secret?: string;
  /** What of each event's image may go through Redis (redaction.ts); all of it when absent. */
  redact?: Redaction;
}

/** How old a signed message may be when it arrives: a genuine message replayed later is dropped. */
export const MAX_MESSAGE_AGE_MS = 60_000;

const mac = (secret: string, channel: string, at: string, json: string) =>
  createHmac('sha256', secret).update(channel).update('\n').update(at).update('\n').update(json).digest('base64url');

/** The message for `channel`: the event's JSON, signed with the time it is sent when there is a secret. */
export function signedMessage(secret: string | undefined, channel: string, json: string, at = Date.now()): string {
  return secret === undefined ? json : `${mac(secret, channel, String(at), json)}.${at}.${json}`;
}

/** The event's JSON of a message that verifies for `channel` and is recent; undefined when it is not. */
export function verifiedMessage(secret: string | undefined, channel: string, message: string, now = Date.now()): string | undefined {
  const dot = message.indexOf('.');
  const second = dot < 0 ? -1 : message.indexOf('.', dot + 1);
  if (secret === undefined) {
    // Unsigned development setup: take the JSON, whether or not a processor signed it.
    return message.startsWith('{') || second < 0 ? message : message.slice(second + 1);
  }
  if (second < 0) return undefined;
  const at = message.slice(dot + 1, second);
  const json = message.slice(second + 1);
  const given = Buffer.from(message.slice(0, dot));
  const expected = Buffer.from(mac(secret, channel, at, json));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  // Signed, but sent long ago (or by a clock far ahead): a replay, not news.
  return Math.abs(now - Number(at)) <= MAX_MESSAGE_AGE_MS ? json : undefined;
}

export function redisBus({ url, tableName, onError, secret, redact = (e) => e }: RedisBusOptions): ChangeBus & { published: number; claimedBefore: number; rejected: number } {
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
    /** Messages received that did not verify, dropped. */
    rejected: 0,
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
        const args = group.flatMap((e) => [prefix + e.topic, signedMessage(secret, prefix + e.topic, JSON.stringify(redact(e)))]);
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
          const json = verifiedMessage(secret, channel, message);
          let event: ChangeEvent | undefined;
          try {
            event = json === undefined ? undefined : (JSON.parse(json) as ChangeEvent);
          } catch {
            event = undefined;
          }
          // The channel names the topic: an event claiming another is not this channel's.
          if (!event || typeof event !== 'object' || event.topic !== channel.slice(prefix.length)) {
            bus.rejected++;
            return;
          }
          try {
            bus.receive(event);
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
