/**
 * The partition simulator's capacity arithmetic: item sizes as DynamoDB
 * bills them, 1 KB write units and 4 KB read units (transactions twice,
 * eventually consistent reads half) and per-key token buckets.
 */
import { describe, expect, it } from 'vitest';
import { itemSize, readUnits, TokenBuckets, valueSize, writeUnits } from '../../bench/simulator/capacity.js';

describe('item size', () => {
  it('counts attribute names and string values in UTF-8 bytes', () => {
    expect(itemSize({ PK: { S: 'STUDENT#1' } })).toBe(2 + 9);
    expect(itemSize({ n: { S: 'é' } })).toBe(1 + 2);
  });

  it('counts numbers by significant digits, booleans and null as one byte', () => {
    expect(valueSize({ N: '1' })).toBe(2);
    expect(valueSize({ N: '12345' })).toBe(4);
    expect(valueSize({ N: '1000' })).toBe(2);
    expect(valueSize({ N: '-12' })).toBe(3);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
  });

  it('adds three bytes per list or map and one per element', () => {
    expect(valueSize({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + (1 + 2) + (1 + 2));
    expect(valueSize({ M: { a: { S: 'xy' } } })).toBe(3 + 1 + 1 + 2);
    expect(valueSize({ SS: ['a', 'bc'] })).toBe(3);
  });
});

describe('units', () => {
  it('charges a write one unit per started KB, at least one, twice in a transaction', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(writeUnits(300, true)).toBe(2);
    expect(writeUnits(2500, true)).toBe(6);
  });

  it('charges a read one unit per started 4 KB, half when eventually consistent, twice in a transaction', () => {
    expect(readUnits(100, { consistent: true })).toBe(1);
    expect(readUnits(100)).toBe(0.5);
    expect(readUnits(4097, { consistent: true })).toBe(2);
    expect(readUnits(4097)).toBe(1);
    expect(readUnits(100, { transactional: true })).toBe(2);
    expect(readUnits(0)).toBe(0.5);
  });
});

describe('token buckets', () => {
  it('admit a key while its bucket is above zero, refill at the rate, and never hold more than the burst', () => {
    let now = 0;
    const b = new TokenBuckets({ rate: 1000, capacity: 100 }, () => now);
    expect(b.admits('p')).toBe(true);
    b.charge('p', 100);
    expect(b.admits('p')).toBe(false);
    expect(b.admits('q')).toBe(true); // another partition key has its own bucket
    now = 50; // 50 ms at 1,000/s: 50 units back
    expect(b.tokens('p')).toBe(50);
    b.charge('p', 80);
    expect(b.admits('p')).toBe(false); // one request may overdraw; the next waits
    now = 1000;
    expect(b.tokens('p')).toBe(100);
  });
});
