/** Mutation input rules and the counter pieces of transactions, without DynamoDB. */
import { describe, expect, it } from 'vitest';
import { email, quantity, text, total } from '../../src/writes/input.js';
import { counterChange, COUNTING_LEASE_MS } from '../../src/writes/conditions.js';
import { idOrNew, newId } from '../../src/writes/ids.js';
import { studentKey } from '../support/defaultItems.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return (e as { extensions?: { code?: string } }).extensions?.code;
  }
};

describe('input rules', () => {
  it('refuses text holding a lone surrogate, as ids and prefixes are refused (it is not well-formed Unicode)', () => {
    expect(code(() => text('Ada \ud800', 'name'))).toBe('BAD_USER_INPUT');
    expect(code(() => email('a\udc00@example.com', 'email'))).toBe('BAD_USER_INPUT');
    expect(text('Ada \u{1F600}', 'name')).toBe('Ada \u{1F600}');
  });

  it('refuses a total too small for DynamoDB to store (below 1e-130 but not 0) instead of failing inside the write', () => {
    for (const tiny of [1e-131, 1e-320, Number.MIN_VALUE]) expect(code(() => total(tiny, 't')), String(tiny)).toBe('BAD_USER_INPUT');
    expect(total(1e-130, 't')).toBe(1e-130);
  });


  it('trims names and refuses blank or over-long ones', () => {
    expect(text('  Ada ', 'name')).toBe('Ada');
    expect(code(() => text(' \t ', 'name'))).toBe('BAD_USER_INPUT');
    expect(code(() => text('x'.repeat(201), 'name'))).toBe('BAD_USER_INPUT');
    expect(text('x'.repeat(200), 'name')).toHaveLength(200);
  });

  it('accepts plausible emails, null for none, and refuses the rest', () => {
    expect(email(' ada@example.com ', 'email')).toBe('ada@example.com');
    expect(email(null, 'email')).toBeNull();
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'a b@example.com', `${'a'.repeat(250)}@example.com`]) {
      expect(code(() => email(bad, 'email')), bad).toBe('BAD_USER_INPUT');
    }
  });

  it('totals are finite and ≥ 0; quantities integers ≥ 0', () => {
    expect(total(0, 't')).toBe(0);
    expect(total(19.99, 't')).toBe(19.99);
    for (const bad of [-0.01, Number.NaN, Number.POSITIVE_INFINITY]) expect(code(() => total(bad, 't'))).toBe('BAD_USER_INPUT');
    expect(quantity(0, 'q')).toBe(0);
    for (const bad of [-1, 1.5]) expect(code(() => quantity(bad, 'q'))).toBe('BAD_USER_INPUT');
  });
});

describe('generated ids', () => {
  it('are ULIDs, strictly increasing even within one millisecond, never containing "#"', () => {
    const ids = Array.from({ length: 1000 }, newId);
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect(ids.every((id, i) => i === 0 || ids[i - 1] < id)).toBe(true);
  });

  it('a given id is validated instead', () => {
    expect(idOrNew('abc')).toBe('abc');
    expect(code(() => idOrNew('a#b'))).toBe('BAD_USER_INPUT');
  });
});

describe('counter changes', () => {
  const key = studentKey('s');

  it('adds to a counter that exists, on the condition it still does', () => {
    const item = counterChange('T', key, { ...key, courseCount: 3 }, 'courseCount', 1);
    expect(item.Update?.UpdateExpression).toBe('ADD #counter :delta');
    expect(item.Update?.ExpressionAttributeValues?.[':delta']).toBe(1);
    expect(item.Update?.ConditionExpression).toMatch(/^attribute_exists\(#p\d+\) AND attribute_exists\(#p\d+\)$/);
    expect(Object.values(item.Update?.ExpressionAttributeNames ?? {}).sort()).toEqual(['PK', 'courseCount', 'courseCount'].sort());
  });

  it('never creates an absent counter: only checks it is still absent and not being counted by npm run migrate', () => {
    const item = counterChange('T', key, { ...key, name: 'n' }, 'courseCount', 1);
    expect(item.Update).toBeUndefined();
    expect(item.ConditionCheck?.ConditionExpression).toMatch(
      /^attribute_exists\(#p\d+\) AND attribute_not_exists\(#p\d+\) AND \(attribute_not_exists\(#(p\d+)\) OR #\1 < :\1\)$/,
    );
    const names = item.ConditionCheck?.ExpressionAttributeNames ?? {};
    expect(Object.values(names).sort()).toEqual(['PK', 'countingSince', 'courseCount'].sort());
    // A mark is live for COUNTING_LEASE_MS: the check compares it with the time that long ago.
    const [cutoff] = Object.values(item.ConditionCheck?.ExpressionAttributeValues ?? {}) as string[];
    expect(Date.now() - Date.parse(cutoff)).toBeGreaterThanOrEqual(COUNTING_LEASE_MS);
    expect(Date.now() - Date.parse(cutoff)).toBeLessThan(COUNTING_LEASE_MS + 60_000);
  });

  it('for an absent entity checks it is still absent', () => {
    const item = counterChange('T', key, null, 'courseCount', -1);
    expect(item.ConditionCheck?.ConditionExpression).toMatch(/^attribute_not_exists\(#p\d+\)$/);
    expect(item.ConditionCheck?.ExpressionAttributeValues).toBeUndefined();
  });
});
