/**
 * Idempotent mutations: a mutation request carrying `Idempotency-Key` runs
 * at most once per key and caller; a retry gets the first response again
 * (status and body, `Idempotent-Replayed: true`). Every case and its answer
 * (another request under the key, a key in use, a changed caller, a
 * refused or failed first attempt): docs/limits.md, "Idempotent mutations".
 *
 * Why the key is claimed (a conditional PutItem) just before the first
 * write, not before the mutation runs: a mutation that stops at its
 * argument checks or finds nothing to change leaves no record. Why a first
 * attempt with only UNAVAILABLE errors releases the key: a failed mutation
 * wrote nothing. The record's key is SHA-256(caller, key), so one caller
 * never sees another's response; records expire through the table's TTL
 * (records.ts).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { HeaderMap, type GraphQLResponse } from '@apollo/server';
import type { GatewayPlugin } from './combine.js';
import { Kind, type FragmentDefinitionNode, type GraphQLFormattedError } from 'graphql';
import { BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchWriteItemCommand, DeleteItemCommand, PutItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from '../../context.js';
import { ErrorCode } from '../../errors.js';
import { stableJson } from '../../idempotency/stableJson.js';
import { metricsClient, OperationMetrics } from '../../dynamo/metrics.js';
import { operationReads } from '../../dynamo/leanReads/leanReads.js';
import type { Logger } from '../../logger.js';
import type { Identity } from '../../auth/identity.js';
import type { RuleLookup } from '../../auth/rules.js';
import { refusedMutation } from '../../auth/mutationCheck.js';
import { GraphQLError } from 'graphql';
import { claimRecord, completeRecord, readRecord, releaseRecord, type KeptResponse, type StoredRecord } from '../../idempotency/records.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const DEFAULT_IDEMPOTENCY_TTL_SECONDS = 86_400;
/** Largest response kept, in UTF-8 bytes, as text or gzipped (a DynamoDB item holds 400 KB). */
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

const IN_USE = () => refusal(409, 'A request with this Idempotency-Key is still running; retry shortly', ErrorCode.CONFLICT, 'IDEMPOTENCY_KEY_IN_USE');

/** Who is asking: the verified token's subject if known, else the Authorization header's hash, else anonymous. */
function callerOf(context: Context, authorization: string | undefined): string {
  const identity = context.identity;
  if (identity?.kind === 'caller' && identity.subject) return `subject:${identity.subject}`;
  if (authorization) return `authorization:${sha256(authorization)}`;
  return 'anonymous';
}

/** Everything the rules read of a caller: a replay is given only to a caller with the same. */
function identityHash(identity: Identity): string {
  if (identity.kind === 'anonymous') return sha256('anonymous');
  return sha256(
    'caller',
    identity.subject ?? '',
    [...identity.roles].sort().join('\u0001'),
    ...[...identity.owns].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([type, id]) => `${type}=${id}`),
  );
}

/** Nothing was written: every error is UNAVAILABLE and no field has a value. */
function wroteNothing(result: { data?: Record<string, unknown> | null; errors?: readonly GraphQLFormattedError[] }): boolean {
  const errors = result.errors ?? [];
  if (!errors.length || !errors.every((e) => e.extensions?.code === ErrorCode.UNAVAILABLE)) return false;
  return !result.data || Object.values(result.data).every((v) => v === null);
}

const TOO_LARGE_TO_KEEP = JSON.stringify({
  errors: [{ message: 'The mutation ran once; its response was too large to keep for retries', extensions: { code: ErrorCode.CONFLICT } }],
});

/** The body as kept: text when its UTF-8 bytes fit an item, else gzipped, else the CONFLICT that says it ran. */
export function keptResponse(body: string, limit = MAX_STORED_RESPONSE): KeptResponse {
  if (Buffer.byteLength(body, 'utf8') <= limit) return { response: body };
  const gzipped = gzipSync(body);
  if (gzipped.byteLength <= limit) return { responseGzip: new Uint8Array(gzipped) };
  return { response: TOO_LARGE_TO_KEEP };
}

const WRITES = [
  PutCommand,
  UpdateCommand,
  DeleteCommand,
  TransactWriteCommand,
  BatchWriteCommand,
  PutItemCommand,
  UpdateItemCommand,
  DeleteItemCommand,
  TransactWriteItemsCommand,
  BatchWriteItemCommand,
] as const;
const isWrite = (command: unknown) => WRITES.some((type) => command instanceof type);

/** A view of the operation's client that runs `beforeFirstWrite` once, before its first write is sent. */
function claimingClient(doc: DynamoDBDocumentClient, beforeFirstWrite: () => Promise<void>): DynamoDBDocumentClient {
  const view = Object.create(doc) as DynamoDBDocumentClient;
  const send = doc.send.bind(doc) as (...a: unknown[]) => Promise<unknown>;
  view.send = (async (command: unknown, ...rest: unknown[]) => {
    if (isWrite(command)) await beforeFirstWrite();
    return send(command, ...rest);
  }) as DynamoDBDocumentClient['send'];
  return view;
}

/** Thrown into the mutation when another request took the key first; the response is replaced. */
const claimLost = () =>
  new GraphQLError('A request with this Idempotency-Key is still running; retry shortly', {
    extensions: { code: ErrorCode.CONFLICT, reason: 'IDEMPOTENCY_KEY_IN_USE' },
  });

