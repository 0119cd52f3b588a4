import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../../src/demoData.js';
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
