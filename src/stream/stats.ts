/**
 * What the stream processor reports (logs, `/health` details): records
 * processed and failed, retries, and the lag, the age of the oldest record
 * not yet processed (0 when the reader has caught up with the stream).
 */
export interface StreamStatsSnapshot {
  /** `stream`: this process reads the stream; `external`: another consumer (the Lambda, a stream-worker process) does; `inRequest`: no stream. */
  mode: 'stream' | 'external' | 'inRequest';
  running: boolean;
  processed: number;
  /** Records given up on after their retries (dead letters). */
  failed: number;
  /** Dead letters handled on a later pass (redriven), and those still waiting after the last pass. */
  redriven: number;
  deadLetters: number;
  retried: number;
  /** Age in ms of the oldest record seen but not processed yet; null before the first read. */
  lagMs: number | null;
  /** Records read from the stream and not finished yet (in hand, or retried in place); dead letters are not among them. */
  pending: number;
  /** Shards read and finished (closed and drained). */
  shards: { open: number; finished: number };
  /** The last failure's error name (never its message, which may hold ARNs or keys). */
  lastError: string | null;
  /** Held at a gateway's model marker whose work this processor lacks (modelWork.ts); null when not. */
  modelBehind: { version: string; missing: string[] } | null;
}

export class StreamStats {
  processed = 0;
  failed = 0;
  retried = 0;
  redriven = 0;
  deadLetters = 0;
  running = false;
  lastError: string | null = null;
  modelBehind: StreamStatsSnapshot['modelBehind'] = null;
  shards = { open: 0, finished: 0 };
  /** Per shard: creation time (epoch ms) of its oldest unprocessed record, or null when caught up. */
  private readonly oldest = new Map<string, number | null>();
  /** Per shard: records of the batch in hand not finished yet. */
  private readonly inHand = new Map<string, number>();

  constructor(readonly mode: StreamStatsSnapshot['mode']) {}

  /** A shard has records from `oldest` on waiting (null: caught up). */
  behind(shardId: string, oldest: number | null): void {
    this.oldest.set(shardId, oldest);
  }

  /** `count` records of a shard's batch are read and not finished yet. */
  holding(shardId: string, count: number): void {
    if (count > 0) this.inHand.set(shardId, count);
    else this.inHand.delete(shardId);
  }

  forget(shardId: string): void {
    this.oldest.delete(shardId);
    this.inHand.delete(shardId);
  }

  pending(): number {
    let n = 0;
    for (const count of this.inHand.values()) n += count;
    return n;
  }

  lagMs(now = Date.now()): number | null {
    if (this.oldest.size === 0) return null;
    const oldest = [...this.oldest.values()].filter((t): t is number => t !== null);
    return oldest.length === 0 ? 0 : Math.max(0, now - Math.min(...oldest));
  }

  snapshot(): StreamStatsSnapshot {
    return {
      mode: this.mode,
      running: this.running,
      processed: this.processed,
      failed: this.failed,
      redriven: this.redriven,
      deadLetters: this.deadLetters,
      retried: this.retried,
      lagMs: this.lagMs(),
      pending: this.pending(),
      shards: { ...this.shards },
      lastError: this.lastError,
      modelBehind: this.modelBehind,
    };
  }
}
