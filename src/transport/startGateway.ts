/**
 * startGateway(): everything `npm start` does short of reading signals:
 * the DynamoDB endpoint (embedded DynamoDB Local when none is configured),
 * the table, the model's demo data (demoData.ts), the Apollo server and the HTTP listener.
 * Tests use it to run the gateway on 127.0.0.1 and stop it again.
 */
import { imageRedaction } from '../subscriptions/redaction.js';
import { writeModelMarker } from '../stream/modelWork.js';
import { labelOfStreamArn } from '../stream/reader.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, type Config, PROD_NODE_ENV } from '../config.js';
import { isMissingTableError, isUnavailableError } from '../errors.js';
import { createHttpListener } from './httpServer.js';
import { createContext } from '../graphql/context.js';
import { clientOptions, endpointLabel, type Dynamo } from '../dynamo/client.js';
import { cachedProbe } from '../dynamo/health.js';
import { healthProbe } from '../dynamo/layoutHealth.js';
import { copyHealth } from '../migration/copyHealth.js';
import { LOCAL_DYNAMO_HOST, portInUse, startLocalDynamo, type LocalDynamo } from '../dynamo/local.js';
import { checkEndpoint } from '../dynamo/endpointCheck.js';
import { describeLayout, ensureTable, gsi2ReadersOf, tableExists } from '../dynamo/table.js';
import { demoFileOf, demoItemsOf, loadDemoData } from './demoData.js';
import { createHttpHandler, type HttpOptions as HttpHandlerOptions } from './httpHandler.js';
import { createExplorer, explorerExample } from './explorer.js';
import { createLogger, type Logger } from '../logger.js';
import { createGatewayParts, type GatewayParts } from './gatewayParts.js';
import { loadModel } from '../declaration/loadModel.js';
import { checkSubgraph } from '../federation/validate.js';
import { startStreamProcessing, type StreamProcessing } from '../stream/worker.js';
import { devSigningKey, startIssuer, type Issuer } from '../auth/devIssuer.js';
import { loadTelemetry } from '../telemetry/telemetry.js';
import type { Telemetry } from '../telemetry/port.js';
import { memoryBus, type ChangeBus } from '../subscriptions/bus.js';
import { redisBus } from '../subscriptions/redisBus.js';
import { ChangeHub } from '../subscriptions/hub.js';
import { SubscriptionEngine } from '../graphql/subscriptionEngine.js';
import { attachSubscriptions, type SubscriptionServer } from './subscriptionServer.js';
import { modelFromPlan } from '../subscriptions/model.js';
import { declaredSubscriptions } from '../subscriptions/declared.js';
import { compilePlan, type Plan } from '../plan/plan.js';

export interface Gateway {
  url: string;
  dynamo: Dynamo;
  local: LocalDynamo | null;
  /** Who keeps copies and finishes cascades, and its figures (`/health` details). */
  stream: StreamProcessing;
  /** Live updates: the bus (in-process or Redis), this instance's hub and engine, the WebSocket server. */
  changes: { bus: ChangeBus; hub: ChangeHub; engine: SubscriptionEngine; server: SubscriptionServer; details: () => Record<string, unknown> };
  stop: () => Promise<void>;
}

/** Refuses what cannot start before any start-up work: the embedded store in prod mode, ports in use; one line naming the setting. */
async function refuseUnusable(config: Config): Promise<void> {
  if (config.endpoint.kind === 'embedded' && config.prod) {
    // The embedded DynamoDB Local keeps data in memory and checks no credentials: never a prod table.
    throw new ConfigError(
      `NODE_ENV=${PROD_NODE_ENV} needs a real table: set DYNAMODB_ENDPOINT (aws for DynamoDB through the SDK chain, or a URL); the embedded DynamoDB Local is for development only`,
    );
  }
  if (config.port !== 0 && (await portInUse(config.host, config.port))) {
    throw new ConfigError(`PORT ${config.port} on ${config.host} is in use: stop what listens there, or set PORT to another port (0 picks a free one)`);
  }
  if (config.endpoint.kind === 'embedded' && config.localDynamoPort !== 0 && (await portInUse(LOCAL_DYNAMO_HOST, config.localDynamoPort))) {
    throw new ConfigError(
      `DYNAMODB_LOCAL_PORT ${config.localDynamoPort} on ${LOCAL_DYNAMO_HOST} is in use (another DynamoDB Local or npm start?): stop it, set DYNAMODB_LOCAL_PORT=0 for a free port, or DYNAMODB_ENDPOINT to use that one`,
    );
  }
}

