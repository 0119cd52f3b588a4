import { describe, expect, it } from 'vitest';
import { parse, type OperationDefinitionNode } from 'graphql';
import { checkMemo, ENTRY_BYTES } from '../../src/graphql/checkMemo.js';

const operationOf = (query: string) => parse(query).definitions[0] as OperationDefinitionNode;

describe('checkMemo', () => {
  const q = operationOf('query Q($n: Int) { student(id: "1") { courses(first: $n) { totalCount } } }');
  const other = operationOf('query R($n: Int) { student(id: "1") { id } }');

  it('runs a check once for a repeated operation that passed', () => {
    const memo = checkMemo();
    let runs = 0;
    for (let i = 0; i < 3; i++) memo('doc1', q, { n: 5 }, () => void runs++);
    expect(runs).toBe(1);
  });

  it('checks again for other variables, another operation or another document', () => {
    const memo = checkMemo();
    let runs = 0;
    memo('doc1', q, { n: 5 }, () => void runs++);
    memo('doc1', q, { n: 6 }, () => void runs++);
    memo('doc1', other, { n: 5 }, () => void runs++);
    memo('doc2', q, { n: 5 }, () => void runs++);
    expect(runs).toBe(4);
  });

  it('never remembers a refusal: a refused operation is refused every time', () => {
    const memo = checkMemo();
    const refuse = () => {
      throw new Error('refused');
    };
    expect(() => memo('doc1', q, { n: 500 }, refuse)).toThrow('refused');
    expect(() => memo('doc1', q, { n: 500 }, refuse)).toThrow('refused');
  });

  it('keys on declared variables only, in any key order', () => {
    const memo = checkMemo();
    let runs = 0;
    const nested = operationOf('query S($input: CreateStudentInput!) { __typename }');
    memo('doc', nested, { input: { name: 'a', email: 'b' } }, () => void runs++);
    memo('doc', nested, { input: { email: 'b', name: 'a' } }, () => void runs++);
    memo('doc', q, { n: 5, junk: 'x'.repeat(1000) }, () => void runs++);
    memo('doc', q, { n: 5, junk: 'y'.repeat(1000) }, () => void runs++);
    expect(runs).toBe(2);
  });

  it('holds at most its byte budget of entries and forgets the least recently used first', () => {
    const memo = checkMemo(ENTRY_BYTES * 3);
    let runs = 0;
    const check = () => void runs++;
    for (const n of [1, 2, 3]) memo('doc', q, { n }, check);
    memo('doc', q, { n: 1 }, check); // used again: now the most recent
    memo('doc', q, { n: 4 }, check); // forgets n = 2
    expect(runs).toBe(4);
    memo('doc', q, { n: 1 }, check);
    memo('doc', q, { n: 3 }, check);
    expect(runs).toBe(4);
    memo('doc', q, { n: 2 }, check);
    expect(runs).toBe(5);
  });

  it('keeps its size flat over 50,000 distinct documents with large variables', () => {
    const memo = checkMemo(ENTRY_BYTES * 100);
    const big = 'v'.repeat(10_000);
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 50_000; i++) memo(`doc${i}`, q, { n: i, big }, () => {});
    // 100 entries of a hash each; the values themselves are never kept (50,000 × 10 KB would be 500 MB).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50_000_000);
  });
});
