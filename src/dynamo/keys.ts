/**
 * THE key design. Every `STUDENT#…` string is built and parsed here and
 * nowhere else (docs/table.md describes the layout).
 *
 * In:  entity ids as clients give them (already validated: non-empty, ≤128
 *      characters, no `#`).
 * Out: the PK/SK (and GSI1PK/GSI1SK) attribute values of each item kind, and
 *      the inverse: the id inside a key value.
 *
 * Invariant: a key value is `<PREFIX>#<id>`; since ids never contain `#`, the
 * id is everything after the first `#`.
 */

export type EntityKind = 'STUDENT' | 'COURSE' | 'CUSTOMER' | 'ORDER' | 'PRODUCT' | 'PART';

/** Primary key of a base-table item. */
export interface ItemKey {
  PK: string;
  SK: string;
}

/** Sort key of the entity ("profile") items; products use their own SK. */
export const PROFILE_SK = 'PROFILE';
export const PRODUCT_SK = 'PRODUCT';

export const GSI1 = 'GSI1';
export const GSI2 = 'GSI2';

export const keyValue = (kind: EntityKind, id: string): string => `${kind}#${id}`;

/** The prefix children of a kind share inside an item collection (`COURSE#`). */
export const prefixOf = (kind: EntityKind): string => `${kind}#`;

/** The id inside `<KIND>#<id>`, or null when the value is not of that kind. */
export function idFrom(kind: EntityKind, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const prefix = prefixOf(kind);
  if (!value.startsWith(prefix)) return null;
  const id = value.slice(prefix.length);
  return id.length > 0 && !id.includes('#') ? id : null;
}

export const studentKey = (id: string): ItemKey => ({ PK: keyValue('STUDENT', id), SK: PROFILE_SK });
export const courseKey = (id: string): ItemKey => ({ PK: keyValue('COURSE', id), SK: PROFILE_SK });
export const customerKey = (id: string): ItemKey => ({ PK: keyValue('CUSTOMER', id), SK: PROFILE_SK });
export const productKey = (id: string): ItemKey => ({ PK: keyValue('PRODUCT', id), SK: PRODUCT_SK });

/** The enrollment edge: lives in the student's collection, inverted into the course's GSI1 partition. */
export const enrollmentKeys = (studentId: string, courseId: string) => ({
  PK: keyValue('STUDENT', studentId),
  SK: keyValue('COURSE', courseId),
  GSI1PK: keyValue('COURSE', courseId),
  GSI1SK: keyValue('STUDENT', studentId),
});

/** An order: in the customer's collection, findable alone through GSI1. */
export const orderKeys = (customerId: string, orderId: string) => ({
  PK: keyValue('CUSTOMER', customerId),
  SK: keyValue('ORDER', orderId),
  GSI1PK: keyValue('ORDER', orderId),
  GSI1SK: keyValue('CUSTOMER', customerId),
});

export const partKey = (productId: string, partId: string): ItemKey => ({
  PK: keyValue('PRODUCT', productId),
  SK: keyValue('PART', partId),
});

/** A stable string for an item key (DataLoader cache keys, maps). */
export const itemKeyString = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;

/**
 * The item holding a course's `studentCount` for the edge of `studentId`:
 * today the course item itself. (A write-sharded course keeps its count in
 * shard items chosen by the student id; callers go through this helper so
 * that layout only changes here.)
 */
export const courseCounterKey = (courseId: string, _studentId: string): ItemKey => courseKey(courseId);

/**
 * Stream bookkeeping of the local stream reader (src/stream/): one partition
 * per stream, never read by the gateway's own readers (no entity or index
 * key points at it).
 * - `STREAM#<label>` / `SHARD#<shardId>`: the checkpoint of one shard
 *   (last sequence number handled, whether the shard is finished);
 * - `STREAM#<label>` / `FAILED#<sequenceNumber>`: a record the handler gave
 *   up on after its retries (the local dead-letter queue).
 * `<label>` is the stream's label (its creation time), so a re-created stream
 * never resumes from an older stream's checkpoints.
 */
export const STREAM_PREFIX = 'STREAM#';
export const streamPartition = (streamLabel: string): string => `${STREAM_PREFIX}${streamLabel}`;
export const shardCheckpointKey = (streamLabel: string, shardId: string): ItemKey => ({
  PK: streamPartition(streamLabel),
  SK: `SHARD#${shardId}`,
});
export const deadLetterKey = (streamLabel: string, sequenceNumber: string): ItemKey => ({
  PK: streamPartition(streamLabel),
  SK: `FAILED#${sequenceNumber}`,
});
export const SHARD_SK_PREFIX = 'SHARD#';
export const FAILED_SK_PREFIX = 'FAILED#';
/** The shard id inside a checkpoint's sort key. */
export const shardIdFrom = (sk: unknown): string | null =>
  typeof sk === 'string' && sk.startsWith(SHARD_SK_PREFIX) ? sk.slice(SHARD_SK_PREFIX.length) : null;

/**
 * An idempotency record (src/idempotency/): the first response to a
 * mutation sent with an `Idempotency-Key` header. `callerKeyHash` is the
 * SHA-256 (hex) of the caller and the key, so neither is stored and no key
 * can contain `#`. Not an entity: nothing lists these; DynamoDB's time to
 * live (`expiresAt`) removes them.
 */
export const IDEMPOTENCY_PREFIX = 'IDEMPOTENCY#';
export const IDEMPOTENCY_SK = 'RECORD';

export const idempotencyKey = (callerKeyHash: string): ItemKey => {
  if (!/^[0-9a-f]{64}$/.test(callerKeyHash)) throw new Error('Invariant violation: an idempotency key is a SHA-256 hex digest');
  return { PK: `${IDEMPOTENCY_PREFIX}${callerKeyHash}`, SK: IDEMPOTENCY_SK };
};

/**
 * The uniqueness item of an explicit order id: written in the same
 * transaction as the order (on `attribute_not_exists(PK)`), so one order id
 * can exist under one customer only, even when two customers place it at
 * the same moment. Generated ids (ULIDs) never collide and have none.
 */
export const ORDER_ID_CLAIM_SK = 'ORDER_ID';
export const orderIdClaimKey = (orderId: string): ItemKey => ({ PK: `ORDERID#${orderId}`, SK: ORDER_ID_CLAIM_SK });
