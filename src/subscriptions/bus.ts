/**
 * The bus between the one stream processor and the gateway instances.
 *
 * - processor side: `publish(events)`, each event once (a replayed record
 *   is published again only where the bus cannot tell; the hub drops it);
 * - instance side: `listen(topic)` / `unlisten(topic)` as the instance's
 *   clients start and stop wanting a topic; received events go to
 *   `receive`.
 *
 * `memoryBus` is the process itself (no REDIS_URL: the in-process stream
 * processor of `npm start` feeds its own subscribers); redisBus.ts is the
 * one for many instances.
 */
import type { ChangeEvent } from './events.js';

export interface ChangeBus {
  readonly kind: 'memory' | 'redis';
  /** True when no one can receive what is published now (an in-process bus without listeners): publishing may be skipped. */
  idle?(): boolean;
  publish(events: readonly ChangeEvent[]): Promise<void>;
  listen(topic: string): Promise<void>;
  unlisten(topic: string): Promise<void>;
  /** Messages received that failed authentication and were dropped (Redis with a secret). */
  readonly rejected?: number;
  /** Set by the hub: where this instance's received events go. */
  receive: (event: ChangeEvent) => void;
  close(): Promise<void>;
}

export function memoryBus(): ChangeBus {
  const listening = new Set<string>();
  const bus: ChangeBus = {
    kind: 'memory',
    idle: () => listening.size === 0,
    async publish(events) {
      for (const event of events) if (listening.has(event.topic)) bus.receive(event);
    },
    async listen(topic) {
      listening.add(topic);
    },
    async unlisten(topic) {
      listening.delete(topic);
    },
    receive: () => {},
    async close() {
      listening.clear();
    },
  };
  return bus;
}
