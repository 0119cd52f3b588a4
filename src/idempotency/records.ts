/**
 * The idempotency record of one (caller, Idempotency-Key): claimed before a
 * mutation runs, completed with its response afterwards.
 *
 * Item (keys from dynamo/keys.ts): PK `IDEMPOTENCY#<sha256(caller, key)>`,
 * SK `RECORD`, and
 * - `requestHash`: SHA-256 of the request (query, operation name, variables);
 * - `state`: `PENDING` while the mutation runs, `COMPLETE` once its response
 *   is stored (`status`: HTTP status, `response`: the JSON body);
 * - `lockedUntil` (epoch ms): a PENDING claim older than this was abandoned
 *   (the process died mid-request) and may be taken over;
 * - `expiresAt` (Number, epoch seconds): DynamoDB's time to live removes the
 *   record after it; until then it is ignored once past, since TTL deletion
 *   can lag by hours.
 *
 * The claim is one conditional PutItem, so of two concurrent requests with
 * the same key exactly one runs the mutation.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { idempotencyKey } from '../dynamo/keys.js';

export interface RecordStore {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

export type StoredRecord =
  | { state: 'PENDING'; requestHash: string }
  | { state: 'COMPLETE'; requestHash: string; status: number; response: string };

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
  ttlSeconds: number,
  now = Date.now(),
): Promise<StoredRecord | null> {
  const key = idempotencyKey(keyHash);
  for (let round = 0; round < 3; round++) {
    try {
      await store.doc.send(
        new PutCommand({
          TableName: store.tableName,
          Item: {
            ...key,
            requestHash,
            state: 'PENDING',
            lockedUntil: now + CLAIM_LEASE_MS,
            expiresAt: Math.floor(now / 1000) + ttlSeconds,
          },
          ConditionExpression:
            'attribute_not_exists(PK) OR expiresAt < :nowSeconds OR (#state = :pending AND lockedUntil < :nowMs)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':nowSeconds': Math.floor(now / 1000), ':nowMs': now, ':pending': 'PENDING' },
        }),
      );
      return null;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const out = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }));
    const item = out.Item;
    // Gone (or expired) between the put and the read: claim again.
    if (!item || (typeof item.expiresAt === 'number' && item.expiresAt < Math.floor(now / 1000))) continue;
    if (item.state === 'COMPLETE') {
      return { state: 'COMPLETE', requestHash: String(item.requestHash), status: Number(item.status), response: String(item.response) };
    }
    return { state: 'PENDING', requestHash: String(item.requestHash) };
  }
  throw new Error('idempotency record kept changing while being claimed');
}

/** Stores the response of the claimed request (only while the claim is still this request's). */
export async function completeRecord(
  store: RecordStore,
  keyHash: string,
  requestHash: string,
  status: number,
  response: string,
): Promise<void> {
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: idempotencyKey(keyHash),
      UpdateExpression: 'SET #state = :complete, #status = :status, #response = :response REMOVE lockedUntil',
      ConditionExpression: 'requestHash = :hash AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':complete': 'COMPLETE', ':pending': 'PENDING', ':status': status, ':response': response, ':hash': requestHash },
    }),
  );
}

/** Gives the key back: the mutation wrote nothing (it failed as UNAVAILABLE), so a retry may run it. */
export async function releaseRecord(store: RecordStore, keyHash: string, requestHash: string): Promise<void> {
  await store.doc.send(
    new DeleteCommand({
      TableName: store.tableName,
      Key: idempotencyKey(keyHash),
      ConditionExpression: 'requestHash = :hash AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':hash': requestHash, ':pending': 'PENDING' },
    }),
  );
}
