import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  catalogEntryKeys,
  catalogEntryPartitions,
  catalogShardCounterKey,
  fnv1a32,
  shardCounterKey,
  shardOf as schemeShard,
  shardPartition,
} from '../../src/dynamo/keys.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import { problemsOf } from '../support/problems.js';
import { VALID } from '../support/teamsModel.js';
import {
  counterShardKey,
  courseCounterKey,
  courseCounterKeys,
  courseCounters,
  coursePartitions,
  enrollmentKeys,
  layoutOf,
  parseCourseShard,
  partitionCounterKey,
  shardCountOf,
  shardOf,
} from '../support/model.js';

describe('FNV-1a 32-bit', () => {
  // Published test vectors of the FNV reference test suite (fnv1a_32 of the bytes, no terminating NUL).
  const vectors: [string, number][] = [
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['b', 0xe70c2de5],
    ['c', 0xe60c2c52],
    ['d', 0xe10c2473],
    ['e', 0xe00c22e0],
    ['f', 0xe30c2799],
    ['fo', 0x6222e842],
    ['foo', 0xa9f37ed7],
    ['foob', 0x3f5076ef],
    ['fooba', 0x39aaa18a],
    ['foobar', 0xbf9cf968],
  ];
  for (const [text, hash] of vectors) {
    it(`hashes "${text}" to 0x${hash.toString(16)}`, () => expect(fnv1a32(text)).toBe(hash));
  }

  it('hashes the UTF-8 bytes of the id and stays an unsigned 32-bit integer', () => {
    // "é" is C3 A9 in UTF-8: two rounds, not one of its UTF-16 code unit.
    const manual = Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0;
    expect(fnv1a32('é')).toBe(manual);
    for (const id of ['s1', 'é', '\u{1F600}', 'x'.repeat(128)]) {
      expect(Number.isInteger(fnv1a32(id)) && fnv1a32(id) >= 0 && fnv1a32(id) < 2 ** 32).toBe(true);
    }
  });
});

describe('sharded course keys', () => {
  it('leaves an unsharded course in the unsharded layout', () => {
    expect(enrollmentKeys('s1', 'c1', 1)).toEqual(enrollmentKeys('s1', 'c1'));
    expect(enrollmentKeys('s1', 'c1').GSI1PK).toBe('COURSE#c1');
    expect(courseCounterKey('c1', 's1')).toEqual({ PK: 'COURSE#c1', SK: 'PROFILE' });
    expect(courseCounterKeys('c1', 1)).toEqual([{ PK: 'COURSE#c1', SK: 'PROFILE' }]);
  });

  it('puts a student of a sharded course in shard fnv1a32(id) mod N, edge and counter alike', () => {
    const k = fnv1a32('foobar') % 8; // 0xbf9cf968 mod 8 = 0
    expect(k).toBe(0);
    expect(enrollmentKeys('foobar', 'c1', 8)).toEqual({ PK: 'STUDENT#foobar', SK: 'COURSE#c1', GSI1PK: 'COURSE#c1#0', GSI1SK: 'STUDENT#foobar' });
    expect(shardOf('a', 7)).toBe(0xe40c292c % 7);
    expect(courseCounterKey('c1', 'a', 7)).toEqual(counterShardKey('c1', 0xe40c292c % 7));
    expect(counterShardKey('c1', 3)).toEqual({ PK: 'COURSE#c1#3', SK: 'COUNTER' });
    expect(courseCounterKeys('c1', 3).map((k) => k.PK)).toEqual(['COURSE#c1#0', 'COURSE#c1#1', 'COURSE#c1#2']);
  });

  it('reads a shard count only when it is a whole number in 1–64', () => {
    expect([undefined, 0, 1, 8, 64, 65, 2.5, '8', null].map((shards) => shardCountOf({ shards }))).toEqual([1, 1, 1, 8, 64, 1, 1, 1, 1]);
    expect(shardCountOf(null)).toBe(1);
  });

  it('parses a shard partition value back, and nothing else', () => {
    expect(parseCourseShard('COURSE#c1#7')).toEqual({ courseId: 'c1', k: 7 });
    for (const v of ['COURSE#c1', 'COURSE#c1#64', 'COURSE#c1#07', 'COURSE##1', 'STUDENT#c1#1', 'COURSE#c1#1#2', 5]) {
      expect(parseCourseShard(v)).toBeNull();
    }
  });
});

