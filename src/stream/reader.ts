/**
 * The in-process stream reader (local runs, `npm run stream-worker`): the
 * DynamoDB Streams API read the way a Lambda event source mapping reads it,
 * handing batches to the same handler.
 *
 * - Order: a child shard is read only once its parent is finished (or no
 *   longer listed), so an item's records are handled in write order.
 * - Checkpoints: the last sequence number handled per shard, in the table
 *   (checkpoints.ts); a shard resumes after it, or at TRIM_HORIZON.
 * - Failures: a failing record is retried in place with backoff, then
 *   dead-lettered and skipped; dead letters are redriven while idle (safe
 *   out of order: copies only move to a higher version). An expired
 *   iterator is asked again from the checkpoint; a model marker asking for
 *   work this processor lacks holds the shard (`modelBehind`); other errors
 *   retry the cycle. docs/stream.md has each case.
 * - A batch of nothing but its own bookkeeping is never checkpointed
 *   (checkpoints write stream records too).
 */
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type Shard,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { STREAM_PREFIX } from '../dynamo/keys.js';
import type { Logger } from '../logger.js';
import { backoff } from '../dynamo/backoff.js';
import type { Store } from '../writes/store.js';
import { deleteDeadLetter, listDeadLetters, loadCheckpoints, retryDeadLetter, saveCheckpoint, saveDeadLetter } from './checkpoints.js';
import { handleRecords } from './handler.js';
import { ModelBehind } from './modelWork.js';
import { imagesOf, recordTime, type StreamRecordLike } from '../dynamo/streamRecords.js';
import { StreamStats } from './stats.js';
import { tracedBatch } from './tracedBatch.js';
import type { Telemetry } from '../telemetry/telemetry.js';

export interface ReaderOptions {
  store: Store;
  streams: DynamoDBStreamsClient;
  streamArn: string;
  logger: Logger;
  /** GetRecords `Limit` (1–1000). */
  batchSize?: number;
  /** Pause after a cycle that found no records, in ms. */
  pollMs?: number;
  /** Attempts per record before it becomes a dead letter (first included). */
  maxAttempts?: number;
  /** Base delay of the backoff between those attempts, in ms. */
  retryDelayMs?: number;
  /** How often dead letters are handed to the handler again, at first, in ms (0: never). */
  redriveMs?: number;
  /** How often the shard list is read again (new shards), in ms. */
  shardRefreshMs?: number;
  /** Names this reader's checkpoints (default: the stream's label); another name reads the stream anew. */
  checkpointName?: string;
  stats?: StreamStats;
  /** The batch handler (default: handler.ts's `handleRecords`; tests observe with their own). */
  handler?: typeof handleRecords;
  /** A span per handled batch, its DynamoDB calls as children (src/telemetry/); none when absent. */
  telemetry?: Telemetry;
  /** The clock the redrive's pace is kept by, in ms (tests step it; default Date.now). */
  now?: () => number;
}

interface ShardState {
  id: string;
  parent: string | undefined;
  iterator: string | undefined;
  /** Last sequence number handled (checkpointed or about to be). */
  lastSeq: string | null;
  finished: boolean;
}

/** The longest wait between two redrive passes that still fail. */
const MAX_REDRIVE_MS = 5 * 60_000;

const errorName = (err: unknown) => (err as { name?: string })?.name ?? '';
/** A record of the reader's own bookkeeping (its checkpoints are items of the same table). */
const isOwn = (pk: string) => (record: StreamRecordLike) => String(imagesOf(record).keys[pk] ?? '').startsWith(STREAM_PREFIX);

/** The label DynamoDB gives a stream, read from its ARN (`…/stream/<label>`). */
export const labelOfStreamArn = (arn: string): string => arn.split('/stream/')[1] ?? arn;

export class StreamReader {
  readonly stats: StreamStats;
  private readonly o: Required<Omit<ReaderOptions, 'stats' | 'checkpointName' | 'telemetry' | 'now'>> & Pick<ReaderOptions, 'telemetry'>;
  private readonly now: () => number;
  private readonly shards = new Map<string, ShardState>();
  private label = '';
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private lastRefresh = 0;
  private cycle = 0;
  private waiters: { after: number; resolve: () => void }[] = [];
  /** Shards finished or discovered since the cycle began: such a cycle is not idle even without records. */
  private shardChanges = 0;
  private lastRedrive: number;
  private redriveEvery: number;

