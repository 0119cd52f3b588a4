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
import type { Config } from '../config.js';
import type { Context, Deps } from '../graphql/context.js';
import { dynamoFromConfig, type Dynamo } from '../dynamo/client.js';
import type { Logger } from '../logger.js';
import { createServer, gatewaySchema } from '../graphql/server.js';
import type { GraphQLSchema } from 'graphql';
import type { DeclaredSubscription } from '../subscriptions/declared.js';
import { createCursorCodec } from '../connections/cursorSigning.js';
import { createAuthenticator, type Authenticator } from '../auth/authenticate.js';

export interface GatewayParts {
  dynamo: Dynamo;
  server: ApolloServer<Context>;
  deps: Deps;
  /** Turns a request's Authorization header into its identity (src/auth/). */
  auth: Authenticator;
  /** The executable schema (rules applied when on) and its declared subscriptions, for the WebSocket transport (built on first call: Lambda never asks). */
  subscriptionSchema: () => { schema: GraphQLSchema; declared: DeclaredSubscription[] };
}

export interface PartsOptions {
  logger: Logger;
  /** The URL of the embedded DynamoDB Local, when the configuration's endpoint is `embedded`. */
  embeddedUrl?: string;
  /** A ready client instead of a new one (tests). */
  dynamo?: Dynamo;
}

export function createGatewayParts(config: Config, { logger, embeddedUrl, dynamo }: PartsOptions): GatewayParts {
  const { security } = config;
  const client = dynamo ?? dynamoFromConfig(config, embeddedUrl);
  const server = createServer({
    production: config.production,
    logger,
    dynamodbMetricsExtension: config.dynamodbMetricsExtension,
    limits: { ...security, maxResponseFields: config.operationLimits.maxResponseFields },
    allowBatchedRequests: security.allowBatchedRequests,
    executor: config.executor,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    authRules: config.auth.mode === 'oidc',
  });
  const auth = createAuthenticator(config.auth, logger);
  if (config.auth.mode === 'off' && config.production) {
    logger.warn('AUTH_MODE=off in production: every caller may read and write everything (docs/auth.md)');
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
    subscriptionSchema: () => (built ??= gatewaySchema(config.auth.mode === 'oidc')),
    deps: { doc: client.doc, tableName: config.tableName, naive: config.naive, cursors, authRequired: auth.rulesOn, pageReadBudget: config.catalog.pageReadBudget },
  };
}