describe('course layout', () => {
  it('reads shards and a running reshard from the course item, treating anything invalid as unsharded', () => {
    expect(layoutOf({ shards: 8 })).toEqual({ shards: 8, reshardFrom: null, moves: 0 });
    expect(layoutOf({ shards: 8, reshardFrom: 1, reshardMoves: 3 })).toEqual({ shards: 8, reshardFrom: 1, moves: 3 });
    expect(layoutOf(null)).toEqual({ shards: 1, reshardFrom: null, moves: 0 });
    expect(layoutOf({ shards: 99 })).toEqual({ shards: 1, reshardFrom: null, moves: 0 });
  });

  it('names every partition and counter of both layouts while a reshard runs, each once', () => {
    const moving = { shards: 4, reshardFrom: 1, moves: 0 };
    expect(coursePartitions('c', moving)).toEqual(['COURSE#c', 'COURSE#c#0', 'COURSE#c#1', 'COURSE#c#2', 'COURSE#c#3']);
    expect(courseCounters('c', moving).map((k) => `${k.PK}/${k.SK}`)).toEqual([
      'COURSE#c/PROFILE',
      'COURSE#c#0/COUNTER',
      'COURSE#c#1/COUNTER',
      'COURSE#c#2/COUNTER',
      'COURSE#c#3/COUNTER',
    ]);
    expect(coursePartitions('c', { shards: 3, reshardFrom: 5, moves: 0 })).toEqual(['COURSE#c#0', 'COURSE#c#1', 'COURSE#c#2', 'COURSE#c#3', 'COURSE#c#4']);
    expect(coursePartitions('c', { shards: 1, reshardFrom: null, moves: 0 })).toEqual(['COURSE#c']);
  });

  it('finds the counter of the partition an edge is indexed under', () => {
    expect(partitionCounterKey('c', 'COURSE#c#5')).toEqual({ PK: 'COURSE#c#5', SK: 'COUNTER' });
    expect(partitionCounterKey('c', 'COURSE#c')).toEqual({ PK: 'COURSE#c', SK: 'PROFILE' });
    expect(partitionCounterKey('c', 'COURSE#d#5')).toEqual({ PK: 'COURSE#c', SK: 'PROFILE' });
  });
});

describe('one sharding scheme for write-sharded edges and catalogs', () => {
  const spec = { key: 'COURSES', sortKey: 'TITLE', shards: 8 };

  it('puts an id in the same shard k = fnv1a32(id) mod N, with the same partition and counter item for N > 1', () => {
    for (const id of ['u01', 'u02', 'Zoë', 'x'.repeat(100)]) {
      const k = fnv1a32(id) % 8;
      expect(schemeShard(id, 8)).toBe(k);
      expect(catalogEntryKeys(spec, id, 'Title').GSI2PK).toBe(shardPartition('COURSES', k, 8));
      expect(catalogShardCounterKey(spec, k)).toEqual(shardCounterKey('COURSES', k));
    }
  });

  it('differs only with one shard: edges stay in the base partition (the unsharded layout), a catalog in <key>#0', () => {
    expect(shardPartition('COURSE#c', schemeShard('u01', 1), 1)).toBe('COURSE#c');
    expect(catalogEntryPartitions({ ...spec, shards: 1 })).toEqual(['COURSES#0']);
    expect(catalogEntryKeys({ ...spec, shards: 1 }, 'u01', 'T').GSI2PK).toBe('COURSES#0');
  });

  it('refuses a shard count outside the rule, and @catalog(shards:), which is gone (every catalog has 8 shards)', () => {
    const edges = VALID.replace('@edges(inverseOf: "players")', '@edges(inverseOf: "players", shards: "shards", maxShards: 65)');
    expect(problemsOf(edges)).toContain('Player.teams @edges(maxShards): must be a whole number 1–64 (got 65)');
    expect(() => buildModel(VALID, 'model.graphql')).not.toThrow();
    const served = readFileSync(join(import.meta.dirname, '..', '..', 'schema.graphql'), 'utf8');
    const catalog = served.replace('sortKey: "TITLE", prefixArgument: "titlePrefix")', 'sortKey: "TITLE", prefixArgument: "titlePrefix", shards: 4)');
    expect(catalog).not.toBe(served);
    expect(problemsOf(catalog)).toEqual(['schema: Unknown argument "shards" on directive "@catalog".']);
    expect(buildModel(served, 'schema.graphql').queries.find((q) => q.field === 'courses')).toMatchObject({ kind: 'catalog', shards: 8 });
  });
});
