/**
 * The one place where errors become the GraphQL errors a caller sees: every
 * error gets one of the codes of errors.ts, and internals (messages of
 * unexpected errors, stack traces) stay out of prod responses.
 */
import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { DynamoRequestLimitError } from '../dynamo/metrics.js';
import { ErrorCode, isMissingTableError, isUnavailableError } from '../errors.js';

/** A GraphQLError that already carries a 4xx HTTP status: the request was refused as the caller's mistake. */
function clientFault(error: unknown): boolean {
  const extensions = (error as { extensions?: { code?: unknown; http?: { status?: unknown } } } | null)?.extensions;
  if (!extensions || extensions.code !== undefined) return false;
  const status = extensions.http?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

// graphql 16 words it "more that N tokens"; accept the fixed wording too.
const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens/;

/**
 * Apollo's formatError hook: gives every error one of the codes above, and keeps
 * internals (messages of unexpected errors, stack traces) out of
 * prod responses.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
  { prod, onMissingTable }: { prod: boolean; onMissingTable?: () => void },
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const code = formatted.extensions?.code;
  if (original instanceof DynamoRequestLimitError) {
    // The operation reached its DynamoDB request cap (dynamo/metrics.ts): the caller asked for too much.
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.BAD_USER_INPUT, reason: 'DYNAMODB_REQUEST_LIMIT' },
    };
  }
  if (isMissingTableError(original)) {
    // Not a passing fault: the operator is told once (transport/tableWatch.ts), the caller gets no table name.
    onMissingTable?.();
    return {
      message: 'The gateway\'s table does not exist; try again once it has been created',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.UNAVAILABLE, reason: 'TABLE_MISSING' },
    };
  }
  if (isUnavailableError(original)) {
    return {
      message: 'DynamoDB is unavailable; try again shortly',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.UNAVAILABLE },
    };
  }
  if (code === 'GRAPHQL_PARSE_FAILED' && TOKEN_LIMIT.test(formatted.message)) {
    // graphql-js's parser stops at MAX_QUERY_TOKENS: a query limit, reported like the others (plugins/queryLimits.ts).
    const [, max] = TOKEN_LIMIT.exec(formatted.message)!;
    return {
      message: `Query token limit of ${max} exceeded; send a smaller document.`,
      extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED },
    };
  }
  if ((code === undefined || code === ErrorCode.INTERNAL_SERVER_ERROR) && clientFault(error)) {
    // Apollo refuses some requests with a plain GraphQLError and an HTTP 400 (a persisted query
    // whose hash does not match its text, an unsupported persisted query version): the caller's mistake.
    return { message: formatted.message, extensions: { code: ErrorCode.BAD_USER_INPUT } };
  }
  if ((code === undefined || code === ErrorCode.INTERNAL_SERVER_ERROR) && prod) {
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  }
  if (code === undefined) {
    return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.INTERNAL_SERVER_ERROR } };
  }
  return formatted;
}
