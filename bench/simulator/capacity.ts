/**
 * Capacity arithmetic of the partition simulator (partitionSimulator.ts):
 * item sizes as DynamoDB bills them, read/write units, and one token bucket
 * per partition key.
 *
 * In:  items in DynamoDB's wire format (`{ name: { S: '…' } }`).
 * Out: bytes, units, and "may this partition serve now?".
 *
 * The rules, as DynamoDB documents them (docs/sharding.md lists what the
 * model leaves out):
 * - item size: the UTF-8 bytes of every attribute name plus its value:
 *   strings their UTF-8 bytes, numbers about one byte per two significant
 *   digits plus one, binary its bytes, booleans and null one byte, lists and
 *   maps three bytes plus one per element plus their contents, sets the sum
 *   of their elements.
 * - write: one unit per started 1 KB of the item (the larger of its old and
 *   new image), at least one; transactional writes cost twice that.
 * - read: one unit per started 4 KB (per item for GetItem and BatchGetItem,
 *   over the whole result for a Query), at least one; eventually consistent
 *   reads (and every index read) cost half, transactional reads twice.
 * - an index entry (projection ALL) is the item plus 100 bytes of overhead.
 */

export type AttributeValue = Record<string, unknown>;
export type WireItem = Record<string, AttributeValue>;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

function numberSize(n: string): number {
  const digits = n
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1 + (n.startsWith('-') ? 1 : 0);
}

/** Size in bytes of one attribute value. */
export function valueSize(value: AttributeValue): number {
  const [type, v] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return utf8(String(v));
    case 'N':
      return numberSize(String(v));
    case 'B':
      return Buffer.from(String(v), 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (v as string[]).reduce((sum, s) => sum + utf8(s), 0);
    case 'NS':
      return (v as string[]).reduce((sum, s) => sum + numberSize(s), 0);
    case 'BS':
      return (v as string[]).reduce((sum, s) => sum + Buffer.from(s, 'base64').length, 0);
    case 'L':
      return 3 + (v as AttributeValue[]).reduce((sum, e) => sum + 1 + valueSize(e), 0);
    case 'M':
      return 3 + Object.entries(v as WireItem).reduce((sum, [k, e]) => sum + 1 + utf8(k) + valueSize(e), 0);
    default:
      return 1;
  }
}

/** Size in bytes of an item (names and values). */
export const itemSize = (item: WireItem | null | undefined): number =>
  item ? Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0) : 0;

export const INDEX_ENTRY_OVERHEAD = 100;

/** Write units of a write whose item is `bytes` large (0 for a missing item still costs one). */
export const writeUnits = (bytes: number, transactional = false): number => Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

/** Read units of `bytes` read in one go. */
export function readUnits(bytes: number, { consistent = false, transactional = false } = {}): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return transactional ? units * 2 : consistent ? units : units / 2;
}

export interface BucketOptions {
  /** Units added per second. */
  rate: number;
  /** Most units a bucket holds (the burst). */
  capacity: number;
}

/**
 * One token bucket per key, created full. A request is admitted while its
 * bucket is above zero and is then charged what it actually consumed (which
 * may drive the bucket negative: the next requests wait until it refills),
 * because what a write or query consumes is known only after it ran.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly options: BucketOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private bucket(key: string) {
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.options.capacity, at: t };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.options.capacity, b.tokens + ((t - b.at) / 1000) * this.options.rate);
    b.at = t;
    return b;
  }

  /** May this key serve a request now? */
  admits(key: string): boolean {
    return this.bucket(key).tokens > 0;
  }

  charge(key: string, units: number): void {
    this.bucket(key).tokens -= units;
  }

  tokens(key: string): number {
    return this.bucket(key).tokens;
  }
}
