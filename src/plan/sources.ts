/**
 * What a connection reads, as the plan describes it: the sources the
 * connection engine (src/connections/) pages over. Types only; the plan
 * makes them (rangePlan.ts, relationPlan.ts, sharding.ts), the connections
 * read them.
 */
import type { Collection } from '../dynamo/collection.js';
import type { FilledRead, Filter } from '../dynamo/filledRange.js';

/** A range of the index (its key attributes, partition, sort-key bounds) as filledRange reads it, plus what cursors are bound to. */
export interface RangeSource extends Pick<FilledRead, 'index' | 'pkAttr' | 'skAttr' | 'pk' | 'pkMore' | 'numbers' | 'lo' | 'hi'> {
  /** Connection name (`User.posts`): cursors are bound to it. */
  name: string;
  /** The parent's partition (`USER#<id>`): cursors are bound to it. */
  partition: string;
  filter: Filter | null;
  /** The arguments cursors are bound to, in a canonical form. */
  binding: string;
  /** Read from the highest sort key (order: DESCENDING). */
  descending?: boolean;
}

/**
 * Several partitions read as one collection (the shards of a catalog or of a
 * write-sharded relation), merged into one order.
 */
export interface MergedCollection {
  /** Connection name, e.g. `Team.players`: cursors are bound to it. */
  name: string;
  /** The collection independent of its shard count, e.g. `TEAM#<tid>`: cursors are bound to it. */
  group: string;
  /** At least one; same index, key attributes and prefix; distinct partition values. */
  shards: readonly Collection[];
}
