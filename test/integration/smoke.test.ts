import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put(demoItems());
});
afterAll(() => gw.stop());

describe('demo data through GraphQL', () => {
  it('reads a student with courses and the students of each course', async () => {
    const result = await gw.run(`{
      student(id: "1") { name courses(first: 10) { totalCount edges { node { id title students { totalCount } } } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.student.name).toBe('Ada Lovelace');
    expect(result.data.student.courses.totalCount).toBe(3);
    expect(result.data.student.courses.edges.map((e: any) => [e.node.id, e.node.students.totalCount])).toEqual([
      ['A', 3],
      ['B', 2],
      ['C', 3],
    ]);
  });
});

describe('request counting', () => {
  it('attributes requests to the operation that made them, batching entity reads', async () => {
    const { result, requests } = await gw.counted(`{ a: student(id: "1") { name } b: student(id: "2") { name } c: course(id: "A") { title } }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ BatchGetItem: 1 });
  });
});

describe('per-request loaders', () => {
  it('sends an identical connection Query once per operation', async () => {
    const { result, requests } = await gw.counted(`{
      a: student(id: "1") { courses(first: 2) { edges { node { id } } } }
      b: student(id: "1") { courses(first: 2) { totalCount edges { cursor } } }
    }`);
    expect(result.errors).toBeUndefined();
    // One Query serves both aliases: the student item comes with its courses (look-ahead).
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('never serves one operation from the cache of another', async () => {
    await gw.put([{ PK: 'STUDENT#fresh', SK: 'PROFILE', name: 'Before' }]);
    expect((await gw.run(`{ student(id: "fresh") { name } }`)).data.student.name).toBe('Before');
    await gw.put([{ PK: 'STUDENT#fresh', SK: 'PROFILE', name: 'After' }]);
    expect((await gw.run(`{ student(id: "fresh") { name } }`)).data.student.name).toBe('After');
  });
});
