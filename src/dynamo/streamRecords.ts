/**
 * Stream records as the handler reads them, whichever runner delivered
 * them: Lambda's event (`aws-lambda` DynamoDBRecord: ApproximateCreationDateTime
 * in epoch seconds) or the DynamoDB Streams API (the SDK's `_Record`: a Date).
 * Both carry images as DynamoDB AttributeValue maps; `imagesOf` turns them
 * into plain objects.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from '../dynamo/batchGet.js';

/** The fields of a stream record the handler uses. */
export interface StreamRecordLike {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | string;
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber?: string;
    ApproximateCreationDateTime?: Date | number;
  };
  /** Present on deletions made by time to live (`principalId: dynamodb.amazonaws.com`). */
  userIdentity?: { type?: string; principalId?: string };
}

export interface Images {
  keys: Item;
  newImage: Item | null;
  oldImage: Item | null;
}

const plain = (map: Record<string, unknown> | undefined): Item | null => (map ? (unmarshall(map as Parameters<typeof unmarshall>[0]) as Item) : null);

export function imagesOf(record: StreamRecordLike): Images {
  const d = record.dynamodb ?? {};
  return { keys: plain(d.Keys) ?? {}, newImage: plain(d.NewImage), oldImage: plain(d.OldImage) };
}

/** When the change was made, in epoch ms (DynamoDB's approximation; DynamoDB Local rounds it down to the minute). */
export function recordTime(record: StreamRecordLike): number | undefined {
  const t = record.dynamodb?.ApproximateCreationDateTime;
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'number') return t * 1000;
  return undefined;
}

/** Deleted by DynamoDB's time to live rather than by a writer. */
export const isTtlDeletion = (record: StreamRecordLike): boolean =>
  record.eventName === 'REMOVE' && record.userIdentity?.principalId === 'dynamodb.amazonaws.com';
