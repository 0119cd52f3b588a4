/**
 * The idempotency record of one (caller, Idempotency-Key): claimed before a
 * mutation runs, completed with its response afterwards.
 *
 * Item (keys from dynamo/keys.ts, under the table's key attributes): pk
 * `IDEMPOTENCY#<sha256(caller, key)>`, sk `RECORD`, and
 * - `requestHash`: SHA-256 of the request (query, operation name, variables);
 * - `callerHash`: SHA-256 of the caller's identity as the rules saw it
 *   (subject, roles, the ids of the owner types it owns), so a replay is given only
 *   to a caller the rules see the same way;
 * - `state`: `PENDING` while the mutation runs, `COMPLETE` once its response
 *   is stored (`status`: HTTP status; the JSON body as `response`, or
 *   gzipped as the Binary `responseGzip` when its UTF-8 bytes exceed
 *   what one item holds);
 * - `lockedUntil` (epoch ms): a PENDING claim older than this was abandoned
 *   (the process died mid-request) and may be taken over;
 * - `expiresAt` (Number, epoch seconds): DynamoDB's time to live removes the
 *   record after it; until then it is ignored once past, since TTL deletion
 *   can lag by hours.
 *
 * The claim is one conditional PutItem, so of two concurrent requests with
 * the same key exactly one runs the mutation.
 */
import { gunzipSync } from 'node:zlib';
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { idempotencyKey, type TableKeys } from '../dynamo/keys.js';
import { sdkReads, type ReadPort } from '../dynamo/readPort.js';

export interface RecordStore {
  doc: DynamoDBDocumentClient;
  /** The look-up's read port (the request's, dynamo/readPort.ts); absent: through `doc`. */
  reads?: ReadPort;
  tableName: string;
  /** The served model's plan: its table's key attributes name the record's keys. */
  plan: { keys: TableKeys };
}

export type StoredRecord =
  | { state: 'PENDING'; requestHash: string; callerHash: string | undefined }
  | { state: 'COMPLETE'; requestHash: string; callerHash: string | undefined; status: number; response: string };

/** The response to keep: JSON text, or its gzip when the text is too large for an item. */
export type KeptResponse = { response: string } | { responseGzip: Uint8Array };

/** How long a claim holds before another request may take it over (a crashed request's claim). */
export const CLAIM_LEASE_MS = 120_000;

const isConditionFailure = (err: unknown) => (err as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * Claims the record for this request. Returns null when claimed (run the
 * mutation), or the live record another request holds.
 */
export async function claimRecord(
  store: RecordStore,
  keyHash: string,
  requestHash: string,
  callerHash: string,
  ttlSeconds: number,
  now = Date.now(),
): Promise<StoredRecord | null> {
  const keys = store.plan.keys;
  const key = keys.key(idempotencyKey(keyHash));
  for (let round = 0; round < 3; round++) {
    try {
      await store.doc.send(
        new PutCommand({
          TableName: store.tableName,
          Item: {
            ...key,
            requestHash,
            callerHash,
            state: 'PENDING',
            lockedUntil: now + CLAIM_LEASE_MS,
            expiresAt: Math.floor(now / 1000) + ttlSeconds,
          },
          ConditionExpression: 'attribute_not_exists(#pk) OR expiresAt < :nowSeconds OR (#state = :pending AND lockedUntil < :nowMs)',
          ExpressionAttributeNames: { '#pk': keys.pk, '#state': 'state' },
          ExpressionAttributeValues: { ':nowSeconds': Math.floor(now / 1000), ':nowMs': now, ':pending': 'PENDING' },
        }),
      );
      return null;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const found = await readRecord(store, keyHash, now);
    // Gone (or expired) between the put and the read: claim again.
    if (found) return found;
  }
  throw new Error('idempotency record kept changing while being claimed');
}

/** The live record of this key, or null (absent or past its expiresAt). One consistent GetItem. */
export async function readRecord(store: RecordStore, keyHash: string, now = Date.now()): Promise<StoredRecord | null> {
  const reads = store.reads ?? sdkReads(store.doc);
  const out = await reads.get({ TableName: store.tableName, Key: store.plan.keys.key(idempotencyKey(keyHash)), ConsistentRead: true });
  const item = out.Item;
  if (!item || (typeof item.expiresAt === 'number' && item.expiresAt < Math.floor(now / 1000))) return null;
  const callerHash = typeof item.callerHash === 'string' ? item.callerHash : undefined;
  if (item.state === 'COMPLETE') {
    const response = item.responseGzip instanceof Uint8Array ? gunzipSync(item.responseGzip).toString('utf8') : String(item.response);
    return { state: 'COMPLETE', requestHash: String(item.requestHash), callerHash, status: Number(item.status), response };
  }
  return { state: 'PENDING', requestHash: String(item.requestHash), callerHash };
}

/** Stores the response of the claimed request (only while the claim is still this request's). */
export async function completeRecord(store: RecordStore, keyHash: string, requestHash: string, status: number, kept: KeptResponse): Promise<void> {
  const [name, value] = 'response' in kept ? ['response', kept.response] : ['responseGzip', kept.responseGzip];
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(idempotencyKey(keyHash)),
      UpdateExpression: 'SET #state = :complete, #status = :status, #response = :response REMOVE lockedUntil',
      ConditionExpression: 'requestHash = :hash AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#response': name },
      ExpressionAttributeValues: { ':complete': 'COMPLETE', ':pending': 'PENDING', ':status': status, ':response': value, ':hash': requestHash },
    }),
  );
}

/** Gives the key back: the mutation wrote nothing (it failed as UNAVAILABLE), so a retry may run it. */
export async function releaseRecord(store: RecordStore, keyHash: string, requestHash: string): Promise<void> {
  await store.doc.send(
    new DeleteCommand({
      TableName: store.tableName,
      Key: store.plan.keys.key(idempotencyKey(keyHash)),
      ConditionExpression: 'requestHash = :hash AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':hash': requestHash, ':pending': 'PENDING' },
    }),
  );
}
