/** Mutation input rules and the counter pieces of transactions, without DynamoDB. */
import { describe, expect, it } from 'vitest';
import { attributeValue, email, text } from '../../src/writes/input.js';
import type { Attribute, Constraints } from '../../src/declaration/model.js';
import { counterChange, COUNTING_LEASE_MS } from '../../src/writes/conditions.js';
import { idOrNew, newId } from '../../src/writes/ids.js';
import { studentKey } from '../support/defaultItems.js';
import { tableKeys } from '../../src/dynamo/keys.js';

const PK_SK = tableKeys({ pk: 'PK', sk: 'SK' });

const NONE: Constraints = { min: null, max: null, format: null };
const attribute = (kind: Attribute['kind'], constraints: Partial<Constraints> = {}) => ({ kind, required: true, constraints: { ...NONE, ...constraints } });
const total = (value: number, name: string) => attributeValue(attribute('Float', { min: 0 }), value, name);
const quantity = (value: number, name: string) => attributeValue(attribute('Int', { min: 0 }), value, name);

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
    for (const tiny of [1e-131, 1e-320, Number.MIN_VALUE])
      expect(
        code(() => total(tiny, 't')),
        String(tiny),
      ).toBe('BAD_USER_INPUT');
    expect(total(1e-130, 't')).toBe(1e-130);
  });

  it('trims names and refuses blank or over-long ones', () => {
    expect(text('  Ada ', 'name')).toBe('Ada');
    expect(code(() => text(' \t ', 'name'))).toBe('BAD_USER_INPUT');
    expect(code(() => text('x'.repeat(201), 'name'))).toBe('BAD_USER_INPUT');
    expect(text('x'.repeat(200), 'name')).toHaveLength(200);
  });

  it('accepts plausible emails and refuses the rest', () => {
    expect(email(' ada@example.com ', 'email')).toBe('ada@example.com');
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'a b@example.com', `${'a'.repeat(250)}@example.com`]) {
      expect(
        code(() => email(bad, 'email')),
        bad,
      ).toBe('BAD_USER_INPUT');
    }
  });

  it('with min: 0, a Float is finite and ≥ 0 and an Int whole and ≥ 0', () => {
    expect(total(0, 't')).toBe(0);
    expect(total(19.99, 't')).toBe(19.99);
    for (const bad of [-0.01, Number.NaN, Number.POSITIVE_INFINITY]) expect(code(() => total(bad, 't'))).toBe('BAD_USER_INPUT');
    expect(quantity(0, 'q')).toBe(0);
    for (const bad of [-1, 1.5]) expect(code(() => quantity(bad, 'q'))).toBe('BAD_USER_INPUT');
  });

  it('without declared constraints, takes a negative Int or Float and any text, whatever the field is named', () => {
    expect(attributeValue(attribute('Int'), -5, 'input.quantity')).toBe(-5);
    expect(attributeValue(attribute('Float'), -19.99, 'input.total')).toBe(-19.99);
    expect(attributeValue(attribute('String'), ' not an address ', 'input.email')).toBe('not an address');
  });

  it('keeps the storage limits for every Float, of either sign', () => {
    for (const bad of [2 ** 53, -(2 ** 53), 1e-131, -1e-131, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(
        code(() => attributeValue(attribute('Float'), bad, 'x')),
        String(bad),
      ).toBe('BAD_USER_INPUT');
    }
    expect(attributeValue(attribute('Float'), -(2 ** 53 - 1), 'x')).toBe(-(2 ** 53 - 1));
    expect(code(() => attributeValue(attribute('Int'), 1.5, 'x'))).toBe('BAD_USER_INPUT');
  });

  it('refuses a value outside declared bounds, naming the argument; the bounds themselves are accepted', () => {
    const scored = attribute('Int', { min: 1, max: 5 });
    for (const [bad, word] of [
      [0, 'at least 1'],
      [6, 'at most 5'],
    ] as const) {
      try {
        attributeValue(scored, bad, 'input.score');
        expect.unreachable();
      } catch (e) {
        const err = e as { message: string; extensions: { code: string; argumentName?: string } };
        expect(err.extensions.code).toBe('BAD_USER_INPUT');
        expect(err.extensions.argumentName).toBe('input.score');
        expect(err.message).toContain(word);
      }
    }
    expect(attributeValue(scored, 1, 's')).toBe(1);
    expect(attributeValue(scored, 5, 's')).toBe(5);
  });

  it('with format EMAIL, refuses text that is no email address in a field of any name', () => {
    expect(code(() => attributeValue(attribute('String', { format: 'EMAIL' }), 'ada', 'input.contact'))).toBe('BAD_USER_INPUT');
    expect(attributeValue(attribute('String', { format: 'EMAIL' }), 'ada@example.com', 'input.contact')).toBe('ada@example.com');
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
    const item = counterChange('T', PK_SK, { key, seen: { ...key, courseCount: 3 }, counter: 'courseCount', delta: 1 });
    expect(item.Update?.UpdateExpression).toBe('ADD #counter :delta');
    expect(item.Update?.ExpressionAttributeValues?.[':delta']).toBe(1);
    expect(item.Update?.ConditionExpression).toMatch(/^attribute_exists\(#p\d+\) AND attribute_exists\(#p\d+\)$/);
    expect(Object.values(item.Update?.ExpressionAttributeNames ?? {}).sort()).toEqual(['PK', 'courseCount', 'courseCount'].sort());
  });

  it('never creates an absent counter: only checks it is still absent and not being counted by npm run migrate', () => {
    const item = counterChange('T', PK_SK, { key, seen: { ...key, name: 'n' }, counter: 'courseCount', delta: 1 });
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
    const item = counterChange('T', PK_SK, { key, seen: null, counter: 'courseCount', delta: -1 });
    expect(item.ConditionCheck?.ConditionExpression).toMatch(/^attribute_not_exists\(#p\d+\)$/);
    expect(item.ConditionCheck?.ExpressionAttributeValues).toBeUndefined();
  });
});

describe('conditions on a table with declared key names', () => {
  it('name the declared partition key and send the key under the declared names', () => {
    const keys = tableKeys({ pk: 'pk', sk: 'sk' });
    const key = studentKey('s');
    const item = counterChange('T', keys, { key, seen: { pk: key.PK, sk: key.SK, courseCount: 3 }, counter: 'courseCount', delta: 1 });
    expect(item.Update?.Key).toEqual({ pk: key.PK, sk: key.SK });
    expect(Object.values(item.Update?.ExpressionAttributeNames ?? {}).sort()).toEqual(['courseCount', 'courseCount', 'pk'].sort());
    const absent = counterChange('T', keys, { key, seen: null, counter: 'courseCount', delta: -1 });
    expect(absent.ConditionCheck?.Key).toEqual({ pk: key.PK, sk: key.SK });
    expect(Object.values(absent.ConditionCheck?.ExpressionAttributeNames ?? {})).toEqual(['pk']);
  });
});
