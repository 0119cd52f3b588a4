/**
 * createGatewayParts(): what every transport shares, built from the
 * configuration in one place: the DynamoDB client, the Apollo server and
 * the per-request dependencies handed to createContext.
 *
 * startGateway.ts (node:http, `npm start`) and lambdaHandler.ts (API Gateway) differ only
 * in how requests arrive and what happens at start-up (startGateway.ts creates the
 * table and may start an embedded DynamoDB Local; Lambda does neither).
 * A new setting that shapes the server or the client belongs here, so both
 * transports get it.
 */
import type { ApolloServer } from '@apollo/server';
import { PROD_NODE_ENV, type Config } from '../config.js';
import type { Context, Deps } from '../graphql/context.js';
import { clientOptions, dynamoFromConfig, endpointLabel, type Dynamo } from '../dynamo/client.js';
import { tableWatch, type TableWatch } from './tableWatch.js';
import type { Logger } from '../logger.js';
import { createServer, gatewaySchema } from '../graphql/server.js';
import type { GraphQLSchema } from 'graphql';
import type { DeclaredSubscription } from '../subscriptions/declared.js';
import { createCursorCodec } from '../connections/cursorSigning.js';
import { createAuthenticator, type Authenticator } from '../auth/authenticate.js';
import { compileRules } from '../auth/compileRules.js';
import { loadModel } from '../declaration/loadModel.js';
import { compilePlan, type Plan } from '../plan/plan.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { loadManifest, type TrustedDocuments } from './trustedDocuments.js';
import { CallerBuckets, type CallerBudget } from '../graphql/plugins/callerBudget.js';
import { redisBuckets } from '../graphql/plugins/redisBuckets.js';

/** With REDIS_URL the callers' buckets are kept in Redis, one per caller for every instance; said at most once a minute when the local ones serve instead. */
function sharedBudget(config: Config, logger: Logger): Pick<CallerBudget, 'shared' | 'onFallback'> {
  const url = config.subscriptions.redisUrl;
  if (!url) return {};
  let saidAt = -Infinity;
  const say = (err: unknown) => {
    if (Date.now() - saidAt < 60_000) return;
    saidAt = Date.now();
    logger.warn({ err: (err as Error).message }, 'caller budget: Redis cannot answer, each instance counts its own callers');
  };
  return { shared: redisBuckets({ url, prefix: `budget:${config.tableName}:`, onError: say }), onFallback: say };
}

export interface GatewayParts {
  dynamo: Dynamo;
  server: ApolloServer<Context>;
  deps: Deps;
  /** Turns a request's Authorization header into its identity (src/auth/). */
  auth: Authenticator;
  /** TRUSTED_DOCUMENTS' manifest: only its operations run (trustedDocuments.ts). */
  trusted?: TrustedDocuments;
  /** Logs a missing table once (operations and `/health` report to it). */
  tableWatch: TableWatch;
  /** The executable schema (rules applied when on) and its declared subscriptions, for the WebSocket transport (built on first call: Lambda never asks). */
  subscriptionSchema: () => { schema: GraphQLSchema; declared: DeclaredSubscription[]; plan: Plan };
  /** The per-caller buckets of DynamoDB requests (CALLER_DYNAMODB_REQUESTS_PER_SECOND), shared with subscription events; none when off. */
  callers?: CallerBuckets;
}

export interface PartsOptions {
  logger: Logger;
  /** The URL of the embedded DynamoDB Local, when the configuration's endpoint is `embedded`. */
  embeddedUrl?: string;
  /** A ready client instead of a new one (tests). */
  dynamo?: Dynamo;
  /** Traces and metrics (src/telemetry/); none when no `OTEL_*` variable is set. */
  telemetry?: Telemetry;
}

export function createGatewayParts(config: Config, { logger, embeddedUrl, dynamo, telemetry }: PartsOptions): GatewayParts {
  const { security } = config;
  // The model first: a model that cannot be served stops start-up before any other work.
  const model = loadModel(config.schemaFile);
  // Then the trusted documents' manifest, which cannot be used either when it does not load.
  const trusted = config.trustedDocuments ? loadManifest(config.trustedDocuments) : undefined;
  if (trusted) logger.info({ operations: trusted.size }, "trusted documents: only the manifest's operations run");
  const client = dynamo ?? dynamoFromConfig(config, embeddedUrl);
  const rules = compileRules(model);
  const watch = tableWatch(logger, config.tableName, endpointLabel(clientOptions(config, embeddedUrl)));
  // One set of per-caller buckets for HTTP operations and subscription events.
  const { callerRequestsPerSecond: perSecond, callerRequestsBurst: burst } = config.operationLimits;
  const callers = perSecond > 0 ? new CallerBuckets({ perSecond, burst, ...sharedBudget(config, logger) }) : undefined;
  const server = createServer({
    onMissingTable: () => watch.missing(),
    prod: config.prod,
    logger,
    dynamodbMetricsExtension: config.dynamodbMetricsExtension,
    limits: {
      ...security,
      maxResponseFields: config.operationLimits.maxResponseFields,
      maxResponseBytes: config.operationLimits.maxResponseBytes,
      queryBytesPerRequest: config.operationLimits.queryBytesPerRequest,
    },
    allowBatchedRequests: security.allowBatchedRequests,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    authRules: config.auth.mode === 'oidc',
    model,
    rules,
    telemetry,
    stacktrace: config.logLevel === 'debug' || config.logLevel === 'trace' ? 'full' : 'location',
    callerBudget: callers,
  });
  const auth = createAuthenticator(config.auth, logger, model);
  if (config.auth.mode === 'off' && config.prod) {
    logger.warn(`AUTH_MODE=off with NODE_ENV=${PROD_NODE_ENV}: every caller may read and write everything (docs/auth.md)`);
  }
  if (security.cursorSecretGenerated) {
    logger.warn('CURSOR_SECRET is not set: generated a random one for this run (cursors will not survive a restart)');
  }
  const cursors = createCursorCodec({ current: security.cursorSecret, previous: security.cursorSecretsPrevious });
  let built: ReturnType<typeof gatewaySchema> | undefined;
  return {
    dynamo: client,
    server,
    auth,
    trusted,
    tableWatch: watch,
    callers,
    subscriptionSchema: () => (built ??= gatewaySchema(model, config.auth.mode === 'oidc' ? rules : undefined)),
    // The served model's plan (the one its resolvers were built from: compilePlan caches it per model), so that
    // every operation's look-ahead, request budget and writes run on it, not on the default model's.
    deps: {
      doc: client.doc,
      readPath: client.reads,
      tableName: config.tableName,
      naive: config.naive,
      cursors,
      authRequired: auth.rulesOn,
      rules,
      pageReadBudget: config.catalog.pageReadBudget,
      plan: compilePlan(model),
    },
  };
}
