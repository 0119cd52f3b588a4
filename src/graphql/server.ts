/**
 * createServer(): the Apollo Server with its schema, resolvers, plugins and
 * error formatting. It never listens: the transports drive it
 * (transport/httpHandler.ts for node:http, transport/lambdaHandler.ts for
 * API Gateway), and tests call `executeOperation`.
 */
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildASTSchema } from 'graphql';
import { argumentCheckPlugin } from './plugins/argumentCheck.js';
import type { Context } from './context.js';
import { formatError, type StacktraceMode } from './formatError.js';
import { silentLogger, type Logger } from '../logger.js';
import { operationLogPlugin } from './plugins/operationLog.js';
import { buildResolvers } from '../resolvers/index.js';
import { compilePlan } from '../plan/plan.js';
import { applyRules } from '../auth/applyRules.js';
import { compileRules } from '../auth/compileRules.js';
import type { RuleLookup } from '../auth/rules.js';
import { dynamoMetricsPlugin } from './plugins/dynamoMetrics.js';
import { DEFAULT_LIMITS, queryLimits, type QueryLimits } from './plugins/queryLimits.js';
import { requestIdPlugin } from './plugins/requestId.js';
import { shortPagesPlugin } from './plugins/shortPages.js';
import { declaredVariablesPlugin } from './plugins/declaredVariables.js';
import { httpStatusPlugin } from './plugins/httpStatus.js';
import { stringifyResult } from './plugins/responseSize.js';
import { EXPLORER_PATH, landingPageWithFallback } from './plugins/landingPage.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { createDocumentStore } from './documentStore.js';
import { telemetryPlugin } from './plugins/telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { withSubscriptions } from '../subscriptions/schema.js';
import { modelFromPlan } from '../subscriptions/model.js';
import { subscriptionsOverHttpPlugin } from './plugins/subscriptionsOverHttp.js';
import { operationResolutionPlugin } from './plugins/operationResolution.js';
import { callerBudgetPlugin, type CallerBudget, type CallerBuckets } from './plugins/callerBudget.js';
import { combinePlugins } from './plugins/combine.js';

import type { Model } from '../declaration/model.js';
import { federationResolvers, withFederation } from '../federation/schema.js';
import type { Plan } from '../plan/plan.js';

/** The model's resolvers with a federated model's _service, _entities and _Entity added. */
function withFederationResolvers(resolvers: Record<string, object>, plan: Plan): Record<string, object> {
  const federation = federationResolvers(plan);
  if (Object.keys(federation).length === 0) return resolvers;
  return { ...resolvers, ...federation, Query: { ...resolvers.Query, ...federation.Query } };
}

/**
 * The executable schema of a model: its resolvers and the subscriptions it
 * declares, the rules wrapped around them when on (`rules`).
 */
export function gatewaySchema(model: Model, rules: RuleLookup | undefined) {
  const plan = compilePlan(model);
  const { resolvers: all, declared } = withSubscriptions(model.schema, withFederationResolvers(buildResolvers(plan), plan), modelFromPlan(plan));
  // A schema of its own for the resolvers, built from the model's SDL without validating it again (buildModel
  // did), the resolvers set on it in place: no second parse, merge and validation, and no copy of a whole
  // schema (graphql-tools' mapSchema, which costs several times this build). The model's schema keeps no resolvers.
  // A federated model's schema also has _service and _entities (federation/schema.ts).
  const own = buildASTSchema(withFederation(model), { assumeValidSDL: true, assumeValid: model.schema.toConfig().assumeValid });
  const resolvers = rules ? applyRules(all, model.typeDefs, rules) : all;
  const schema = makeExecutableSchema({ typeDefs: own, resolvers, updateResolversInPlace: true });
  return { schema, declared, plan };
}

