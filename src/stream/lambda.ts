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
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { loadConfig, withoutEmbedded, type Config } from '../config.js';
import { dynamoFromConfig, type Dynamo } from '../dynamo/client.js';
import { createLogger, type Logger } from '../logger.js';
import type { Store } from '../writes/store.js';
import { handleRecords } from './handler.js';
import { recordTime, type StreamRecordLike } from './records.js';
import { redisBus } from '../subscriptions/redisBus.js';
import { publishingHandler } from '../subscriptions/publisher.js';
import { defaultChangeModel } from '../subscriptions/schema.js';

export type StreamLambdaHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface StreamLambdaOptions {
  logger?: Logger;
  dynamo?: Dynamo;
}

export function createStreamLambdaHandler(
  config: Config = loadConfig(process.env, { servesGraphql: false }),
  options: StreamLambdaOptions = {},
): StreamLambdaHandler {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Unset and `aws` both mean real DynamoDB here: a Lambda never runs the embedded DynamoDB Local.
  const dynamo = options.dynamo ?? dynamoFromConfig({ ...config, endpoint: withoutEmbedded(config.endpoint) });
  const store: Store = { doc: dynamo.doc, tableName: config.tableName, writeOptions: { concurrency: config.stream.concurrency } };
  // With REDIS_URL, each handled record's change events reach the gateways' subscribers (docs/subscriptions.md).
  const { redisUrl } = config.subscriptions;
  const handle = redisUrl
    ? publishingHandler(redisBus({ url: redisUrl, tableName: config.tableName, onError: (err) => logger.warn({ err }, 'redis') }), defaultChangeModel)
    : handleRecords;

  return async (event) => {
    const records = (event.Records ?? []) as StreamRecordLike[];
    const started = Date.now();
    const outcome = await handle(store, records, logger);
    const oldest = records.length > 0 ? recordTime(records[0]) : undefined;
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
}

let instance: StreamLambdaHandler | undefined;

/** The function's handler (`src/stream/lambda.handler`). */
export const handler: StreamLambdaHandler = (event) => {
  instance ??= createStreamLambdaHandler();
  return instance(event);
};