export function idempotencyPlugin({
  ttlSeconds = DEFAULT_IDEMPOTENCY_TTL_SECONDS,
  logger,
  rules,
}: {
  ttlSeconds?: number;
  logger?: Logger;
  rules?: RuleLookup;
} = {}): GatewayPlugin {
  return {
    requestDidStart({ request }) {
      const key = request.http?.headers.get(IDEMPOTENCY_HEADER);
      if (key === undefined) return;
      /** Set once the key is ours: the response is then stored. */
      let claimed: { keyHash: string; requestHash: string } | null = null;
      /** Set when another request claimed the key between the look-up and the first write. */
      let lost: { record: StoredRecord; requestHash: string; callerHash: string } | null = null;
      // The record's own requests are not the operation's: they must not count against its request cap.
      const detached = <T>(contextValue: Context, fn: (store: Context) => Promise<T>) => {
        const metrics = new OperationMetrics();
        const doc = metricsClient(contextValue.doc, metrics);
        return fn({ ...contextValue, doc, reads: operationReads(contextValue.readPath, doc, metrics) });
      };
      const warn = (err: unknown, message: string) => logger?.warn({ error: { name: (err as Error)?.name, message: (err as Error)?.message } }, message);
      return {
        async responseForOperation({ operation, document, contextValue, queryHash }) {
          if (operation?.operation !== 'mutation') return null;
          if (!VALID_KEY.test(key)) {
            return refusal(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters', ErrorCode.BAD_USER_INPUT, 'IDEMPOTENCY_KEY_INVALID');
          }
          if (contextValue.authRequired) {
            const fragments: Record<string, FragmentDefinitionNode> = {};
            for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
            const view = { operation, fragments, variableValues: request.variables ?? {} };
            // Refused by the rules: execution refuses it before any request; nothing to look up or keep.
            if (rules && refusedMutation(contextValue.identity, view, contextValue, rules)) return null;
          }
          const keyHash = sha256('idempotency', callerOf(contextValue, request.http?.headers.get('authorization')), key);
          const requestHash = sha256(request.query ?? queryHash ?? '', request.operationName ?? '', stableJson(request.variables ?? {}));
          const callerHash = identityHash(contextValue.identity);
          let existing;
          try {
            existing = await detached(contextValue, (store) => readRecord(store, keyHash));
          } catch (err) {
            warn(err, 'idempotency record unavailable');
            return refusal(503, 'DynamoDB is unavailable; try again shortly', ErrorCode.UNAVAILABLE);
          }
          if (existing) return answerFor(existing, requestHash, callerHash);
          let claim: Promise<void> | undefined;
          const store = contextValue;
          contextValue.doc = claimingClient(
            contextValue.doc,
            () =>
              (claim ??= detached(store, (s) => claimRecord(s, keyHash, requestHash, callerHash, ttlSeconds)).then((record) => {
                if (record) {
                  lost = { record, requestHash, callerHash };
                  throw claimLost();
                }
                claimed = { keyHash, requestHash };
              })),
          );
          return null; // run the mutation; the key is claimed before its first write
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          if (lost) {
            const replaced = answerFor(lost.record, lost.requestHash, lost.callerHash);
            response.body = replaced.body;
            response.http.status = replaced.http?.status;
            for (const [name, value] of replaced.http?.headers ?? []) response.http.headers.set(name, value);
            return;
          }
          if (!claimed) return;
          const { keyHash, requestHash } = claimed;
          const result = response.body.singleResult;
          const status = response.http.status ?? 200;
          try {
            if (wroteNothing(result)) {
              await detached(contextValue, (store) => releaseRecord(store, keyHash, requestHash));
              return;
            }
            await detached(contextValue, (store) => completeRecord(store, keyHash, requestHash, status, keptResponse(JSON.stringify(result))));
          } catch (err) {
            warn(err, 'idempotency record not stored');
            // Whatever kept the response from being stored (an item DynamoDB refuses), the mutation ran:
            // say so, so that a retry is told, never run again.
            try {
              await detached(contextValue, (store) => completeRecord(store, keyHash, requestHash, status, { response: TOO_LARGE_TO_KEEP }));
            } catch {
              // The claim stays PENDING until its lease ends; a retry before then is told to wait.
            }
          }
        },
      };
    },
  };
}

/** The answer to a request whose key already has a live record. */
function answerFor(existing: StoredRecord, requestHash: string, callerHash: string): GraphQLResponse {
  if (existing.callerHash !== callerHash) {
    return refusal(403, 'This Idempotency-Key was used by a caller with other claims; use a new key', ErrorCode.FORBIDDEN, 'IDEMPOTENCY_CALLER_CHANGED');
  }
  if (existing.requestHash !== requestHash) {
    return refusal(
      422,
      'This Idempotency-Key was used for a different request; use a new key for a new request',
      ErrorCode.BAD_USER_INPUT,
      'IDEMPOTENCY_KEY_REUSED',
    );
  }
  if (existing.state === 'PENDING') return IN_USE();
  return {
    body: { kind: 'single', singleResult: JSON.parse(existing.response) },
    http: { status: existing.status, headers: new HeaderMap([[REPLAYED_HEADER, 'true']]) },
  };
}
