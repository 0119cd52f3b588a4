/**
 * Idempotent mutations: a mutation request carrying the HTTP header
 * `Idempotency-Key` (the IETF httpapi draft's name) runs at most once per
 * key and caller; a retry gets the first response again (HTTP status and
 * body, with the header `Idempotent-Replayed: true`).
 *
 * - Scope: mutations only. A query with the header runs as usual (queries
 *   change nothing). The key is 1–255 visible ASCII characters, else
 *   BAD_USER_INPUT (HTTP 400).
 * - The same key with another request (query text, operation name or
 *   variables differ) is refused: BAD_USER_INPUT, `reason:
 *   IDEMPOTENCY_KEY_REUSED`, HTTP 422, without running anything.
 * - While the first request runs, another with the same key is refused:
 *   CONFLICT, `reason: IDEMPOTENCY_KEY_IN_USE`, HTTP 409 (retry later).
 * - A first attempt whose every error is UNAVAILABLE and whose fields are
 *   all null wrote nothing (a failed mutation leaves the table as it was),
 *   so the key is released and a retry runs the mutation.
 * - Records live `IDEMPOTENCY_TTL_SECONDS` (default 24 h) through the
 *   table's time to live on `expiresAt` (records.ts).
 *
 * Caller: the verified token's subject when auth is on (AUTH_MODE=oidc),
 * otherwise a hash of the Authorization header, otherwise "anonymous"; the
 * record's key is SHA-256(caller, key), so one caller never sees another's
 * response.
 */
import { createHash } from 'node:crypto';
import { HeaderMap, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { Context } from '../graphql/context.js';
import { ErrorCode } from '../graphql/errors.js';
import { stableJson } from './stableJson.js';
import { metricsClient, OperationMetrics } from '../dynamo/metrics.js';
import type { Logger } from '../logger.js';
import { claimRecord, completeRecord, releaseRecord } from './records.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const DEFAULT_IDEMPOTENCY_TTL_SECONDS = 86_400;
/** Largest response kept (a DynamoDB item holds 400 KB). */
export const MAX_STORED_RESPONSE = 350_000;

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

const sha256 = (...parts: string[]) => {
  const hash = createHash('sha256');
  parts.forEach((part, i) => hash.update(i ? `\u0000${part}` : part));
  return hash.digest('hex');
};

function answer(status: number, errors: GraphQLFormattedError[], headers: [string, string][] = []): GraphQLResponse {
  return {
    body: { kind: 'single', singleResult: { errors } },
    http: { status, headers: new HeaderMap(headers) },
  };
}

const refusal = (status: number, message: string, code: string, reason?: string) =>
  answer(status, [{ message, extensions: { code, ...(reason ? { reason } : {}) } }]);

/** Who is asking: the verified token's subject if known, else the Authorization header's hash, else anonymous. */
function callerOf(context: Context, authorization: string | undefined): string {
  const identity = context.identity;
  if (identity?.kind === 'caller' && identity.subject) return `subject:${identity.subject}`;
  if (authorization) return `authorization:${sha256(authorization)}`;
  return 'anonymous';
}

/** Nothing was written: every error is UNAVAILABLE and no field has a value. */
function wroteNothing(result: { data?: Record<string, unknown> | null; errors?: readonly GraphQLFormattedError[] }): boolean {
  const errors = result.errors ?? [];
  if (!errors.length || !errors.every((e) => e.extensions?.code === ErrorCode.UNAVAILABLE)) return false;
  return !result.data || Object.values(result.data).every((v) => v === null);
}

export function idempotencyPlugin({
  ttlSeconds = DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  logger,
}: { ttlSeconds?: number; logger?: Logger } = {}): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ request }) {
      const key = request.http?.headers.get(IDEMPOTENCY_HEADER);
      if (key === undefined) return;
      let claimed: { keyHash: string; requestHash: string } | null = null;
      // The record's own requests are not the operation's: they must not count against its request cap.
      const detached = <T>(contextValue: Context, fn: (store: Context) => Promise<T>) =>
        fn({ ...contextValue, doc: metricsClient(contextValue.doc, new OperationMetrics()) });
      return {
        async responseForOperation({ operation, contextValue, queryHash }) {
          if (operation?.operation !== 'mutation') return null;
          if (!VALID_KEY.test(key)) {
            return refusal(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters', ErrorCode.BAD_USER_INPUT, 'IDEMPOTENCY_KEY_INVALID');
          }
          const keyHash = sha256('idempotency', callerOf(contextValue, request.http?.headers.get('authorization')), key);
          const requestHash = sha256(request.query ?? queryHash ?? '', request.operationName ?? '', stableJson(request.variables ?? {}));
          let existing;
          try {
            existing = await detached(contextValue, (store) => claimRecord(store, keyHash, requestHash, ttlSeconds));
          } catch (err) {
            logger?.warn({ error: { name: (err as Error)?.name, message: (err as Error)?.message } }, 'idempotency record unavailable');
            return refusal(503, 'DynamoDB is unavailable; try again shortly', ErrorCode.UNAVAILABLE);
          }
          if (existing === null) {
            claimed = { keyHash, requestHash };
            return null; // run the mutation
          }
          if (existing.requestHash !== requestHash) {
            return refusal(
              422,
              'This Idempotency-Key was used for a different request; use a new key for a new request',
              ErrorCode.BAD_USER_INPUT,
              'IDEMPOTENCY_KEY_REUSED',
            );
          }
          if (existing.state === 'PENDING') {
            return refusal(409, 'A request with this Idempotency-Key is still running; retry shortly', ErrorCode.CONFLICT, 'IDEMPOTENCY_KEY_IN_USE');
          }
          return {
            body: { kind: 'single', singleResult: JSON.parse(existing.response) },
            http: { status: existing.status, headers: new HeaderMap([[REPLAYED_HEADER, 'true']]) },
          };
        },
        async willSendResponse({ response, contextValue }) {
          if (!claimed || response.body.kind !== 'single') return;
          const { keyHash, requestHash } = claimed;
          const result = response.body.singleResult;
          try {
            if (wroteNothing(result)) {
              await detached(contextValue, (store) => releaseRecord(store, keyHash, requestHash));
              return;
            }
            let body = JSON.stringify(result);
            if (body.length > MAX_STORED_RESPONSE) {
              body = JSON.stringify({
                errors: [{ message: 'The mutation ran once; its response was too large to keep for retries', extensions: { code: ErrorCode.CONFLICT } }],
              });
            }
            await detached(contextValue, (store) => completeRecord(store, keyHash, requestHash, response.http.status ?? 200, body));
          } catch (err) {
            // The claim stays PENDING until its lease ends; a retry before then is told to wait.
            logger?.warn({ error: { name: (err as Error)?.name, message: (err as Error)?.message } }, 'idempotency record not stored');
          }
        },
      };
    },
  };
}
