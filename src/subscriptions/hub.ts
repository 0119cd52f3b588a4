/**
 * ChangeHub: an instance's subscribers, by topic, and the delivery of the
 * events its bus receives.
 *
 * - A topic is listened to on the bus while at least one subscriber of
 *   this instance wants it (add → first: `bus.listen`; last removed:
 *   `bus.unlisten`). `add` resolves once the bus receives the topic, so a
 *   write made after it is delivered.
 * - Per topic and item, an event is delivered only when its sequence
 *   number is above the last one delivered: a replayed or re-published
 *   record is dropped (counted in `duplicates`), and an older event never
 *   overtakes a newer one. The memory of last sequence numbers is bounded
 *   (`maxItemsPerTopic`, oldest forgotten first) and goes with the topic.
 * - Each event reaches a subscriber with a `SharedEvent`: what subscribers
 *   of one event may share (its loaders, and results for equal operations
 *   and callers), made once per event and instance.
 */
import type { ChangeBus } from './bus.js';
import { seqAfter, seqValue, type ChangeEvent } from './events.js';

/** What all subscribers of one event on this instance may share; filled lazily by them. */
export interface SharedEvent {
  event: ChangeEvent;
  memo: Map<string, unknown>;
}

export interface Subscriber {
  deliver(shared: SharedEvent): void;
}

interface Topic {
  subscribers: Set<Subscriber>;
  last: Map<string, bigint>;
  ready: Promise<void>;
}

export interface HubStats {
  topics: number;
  /** Events received from the bus for a topic someone here wants. */
  received: number;
  /** Replayed or re-published records dropped (their sequence number was delivered already). */
  duplicates: number;
}

export class ChangeHub {
  private readonly topics = new Map<string, Topic>();
  private received = 0;
  private duplicates = 0;

  constructor(
    readonly bus: ChangeBus,
    private readonly maxItemsPerTopic = 10_000,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    bus.receive = (event) => this.receive(event);
  }

  /** Adds a subscriber; resolves once the topic is received. The function returned removes it. */
  async add(topic: string, subscriber: Subscriber): Promise<() => void> {
    let entry = this.topics.get(topic);
    if (!entry) {
      entry = { subscribers: new Set(), last: new Map(), ready: this.bus.listen(topic) };
      this.topics.set(topic, entry);
    }
    entry.subscribers.add(subscriber);
    const mine = entry;
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      mine.subscribers.delete(subscriber);
      if (mine.subscribers.size === 0 && this.topics.get(topic) === mine) {
        this.topics.delete(topic);
        this.bus.unlisten(topic).catch(this.onError);
      }
    };
    try {
      await mine.ready;
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  }

  receive(event: ChangeEvent): void {
    const entry = this.topics.get(event.topic);
    if (!entry) return;
    this.received++;
    const last = entry.last.get(event.item);
    if (!seqAfter(event.seq, last)) {
      this.duplicates++;
      return;
    }
    const seq = seqValue(event.seq);
    if (seq !== undefined) {
      entry.last.delete(event.item);
      entry.last.set(event.item, seq);
      if (entry.last.size > this.maxItemsPerTopic) entry.last.delete(entry.last.keys().next().value!);
    }
    const shared: SharedEvent = { event, memo: new Map() };
    for (const s of entry.subscribers) s.deliver(shared);
  }

  stats(): HubStats {
    return { topics: this.topics.size, received: this.received, duplicates: this.duplicates };
  }
}