function changeBusOf(config: Config, plan: Plan, logger: Logger): ChangeBus {
  const { redisUrl, redisEventSecret } = config.subscriptions;
  if (!redisUrl) return memoryBus();
  const onError = (err: unknown) => logger.warn({ err: (err as Error).message }, 'redis');
  return redisBus({ url: redisUrl, tableName: config.tableName, secret: redisEventSecret, redact: imageRedaction(plan.model), onError });
}

function subscriptionEngineOf(
  config: Config,
  { parts, hub, telemetry, logger }: { parts: GatewayParts; hub: ChangeHub; telemetry: Telemetry | undefined; logger: Logger },
): SubscriptionEngine {
  const { schema, declared } = parts.subscriptionSchema();
  const { operationLimits } = config;
  return new SubscriptionEngine({
    schema,
    declared,
    hub,
    deps: parts.deps,
    limits: { ...config.security, maxResponseFields: operationLimits.maxResponseFields, maxResponseBytes: operationLimits.maxResponseBytes },
    requestLimits: operationLimits,
    telemetry: telemetry ?? undefined,
    logger,
    prod: config.prod,
    maxQueued: config.subscriptions.maxQueued,
    documentLimits: { perAddress: config.subscriptions.maxDocumentBytesPerAddress, total: config.subscriptions.maxDocumentBytesTotal },
  });
}

/** Development only (config.ts refuses it in prod mode): tokens from `npm run dev-token`. */
async function startDevIssuer(config: Config, logger: Logger): Promise<Issuer | null> {
  if (config.auth.mode !== 'oidc' || !config.auth.devIssuer) return null;
  const issuer = await startIssuer({ port: config.auth.devIssuer.port, keys: async () => [(await devSigningKey()).publicJwk] });
  logger.info({ issuer: issuer.url }, 'development token issuer ready: mint tokens with npm run dev-token -- --role admin');
  return issuer;
}

/**
 * Creates the table if absent and refuses one that contradicts the model; writes the model marker
 * and, into our own fresh DynamoDB Local, the demo data. Returns the table's layout.
 */
async function prepareTable(config: Config, { dynamo, plan, local, logger }: { dynamo: Dynamo; plan: Plan; local: LocalDynamo | null; logger: Logger }) {
  const { tableName } = config;
  // Our own in-memory DynamoDB Local holds no table but the one we create: had it none, the demo data is
  // loaded even when a slow CreateTable was retried by the SDK and so reported as already there.
  const absent = local !== null && !(await tableExists(dynamo.raw, tableName));
  const created = await ensureTable(dynamo.raw, tableName, plan.table);
  logger.info({ table: tableName, created, endpoint: endpointLabel(clientOptions(config, local?.endpoint)) }, `table ${created ? 'created' : 'exists'}`);
  const layout = await describeLayout(dynamo.raw, tableName, gsi2ReadersOf(plan.model), plan.table);
  if (layout.contradictions.length > 0) {
    // Serving would write keys the table does not index, or fail on every read: refuse, one line each.
    throw new ConfigError(`table ${tableName} does not match the model in ${config.schemaFile}:\n${layout.contradictions.map((c) => `  ${c}`).join('\n')}`);
  }
  for (const lack of layout.lacks) logger.warn({ table: tableName }, `table layout: ${lack}`);
  // Before any write it serves: a processor of an older model meets this first and holds (stream/modelWork.ts).
  if (layout.streamArn) await writeModelMarker({ doc: dynamo.doc, tableName, plan });
  if (local && (created || absent)) {
    logger.info({ items: await loadDemoData(dynamo.doc, tableName, config.schemaFile, plan.keys), file: demoFileOf(config.schemaFile) }, 'loaded demo data');
  } else if (local) logger.warn({ table: tableName }, 'the embedded DynamoDB Local already had the table: no demo data loaded');
  return layout;
}

/**
 * The most start-up spends on DynamoDB before it gives up: the table's
 * check, its creation and the wait until it is ACTIVE (at most 60 s,
 * table.ts), the layout, the model marker and the demo data. Each request
 * has its own deadline (DYNAMODB_REQUEST_TIMEOUT_MS per attempt), so a
 * DynamoDB that does not answer stops start-up after its first request's
 * attempts (about 6.5 s with the defaults); this bounds one that answers,
 * slowly, every time.
 */
export const READINESS_DEADLINE_MS = 90_000;

/**
 * `work` (the table's preparation) within READINESS_DEADLINE_MS; its
 * failure because DynamoDB is unavailable, or the deadline, as one line
 * naming the endpoint.
 */
