/**
 * The key strings the engine itself lays out: shard partitions and counter
 * items of write-sharded relations, GSI2 catalog entries and their
 * counters, sortable text and instants, layout, stream and idempotency
 * bookkeeping (docs/table.md describes the layout). The keys of the
 * declared item types come from their templates (declaration/template.ts,
 * plan/itemPlan.ts), never from here.
 *
 * In:  ids as clients give them (already validated: non-empty, ≤128
 *      characters, no `#`), and the plan's catalog specs.
 * Out: PK/SK and index attribute values, and the inverse where a reader
 *      needs it (the id at the end of a catalog sort key, a shard index).
 */
import { invariantViolation } from '../errors.js';

/**
 * Primary key of a base-table item, as the engine passes it around. The
 * table's key attributes are named by the model (@table); `TableKeys`
 * turns this into the key DynamoDB takes and reads it back from items.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

/** The names of the table's partition and sort key attributes. */
export interface TableKeyNames {
  readonly pk: string;
  readonly sk: string;
}

/**
 * The table's key attributes, made once per model (plan.keys): every key
 * and item sent to DynamoDB is built, and every item read is keyed, by the
 * declared names. The conversions are compiled with the names as literal
 * properties, so a key costs what the hand-written `{ PK, SK }` did.
 */
export interface TableKeys extends TableKeyNames {
  /** The names alone, as plain data (collections carry them; cache keys serialize them). */
  readonly names: TableKeyNames;
  /** `#pk` → the partition key's name: for conditions written `attribute_exists(#pk)`. */
  readonly pkName: { readonly '#pk': string };
  /** An item's key as DynamoDB takes it, a fresh object (a Put may add attributes to it). */
  key(key: ItemKey): Record<string, unknown>;
  /** The key of an item (or a DynamoDB key) read from the table. */
  keyOf(item: Record<string, unknown>): ItemKey;
  /** The DynamoDB key of an item read from the table (its key attributes alone). */
  itemKey(item: Record<string, unknown>): Record<string, unknown>;
}

/** The TableKeys of a table keyed on `pk`/`sk` (the plan holds its model's: `plan.keys`). */
export function tableKeys(names: { pk: string; sk: string | null }): TableKeys {
  // The engine's items all have a sort key; the model check refuses a table without one.
  const pk = names.pk;
  const sk = names.sk ?? 'SK';
  // The model check refuses it: in the literals below it would set the prototype.
  if (pk === '__proto__' || sk === '__proto__') invariantViolation('__proto__ cannot name a key attribute');
  const p = JSON.stringify(pk);
  const s = JSON.stringify(sk);
  const made: TableKeys = {
    pk,
    sk,
    names: { pk, sk },
    pkName: { '#pk': pk },
    key: new Function('k', `return { ${p}: k.PK, ${s}: k.SK };`) as TableKeys['key'],
    keyOf: new Function('item', `return { PK: item[${p}], SK: item[${s}] };`) as TableKeys['keyOf'],
    itemKey: new Function('item', `return { ${p}: item[${p}], ${s}: item[${s}] };`) as TableKeys['itemKey'],
  };
  return made;
}

export const GSI1 = 'GSI1';
export const GSI2 = 'GSI2';

/** Largest shard count of a write-sharded relation (its `max` may be lower); the counter items' sort key. */
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

/**
 * Generic write sharding of a parent's edges (a write-sharded relation,
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
 * both attributes are in it; two kinds of declaration put them there
 * (docs/catalog.md):
 *
 * | declaration              | GSI2PK                  | GSI2SK                                  |
 * |--------------------------|-------------------------|-----------------------------------------|
 * | @catalog(key, sortKey)   | `<key>#<k>`             | `<sortKey>#<sortable text>` U+0001 `<id>` |
 * | @indexed by instant      | from the `pk` template  | `<instant, ISO ms UTC>#<id>`            |
 *
 * k = fnv1a32(UTF-8 bytes of the id) mod the catalog's shards: fixed per
 * item, so a rename never moves an item between shards, and creations
 * spread over the shards instead of heating one.
 *
 * Catalog counters (exact totalCount of the lists), one item per shard,
 * changed in the same transaction as the item that enters or leaves the
 * shard: PK `<key>#<k>`, SK `COUNTER`, attribute `count`.
 *
 * Layout bookkeeping of `npm run migrate`: PK `LAYOUT`, SK `MIGRATION` (the
 * table's layout version) and `MIGRATION#SEGMENT#<n>` (scan checkpoints);
 * of `npm run check`: SK `CHECK` (its last report's summary).
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

export const CATALOG_COUNT_ATTR = 'count';

/** Is this base-table item bookkeeping (a catalog counter, a layout record) rather than data? */
export const isBookkeeping = (pk: unknown): boolean =>
  typeof pk === 'string' && (pk.startsWith('CATALOG#') || pk === LAYOUT_PK);

/**
 * An instant in the one form GSI2SK compares correctly (ISO-8601, UTC,
 * milliseconds, 4-digit year), or null when it is no such instant.
 */
export function sortableInstant(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms).toISOString();
  return /^\d{4}-/.test(iso) ? iso : null;
}

/**
 * The item layout this code writes and reads. 1: no GSI2 keys; 2: GSI2
 * catalog and by-instant entries, catalog counters.
 */
export const CURRENT_LAYOUT_VERSION = 2;

export const LAYOUT_PK = 'LAYOUT';
/** The table's layout record: which layout version its items are at. */
export const layoutStateKey: ItemKey = { PK: LAYOUT_PK, SK: 'MIGRATION' };
/** What the last `npm run check` found (migration/copyHealth.ts): one item every gateway reads with a GetItem for `/health`. */
export const checkReportKey: ItemKey = { PK: LAYOUT_PK, SK: 'CHECK' };
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
  if (!/^[0-9a-f]{64}$/.test(callerKeyHash)) invariantViolation('an idempotency key is a SHA-256 hex digest');
  return { PK: `${IDEMPOTENCY_PREFIX}${callerKeyHash}`, SK: IDEMPOTENCY_SK };
};
