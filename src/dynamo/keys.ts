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

/**
 * Write sharding of a course's enrollments (docs/sharding.md). A course item
 * may carry `shards` = N (1–64; absent = 1). With N > 1 a student's edge is
 * indexed under `COURSE#<cid>#<k>` and the course's count is kept in N
 * counter items `COURSE#<cid>#<k>` / `COUNTER`, k = fnv1a32(UTF-8 of the
 * student id) mod N. With N = 1 the layout is the unsharded one.
 */
export const MAX_SHARDS = 64;
export const COUNTER_SK = 'COUNTER';

/** FNV-1a, 32-bit, over the UTF-8 bytes of `text`, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The shard count a stored course item declares: its `shards` when a whole number in 1–64, else 1. */
export function shardCountOf(course: { shards?: unknown } | null | undefined): number {
  const n = course?.shards;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_SHARDS ? n : 1;
}

/** The shard (0…N-1) a student's edge and counter change go to in a course of N shards. */
export const shardOf = (studentId: string, shards: number): number => (shards <= 1 ? 0 : fnv1a32(studentId) % shards);

/** GSI1 partition value of shard `k` of a course of `shards` shards (`COURSE#<cid>` when unsharded). */
export const courseShardPartition = (courseId: string, k: number, shards: number): string =>
  shards <= 1 ? keyValue('COURSE', courseId) : `${keyValue('COURSE', courseId)}#${k}`;

/** Every GSI1 partition of a course's enrollments, shard 0 first. */
export const courseShardPartitions = (courseId: string, shards: number): string[] =>
  Array.from({ length: Math.max(1, shards) }, (_, k) => courseShardPartition(courseId, k, shards));

/** GSI1PK of a student's edge into a course of `shards` shards. */
export const enrollmentPartition = (studentId: string, courseId: string, shards = 1): string =>
  courseShardPartition(courseId, shardOf(studentId, shards), shards);

/** Counter item of shard `k` of a sharded course (its attribute `studentCount`). */
export const counterShardKey = (courseId: string, k: number): ItemKey => ({
  PK: `${keyValue('COURSE', courseId)}#${k}`,
  SK: COUNTER_SK,
});

/**
 * The item whose `studentCount` a student's enrollment changes: the course
 * item when unsharded, else the counter item of the student's shard.
 */
export const courseCounterKey = (courseId: string, studentId: string, shards = 1): ItemKey =>
  shards <= 1 ? courseKey(courseId) : counterShardKey(courseId, shardOf(studentId, shards));

/** Every item holding part of a course's `studentCount` (the course item when unsharded). */
export const courseCounterKeys = (courseId: string, shards: number): ItemKey[] =>
  shards <= 1 ? [courseKey(courseId)] : Array.from({ length: shards }, (_, k) => counterShardKey(courseId, k));

/**
 * The item counting the edges indexed under GSI1 partition `partition` of a
 * course: counter item k for `COURSE#<cid>#<k>`, the course item otherwise.
 * An edge's own GSI1PK names it, whatever the course's layout is now
 * (writers change an edge and this counter together).
 */
export function partitionCounterKey(courseId: string, partition: unknown): ItemKey {
  const shard = parseCourseShard(partition);
  return shard && shard.courseId === courseId ? counterShardKey(courseId, shard.k) : courseKey(courseId);
}

/** Parses a sharded course partition value `COURSE#<cid>#<k>`; null for anything else. */
export function parseCourseShard(value: unknown): { courseId: string; k: number } | null {
  if (typeof value !== 'string' || !value.startsWith(prefixOf('COURSE'))) return null;
  const rest = value.slice(prefixOf('COURSE').length).split('#');
  if (rest.length !== 2 || rest[0].length === 0 || !/^(0|[1-9]\d?)$/.test(rest[1])) return null;
  const k = Number(rest[1]);
  return k < MAX_SHARDS ? { courseId: rest[0], k } : null;
}

