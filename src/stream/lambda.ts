/**
 * The stream processor as an AWS Lambda function: the table's stream is its
 * event source (infra/lambda.yaml), with partial batch responses.
 *
 * Lambda delivers a shard's records in order, one batch at a time. The
 * handler (handler.ts) stops at the first record it fails on and reports
 * that record's sequence number in `batchItemFailures`: Lambda then
 * retries from that record (the ones before it are done), bisecting the
 * batch on repeated failure, up to the mapping's MaximumRetryAttempts;
 * after that it sends the failed range's description to the on-failure
 * destination (an SQS queue) and moves on. A poison record therefore costs
 * bounded retries and never blocks the shard.
 *
 * The DynamoDB client and the store are made once per Lambda instance.
 */
import { imageRedaction } from '../subscriptions/redaction.js';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { loadConfig, withoutEmbedded, type Config } from '../config.js';
import { dynamoFromConfig, type Dynamo } from '../dynamo/client.js';
import { createLogger, type Logger } from '../logger.js';
import type { Store } from '../writes/store.js';
import { handleRecords } from './handler.js';
import { recordTime, type StreamRecordLike } from '../dynamo/streamRecords.js';
import { tracedBatch } from './tracedBatch.js';
import { loadTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { redisBus } from '../subscriptions/redisBus.js';
import { publishingHandler } from './publisher.js';
import { modelFromPlan } from '../subscriptions/model.js';
import { compilePlan } from '../plan/plan.js';
import { loadModel } from '../declaration/loadModel.js';

export type StreamLambdaHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface StreamLambdaOptions {
  logger?: Logger;
  dynamo?: Dynamo;
  /** A span per batch and the stream metrics, flushed before each invocation returns (src/telemetry/). */
  telemetry?: Telemetry;
}

export function createStreamLambdaHandler(
  config: Config = loadConfig(process.env, { servesGraphql: false }),
  options: StreamLambdaOptions = {},
): StreamLambdaHandler {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Unset and `aws` both mean real DynamoDB here: a Lambda never runs the embedded DynamoDB Local.
  const dynamo = options.dynamo ?? dynamoFromConfig({ ...config, endpoint: withoutEmbedded(config.endpoint) });
  const store: Store = {
    doc: dynamo.doc,
    tableName: config.tableName,
    writeOptions: { concurrency: config.stream.concurrency },
    plan: compilePlan(loadModel(config.schemaFile)),
  };
  // With REDIS_URL, each handled record's change events reach the gateways' subscribers (docs/subscriptions.md).
  const { redisUrl } = config.subscriptions;
  const handle = redisUrl
    ? publishingHandler(
        redisBus({
          url: redisUrl,
          tableName: config.tableName,
          secret: config.subscriptions.redisEventSecret,
          redact: imageRedaction(loadModel(config.schemaFile)),
          onError: (err) => logger.warn({ err }, 'redis'),
        }),
        modelFromPlan(compilePlan(loadModel(config.schemaFile))),
      )
    : handleRecords;

  const { telemetry } = options;
  const onEvent = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = (event.Records ?? []) as StreamRecordLike[];
    const started = Date.now();
    const oldest = records.length > 0 ? recordTime(records[0]) : undefined;
    const start = { source: 'lambda' as const, records: records.length, lagMs: oldest === undefined ? null : Math.max(0, started - oldest) };
    const outcome = await tracedBatch(telemetry, store, start, (traced) => handle(traced, records, logger));
    const summary = {
      records: records.length,
      processed: outcome.done,
      failed: outcome.failedAt === null ? 0 : 1,
      copies: outcome.copies,
      edgesRemoved: outcome.edgesRemoved,
      // The age of the batch's oldest record when it arrived: the stream lag this invocation saw.
      lagMs: oldest === undefined ? null : Math.max(0, started - oldest),
      ms: Date.now() - started,
    };
    if (outcome.failedAt === null) {
      logger.info(summary, 'stream batch processed');
      return { batchItemFailures: [] };
    }
    const failed = records[outcome.failedAt];
    logger.error(
      { ...summary, err: outcome.error, sequenceNumber: failed.dynamodb?.SequenceNumber, eventID: failed.eventID },
      'stream record failed; Lambda retries from it',
    );
    return { batchItemFailures: [{ itemIdentifier: failed.dynamodb?.SequenceNumber ?? '' }] };
  };
  if (!telemetry) return onEvent;
  // Lambda freezes the process once the invocation returns: export the batch's span and metrics first.
  return async (event) => {
    try {
      return await onEvent(event);
    } finally {
      await telemetry.flush().catch((err: unknown) => logger.warn({ err }, 'could not export telemetry'));
    }
  };
}

let instance: Promise<StreamLambdaHandler> | undefined;

/** The function's handler (`src/stream/lambda.handler`): made on first use, with telemetry when `OTEL_*` is set. */
export const handler: StreamLambdaHandler = async (event) => {
  instance ??= (async () => {
    const config = loadConfig(process.env, { servesGraphql: false });
    const logger = createLogger(config.logLevel);
    return createStreamLambdaHandler(config, { logger, telemetry: await loadTelemetry(config.telemetry, logger) });
  })().catch((err: unknown) => {
    instance = undefined; // a failed start is tried again by the next invocation
    throw err;
  });
  return (await instance)(event);
};
