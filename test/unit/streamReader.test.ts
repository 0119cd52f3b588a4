/**
 * The local stream reader against a scripted Streams API: shard lineage
 * (a parent read to its end before its children), checkpoints (a restart
 * resumes after the last one), expired iterators, poison records. No
 * DynamoDB: checkpoints live in a map behind a fake document client.
 */
import { describe, expect, it } from 'vitest';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { silentLogger } from '../../src/logger.js';
import type { BatchOutcome } from '../../src/stream/handler.js';
import { StreamReader } from '../../src/stream/reader.js';
import type { StreamRecordLike } from '../../src/dynamo/streamRecords.js';
import { defaultPlan } from '../support/model.js';

type Shards = Record<string, { parent?: string; closed: boolean; records: string[] }>;

const record = (seq: string): StreamRecordLike => ({
  eventName: 'MODIFY',
  dynamodb: { Keys: { PK: { S: `ITEM#${seq}` }, SK: { S: 'X' } }, SequenceNumber: seq, ApproximateCreationDateTime: new Date() },
});

/** A Streams API over fixed shards; iterators are `<shard>|<position>`. `expireOnce` makes the first GetRecords fail as expired. */
function fakeStreams(shards: Shards, { expireOnce = false } = {}) {
  const calls: string[] = [];
  let expired = !expireOnce;
  const send = async (command: { constructor: { name: string }; input: any }) => {
    const name = command.constructor.name.replace(/Command$/, '');
    const input = command.input;
    calls.push(name);
    if (name === 'DescribeStream') {
      return {
        StreamDescription: {
          StreamLabel: 'label',
          Shards: Object.entries(shards).map(([id, s]) => ({ ShardId: id, ParentShardId: s.parent })),
        },
      };
    }
    if (name === 'GetShardIterator') {
      const records = shards[input.ShardId].records;
      const position = input.ShardIteratorType === 'TRIM_HORIZON' ? 0 : records.indexOf(input.SequenceNumber) + 1;
      return { ShardIterator: `${input.ShardId}|${position}` };
    }
    if (name === 'GetRecords') {
      if (!expired) {
        expired = true;
        throw Object.assign(new Error('Iterator expired'), { name: 'ExpiredIteratorException' });
      }
      const [id, at] = String(input.ShardIterator).split('|');
      const shard = shards[id];
      const position = Number(at);
      const batch = shard.records.slice(position, position + input.Limit);
      const end = position + batch.length;
      // As DynamoDB does, a closed shard answers its last records with an iterator, then an empty batch without one.
      const drained = position >= shard.records.length;
      return { Records: batch.map(record), NextShardIterator: shard.closed && drained ? undefined : `${id}|${end}` };
    }
    throw new Error(`unexpected ${name}`);
  };
  return { client: { send, destroy: () => {} } as unknown as DynamoDBStreamsClient, calls };
}

/** A document client that keeps Put items in a map and answers the checkpoint Query from it. */
function fakeTable() {
  const items = new Map<string, Record<string, any>>();
  const send = async (command: { constructor: { name: string }; input: any }) => {
    const name = command.constructor.name.replace(/Command$/, '');
    if (name === 'Put') {
      items.set(`${command.input.Item.PK}|${command.input.Item.SK}`, command.input.Item);
      return {};
    }
    if (name === 'Query') {
      const { ':pk': pk, ':prefix': prefix } = command.input.ExpressionAttributeValues;
      return { Items: [...items.values()].filter((i) => i.PK === pk && String(i.SK).startsWith(prefix)) };
    }
    throw new Error(`unexpected ${name}`);
  };
  return { doc: { send } as unknown as DynamoDBDocumentClient, items };
}

/** A handler that records what it saw and fails on the sequence numbers in `poison`. */
function recordingHandler(poison: Set<string> = new Set()) {
  const seen: string[] = [];
  const handler = async (_store: unknown, records: StreamRecordLike[]): Promise<BatchOutcome> => {
    for (const [i, r] of records.entries()) {
      const seq = r.dynamodb!.SequenceNumber!;
      seen.push(seq);
      if (poison.has(seq)) return { done: i, failedAt: i, error: new Error(`cannot handle ${seq}`), copies: 0, edgesRemoved: 0 };
    }
    return { done: records.length, failedAt: null, copies: 0, edgesRemoved: 0 };
  };
  return { handler, seen };
}

