/**
 * operationLogPlugin(logger): one structured line per operation (request
 * id, name and type, duration, DynamoDB requests by kind, the error codes
 * the client received, the kind of caller), at `warn` when a code is
 * UNAVAILABLE and `error` for INTERNAL_SERVER_ERROR, plus one line per
 * unexpected error with its name, message and stack.
 *
 * Never logged, so logs hold no personal data or secrets: query text,
 * variables, cursors, results, and the messages of user-facing errors
 * (GraphQL quotes rejected input there); attribute values DynamoDB quotes in
 * its own messages are blanked.
 */
import type { GatewayPlugin } from './combine.js';
import { unwrapResolverError } from '@apollo/server/errors';
import { Kind, type DocumentNode, type GraphQLError, type GraphQLFormattedError, type OperationDefinitionNode } from 'graphql';
import type { Context } from '../context.js';
import { ErrorCode } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Identity } from '../../auth/identity.js';

/** DynamoDB quotes attribute values as `AttributeValue: {S:…}`; those may be a caller's text. */
const QUOTED_VALUE = /\{(?:S|N|B|SS|NS|BS|M|L|BOOL|NULL):[^}]*\}?/g;
export const withoutQuotedValues = (message: string) => message.replace(QUOTED_VALUE, '{…}');

function codeOf(error: GraphQLFormattedError | GraphQLError | undefined): string {
  const code = error?.extensions?.code;
  return typeof code === 'string' ? code : ErrorCode.INTERNAL_SERVER_ERROR;
}

/** Longest operation name logged; longer ones are cut and end in `…`. */
export const MAX_LOGGED_NAME = 64;
/** Logged instead of an operation name that names no operation of the document. */
export const UNKNOWN_OPERATION = '(unknown operation)';

/**
 * The operation name as logged: only a name that is an operation of the
 * document (the one that ran, or one the document defines), truncated;
 * any other name the client sent is client text (it could hold anything,
 * 90 KB of it, an email) and is logged as a placeholder.
 */
export function loggedOperationName(
  operation: OperationDefinitionNode | undefined,
  document: DocumentNode | undefined,
  requested: string | null | undefined,
): string | null {
  let name: string | null = operation ? (operation.name?.value ?? null) : null;
  if (!operation && requested) {
    const defined = document?.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === requested);
    name = defined ? requested : UNKNOWN_OPERATION;
  }
  if (name !== null && name !== UNKNOWN_OPERATION && name.length > MAX_LOGGED_NAME) name = `${name.slice(0, MAX_LOGGED_NAME)}…`;
  return name;
}

function callerKind(identity: Identity): string {
  if (identity.kind === 'anonymous') return 'anonymous';
  if (identity.admin) return 'admin';
  // The owner types whose items the caller owns, in the model's order (`user+team`); never the ids.
  return [...identity.owns.keys()].map((type) => type.toLowerCase()).join('+') || 'signed-in';
}

export function operationLogPlugin(logger: Logger): GatewayPlugin {
  return {
    requestDidStart({ request, contextValue }) {
      const started = performance.now();
      return {
        willSendResponse({ response, errors, operation, document }) {
          // Nothing to build when the logger drops all it could be told (LOG_LEVEL=silent, tools, tests).
          // (pino's numeric level: error is 50, silent is Infinity.)
          if (logger.levelVal > 50) return;
          // The codes the client saw (after formatError); originals carry the causes.
          const sent = response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : [];
          const originals = errors ?? [];
          const codes = (sent.length ? sent : originals).map(codeOf);
          const { requestId, metrics } = contextValue;

          originals.forEach((error, i) => {
            const code = codes[i] ?? codeOf(error);
            if (code !== ErrorCode.INTERNAL_SERVER_ERROR && code !== ErrorCode.UNAVAILABLE) return;
            const cause = unwrapResolverError(error);
            const detail = cause instanceof Error ? cause : error;
            logger[code === ErrorCode.UNAVAILABLE ? 'warn' : 'error'](
              {
                requestId,
                code,
                path: error.path?.join('.'),
                error: { name: detail.name, message: withoutQuotedValues(detail.message), stack: detail.stack && withoutQuotedValues(detail.stack) },
              },
              'operation error',
            );
          });

          const level = codes.includes(ErrorCode.INTERNAL_SERVER_ERROR) ? 'error' : codes.includes(ErrorCode.UNAVAILABLE) ? 'warn' : 'info';
          if (!logger.isLevelEnabled(level)) return;
          logger[level](
            {
              requestId,
              operationName: loggedOperationName(operation, document, request.operationName),
              operationType: operation?.operation ?? null,
              durationMs: Math.round((performance.now() - started) * 10) / 10,
              // requests, byOperation, consumedCapacity, waves, maxConcurrency (dynamo/metrics.ts)
              dynamodb: metrics.summary(),
              errorCodes: codes,
              // With rules on, what kind of caller this was (never who: no subject, no ids).
              ...(contextValue.authRequired ? { caller: callerKind(contextValue.identity) } : {}),
            },
            'graphql operation',
          );
        },
      };
    },
  };
}
