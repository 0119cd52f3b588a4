/**
 * publishingHandler(): the stream handler (stream/handler.ts) plus change
 * events: after the handler has done a batch's records (all of them, or
 * those before the one it failed on), the events of exactly those records
 * are published, in record order, before the runner moves on. Records
 * handed over again after a failure start after those, so each record is
 * published once by a running processor; replays after a restart are
 * recognised by their sequence numbers (redisBus.ts, hub.ts).
 *
 * Every runner uses it: the in-process reader of `npm start`,
 * `npm run stream-worker` and the stream Lambda (stream/worker.ts,
 * stream/lambda.ts). A publish that fails is logged and counted; it does
 * not fail the batch, whose table work is done.
 */
import { handleRecords } from './handler.js';
import type { Logger } from '../logger.js';
import type { ChangeBus } from '../subscriptions/bus.js';
import { eventsOf } from '../subscriptions/events.js';
import type { ChangeModel } from '../subscriptions/model.js';

export interface PublishStats {
  events: number;
  failed: number;
}

export function publishingHandler(
  bus: ChangeBus,
  model: ChangeModel,
  handler: typeof handleRecords = handleRecords,
  stats: PublishStats = { events: 0, failed: 0 },
): typeof handleRecords {
  return async (store, records, logger?: Logger) => {
    const outcome = await handler(store, records, logger);
    if (bus.idle?.()) return outcome; // nobody listens in this process: not even the records' decoding
    const events = records.slice(0, outcome.done).flatMap((r) => eventsOf(r, model));
    if (events.length > 0) {
      try {
        await bus.publish(events);
        stats.events += events.length;
      } catch (err) {
        stats.failed += events.length;
        logger?.warn({ err, events: events.length }, 'could not publish change events; subscribers miss them');
      }
    }
    return outcome;
  };
}
