import { describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';

const OLD = 'old-secret-old-secret-old-secret-0001';
const NEW = 'new-secret-new-secret-new-secret-0002';

describe('cursor signing', () => {
  it('opens what it sealed', () => {
    const codec = createCursorCodec({ current: NEW });
    expect(codec.open(codec.seal('{"a":1}'))).toEqual({ payload: '{"a":1}' });
  });

  it('refuses a token with any single character changed', () => {
    const codec = createCursorCodec({ current: NEW });
    const token = codec.seal('{"v":2,"c":"Student.courses","p":"STUDENT#1"}');
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const flipped = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      expect(codec.open(flipped), `position ${i}`).toHaveProperty('error');
    }
  });

  it('refuses a truncated token and an unsigned one', () => {
    const codec = createCursorCodec({ current: NEW });
    const token = codec.seal('{"a":1}');
    expect(codec.open(token.slice(0, -1))).toHaveProperty('error');
    expect(codec.open(token.slice(0, token.lastIndexOf('.')))).toEqual({ error: 'it is not a signed cursor' });
    expect(codec.open(Buffer.from('{"a":1}').toString('base64url'))).toEqual({ error: 'it is not a signed cursor' });
  });

  it('refuses a token signed with a secret it does not hold', () => {
    const other = createCursorCodec({ current: OLD });
    const codec = createCursorCodec({ current: NEW });
    expect(codec.open(other.seal('{"a":1}'))).toEqual({ error: 'it was signed with an unknown key' });
  });

  it('still opens tokens of a previous secret after rotation, and signs new ones with the current secret', () => {
    const before = createCursorCodec({ current: OLD });
    const after = createCursorCodec({ current: NEW, previous: [OLD] });
    const oldToken = before.seal('{"a":1}');
    expect(after.open(oldToken)).toEqual({ payload: '{"a":1}' });
    const newToken = after.seal('{"a":1}');
    expect(newToken.split('.')[1]).not.toBe(oldToken.split('.')[1]);
    expect(before.open(newToken)).toHaveProperty('error');
    // Once the old secret is dropped, its tokens stop verifying.
    expect(createCursorCodec({ current: NEW }).open(oldToken)).toHaveProperty('error');
  });

  it('refuses a token whose key id is right but whose signature was made with another secret', () => {
    const codec = createCursorCodec({ current: NEW });
    const forged = createCursorCodec({ current: OLD }).seal('{"a":2}').split('.');
    const kid = codec.seal('{"a":1}').split('.')[1];
    expect(codec.open(`${forged[0]}.${kid}.${forged[2]}`)).toEqual({ error: 'its signature does not match' });
  });
});
