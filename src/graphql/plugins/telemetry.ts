/**
 * telemetryPlugin(telemetry): one span per GraphQL operation, and the
 * operation's metrics (src/telemetry/). Installed by createServer only when
 * telemetry is configured; without it no request does any telemetry work.
 *
 * The span starts when Apollo takes the request up, as a child of the
 * caller's `traceparent` header (W3C Trace Context; other propagators per
 * OTEL_PROPAGATORS), and ends when the response is sent, carrying what the
 * operation log line carries: operation name and type, cost, the error
 * codes the client saw, and the DynamoDB requests, waves and consumed
 * capacity (ctx.metrics). Each DynamoDB call of the operation is a child
 * span: the plugin hands the span's CallObserver to ctx.metrics, which both
 * DynamoDB paths tell of every call (dynamo/metrics.ts). No span per
 * resolver: the fields of an operation are not where its time goes, its
 * DynamoDB round trips are, and those are there.
 */
import type { GatewayPlugin } from './combine.js';
import type { GraphQLFormattedError } from 'graphql';
import type { Context } from '../context.js';
import { ErrorCode } from '../../errors.js';
import { loggedOperationName } from './operationLog.js';
import type { Outcome, Telemetry } from '../../telemetry/telemetry.js';

const SERVER_CODES: ReadonlySet<string> = new Set([ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.UNAVAILABLE]);

function codeOf(error: GraphQLFormattedError | undefined): string {
  const code = error?.extensions?.code;
  return typeof code === 'string' ? code : ErrorCode.INTERNAL_SERVER_ERROR;
}

export function outcomeOf(codes: readonly string[]): Outcome {
  if (codes.some((code) => SERVER_CODES.has(code))) return 'server_error';
  return codes.length > 0 ? 'user_error' : 'ok';
}

export function telemetryPlugin(telemetry: Telemetry): GatewayPlugin {
  return {
    requestDidStart({ request, contextValue }) {
      const trace = telemetry.startOperation(request.http?.headers);
      contextValue.metrics.calls = trace.calls;
      return {
        willSendResponse({ response, errors, operation, document }) {
          const sent = response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : [];
          const codes = sent.length ? sent.map(codeOf) : (errors ?? []).map((e) => codeOf(e));
          trace.finish({
            name: loggedOperationName(operation, document, request.operationName),
            type: operation?.operation ?? null,
            cost: contextValue.cost,
            codes,
            outcome: outcomeOf(codes),
            dynamodb: contextValue.metrics.summary(),
            requestId: contextValue.requestId,
          });
        },
      };
    },
  };
}
