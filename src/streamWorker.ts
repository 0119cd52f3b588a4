/**
 * `npm run stream-worker`: the stream processor alone, without the HTTP
 * gateway (docker-compose runs it as its own service). It reads the table's
 * stream from its checkpoints, keeps edge copies and finishes cascade
 * deletes, and logs its progress; SIGTERM/SIGINT finish the batch in hand,
 * checkpoint it and exit.
 *
 * Needs DYNAMODB_ENDPOINT (a DynamoDB Local URL, or `aws`; in AWS the
 * Lambda consumer of infra/lambda.yaml is the usual choice) and a table
 * with a NEW_AND_OLD_IMAGES stream. It waits for the table to appear (the
 * gateway creates it) and never creates or changes it.
 */
import { imageRedaction } from './subscriptions/redaction.js';
import { ConfigError, loadConfig } from './config.js';
import { clientOptions, createDynamo } from './dynamo/client.js';
import { checkEndpoint } from './dynamo/endpointCheck.js';
import { describeLayout, tableExists } from './dynamo/table.js';
import { sleep } from './dynamo/backoff.js';
import { createLogger } from './logger.js';
import { runMain, stopOnSignals, warnUnknownSettings } from './processLifecycle.js';
import { startStreamProcessing } from './stream/worker.js';
import { loadModel } from './declaration/loadModel.js';
import { loadTelemetry } from './telemetry/telemetry.js';
import { redisBus } from './subscriptions/redisBus.js';
import { modelFromPlan } from './subscriptions/model.js';
import { compilePlan } from './plan/plan.js';

async function main() {
  const config = loadConfig(process.env, { servesGraphql: false });
  const logger = createLogger(config.logLevel);
  warnUnknownSettings(logger, config);
  const model = loadModel(config.schemaFile);
  if (config.endpoint.kind === 'embedded') {
    throw new ConfigError(
      'the stream worker needs DYNAMODB_ENDPOINT (e.g. http://localhost:8000, or aws); `npm start` runs its own worker for the embedded DynamoDB Local',
    );
  }
  await checkEndpoint(config);
  const options = clientOptions(config);
  const endpoint = options.endpoint;
  const dynamo = createDynamo(options);
  while (!(await tableExists(dynamo.raw, config.tableName).catch(() => false))) {
    logger.info({ table: config.tableName }, 'waiting for the table to exist');
    await sleep(2000);
  }
  const layout = await describeLayout(dynamo.raw, config.tableName, undefined, compilePlan(model).table);
  if (!layout.streamArn) {
    logger.error({ table: config.tableName }, 'the table has no NEW_AND_OLD_IMAGES stream: nothing to process (the gateway fans out inside requests)');
    process.exit(1);
  }
  const telemetry = await loadTelemetry(config.telemetry, logger);
  // With REDIS_URL, the change events of every record go to the gateways' subscribers (docs/subscriptions.md).
  const { redisUrl } = config.subscriptions;
  const changes = redisUrl
    ? redisBus({
        url: redisUrl,
        tableName: config.tableName,
        secret: config.subscriptions.redisEventSecret,
        redact: imageRedaction(model),
        onError: (err) => logger.warn({ err: (err as Error).message }, 'redis'),
      })
    : undefined;
  if (!changes) logger.info('REDIS_URL is not set: no change events are published (gateways with their own processor feed their own subscribers)');
  const published = { events: 0, failed: 0 };
  const processing = startStreamProcessing({
    // This process exists to read the stream, whatever STREAM_WORKER says for gateways.
    config: { ...config, stream: { ...config.stream, worker: true } },
    endpoint,
    streamArn: layout.streamArn,
    logger,
    plan: compilePlan(model),
    progressEveryMs: 10_000,
    telemetry,
    changes,
    published,
    changeModel: modelFromPlan(compilePlan(model)),
  });

  stopOnSignals(
    logger,
    'stream worker stopping',
    async () => {
      await processing.stop();
      await changes?.close();
      dynamo.raw.destroy();
      await telemetry?.shutdown().catch(() => {});
    },
    () => ({ ...processing.details(), published }),
  );
}

runMain(main);
