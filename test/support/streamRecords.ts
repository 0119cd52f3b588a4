/**
 * Reading a test table's stream directly (DescribeStream, GetShardIterator,
 * GetRecords), and turning what it returns into the event Lambda would
 * deliver: the same records, with ApproximateCreationDateTime in epoch
 * seconds and the event source fields Lambda adds.
 */
import { DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand, type DynamoDBStreamsClient, type _Record } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';

/** Every record of the stream, oldest first (single-shard streams: DynamoDB Local). */
export async function readAll(streams: DynamoDBStreamsClient, streamArn: string): Promise<_Record[]> {
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const records: _Record[] = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' })))
      .ShardIterator;
    while (iterator) {
      const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      records.push(...(out.Records ?? []));
      if ((out.Records ?? []).length === 0) break;
      iterator = out.NextShardIterator;
    }
  }
  return records;
}

/** The records after `afterSequence` (all when undefined). */
export async function readAfter(streams: DynamoDBStreamsClient, streamArn: string, afterSequence?: string): Promise<_Record[]> {
  const all = await readAll(streams, streamArn);
  if (afterSequence === undefined) return all;
  const at = all.findIndex((r) => r.dynamodb?.SequenceNumber === afterSequence);
  return all.slice(at + 1);
}

export function lambdaEvent(records: _Record[], streamArn: string): DynamoDBStreamEvent {
  return {
    Records: records.map((r) => ({
      ...r,
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: streamArn,
      dynamodb: {
        ...r.dynamodb,
        ApproximateCreationDateTime:
          r.dynamodb?.ApproximateCreationDateTime instanceof Date ? r.dynamodb.ApproximateCreationDateTime.getTime() / 1000 : undefined,
      },
    })) as DynamoDBStreamEvent['Records'],
  };
}
