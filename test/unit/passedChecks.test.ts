import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { checkMemo } from '../../src/graphql/checkMemo.js';

describe('checkMemo', () => {
  const doc = parse('query Q($n: Int) { student(id: "1") { courses(first: $n) { totalCount } } }');

  it('runs a check once for a repeated operation that passed', () => {
    const memo = checkMemo();
    let runs = 0;
    for (let i = 0; i < 3; i++) memo(doc, 'Q', { n: 5 }, () => void runs++);
    expect(runs).toBe(1);
  });

  it('checks again for other variables, another operation name or another document', () => {
    const memo = checkMemo();
    let runs = 0;
    memo(doc, 'Q', { n: 5 }, () => void runs++);
    memo(doc, 'Q', { n: 6 }, () => void runs++);
    memo(doc, null, { n: 5 }, () => void runs++);
    memo(parse('{ student(id: "1") { id } }'), 'Q', { n: 5 }, () => void runs++);
    expect(runs).toBe(4);
  });

  it('never remembers a refusal: a refused operation is refused every time', () => {
    const memo = checkMemo();
    const refuse = () => {
      throw new Error('refused');
    };
    expect(() => memo(doc, 'Q', { n: 500 }, refuse)).toThrow('refused');
    expect(() => memo(doc, 'Q', { n: 500 }, refuse)).toThrow('refused');
  });
});