export interface ServerOptions {
  prod: boolean;
  /** Structured logs: one line per operation (plugins/operationLog.ts). Default: silent. */
  logger?: Logger;
  /** Answer `x-dynamodb-metrics: 1` with `extensions.dynamodb` (default: outside prod mode). */
  dynamodbMetricsExtension?: boolean;
  /** Query limits (plugins/queryLimits.ts); defaults as in config.ts. */
  limits?: QueryLimits;
  /** Batched HTTP requests (an array of operations in one POST); off unless configured. */
  allowBatchedRequests?: boolean;
  /** How long a mutation's first response is kept for `Idempotency-Key` retries (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** Enforce the model's authorization rules (@access, src/auth/) on every field: AUTH_MODE=oidc. Default off. */
  authRules?: boolean;
  /** The rules compiled from `model` (src/auth/compileRules.ts), when the caller has them already. */
  rules?: RuleLookup;
  /** The model served. */
  model: Model;
  /** Called when an operation finds the table missing (transport/tableWatch.ts logs it once). */
  onMissingTable?: () => void;
  /** Traces and metrics per operation (src/telemetry/); none, and no plugin at all, when absent. */
  telemetry?: Telemetry;
  /** Development errors: one `location` (default) or the whole `stacktrace` (LOG_LEVEL=debug). */
  stacktrace?: StacktraceMode;
  /** DynamoDB requests per caller (plugins/callerBudget.ts); off when absent or `perSecond` is 0. */
  callerBudget?: CallerBudget | CallerBuckets;
}

export function createServer({
  prod,
  logger = silentLogger,
  dynamodbMetricsExtension = !prod,
  limits = DEFAULT_LIMITS,
  allowBatchedRequests = false,
  idempotencyTtlSeconds,
  authRules = false,
  model,
  rules,
  telemetry,
  onMissingTable,
  stacktrace = 'location',
  callerBudget,
}: ServerOptions): ApolloServer<Context> {
  const guard = queryLimits(limits, { prod });
  // What Apollo builds from typeDefs and resolvers itself.
  // With rules off the resolvers run unwrapped: not even a check per field.
  const ruleLookup = authRules ? (rules ?? compileRules(model)) : undefined;
  const { schema, plan } = gatewaySchema(model, ruleLookup);
  return new ApolloServer<Context>({
    logger,
    schema,
    introspection: !prod,
    includeStacktraceInErrorResponses: !prod,
    csrfPrevention: true,
    // main.ts owns the signals: Apollo's own SIGTERM handler would stop the server under
    // startGateway's drain, whose apollo.stop() then never returns (and re-raises the signal).
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: allowBatchedRequests,
    // Parsed documents, bounded by what they really hold (documentStore.ts).
    documentStore: createDocumentStore(),
    parseOptions: guard.parseOptions,
    validationRules: guard.validationRules,
    // The response text the byte limit measured (plugins/responseSize.ts).
    stringifyResult,
    formatError: (formatted, error) => formatError(formatted, error, { prod, onMissingTable, stacktrace }),
    plugins: [
      // The gateway's own, run in this order as one Apollo plugin (plugins/combine.ts).
      combinePlugins([
        // First, so every later willSendResponse (idempotency records) sees the final status.
        httpStatusPlugin,
        // First: its span covers the other plugins' work too.
        ...(telemetry ? [telemetryPlugin(telemetry)] : []),
        operationLogPlugin(logger),
        // Before every other check: the failure of the phase is the first in this list's order.
        operationResolutionPlugin,
        subscriptionsOverHttpPlugin,
        declaredVariablesPlugin(),
        argumentCheckPlugin(plan),
        dynamoMetricsPlugin({ enabled: dynamodbMetricsExtension }),
        ...guard.gatewayPlugins,
        // Before the idempotency record's read: a caller over budget costs no DynamoDB request.
        ...(callerBudget && callerBudget.perSecond > 0 ? [callerBudgetPlugin(callerBudget)] : []),
        // After the checks above (responseForOperation runs once they passed), before requestId.
        idempotencyPlugin({ ttlSeconds: idempotencyTtlSeconds, logger, rules: ruleLookup }),
        requestIdPlugin,
        shortPagesPlugin,
      ]),
      // No cache hints are set; Apollo's default cache-control plugin would still hook every field resolution.
      ApolloServerPluginCacheControlDisabled(),
      // A subgraph answers the router's `apollo-federation-include-trace: ftv1` with its trace (federated
      // tracing, errors masked): Apollo installs its inline-trace plugin for a subgraph schema itself. For any
      // other model it would import that plugin (and the usage-reporting protobuf code, evaluated at every
      // start) only to find out that the schema is no federated subgraph.
      ...(model.federation ? [] : [ApolloServerPluginInlineTraceDisabled()]),
      // Sandbox where it loads, the gateway's own GraphiQL where it does not (plugins/landingPage.ts).
      prod ? ApolloServerPluginLandingPageDisabled() : landingPageWithFallback(EXPLORER_PATH),
      ...guard.plugins,
    ],
  });
}
