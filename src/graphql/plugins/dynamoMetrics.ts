/**
 * Puts an operation's DynamoDB figures (ctx.metrics, see dynamo/metrics.ts)
 * into the response's `extensions.dynamodb`, for clients that ask with the
 * header `x-dynamodb-metrics: 1`. Off unless enabled (config
 * `DYNAMODB_METRICS_EXTENSION`, default on outside prod mode): the figures
 * tell a caller how the table is laid out and how costly a query is.
 *
 * The log line per operation reads the same `ctx.metrics` (logging plugin).
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import type { Context } from '../context.js';

export const METRICS_HEADER = 'x-dynamodb-metrics';

export function dynamoMetricsPlugin({ enabled }: { enabled: boolean }): GatewayPlugin {
  const hooks: RequestHooks = {
    willSendResponse({ response, contextValue }) {
      if (response.body.kind !== 'single') return;
      const result = response.body.singleResult;
      result.extensions = { ...result.extensions, dynamodb: contextValue.metrics.summary() };
    },
  };
  return {
    requestDidStart({ request }) {
      if (!enabled || request.http?.headers.get(METRICS_HEADER)?.trim() !== '1') return;
      return hooks;
    },
  };
}
