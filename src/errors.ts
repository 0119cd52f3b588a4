/**
 * The error codes (docs/errors.md), the helpers that raise them, and
 * `invariant`: a leaf module every layer may import (it imports nothing
 * of the project's).
 *
 * Code throws the helpers below for a caller's mistake; anything else that
 * escapes a resolver is classified by graphql/formatError.ts: DynamoDB being
 * unreachable or throttled (`isUnavailableError`) becomes `UNAVAILABLE`, the
 * rest `INTERNAL_SERVER_ERROR` (masked in prod mode).
 */
import { GraphQLError } from 'graphql';

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

export const badUserInput = (message: string, argumentName?: string) => coded(ErrorCode.BAD_USER_INPUT, message, argumentName ? { argumentName } : {});
export const conflict = (message: string) => coded(ErrorCode.CONFLICT, message);
export const notFound = (message: string) => coded(ErrorCode.NOT_FOUND, message);
export const unavailable = (message = 'DynamoDB is unavailable; try again shortly') => coded(ErrorCode.UNAVAILABLE, message);
/** The authorization rules deny a field or mutation; `rule` names the rule that said no. */
export const forbidden = (message: string, rule: string) => coded(ErrorCode.FORBIDDEN, message, { rule });
/** A mutation that needs a signed-in caller was sent without a token. */
export const unauthenticated = (message: string, extensions: Record<string, unknown> = {}) => coded(ErrorCode.UNAUTHENTICATED, message, extensions);
/** A write kept colliding with concurrent transactions on the same items: transient, safe to retry. */
export const transactionConflict = (message = 'The write collided with concurrent writes; try again') =>
  coded(ErrorCode.UNAVAILABLE, message, { reason: 'TRANSACTION_CONFLICT' });

/** An invariant of our own code was broken: a bug, never a caller's mistake. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) invariantViolation(message);
}

/** Where code reaches what its invariants rule out (an exhausted switch, a missing precondition). */
export function invariantViolation(message: string): never {
  throw new Error(`Invariant violation: ${message}`);
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
/**
 * DynamoDB refusing the gateway's credentials (revoked, expired, rotated,
 * a bad signature) or their permissions: nothing the caller can change.
 * The client forces one credential refresh and retries once
 * (dynamo/credentialRefresh.ts); what still fails is UNAVAILABLE.
 */
const CREDENTIAL_ERROR_NAMES = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'ExpiredToken',
  'InvalidClientTokenId',
  'MissingAuthenticationTokenException',
  'IncompleteSignatureException',
  'AccessDeniedException',
]);

/** Is this DynamoDB refusing the gateway's credentials? */
export function isCredentialError(err: unknown): boolean {
  return !!err && typeof err === 'object' && CREDENTIAL_ERROR_NAMES.has((err as { name?: string }).name ?? '');
}

/**
 * Is this an answer that is not DynamoDB's JSON (a proxy's or load
 * balancer's HTML page with a 200)? The SDK's deserializer fails on it with
 * a SyntaxError carrying the answer's status; the read path alike.
 */
export function isUnreadableAnswer(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'SyntaxError' && typeof e.$metadata?.httpStatusCode === 'number';
}

const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Is this error DynamoDB saying the table does not exist (deleted, never
 * created, or another TABLE_NAME, region or account)? It is also an
 * unavailable error; the transports log it once, with what to do.
 */
export function isMissingTableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; cause?: unknown };
  if (e.name === 'ResourceNotFoundException') return true;
  return e.cause !== undefined && e.cause !== err && isMissingTableError(e.cause);
}

/** Is this error DynamoDB being unreachable, overloaded, throttling us, refusing our credentials or answering what is not its JSON (after the retries)? */
export function isUnavailableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (e.name && UNAVAILABLE_ERROR_NAMES.has(e.name)) return true;
  if (isCredentialError(err) || isUnreadableAnswer(err)) return true;
  if (e.code && NETWORK_ERROR_CODES.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && status >= 500) return true;
  return e.cause !== undefined && e.cause !== err && isUnavailableError(e.cause);
}
