/**
 * A subscription sent as an HTTP request is refused before execution
 * (HTTP 400, GRAPHQL_VALIDATION_FAILED): subscriptions run over the
 * WebSocket at the same URL (transport/subscriptionServer.ts). Without
 * this, the executor would run it once as if it were a query, with no
 * event to resolve.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors.js';

const hooks: RequestHooks = {
  didResolveOperation({ operation }) {
    if (operation?.operation !== 'subscription') return;
    throw new GraphQLError('Subscriptions run over a WebSocket (graphql-ws, subprotocol graphql-transport-ws) at this same URL, not over HTTP', {
      extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED, http: { status: 400 } },
    });
  },
};

export const subscriptionsOverHttpPlugin: GatewayPlugin = { requestDidStart: () => hooks };
