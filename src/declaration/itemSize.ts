/**
 * The largest item a model lets a mutation write, checked at start-up
 * against DynamoDB's item limit (400 KB), so a write never meets it.
 *
 * Every value a mutation stores is bounded: text by its length (the limits
 * below, which the writes enforce), numbers by DynamoDB's 21 bytes, lists
 * by their declared @attribute(max:). The bound counts DynamoDB's own
 * sizes: an attribute's name and value in UTF-8 bytes (a UTF-16 unit is at
 * most 3 bytes), 3 bytes per map or list and 1 per element, every key
 * attribute the type writes at DynamoDB's key limits (2,048 bytes for a
 * partition key, 1,024 for a sort key), and 1 KB for the gateway's
 * counters, versions and marks.
 */
import type { ItemType, Layout, ValueShape } from './model.js';
import type { Problems } from './problems.js';

/** Longest id (characters). */
export const MAX_ID_LENGTH = 128;
/** Longest text attribute value a write stores, and longest equality filter a read takes. */
export const MAX_TEXT_LENGTH = 200;
/** Longest email address (@attribute(format: EMAIL)). */
export const MAX_EMAIL_LENGTH = 254;

/** DynamoDB's item limit. */
export const MAX_ITEM_BYTES = 400 * 1024;
const PARTITION_KEY_BYTES = 2048;
const SORT_KEY_BYTES = 1024;
const BOOKKEEPING_BYTES = 1024;
const NUMBER_BYTES = 21;
/** An ISO-8601 instant as the writes store it (2026-01-01T00:00:00.000Z). */
const INSTANT_BYTES = 24;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** The most bytes a value of this shape takes, as a mutation may write it. */
export function maxValueBytes(shape: ValueShape): number {
  switch (shape.kind) {
    case 'scalar':
      switch (shape.scalar) {
        case 'Int':
        case 'Float':
          return NUMBER_BYTES;
        case 'Boolean':
          return 1;
        case 'DateTime':
          return INSTANT_BYTES;
        case 'enum':
          return Math.max(0, ...(shape.values ?? []).map(utf8));
        default:
          return 3 * (shape.constraints.format === 'EMAIL' ? MAX_EMAIL_LENGTH : MAX_TEXT_LENGTH);
      }
    case 'map':
      return 3 + shape.fields.reduce((sum, f) => sum + 1 + utf8(f.storedAs) + maxValueBytes(f.shape), 0);
    case 'list':
      return 3 + shape.max * (1 + maxValueBytes(shape.of));
    default: {
      const never: never = shape;
      return never;
    }
  }
}

/** The most bytes an item of `item` takes as the gateway writes it (see the header). */
export function maxItemBytes(item: ItemType, layout: Pick<Layout, 'pk' | 'sk'>): number {
  let bytes = utf8(layout.pk) + PARTITION_KEY_BYTES + (layout.sk === null ? 0 : utf8(layout.sk) + SORT_KEY_BYTES) + BOOKKEEPING_BYTES;
  // GSI1 keys of an inverted type, GSI2 keys of a catalog entry or a @byInstant one: counted whether or not written.
  bytes += 2 * (PARTITION_KEY_BYTES + SORT_KEY_BYTES + 12);
  for (const placement of item.indexed) {
    for (const part of placement.pk) if (part.written) bytes += utf8(part.attribute) + PARTITION_KEY_BYTES;
    for (const part of placement.sk) if (part.written) bytes += utf8(part.attribute) + SORT_KEY_BYTES;
  }
  for (const a of item.attributes) {
    const shape: ValueShape = a.shape ?? {
      kind: 'scalar',
      scalar: a.reference ? 'ID' : (a.kind as never),
      ...(a.values ? { values: a.values } : {}),
      constraints: a.constraints,
      required: a.required,
    };
    bytes += utf8(a.storedAs) + (a.reference ? 3 * MAX_ID_LENGTH : maxValueBytes(shape));
  }
  for (const r of item.relations) if (r.counter !== null) bytes += utf8(r.counter) + NUMBER_BYTES;
  return bytes;
}

/** A type whose items could outgrow DynamoDB's item limit is refused, naming the figure and what to lower. */
export function checkItemSizes(items: ReadonlyMap<string, ItemType>, layout: Pick<Layout, 'pk' | 'sk'>, problems: Problems): void {
  for (const item of items.values()) {
    const bytes = maxItemBytes(item, layout);
    if (bytes <= MAX_ITEM_BYTES) continue;
    const lists = item.attributes.filter((a) => a.kind === 'List').map((a) => a.name);
    problems.add(
      item.name,
      `an item could reach ${bytes.toLocaleString('en-US')} bytes (every text at its longest, every list at its @attribute(max:)), above DynamoDB's 400 KB (${MAX_ITEM_BYTES.toLocaleString('en-US')} bytes)${lists.length > 0 ? `: lower the max of ${lists.join(', ')}` : ''}`,
    );
  }
}