async function readyWithin<T>(endpoint: string, work: Promise<T>, deadlineMs = READINESS_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`DynamoDB at ${endpoint} did not get the table ready within ${deadlineMs / 1000} s`)), deadlineMs);
  });
  try {
    return await Promise.race([work, late]);
  } catch (err) {
    if (!isUnavailableError(err) || isMissingTableError(err)) throw err;
    const { name, message } = err as Error;
    // The first line: the SDK appends a line about deserialization to errors met reading a body.
    throw new Error(`DynamoDB at ${endpoint} is unavailable (${name}: ${message.split('\n')[0]}): check DYNAMODB_ENDPOINT, the network and DynamoDB's health`);
  } finally {
    clearTimeout(timer);
  }
}

/** `/health` details.copies, cached as the table check is: a flood of calls costs at most its two requests per interval. */
function copiesProbe(
  config: Config,
  { dynamo, plan, processing, streamArn }: { dynamo: Dynamo; plan: Plan; processing: StreamProcessing; streamArn: string | null },
) {
  return cachedProbe(
    () =>
      copyHealth({
        store: { doc: dynamo.doc, tableName: config.tableName, plan },
        // The reader's own label once it has listed the shards; else the ARN's (the same text in DynamoDB).
        streamLabel: () => (streamArn === null ? null : processing.reader?.streamLabel || labelOfStreamArn(streamArn)),
        pending: () => (processing.reader === null ? null : processing.stats.pending()),
      }),
    config.healthCacheMs,
  );
}

/** The HTTP handler's options: health, its details and who may see them, the request context, the explorer. */
function handlerOptionsOf(
  config: Config,
  { parts, plan, logger, details }: { parts: GatewayParts; plan: Plan; logger: Logger; details: () => Promise<Record<string, unknown>> },
): HttpHandlerOptions {
  const { dynamo, deps, auth, tableWatch, trusted } = parts;
  const onHealth = (state: string) => {
    if (state === 'missing') tableWatch.missing();
    else if (state === 'ok') tableWatch.present();
  };
  return {
    corsOrigins: config.corsOrigins,
    maxBodyBytes: config.security.maxBodyBytes,
    logger,
    health: healthProbe(dynamo, config.tableName, config.healthCacheMs, onHealth, gsi2ReadersOf(plan.model), plan.table),
    // HEALTH_DETAILS=admins (prod mode's default): the layout and stream figures only for an administrator's token.
    healthDetailsFor:
      config.healthDetails === 'public'
        ? undefined
        : async (req) => {
            if (config.auth.mode !== 'oidc') return false;
            const identity = await auth.identify(req.headers.authorization);
            return identity.kind === 'caller' && identity.admin;
          },
    healthDetails: details,
    context: async (metrics, req) => createContext(deps, metrics, await auth.identify(req.headers.authorization)),
    requestLimits: config.operationLimits,
    ...(config.prod ? {} : { explorer: createExplorer(explorerExample(plan, demoItemsOf(config.schemaFile, plan.keys))) }),
    trusted,
  };
}

/**
 * What start-up refuses before anything runs, then the embedded DynamoDB
 * Local when no endpoint is given (null otherwise).
 */
async function checkedThenLocal(config: Config, logger: Logger): Promise<LocalDynamo | null> {
  // A model that cannot be served, its subscriptions included, is refused before DynamoDB Local or a port is touched.
  const model = loadModel(config.schemaFile);
  declaredSubscriptions(model.schema, modelFromPlan(compilePlan(model)));
  // A federated model's SDL by Apollo's subgraph rules too (federation/validate.ts).
  await checkSubgraph(model);
  await refuseUnusable(config);
  // Then the endpoint: unreachable, or AWS without a region, is one line naming DYNAMODB_ENDPOINT.
  await checkEndpoint(config);
  if (config.endpoint.kind !== 'embedded') return null;
  logger.info({ port: config.localDynamoPort || null }, 'starting embedded DynamoDB Local');
  return startLocalDynamo({ port: config.localDynamoPort });
}

