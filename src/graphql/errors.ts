/**
 * The error codes (docs/errors.md) and the one place where
 * domain errors and DynamoDB failures become GraphQL errors.
 *
 * Resolvers throw the helpers below for a caller's mistake; anything else
 * that escapes a resolver is classified by `formatError`: DynamoDB being
 * unreachable or throttled becomes `UNAVAILABLE`, the rest
 * `INTERNAL_SERVER_ERROR` (masked in production).
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { DynamoRequestLimitError } from '../dynamo/metrics.js';

export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  CONFLICT: 'CONFLICT',
  NOT_FOUND: 'NOT_FOUND',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** A presented bearer token does not verify (HTTP 401), or a mutation needs a token and none came. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The caller's identity does not allow this field or mutation (src/auth/rules.ts). */
  FORBIDDEN: 'FORBIDDEN',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

function coded(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

export const badUserInput = (message: string, argumentName?: string) =>
  coded(ErrorCode.BAD_USER_INPUT, message, argumentName ? { argumentName } : {});
export const conflict = (message: string) => coded(ErrorCode.CONFLICT, message);
export const notFound = (message: string) => coded(ErrorCode.NOT_FOUND, message);
export const unavailable = (message = 'DynamoDB is unavailable; try again shortly') =>
  coded(ErrorCode.UNAVAILABLE, message);
/** The authorization rules deny a field or mutation; `rule` names the rule that said no. */
export const forbidden = (message: string, rule: string) => coded(ErrorCode.FORBIDDEN, message, { rule });
/** A mutation that needs a signed-in caller was sent without a token. */
export const unauthenticated = (message: string, extensions: Record<string, unknown> = {}) =>
  coded(ErrorCode.UNAUTHENTICATED, message, extensions);
/** A write kept colliding with concurrent transactions on the same items: transient, safe to retry. */
export const transactionConflict = (message = 'The write collided with concurrent writes; try again') =>
  coded(ErrorCode.UNAVAILABLE, message, { reason: 'TRANSACTION_CONFLICT' });

/** An invariant of our own code was broken: a bug, never a caller's mistake. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Invariant violation: ${message}`);
}

const UNAVAILABLE_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ResourceNotFoundException', // the table is gone or not yet created: the store is not usable
  'UnprocessedKeysError',
]);
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Is this error DynamoDB being unreachable, overloaded or throttling us (after the SDK's retries)? */
export function isUnavailableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (e.name && UNAVAILABLE_ERROR_NAMES.has(e.name)) return true;
  if (e.code && NETWORK_ERROR_CODES.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  return e.cause !== undefined && e.cause !== err && isUnavailableError(e.cause);
}

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
 * production responses.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
  { production }: { production: boolean },
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
  if ((code === undefined || code === ErrorCode.INTERNAL_SERVER_ERROR) && production) {
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
