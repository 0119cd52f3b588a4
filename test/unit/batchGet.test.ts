/** batchGet keeps DataLoader's promise although BatchGetItem does not: fakes DynamoDB to shape its answers. */
import { describe, expect, it } from 'vitest';
import { batchGet, UnprocessedKeysError } from '../../src/dynamo/batchGet.js';
import { studentKey } from '../support/defaultItems.js';
import type { ReadPort } from '../../src/dynamo/readPort.js';
import { tableKeys } from '../../src/dynamo/keys.js';

const PK_SK = tableKeys({ pk: 'PK', sk: 'SK' });

type Key = { PK: string; SK: string };
interface Call {
  keys: Key[];
}

/** A fake read port: stores items, answers in reverse order, leaves `unprocessed(call)` keys for later. */
function fakeDynamo(stored: Key[], unprocessed: (callIndex: number, keys: Key[]) => Key[] = () => []) {
  const calls: Call[] = [];
  const send = async (input: any) => {
    const keys: Key[] = input.RequestItems.T.Keys;
    if (keys.length > 100) throw new Error('ValidationException: Too many items requested for the BatchGetItem call');
    const left = unprocessed(calls.length, keys);
    calls.push({ keys });
    const served = keys.filter((k) => !left.includes(k));
    const items = served
      .filter((k) => stored.some((s) => s.PK === k.PK && s.SK === k.SK))
      .map((k) => ({ ...k, name: `item ${k.PK}` }))
      .reverse();
    return { Responses: { T: items }, UnprocessedKeys: left.length ? { T: { Keys: left } } : {} };
  };
  return { reads: { batchGet: send } as unknown as ReadPort, calls };
}

describe('batchGet', () => {
  it('returns one result per key, in key order, null for missing items', async () => {
    const { reads } = fakeDynamo([studentKey('a'), studentKey('c')]);
    const out = await batchGet(reads, 'T', PK_SK, [studentKey('c'), studentKey('b'), studentKey('a')]);
    expect(out.map((i) => i?.PK ?? null)).toEqual(['STUDENT#c', null, 'STUDENT#a']);
  });

  it('sends a duplicated key once and answers it at every position', async () => {
    const { reads, calls } = fakeDynamo([studentKey('a')]);
    const out = await batchGet(reads, 'T', PK_SK, [studentKey('a'), studentKey('a')]);
    expect(out.map((i) => i?.PK)).toEqual(['STUDENT#a', 'STUDENT#a']);
    expect(calls[0].keys).toHaveLength(1);
  });

  it('splits 250 keys into calls of at most 100', async () => {
    const keys = Array.from({ length: 250 }, (_, i) => studentKey(String(i)));
    const { reads, calls } = fakeDynamo(keys);
    const out = await batchGet(reads, 'T', PK_SK, keys);
    expect(calls.map((c) => c.keys.length)).toEqual([100, 100, 50]);
    expect(out.every((item, i) => item?.PK === `STUDENT#${i}`)).toBe(true);
  });

  it('sends UnprocessedKeys again until every key is answered', async () => {
    const keys = [studentKey('a'), studentKey('b'), studentKey('c')];
    // First call leaves two keys unprocessed, the second one key, the third none.
    const { reads, calls } = fakeDynamo(keys, (n, ks) => (n === 0 ? ks.slice(1) : n === 1 ? ks.slice(1) : []));
    const out = await batchGet(reads, 'T', PK_SK, keys, { baseDelayMs: 1 });
    expect(out.map((i) => i?.PK)).toEqual(['STUDENT#a', 'STUDENT#b', 'STUDENT#c']);
    expect(calls.map((c) => c.keys.length)).toEqual([3, 2, 1]);
  });

  it('fails rather than answering null when keys stay unprocessed', async () => {
    const { reads, calls } = fakeDynamo([studentKey('a')], (_, ks) => ks);
    await expect(batchGet(reads, 'T', PK_SK, [studentKey('a')], { maxAttempts: 3, baseDelayMs: 1 })).rejects.toBeInstanceOf(UnprocessedKeysError);
    expect(calls).toHaveLength(3);
  });

  it('sends and matches keys under the declared key attributes of the table', async () => {
    const sent: Record<string, unknown>[][] = [];
    const reads = {
      batchGet: async (input: any) => {
        const keys: Record<string, unknown>[] = input.RequestItems.T.Keys;
        sent.push(keys);
        return {
          Responses: {
            T: keys
              .filter((k) => k.pk !== 'STUDENT#b')
              .map((k) => ({ ...k, name: 'n' }))
              .reverse(),
          },
        };
      },
    } as unknown as ReadPort;
    const out = await batchGet(reads, 'T', tableKeys({ pk: 'pk', sk: 'sk' }), [studentKey('a'), studentKey('b'), studentKey('c')]);
    expect(sent[0]).toEqual([studentKey('a'), studentKey('b'), studentKey('c')].map((k) => ({ pk: k.PK, sk: k.SK })));
    expect(out.map((i) => i?.pk ?? null)).toEqual(['STUDENT#a', null, 'STUDENT#c']);
  });
});