export async function startGateway(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<Gateway> {
  const local = await checkedThenLocal(config, logger);
  const embeddedUrl = local?.endpoint;
  // Loaded (and the SDK imported) only when an OTEL_* variable is set.
  const telemetry = await loadTelemetry(config.telemetry, logger);
  let parts: GatewayParts;
  try {
    parts = createGatewayParts(config, { logger, embeddedUrl, telemetry });
  } catch (err) {
    // A setting that cannot be used (TRUSTED_DOCUMENTS' manifest): leave nothing running.
    await local?.stop();
    throw err;
  }
  const { dynamo, server: apollo, deps, auth, trusted, callers } = parts;
  const { plan } = parts.subscriptionSchema();
  const bus = changeBusOf(config, plan, logger);
  const hub = new ChangeHub(bus, undefined, (err) => logger.warn({ err }, 'could not stop listening to a topic'));
  const engine = subscriptionEngineOf(config, { parts, hub, telemetry, logger });
  const published = { events: 0, failed: 0 };
  let subscriptions: SubscriptionServer | undefined;
  let http: Server | undefined;
  let stream: StreamProcessing | undefined;
  /** `/health` details: open sockets and subscriptions (both back to zero once clients leave), events. */
  const changeDetails = () => ({
    bus: bus.kind,
    ...(subscriptions?.details() ?? {}),
    ...engine.stats(),
    ...hub.stats(),
    rejected: bus.rejected ?? 0,
    published,
  });
  let devIssuer: Issuer | null = null;
  try {
    devIssuer = await startDevIssuer(config, logger);
    // Fetch the issuer's keys now, so the first request does not wait; failures are retried per request.
    await auth.verifier?.warm().catch((err: unknown) => logger.warn({ err }, "could not fetch the token issuer's keys yet"));
    const layout = await readyWithin(endpointLabel(clientOptions(config, embeddedUrl)), prepareTable(config, { dynamo, plan, local, logger }));
    // After the demo data: its records are read afterwards, not competing with its writes at start-up.
    const streamsEndpoint = clientOptions(config, embeddedUrl).endpoint;
    const changeModel = modelFromPlan(plan);
    stream = startStreamProcessing({
      config,
      endpoint: streamsEndpoint,
      streamArn: layout.streamArn,
      logger,
      plan,
      telemetry,
      changes: bus,
      published,
      changeModel,
    });
    deps.fanOut = stream.fanOut;
    await apollo.start();
    const processing = stream;
    const copies = copiesProbe(config, { dynamo, plan, processing, streamArn: layout.streamArn });
    const details = async () => ({ table: { lacks: layout.lacks }, stream: processing.details(), copies: await copies(), subscriptions: changeDetails() });
    http = createHttpListener(createHttpHandler(apollo, handlerOptionsOf(config, { parts, plan, logger, details })), config.http);
    telemetry?.watchConnections(http);
    const limits = { ...config.subscriptions, maxMessageBytes: config.security.maxBodyBytes };
    subscriptions = attachSubscriptions(http, {
      engine,
      identify: (authorization) => auth.identify(authorization),
      verifiesTokens: auth.rulesOn,
      limits,
      logger,
      trusted,
      callers,
    });
    await new Promise<void>((resolve, reject) => {
      http!.once('error', reject);
      http!.listen(config.port, config.host, resolve);
    });
  } catch (err) {
    await subscriptions?.close().catch(() => {});
    await stream?.stop().catch(() => {});
    await bus.close().catch(() => {});
    await callers?.shared?.close();
    await apollo.stop().catch(() => {});
    http?.close();
    await devIssuer?.stop();
    dynamo.raw.destroy();
    await local?.stop();
    await telemetry?.shutdown().catch(() => {});
    throw err;
  }
  const { port } = http.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const running: Running = { server: http, ws: subscriptions!, apollo, processing: stream!, bus, parts, devIssuer, local, telemetry, logger };
  return {
    url: `http://${host}:${port}/graphql`,
    dynamo,
    local,
    stream: stream!,
    changes: { bus, hub, engine, server: subscriptions!, details: changeDetails },
    stop: () => stopGateway(running),
  };
}

interface Running {
  server: Server;
  ws: SubscriptionServer;
  apollo: GatewayParts['server'];
  processing: StreamProcessing;
  bus: ChangeBus;
  parts: GatewayParts;
  devIssuer: Issuer | null;
  local: LocalDynamo | null;
  telemetry: Telemetry | undefined;
  logger: Logger;
}

/** Stop accepting, close the WebSockets, let in-flight requests finish, then release DynamoDB. */
async function stopGateway({ server, ws, apollo, processing, bus, parts, devIssuer, local, telemetry, logger }: Running): Promise<void> {
  await ws.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await apollo.stop();
  await processing.stop();
  await bus.close();
  await parts.callers?.shared?.close();
  parts.dynamo.raw.destroy();
  await devIssuer?.stop();
  await local?.stop();
  // Last: exports what the drained requests recorded.
  await telemetry?.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not export telemetry'));
}
