/**
 * prefixEnd (dynamo/collection.ts): the least string above every string
 * that starts with a prefix, by code points. Its short way for a last
 * character below the surrogates must give what the code-point walk gives.
 */
import { describe, expect, it } from 'vitest';
import { prefixEnd } from '../../src/dynamo/collection.js';

/** The definition: drop trailing U+10FFFF, raise the last code point (skipping the surrogates). */
function byCodePoints(prefix: string): string {
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  throw new Error('none');
}

describe('the end of a key prefix', () => {
  it('raises the last character, as the code-point walk does, for ASCII, other planes and the surrogates’ edges', () => {
    const prefixes = [
      'ORDER#',
      'TITLE#ab',
      'a',
      '~',
      'x\u00ff',
      'x\ud7fe',
      'x\ud7ff',
      'x\ue000',
      'x\uffff',
      'x😀',
      'x\u{10ffff}',
      'ab\u{10ffff}\u{10ffff}',
      '#',
    ];
    for (const prefix of prefixes) expect(prefixEnd(prefix), JSON.stringify(prefix)).toBe(byCodePoints(prefix));
    expect(prefixEnd('ORDER#')).toBe('ORDER$');
    expect(prefixEnd('x\ud7ff')).toBe('x\ue000');
  });

  it('agrees with the code-point walk on random prefixes', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const pool = [0x23, 0x41, 0x7a, 0x7f, 0xff, 0x3042, 0xd7fe, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x1f600, 0x10fffe, 0x10ffff];
    for (let i = 0; i < 2000; i++) {
      const prefix = 'P' + Array.from({ length: 1 + (next() % 4) }, () => String.fromCodePoint(pool[next() % pool.length]!)).join('');
      expect(prefixEnd(prefix)).toBe(byCodePoints(prefix));
    }
  });

  it('has no end for a prefix of U+10FFFF alone', () => {
    expect(() => prefixEnd('\u{10ffff}')).toThrow(/no string follows/);
  });
});