/** The enrollment edge: lives in the student's collection, inverted into the course's GSI1 partition (its shard). */
export const enrollmentKeys = (studentId: string, courseId: string, shards = 1) => ({
  PK: keyValue('STUDENT', studentId),
  SK: keyValue('COURSE', courseId),
  GSI1PK: enrollmentPartition(studentId, courseId, shards),
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

/**
 * Generic write sharding of a parent's edges (a @sharded relation,
 * docs/sharding.md): shard k of a parent of N > 1 shards is the GSI1
 * partition `<parent PK>#<k>` and its counter item `<parent PK>#<k>` /
 * `COUNTER`; with N = 1 the partition is the parent's PK itself.
 */
export const shardPartition = (parentPk: string, k: number, shards: number): string =>
  shards <= 1 ? parentPk : `${parentPk}#${k}`;

export const shardCounterKey = (parentPk: string, k: number): ItemKey => ({ PK: `${parentPk}#${k}`, SK: COUNTER_SK });

/** The shard index inside a partition value `<parent PK>#<k>` (k below `max`), or null for anything else. */
export function parseShardPartition(parentPk: string, value: unknown, max = MAX_SHARDS): number | null {
  if (typeof value !== 'string' || !value.startsWith(`${parentPk}#`)) return null;
  const rest = value.slice(parentPk.length + 1);
  if (!/^(0|[1-9]\d?)$/.test(rest)) return null;
  const k = Number(rest);
  return k < max ? k : null;
}

/** A shard count stored on a parent: a whole number in 1–`max`, else 1. */
export function shardCountFrom(value: unknown, max = MAX_SHARDS): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : 1;
}

/**
 * The uniqueness item of an explicit id of an inverted child type whose
 * sort key is `<P>#{id}`: PK `<P>ID#<id>`, SK `<P>_ID`. Written in the
 * same transaction as the child (on `attribute_not_exists(PK)`), so one id
 * exists under one parent only, even when two parents take it at the same
 * moment. Generated ids (ULIDs) never collide and have none.
 */
export function idClaimKey(skPrefix: string, id: string): ItemKey {
  const base = skPrefix.endsWith('#') ? skPrefix.slice(0, -1) : skPrefix;
  return { PK: `${base}ID#${id}`, SK: `${base}_ID` };
}

/** A stable string for an item key (DataLoader cache keys, maps). */
export const itemKeyString = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;

/*
 * GSI2: the sparse overloaded index (GSI2PK/GSI2SK). Only items that carry
 * both attributes are in it; three kinds do (docs/catalog.md):
 *
 * | item    | GSI2PK                      | GSI2SK                                   |
 * |---------|-----------------------------|------------------------------------------|
 * | Course  | `CATALOG#COURSE#<k>`        | `TITLE#<sortable title>` U+0001 `<cid>`  |
 * | Student | `CATALOG#STUDENT#<k>`       | `NAME#<sortable name>` U+0001 `<sid>`    |
 * | Order   | `ORDERS#<cuid>`             | `<placedAt, ISO ms UTC>#<oid>`           |
 *
 * k = fnv1a32(UTF-8 bytes of the id) mod CATALOG_SHARDS: fixed per entity, so
 * a rename never moves an entity between shards, and creations spread over
 * CATALOG_SHARDS partitions instead of heating one.
 *
 * Catalog counters (exact totalCount of the lists), one item per shard,
 * changed in the same transaction as the entity that enters or leaves the
 * shard: PK `CATALOG#COURSE#<k>` / `CATALOG#STUDENT#<k>`, SK `COUNTER`,
 * attribute `count`.
 *
 * Layout bookkeeping of `npm run migrate`: PK `LAYOUT`, SK `MIGRATION` (the
 * table's layout version) and `MIGRATION#SEGMENT#<n>` (scan checkpoints).
 */

/** Shards of each catalog in GSI2. Fixed: changing it re-keys every catalog entry (a migration). */
export const CATALOG_SHARDS = 8;

/**
 * A catalog as its @catalog declares it: GSI2 partitions `<key>#<k>` (k =
 * fnv1a32(id) mod `shards`), sort keys `<sortKey>#<sortable text>` U+0001
 * `<id>`, counters `<key>#<k>` / `COUNTER`.
 */
export interface CatalogSpec {
  key: string;
  sortKey: string;
  shards: number;
}

export const catalogEntryShard = (spec: CatalogSpec, id: string): number => fnv1a32(id) % spec.shards;
export const catalogEntryPartition = (spec: CatalogSpec, shard: number): string => `${spec.key}#${shard}`;
export const catalogEntryPrefix = (spec: CatalogSpec, sortablePrefix = ''): string => `${spec.sortKey}#${sortablePrefix}`;
export const catalogEntrySortKey = (spec: CatalogSpec, id: string, text: string): string =>
  `${catalogEntryPrefix(spec, sortableText(text))}${CATALOG_SEPARATOR}${id}`;
export const catalogEntryKeys = (spec: CatalogSpec, id: string, text: string) => ({
  GSI2PK: catalogEntryPartition(spec, catalogEntryShard(spec, id)),
  GSI2SK: catalogEntrySortKey(spec, id, text),
});
export const catalogEntryPartitions = (spec: CatalogSpec): string[] =>
  Array.from({ length: spec.shards }, (_, k) => catalogEntryPartition(spec, k));
export const catalogShardCounterKey = (spec: CatalogSpec, shard: number): ItemKey => ({
  PK: catalogEntryPartition(spec, shard),
  SK: COUNTER_SK,
});

export type CatalogKind = 'COURSE' | 'STUDENT';

/** The default model's catalogs by kind (the last segment of the @catalog key), for callers not yet given the plan. */
export const catalogSpecOf = (kind: CatalogKind): CatalogSpec => ({
  key: `CATALOG#${kind}`,
  sortKey: kind === 'COURSE' ? 'TITLE' : 'NAME',
  shards: CATALOG_SHARDS,
});

export const catalogShardOf = (id: string): number => fnv1a32(id) % CATALOG_SHARDS;

/** GSI2 partition of one catalog shard. */
export const catalogPartition = (kind: CatalogKind, shard: number): string => `CATALOG#${kind}#${shard}`;

/** Between the sortable text and the id: below every character a sortable text may hold. */
export const CATALOG_SEPARATOR = '\u0001';

/** Longest sortable text kept in a key, in UTF-8 bytes (GSI2SK ≤ 1024 bytes, ids ≤ 128 characters). */
export const MAX_SORTABLE_BYTES = 400;

/** Letters that compatibility decomposition leaves whole but readers treat as plain Latin letters. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h' };

/**
 * The comparison form of a title or name: compatibility-decomposed (NFKD),
 * accents and other combining marks removed, lower-cased, a few letters
 * folded (ß→ss, æ→ae, ø→o, ł→l …), control characters dropped, runs of
 * white space made one space. "Élan  Vital" and "elan vital" compare equal.
 * `keepTrailingSpace` is for prefixes: "Alan " must not match "Alana".
 */
export function sortableText(text: string, { keepTrailingSpace = false } = {}): string {
  let out = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþıħ]/g, (c) => FOLDS[c] ?? c)
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/\s+/gu, ' ')
    .trimStart();
  if (!keepTrailingSpace) out = out.trimEnd();
  return truncateUtf8(out, MAX_SORTABLE_BYTES);
}

