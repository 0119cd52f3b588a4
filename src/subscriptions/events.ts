/**
 * eventsOf(): one stream record → the change events of every topic it
 * touches: the object whose item it is, and each connection the item is a
 * member of (a child in its parent's, an edge in both sides').
 *
 * Terminology
 * - topic: what a subscription watches: `<Type>#<id>` (one object) or
 *   `<Type>.<connection>#<parent id>` (a parent's connection). Ids never
 *   hold `#` (dynamo/keys.ts), so a topic names one thing.
 * - item: the stored item that changed (its partition key U+0000 its sort key); events of one
 *   item are delivered in the order of their sequence numbers.
 * - seq: the record's stream sequence number (decimal digits). A replayed
 *   record carries the same one, which is how it is recognised.
 *
 * An event carries the new image, so subscribers resolve most of their
 * selection without reading the table; it is JSON (it crosses Redis).
 */
import type { Item } from '../dynamo/batchGet.js';
import { itemKeyString } from '../dynamo/keys.js';
import { imagesOf, type StreamRecordLike } from '../dynamo/streamRecords.js';
import type { ChangeKind } from '../declaration/subscriptionDirectives.js';
import type { ChangeModel } from './model.js';

export interface ChangeEvent {
  topic: string;
  item: string;
  seq: string;
  kind: ChangeKind;
  /** The item after the change; null when it was removed. */
  image: Item | null;
  /** For a connection's topic: the child's id. */
  childId?: string;
  /** The image lacks attributes a carrier must not hold (redaction.ts): fields it lacks are read from the table. */
  partial?: boolean;
}

export const itemTopic = (type: string, id: string) => `${type}#${id}`;
export const collectionTopic = (connection: string, parentId: string) => `${connection}#${parentId}`;

const KINDS: Record<string, ChangeKind> = { INSERT: 'ADDED', MODIFY: 'UPDATED', REMOVE: 'REMOVED' };

const same = (a: Item | null, b: Item | null) => a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);

export function eventsOf(record: StreamRecordLike, model: ChangeModel): ChangeEvent[] {
  const kind = KINDS[record.eventName ?? ''];
  const seq = record.dynamodb?.SequenceNumber;
  if (!kind || !seq) return [];
  const { keys, newImage, oldImage } = imagesOf(record);
  const key = model.keys.keyOf(keys);
  if (typeof key.PK !== 'string' || typeof key.SK !== 'string') return [];
  // A write that changed nothing (a rewrite of the same item) is no change to report.
  if (kind === 'UPDATED' && same(newImage, oldImage)) return [];
  const item = itemKeyString(key);
  const image = kind === 'REMOVED' ? null : newImage;
  const events: ChangeEvent[] = [];
  const own = model.itemOf(keys);
  if (own) events.push({ topic: itemTopic(own.type, own.id), item, seq, kind, image });
  for (const m of model.membershipsOf(keys)) {
    events.push({ topic: collectionTopic(m.connection, m.parentId), item, seq, kind, image, childId: m.childId });
  }
  return events;
}

/** Sequence numbers compare as numbers (they are decimal strings of varying length). */
export function seqAfter(seq: string, last: bigint | undefined): boolean {
  if (last === undefined) return true;
  try {
    return BigInt(seq) > last;
  } catch {
    return true;
  }
}

export function seqValue(seq: string): bigint | undefined {
  try {
    return BigInt(seq);
  } catch {
    return undefined;
  }
}