  constructor(options: ReaderOptions) {
    const { now = Date.now, ...rest } = options;
    this.o = { batchSize: 100, pollMs: 250, maxAttempts: 5, retryDelayMs: 100, redriveMs: 30_000, shardRefreshMs: 10_000, handler: handleRecords, ...rest };
    this.now = now;
    this.redriveEvery = this.o.redriveMs;
    this.lastRedrive = this.now();
    this.stats = options.stats ?? new StreamStats('stream');
    this.label = options.checkpointName ?? '';
  }

  /** The stream's label naming its checkpoint partition (known after the first shard listing; '' before). */
  get streamLabel(): string {
    return this.label;
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.stats.running = true;
    this.loop = this.run().finally(() => {
      this.stats.running = false;
    });
    return this;
  }

  /** Finishes the batch in hand, checkpoints it and stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  /** Stops reading at once, as a crash would: nothing more is checkpointed. */
  kill(): void {
    this.stopped = true;
    this.stats.running = false;
    this.wake?.();
  }

  /**
   * Resolves once a cycle that started after this call found no records in
   * any shard: everything written before the call (and everything the
   * handler wrote in turn) has been handled.
   */
  caughtUp(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ after: this.cycle, resolve });
      this.wake?.();
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const started = ++this.cycle;
      this.shardChanges = 0;
      try {
        if (Date.now() - this.lastRefresh > this.o.shardRefreshMs) await this.refreshShards();
        let fetched = 0;
        for (const shard of this.readyShards()) {
          if (this.stopped) return;
          fetched += await this.readOnce(shard);
        }
        failures = 0;
        // Idle only when nothing was read and no shard closed or appeared (a closed parent's children are next).
        if (fetched === 0 && this.shardChanges === 0) {
          this.settle(started);
          if (this.o.redriveMs > 0 && this.now() - this.lastRedrive >= this.redriveEvery) await this.redrive();
          await this.pause(this.o.pollMs);
        }
      } catch (err) {
        failures++;
        this.stats.lastError = errorName(err) || 'Error'; // the name only: /health may show it, messages go to the log
        this.o.logger.error({ err, failures }, 'stream reader cycle failed; retrying');
        await this.pause(Math.min(30_000, this.o.pollMs * 2 ** Math.min(failures, 7)));
      }
    }
  }

  private settle(cycle: number): void {
    const ready = this.waiters.filter((w) => w.after < cycle);
    this.waiters = this.waiters.filter((w) => w.after >= cycle);
    for (const w of ready) w.resolve();
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** DescribeStream (all pages), merged with the checkpoints of shards seen for the first time. */
  private async refreshShards(): Promise<void> {
    const listed: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const out = await this.o.streams.send(new DescribeStreamCommand({ StreamArn: this.o.streamArn, ExclusiveStartShardId }));
      const d = out.StreamDescription;
      this.label ||= d?.StreamLabel ?? labelOfStreamArn(this.o.streamArn);
      listed.push(...(d?.Shards ?? []));
      ExclusiveStartShardId = d?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    if (listed.some((s) => !this.shards.has(s.ShardId!))) {
      const checkpoints = await loadCheckpoints(this.o.store, this.label);
      for (const s of listed) {
        if (this.shards.has(s.ShardId!)) continue;
        const cp = checkpoints.get(s.ShardId!);
        this.shardChanges++;
        this.shards.set(s.ShardId!, {
          id: s.ShardId!,
          parent: s.ParentShardId,
          iterator: undefined,
          lastSeq: cp?.sequenceNumber ?? null,
          finished: cp?.finished ?? false,
        });
      }
    }
    // Shards DynamoDB no longer lists were trimmed: forget them (their children no longer wait).
    const ids = new Set(listed.map((s) => s.ShardId!));
    for (const id of [...this.shards.keys()]) {
      if (!ids.has(id)) {
        this.shards.delete(id);
        this.stats.forget(id);
      }
    }
    this.lastRefresh = Date.now();
    const states = [...this.shards.values()];
    this.stats.shards = { open: states.filter((s) => !s.finished).length, finished: states.filter((s) => s.finished).length };
  }

  /** Unfinished shards whose parent is finished or no longer listed, parents first. */
  private readyShards(): ShardState[] {
    return [...this.shards.values()].filter((s) => !s.finished && (!s.parent || this.shards.get(s.parent)?.finished !== false));
  }

  private async iteratorFor(shard: ShardState): Promise<string | undefined> {
    const from = shard.lastSeq
      ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: shard.lastSeq }
      : { ShardIteratorType: 'TRIM_HORIZON' as const };
    try {
      const out = await this.o.streams.send(new GetShardIteratorCommand({ StreamArn: this.o.streamArn, ShardId: shard.id, ...from }));
      return out.ShardIterator;
    } catch (err) {
      if (errorName(err) !== 'TrimmedDataAccessException') throw err;
      this.o.logger.error(
        { shardId: shard.id, after: shard.lastSeq },
        'stream records were trimmed before they were processed; reading from the oldest record left',
      );
      shard.lastSeq = null;
      const out = await this.o.streams.send(new GetShardIteratorCommand({ StreamArn: this.o.streamArn, ShardId: shard.id, ShardIteratorType: 'TRIM_HORIZON' }));
      return out.ShardIterator;
    }
  }

  /** One GetRecords on a shard, its records handled and checkpointed. Returns how many records it fetched. */
  private async readOnce(shard: ShardState): Promise<number> {
    shard.iterator ??= await this.iteratorFor(shard);
    if (shard.iterator === undefined) {
      await this.finish(shard);
      return 0;
    }
    let out;
    try {
      out = await this.o.streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: this.o.batchSize }));
    } catch (err) {
      const name = errorName(err);
      if (name === 'ExpiredIteratorException' || name === 'TrimmedDataAccessException') {
        shard.iterator = undefined; // asked for again from the checkpoint (iteratorFor handles trimming)
        return 0;
      }
      if (name === 'ResourceNotFoundException') {
        this.o.logger.warn({ shardId: shard.id }, 'stream shard no longer exists');
        await this.finish(shard);
        return 0;
      }
      throw err;
    }
    const records = (out.Records ?? []) as (_Record & StreamRecordLike)[];
    this.stats.behind(shard.id, records.length > 0 ? (recordTime(records[0]) ?? Date.now()) : null);
    if (records.length > 0 && (await this.handle(shard, records)) === 'held') {
      // Read again from the checkpoint on the next cycle: the held record waits there.
      shard.iterator = undefined;
      return 0;
    }
    if (this.stopped && records.length > 0 && !this.stats.running) return records.length; // killed mid-batch
    shard.iterator = out.NextShardIterator;
    if (shard.iterator === undefined) await this.finish(shard);
    return records.length;
  }

  private async finish(shard: ShardState): Promise<void> {
    shard.finished = true;
    this.shardChanges++;
    await saveCheckpoint(this.o.store, this.label, shard.id, { sequenceNumber: shard.lastSeq, finished: true });
    this.stats.forget(shard.id);
    this.lastRefresh = 0; // children may be listed now
  }

  /**
   * Handles a batch in order: retries a failing record in place, then dead-letters it; a model marker
   * whose work this processor lacks holds the shard there ('held'), neither retried nor dead-lettered.
   */
  private async handle(shard: ShardState, records: StreamRecordLike[]): Promise<'held' | void> {
    let i = 0;
    let attempts = 0;
    while (i < records.length) {
      this.stats.holding(shard.id, records.length - i);
      const batch = records.slice(i);
      const oldest = recordTime(batch[0]);
      const start = {
        source: 'reader' as const,
        records: batch.length,
        lagMs: oldest === undefined ? null : Math.max(0, Date.now() - oldest),
        shardId: shard.id,
      };
      const outcome = await tracedBatch(this.o.telemetry, this.o.store, start, (store) => this.o.handler(store, batch, this.o.logger));
      if (this.stopped && !this.stats.running) return; // killed: nothing more is written
      const handled = i + outcome.done;
      this.stats.processed += outcome.done;
      // Left pending when held: the shard reads them again from its checkpoint.
      this.stats.holding(shard.id, records.length - handled);
      if (outcome.failedAt === null) {
        await this.checkpoint(shard, records, handled);
        return;
      }
      await this.checkpoint(shard, records, handled);
      if (outcome.error instanceof ModelBehind) {
        if (this.stats.modelBehind?.version !== outcome.error.version)
          this.o.logger.error(
            { version: outcome.error.version, missing: outcome.error.missing },
            `stream processor holds: ${outcome.error.message}; deploy the new model's processor`,
          );
        this.stats.modelBehind = { version: outcome.error.version, missing: [...outcome.error.missing] };
        return 'held';
      }
      const failed = records[handled];
      attempts = handled === i ? attempts + 1 : 1;
      i = handled;
      if (attempts < this.o.maxAttempts) {
        this.stats.retried++;
        this.o.logger.warn({ err: outcome.error, sequenceNumber: failed.dynamodb?.SequenceNumber, attempts }, 'stream record failed; retrying');
        await backoff(this.o.retryDelayMs, attempts);
        continue;
      }
      this.stats.failed++;
      this.stats.lastError = errorName(outcome.error) || 'Error';
      this.o.logger.error(
        { err: outcome.error, sequenceNumber: failed.dynamodb?.SequenceNumber, eventID: failed.eventID, attempts },
        'stream record failed after its retries; kept as a dead letter and skipped',
      );
      await saveDeadLetter(this.o.store, this.label, shard.id, failed, outcome.error, attempts);
      i += 1;
      attempts = 0;
      this.stats.holding(shard.id, records.length - i);
      await this.checkpoint(shard, records, i);
    }
  }

  /** Hands every dead letter to the handler again, oldest first; deletes those it handles. */
  private async redrive(): Promise<void> {
    this.lastRedrive = this.now();
    try {
      await this.redriveLetters();
    } catch (err) {
      // DynamoDB still failing: the letters stay for the next pass, which waits longer.
      this.redriveEvery = Math.min(MAX_REDRIVE_MS, this.redriveEvery * 2);
      this.o.logger.warn({ err, nextInMs: this.redriveEvery }, 'dead letters could not be redriven yet');
    }
  }

  private async redriveLetters(): Promise<void> {
    const letters = await listDeadLetters(this.o.store, this.label);
    if (letters.length === 0) return;
    let handled = 0;
    for (const letter of letters) {
      if (this.stopped) return;
      const record = JSON.parse(String(letter.record)) as StreamRecordLike;
      const outcome = await tracedBatch(
        this.o.telemetry,
        this.o.store,
        { source: 'reader' as const, records: 1, lagMs: null, shardId: String(letter.shardId) },
        (store) => this.o.handler(store, [record], this.o.logger),
      );
      if (outcome.failedAt === null) {
        await deleteDeadLetter(this.o.store, letter);
        handled++;
      } else {
        await retryDeadLetter(this.o.store, letter, outcome.error);
      }
    }
    this.stats.redriven += handled;
    this.stats.deadLetters = letters.length - handled;
    // Still failing: wait longer before the next pass; once one went through, try again at the first pace.
    this.redriveEvery = handled > 0 ? this.o.redriveMs : Math.min(MAX_REDRIVE_MS, this.redriveEvery * 2);
    const log = handled === letters.length ? this.o.logger.info.bind(this.o.logger) : this.o.logger.warn.bind(this.o.logger);
    log({ redriven: handled, stillFailing: letters.length - handled, nextInMs: this.redriveEvery }, 'dead letters redriven');
  }

  /** Checkpoints the first `count` records, unless they are only the reader's own bookkeeping. */
  private async checkpoint(shard: ShardState, records: StreamRecordLike[], count: number): Promise<void> {
    if (count === 0) return;
    const seq = records[count - 1].dynamodb?.SequenceNumber ?? null;
    if (seq === null || seq === shard.lastSeq) return;
    shard.lastSeq = seq;
    if (records.slice(0, count).every(isOwn(this.o.store.plan.keys.pk))) return;
    await saveCheckpoint(this.o.store, this.label, shard.id, { sequenceNumber: seq, finished: false });
  }
}
