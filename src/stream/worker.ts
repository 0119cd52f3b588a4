/**
 * startStreamProcessing(): who keeps copies and finishes cascades for this
 * process, decided once at start-up from the table and the configuration.
 *
 * | table has a stream | STREAM_WORKER | mode        | writes fan out                    |
 * |--------------------|---------------|-------------|-----------------------------------|
 * | no                 | any           | `inRequest` | inside the request (warned)       |
 * | yes                | on            | `stream`    | by the reader started here        |
 * | yes                | off           | `external`  | by another consumer (the Lambda, `npm run stream-worker`) |
 *
 * It also logs progress (processed, failed, lag) once a minute while there
 * is any, and gives `/health` its details.
 */
import type { Config } from '../config.js';
import { createDynamo, type Dynamo } from '../dynamo/client.js';
import type { Logger } from '../logger.js';
import type { FanOutMode, Store } from '../writes/store.js';
import type { Plan } from '../plan/plan.js';
import { StreamReader } from './reader.js';
import { StreamStats, type StreamStatsSnapshot } from './stats.js';
import { createStreamsClient } from './streamsClient.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { ChangeBus } from '../subscriptions/bus.js';
import { publishingHandler, type PublishStats } from './publisher.js';
import type { ChangeModel } from '../subscriptions/model.js';

export interface StreamProcessing {
  /** What mutations do: leave the fan-out to the stream, or do it in the request. */
  fanOut: FanOutMode;
  stats: StreamStats;
  reader: StreamReader | null;
  /** The reader's own DynamoDB client (null without a reader): its requests never count into the gateway's. */
  client: Dynamo | null;
  details: () => StreamStatsSnapshot;
  stop: () => Promise<void>;
}

export interface StreamProcessingOptions {
  config: Config;
  /** The endpoint URL in use (the embedded DynamoDB Local's, a URL), or undefined for AWS itself. */
  endpoint: string | undefined;
  streamArn: string | null;
  logger: Logger;
  /** The plan of the model served: the processor carries its copies and cascades. */
  plan: Plan;
  /** Progress log interval in ms (default 60 s). */
  progressEveryMs?: number;
  /** Batch spans and stream metrics (src/telemetry/); none when absent. */
  telemetry?: Telemetry;
  /** Where the change events of handled records go (live updates, docs/subscriptions.md); none when absent. */
  changes?: ChangeBus;
  /** Counts of published events (for `/health` details). */
  published?: PublishStats;
  /** What the change events of a record are (the served model's, src/subscriptions/model.ts); required with `changes`. */
  changeModel?: ChangeModel;
}

export function startStreamProcessing({
  config,
  endpoint,
  streamArn,
  logger,
  plan,
  progressEveryMs = 60_000,
  telemetry,
  changes,
  published,
  changeModel,
}: StreamProcessingOptions): StreamProcessing {
  if (streamArn === null) {
    const stats = new StreamStats('inRequest');
    logger.warn(
      { table: config.tableName },
      'the table has no stream: renames and deletes update every edge inside the request (enable a NEW_AND_OLD_IMAGES stream to move that work off the request path)',
    );
    return { fanOut: 'inRequest', stats, reader: null, client: null, details: () => stats.snapshot(), stop: async () => {} };
  }
  if (!config.stream.worker) {
    const stats = new StreamStats('external');
    logger.info({ streamArn }, 'stream processing is left to another consumer (STREAM_WORKER=0), e.g. the Lambda of infra/lambda.yaml');
    return { fanOut: 'stream', stats, reader: null, client: null, details: () => stats.snapshot(), stop: async () => {} };
  }
  const streams = createStreamsClient({
    endpoint,
    region: config.region,
    maxAttempts: config.dynamoClient.maxAttempts,
    connectionTimeoutMs: config.dynamoClient.connectionTimeoutMs,
    credentialsConfigured: config.dynamoClient.credentialsConfigured,
  });
  // Its own DynamoDB client: the processor's requests never mix with (or count into) the gateway's.
  const own = createDynamo({ endpoint, region: config.region, ...config.dynamoClient });
  const store: Store = { doc: own.doc, tableName: config.tableName, writeOptions: { concurrency: config.stream.concurrency }, plan };
  const reader = new StreamReader({
    store,
    streams,
    streamArn,
    logger,
    batchSize: config.stream.batchSize,
    pollMs: config.stream.pollMs,
    maxAttempts: config.stream.maxAttempts,
    retryDelayMs: config.stream.retryDelayMs,
    telemetry,
    ...(changes ? { handler: publishingHandler(changes, changeModel!, undefined, published) } : {}),
  }).start();
  telemetry?.watchStreamLag(() => reader.stats.lagMs());
  logger.info({ streamArn }, 'stream processor started: renames and deletes propagate from the table stream');

  let last = '';
  const progress = setInterval(() => {
    const s = reader.stats.snapshot();
    const now = JSON.stringify([s.processed, s.failed, s.lagMs]);
    if (now !== last) logger.info({ processed: s.processed, failed: s.failed, retried: s.retried, lagMs: s.lagMs }, 'stream processor progress');
    last = now;
  }, progressEveryMs);
  progress.unref();

  return {
    fanOut: 'stream',
    stats: reader.stats,
    reader,
    client: own,
    details: () => reader.stats.snapshot(),
    stop: async () => {
      clearInterval(progress);
      await reader.stop();
      streams.destroy();
      own.raw.destroy();
    },
  };
}
