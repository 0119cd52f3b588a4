/**
 * createServer(): the Apollo Server with its schema, resolvers, plugins and
 * error formatting. It never listens: the transports drive it
 * (transport/httpHandler.ts for node:http, transport/lambdaHandler.ts for
 * API Gateway), and tests call `executeOperation`.
 */
import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { gql } from 'graphql-tag';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { jitGateway } from './jitExecutor.js';
import { argumentCheckPlugin } from './plugins/argumentCheck.js';
import type { Context } from './context.js';
import { formatError } from './errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { operationLogPlugin } from './plugins/operationLog.js';
import { resolvers } from '../resolvers/index.js';
import { applyRules } from '../auth/applyRules.js';
import { dynamoMetricsPlugin } from './plugins/dynamoMetrics.js';
import { DEFAULT_LIMITS, queryLimits, type QueryLimits } from './plugins/queryLimits.js';
import { requestIdPlugin } from './plugins/requestId.js';
import { shortPagesPlugin } from './plugins/shortPages.js';
import { declaredVariablesPlugin } from './plugins/declaredVariables.js';
import { idempotencyPlugin } from '../idempotency/idempotencyPlugin.js';
import { createDocumentStore } from './documentStore.js';
import { SUBSCRIPTION_DIRECTIVES } from '../subscriptions/directives.js';
import { withSubscriptions } from '../subscriptions/schema.js';
import { subscriptionsOverHttpPlugin } from './plugins/subscriptionsOverHttp.js';

/** schema.graphql is the only SDL (with the definitions of the directives that declare subscriptions). */
export const typeDefs = gql(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8') + SUBSCRIPTION_DIRECTIVES);

/** The executable schema: resolvers (and the subscriptions the SDL declares), the rules wrapped around them when on. */
export function gatewaySchema(authRules: boolean) {
  const { resolvers: all, declared } = withSubscriptions(typeDefs, resolvers);
  return { schema: makeExecutableSchema({ typeDefs, resolvers: authRules ? applyRules(all, typeDefs) : all }), declared };
}

export interface ServerOptions {
  production: boolean;
  /** Structured logs: one line per operation (plugins/operationLog.ts). Default: silent. */
  logger?: Logger;
  /** Answer `x-dynamodb-metrics: 1` with `extensions.dynamodb` (default: outside production). */
  dynamodbMetricsExtension?: boolean;
  /** Query limits (plugins/queryLimits.ts); defaults as in config.ts. */
  limits?: QueryLimits;
  /** Batched HTTP requests (an array of operations in one POST); off unless configured. */
  allowBatchedRequests?: boolean;
  /** `jit` (default): operations run compiled by graphql-jit (jitExecutor.ts); `graphql-js`: Apollo's own execution. */
  executor?: Executor;
  /** How long a mutation's first response is kept for `Idempotency-Key` retries (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** Enforce the authorization rules (src/auth/rules.ts) on every field: AUTH_MODE=oidc. Default off. */
  authRules?: boolean;
}

export type Executor = 'jit' | 'graphql-js';

export function createServer({
  production,
  logger = silentLogger,
  dynamodbMetricsExtension = !production,
  limits = DEFAULT_LIMITS,
  allowBatchedRequests = false,
  executor = 'jit',
  idempotencyTtlSeconds,
  authRules = false,
}: ServerOptions): ApolloServer<Context> {
  const guard = queryLimits(limits, { production });
  // What Apollo builds from typeDefs and resolvers itself; the gateway option only changes who executes.
  // With rules off the resolvers run unwrapped: not even a check per field.
  const { schema } = gatewaySchema(authRules);
  return new ApolloServer<Context>({
    logger,
    ...(executor === 'jit' ? { gateway: jitGateway(schema) } : { schema }),
    introspection: !production,
    includeStacktraceInErrorResponses: !production,
    csrfPrevention: true,
    // main.ts owns the signals: Apollo's own SIGTERM handler would stop the server under
    // startGateway's drain, whose apollo.stop() then never returns (and re-raises the signal).
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: allowBatchedRequests,
    // Parsed documents, bounded by what they really hold (documentStore.ts).
    documentStore: createDocumentStore(),
    parseOptions: guard.parseOptions,
    validationRules: guard.validationRules,
    formatError: (formatted, error) => formatError(formatted, error, { production }),
    plugins: [
      operationLogPlugin(logger),
      subscriptionsOverHttpPlugin,
      declaredVariablesPlugin(),
      argumentCheckPlugin(),
      dynamoMetricsPlugin({ enabled: dynamodbMetricsExtension }),
      // No cache hints are set; Apollo's default cache-control plugin would still hook every field resolution.
      ApolloServerPluginCacheControlDisabled(),
      production ? ApolloServerPluginLandingPageDisabled() : ApolloServerPluginLandingPageLocalDefault({ embed: true }),
      ...guard.plugins,
      // After the checks above (responseForOperation runs once they passed), before requestId.
      idempotencyPlugin({ ttlSeconds: idempotencyTtlSeconds, logger }),
      requestIdPlugin,
      shortPagesPlugin,
    ],
  });
}