function reader(streams: DynamoDBStreamsClient, doc: DynamoDBDocumentClient, handler: ReturnType<typeof recordingHandler>['handler'], batchSize = 2) {
  return new StreamReader({
    store: { doc, tableName: 'T', plan: defaultPlan },
    streams,
    streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/label',
    logger: silentLogger,
    batchSize,
    pollMs: 1,
    retryDelayMs: 0,
    maxAttempts: 3,
    handler,
  });
}

describe('stream reader', () => {
  it('reads a parent shard to its end before either child, and marks it finished', async () => {
    const shards: Shards = {
      childA: { parent: 'parent', closed: false, records: ['101', '102'] },
      parent: { closed: true, records: ['001', '002', '003'] },
      childB: { parent: 'parent', closed: false, records: ['201'] },
    };
    const table = fakeTable();
    const { handler, seen } = recordingHandler();
    const r = reader(fakeStreams(shards).client, table.doc, handler).start();
    await r.caughtUp();
    await r.stop();
    expect(seen.slice(0, 3)).toEqual(['001', '002', '003']);
    expect(seen.slice(3).sort()).toEqual(['101', '102', '201']);
    expect(table.items.get('STREAM#label|SHARD#parent')).toMatchObject({ sequenceNumber: '003', finished: true });
    expect(table.items.get('STREAM#label|SHARD#childA')).toMatchObject({ sequenceNumber: '102', finished: false });
    expect(r.stats.snapshot()).toMatchObject({ processed: 6, failed: 0, lagMs: 0 });
  });

  it('is not caught up when a shard closed in an otherwise empty poll: its children are read first', async () => {
    const shards: Shards = {
      parent: { closed: true, records: ['001', '002'] },
      child: { parent: 'parent', closed: false, records: ['101'] },
    };
    const { handler, seen } = recordingHandler();
    const r = reader(fakeStreams(shards).client, fakeTable().doc, handler).start();
    await r.caughtUp();
    expect(seen).toEqual(['001', '002', '101']);
    await r.stop();
  });

  it('a restarted reader resumes after the checkpoint: nothing skipped, nothing handled twice', async () => {
    const shards: Shards = { only: { closed: false, records: ['1', '2', '3'] } };
    const table = fakeTable();
    const first = recordingHandler();
    const a = reader(fakeStreams(shards).client, table.doc, first.handler).start();
    await a.caughtUp();
    await a.stop();
    shards.only.records.push('4', '5');
    const second = recordingHandler();
    const b = reader(fakeStreams(shards).client, table.doc, second.handler).start();
    await b.caughtUp();
    await b.stop();
    expect(first.seen).toEqual(['1', '2', '3']);
    expect(second.seen).toEqual(['4', '5']);
  });

  it('asks for a new iterator from the checkpoint when one has expired', async () => {
    const shards: Shards = { only: { closed: false, records: ['1', '2', '3'] } };
    const streams = fakeStreams(shards, { expireOnce: true });
    const { handler, seen } = recordingHandler();
    const r = reader(streams.client, fakeTable().doc, handler).start();
    await r.caughtUp();
    await r.stop();
    expect(seen).toEqual(['1', '2', '3']);
    expect(streams.calls.filter((c) => c === 'GetShardIterator').length).toBe(2);
  });

  it('retries a failing record in place a bounded number of times, keeps it as a dead letter and goes on', async () => {
    const shards: Shards = { only: { closed: false, records: ['1', '2', '3'] } };
    const table = fakeTable();
    const { handler, seen } = recordingHandler(new Set(['2']));
    const r = reader(fakeStreams(shards).client, table.doc, handler, 10).start();
    await r.caughtUp();
    await r.stop();
    expect(seen).toEqual(['1', '2', '2', '2', '3']);
    expect(table.items.get('STREAM#label|FAILED#2')).toMatchObject({ attempts: 3, shardId: 'only', error: 'Error: cannot handle 2' });
    expect(table.items.get('STREAM#label|SHARD#only')).toMatchObject({ sequenceNumber: '3' });
    expect(r.stats.snapshot()).toMatchObject({ processed: 2, failed: 1, retried: 2 });
  });
});
