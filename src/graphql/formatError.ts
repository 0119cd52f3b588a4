/**
 * The one place where errors become the GraphQL errors a caller sees: every
 * error gets one of the codes of errors.ts, and internals (messages of
 * unexpected errors, stack traces) stay out of prod responses. In
 * development an error shows where it was thrown (`location`: the top frame
 * of the project's own code) instead of the whole stack, unless asked for.
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

/** How development errors show where they come from: the whole stack, or one `src/…:line`. */
export type StacktraceMode = 'full' | 'location';

/** The top frame of the project's own code (`src/…ts:line`), skipping dependencies and Node's internals. */
export function ownLocation(stacktrace: readonly string[]): string | undefined {
  for (const frame of stacktrace) {
    if (!/^\s*at /.test(frame) || frame.includes('node_modules')) continue;
    const match = /^.*[\s(/](src\/[^\s():]+):(\d+)(?::\d+)?\)?\s*$/.exec(frame);
    if (match) return `${match[1]}:${match[2]}`;
  }
  return undefined;
}

/** Replaces Apollo's `stacktrace` extension with `location`, one line instead of ten. */
function shortened(formatted: GraphQLFormattedError, stacktrace: StacktraceMode): GraphQLFormattedError {
  const trace = formatted.extensions?.stacktrace;
  if (stacktrace === 'full' || !Array.isArray(trace)) return formatted;
  const { stacktrace: _, ...extensions } = formatted.extensions!;
  const location = ownLocation(trace as string[]);
  return { ...formatted, extensions: location ? { ...extensions, location } : extensions };
}

/**
 * Apollo's formatError hook: gives every error one of the codes above, and keeps
 * internals (messages of unexpected errors, stack traces) out of
 * prod responses.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
  { prod, onMissingTable, stacktrace = 'location' }: { prod: boolean; onMissingTable?: () => void; stacktrace?: StacktraceMode },
): GraphQLFormattedError {
  return shortened(classified(formatted, error, { prod, onMissingTable }), stacktrace);
}

function classified(
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
      message: "The gateway's table does not exist; try again once it has been created",
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
