/**
 * The bus over Redis or Valkey (REDIS_URL), through ioredis; channels are
 * `changes:<table>:<topic>` (docs/subscriptions.md, "More than one instance").
 *
 * - publish: one script per record that first claims it (`SET … NX EX`), so
 *   a record handed over again is published once; a batch's scripts go in
 *   one pipeline, in order. Images are redacted first (redaction.ts).
 * - listen: SUBSCRIBE per topic on a connection of its own, so an instance
 *   receives only what its clients want.
 * - authenticity: with REDIS_EVENT_SECRET each message is `<mac>.<sent at>.
 *   <event JSON>` (HMAC-SHA256 over channel, time and JSON); one that does
 *   not verify or is over a minute old is dropped and counted (`rejected`),
 *   so whoever can PUBLISH cannot feed subscribers or push a sequence ahead.
 * A failed publish does not hold the stream back: live updates are best
 * effort while Redis is down.
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

export function redisBus({
  url,
  tableName,
  onError,
  secret,
  redact = (e) => e,
}: RedisBusOptions): ChangeBus & { published: number; claimedBefore: number; rejected: number } {
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