/** The longest prefix of `text` of at most `max` UTF-8 bytes, never splitting a character. */
function truncateUtf8(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > max) break;
    bytes += n;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * The sort-key prefix every entry of a catalog shares (`TITLE#`, `NAME#`):
 * the whole list is `begins_with(GSI2SK, 'TITLE#')`, a prefix search
 * `begins_with(GSI2SK, 'TITLE#<sortable prefix>')`.
 */
export const catalogPrefix = (kind: CatalogKind, sortablePrefix = ''): string =>
  `${kind === 'COURSE' ? 'TITLE' : 'NAME'}#${sortablePrefix}`;

/** The GSI2 keys of a catalog entry (a course by title, a student by name). */
export const catalogKeys = (kind: CatalogKind, id: string, text: string) => ({
  GSI2PK: catalogPartition(kind, catalogShardOf(id)),
  GSI2SK: catalogSortKey(kind, id, text),
});

export const catalogSortKey = (kind: CatalogKind, id: string, text: string): string =>
  `${catalogPrefix(kind, sortableText(text))}${CATALOG_SEPARATOR}${id}`;

/** Every GSI2 partition of a catalog, shard 0 first. */
export const catalogPartitions = (kind: CatalogKind): string[] =>
  Array.from({ length: CATALOG_SHARDS }, (_, k) => catalogPartition(kind, k));

/** The id at the end of a catalog GSI2SK, or null. */
export function idFromCatalogSortKey(sk: unknown): string | null {
  if (typeof sk !== 'string') return null;
  const at = sk.lastIndexOf(CATALOG_SEPARATOR);
  const id = at < 0 ? '' : sk.slice(at + 1);
  return id.length > 0 && !id.includes('#') ? id : null;
}

/** The counter item of one catalog shard. */
export const catalogCounterKey = (kind: CatalogKind, shard: number): ItemKey => ({
  PK: catalogPartition(kind, shard),
  SK: 'COUNTER',
});

export const CATALOG_COUNT_ATTR = 'count';

/** Is this base-table item bookkeeping (a catalog counter, a layout record) rather than data? */
export const isBookkeeping = (pk: unknown): boolean =>
  typeof pk === 'string' && (pk.startsWith('CATALOG#') || pk === LAYOUT_PK);

/** GSI2 partition of a customer's orders by date. */
export const ordersByDatePartition = (customerId: string): string => `ORDERS#${customerId}`;

/**
 * `placedAt` in the one form GSI2SK compares correctly (ISO-8601, UTC,
 * milliseconds, 4-digit year), or null when it is no such instant.
 */
export function sortableInstant(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms).toISOString();
  return /^\d{4}-/.test(iso) ? iso : null;
}

/** The GSI2 keys of an order (by placedAt), or null when placedAt is unusable. */
export function orderDateKeys(customerId: string, orderId: string, placedAt: unknown) {
  const instant = sortableInstant(placedAt);
  if (instant === null) return null;
  return { GSI2PK: ordersByDatePartition(customerId), GSI2SK: `${instant}#${orderId}` };
}

/**
 * The item layout this code writes and reads. 1: the first-round layout
 * (no GSI2 keys); 2: GSI2 catalog and order-date entries, catalog counters.
 */
export const CURRENT_LAYOUT_VERSION = 2;

export const LAYOUT_PK = 'LAYOUT';
/** The table's layout record: which layout version its items are at. */
export const layoutStateKey: ItemKey = { PK: LAYOUT_PK, SK: 'MIGRATION' };
/** One scan segment's checkpoint of a running migration. */
export const migrationCheckpointKey = (segment: number): ItemKey => ({ PK: LAYOUT_PK, SK: `MIGRATION#SEGMENT#${segment}` });
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
