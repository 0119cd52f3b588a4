/** batchPut: 25 items a call, UnprocessedItems sent again until none is left; fakes DynamoDB's answers. */
import { describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '../../src/dynamo/batchWrite.js';

function fakeDynamo(leaveUnprocessed: (call: number, count: number) => number) {
  const calls: number[] = [];
  const written: unknown[] = [];
  const send = async (command: any) => {
    const requests: { PutRequest: { Item: unknown } }[] = command.input.RequestItems.T;
    if (requests.length > 25) throw new Error('ValidationException: more than 25 requests');
    const left = leaveUnprocessed(calls.length, requests.length);
    calls.push(requests.length);
    written.push(...requests.slice(0, requests.length - left).map((r) => r.PutRequest.Item));
    return { UnprocessedItems: left ? { T: requests.slice(requests.length - left) } : {} };
  };
  return { doc: { send } as unknown as DynamoDBDocumentClient, calls, written };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ PK: `STUDENT#${i}`, SK: 'PROFILE' }));

describe('batchPut', () => {
  it('writes 60 items in calls of at most 25', async () => {
    const { doc, calls, written } = fakeDynamo(() => 0);
    await batchPut(doc, 'T', items(60));
    expect(calls).toEqual([25, 25, 10]);
    expect(written).toHaveLength(60);
  });

  it('sends UnprocessedItems again until every item is written', async () => {
    // The first call leaves 10 of 25 unprocessed, the retry leaves 4 of those, the next none.
    const { doc, calls, written } = fakeDynamo((call) => [10, 4, 0][call] ?? 0);
    await batchPut(doc, 'T', items(25), { baseDelayMs: 1 });
    expect(calls).toEqual([25, 10, 4]);
    expect(new Set(written.map((i: any) => i.PK)).size).toBe(25);
  });

  it('fails rather than silently dropping items that stay unprocessed', async () => {
    const { doc, calls } = fakeDynamo((_, count) => count);
    await expect(batchPut(doc, 'T', items(3), { maxAttempts: 3, baseDelayMs: 1 })).rejects.toThrow(/unprocessed/);
    expect(calls).toEqual([3, 3, 3]);
  });
});
