import { describe, expect, it } from 'vitest';
import { buildASTSchema, parse, validate, type OperationDefinitionNode } from 'graphql';
import { loadModel } from '../../src/declaration/loadModel.js';
import { MUTATION_COST, operationCost, operationWeight } from '../../src/graphql/plugins/queryLimits.js';

const { typeDefs } = loadModel();

const schema = buildASTSchema(typeDefs);

function cost(query: string, variables?: Record<string, unknown>): number {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  expect(validate(schema, doc)).toEqual([]);
  return operationCost(schema, op, (n) => fragments.get(n), variables);
}

/** `student { courses(first: a) { … students(first: b) { … courses(first: c) … } } }`, alternating. */
function nested(sizes: number[]): string {
  const fields = sizes.map((n, i) => `${i % 2 === 0 ? 'courses' : 'students'}(first: ${n}) { edges { node { `);
  const leaf = sizes.length % 2 === 1 ? 'title' : 'name';
  return fields.join('') + leaf + ' } } }'.repeat(sizes.length);
}

describe("narrowed lists, priced from the model's declarations", () => {
  it('adds one Query per GSI2 shard to a @catalog list, and the shards again for a prefix totalCount', () => {
    expect(cost('{ courses(first: 5) { edges { node { title } } } }')).toBe(5 + 8);
    expect(cost('{ courses(first: 5, titlePrefix: "Al") { totalCount edges { node { title } } } }')).toBe(5 + 8 + 8);
    expect(cost('{ students(first: 5, namePrefix: null) { totalCount edges { node { name } } } }')).toBe(5 + 8);
    expect(cost('query ($p: String) { courses(first: 5, titlePrefix: $p) { totalCount edges { node { title } } } }', { p: 'Al' })).toBe(5 + 8 + 8);
    expect(cost('query ($p: String) { courses(first: 5, titlePrefix: $p) { totalCount edges { node { title } } } }', {})).toBe(5 + 8);
  });

  it('counts a page filtered by a @query(filter) argument ten times, and a narrowed totalCount one Query', () => {
    const orders = (args: string) => `{ customer(id: "1") { orders(first: 5${args}) { totalCount edges { node { total } } } } }`;
    expect(cost(orders(''))).toBe(1 + 5);
    expect(cost(orders(', placedAfter: "2026-01-01T00:00:00Z"'))).toBe(1 + 5 + 1);
    expect(cost(orders(', status: PAID'))).toBe(1 + 5 * 10 + 1);
    expect(cost('query ($s: OrderStatus) { customer(id: "1") { orders(first: 5, status: $s) { edges { node { total } } } } }', { s: 'PAID' })).toBe(1 + 5 * 10);
  });
});

describe('connection cost', () => {
  it('counts an entity lookup as 1 and leaves as 0', () => {
    expect(cost('{ student(id: "1") { id name email } }')).toBe(1);
    expect(cost('{ a: student(id: "1") { id } b: course(id: "A") { title } }')).toBe(2);
  });

  it('multiplies page sizes down nested connections', () => {
    expect(cost('{ student(id: "1") { courses(first: 10) { edges { node { students(first: 10) { edges { node { name } } } } } } } }')).toBe(
      1 + 10 * (1 + 10 * 1),
    );
  });

  it('uses the default page size of 20 when first and last are absent, and last like first', () => {
    expect(cost('{ student(id: "1") { courses { edges { node { title } } } } }')).toBe(1 + 20);
    expect(cost('{ student(id: "1") { courses(last: 5) { edges { node { title } } } } }')).toBe(1 + 5);
  });

  it('counts a connection selecting only totalCount or pageInfo as its page size', () => {
    expect(cost('{ student(id: "1") { courses(first: 7) { totalCount pageInfo { hasNextPage } } } }')).toBe(1 + 7);
  });

  it('resolves variables and their declared defaults', () => {
    const q = 'query($n: Int, $m: Int = 50) { student(id: "1") { courses(first: $n) { edges { node { students(first: $m) { totalCount } } } } } }';
    expect(cost(q, { n: 10 })).toBe(1 + 10 * (1 + 50));
    expect(cost(q, { n: 10, m: 2 })).toBe(1 + 10 * (1 + 2));
    expect(cost(q, {})).toBe(1 + 20 * (1 + 50));
  });

  it('counts fragments and inline fragments wherever they are spread', () => {
    const q = `
      query { student(id: "1") { ...S } other: student(id: "2") { ...S } }
      fragment S on Student { courses(first: 10) { edges { node { ... on Course { students(first: 3) { totalCount } } } } } }`;
    expect(cost(q)).toBe(2 * (1 + 10 * (1 + 3)));
  });

  it('clamps out-of-range page sizes to what validation allows', () => {
    expect(cost('{ student(id: "1") { courses(first: 100000) { totalCount } } }')).toBe(1 + 100);
    expect(cost('{ student(id: "1") { courses(first: -5) { totalCount } } }')).toBe(1 + 1);
  });

  it('counts every connection as at least 1, a page of 0 included: it still sends a Query', () => {
    expect(cost('{ student(id: "1") { courses(first: 0) { totalCount } } }')).toBe(1 + 1);
    expect(cost('{ student(id: "1") { courses(last: 0) { pageInfo { hasPreviousPage } } } }')).toBe(1 + 1);
    // The read bomb: 100 students × 100 courses × an empty page each was priced 10,101 and sent 10,102 Queries.
    const bomb = `{ course(id: "A") { students(first: 100) { edges { node { courses(first: 100) { edges { node { students(first: 0) { totalCount } } } } } } } } }`;
    expect(cost(bomb)).toBe(1 + 100 * (1 + 100 * (1 + 1)));
    expect(cost(bomb)).toBeGreaterThan(20_000);
  });

  it('counts order.customer and part.product as lookups', () => {
    expect(cost('{ order(id: "o") { customer { name orders(first: 2) { edges { node { id } } } } } }')).toBe(1 + 1 + 2);
  });

  it('prices a fragment bomb (each fragment spreading the next twice) exactly, computing each fragment once', () => {
    const n = 40;
    const fragments = Array.from({ length: n }, (_, i) =>
      i === n - 1 ? `fragment F${i} on Student { courses(first: 1) { totalCount } }` : `fragment F${i} on Student { ...F${i + 1} ...F${i + 1} }`,
    ).join('\n');
    const doc = parse(`{ student(id: "1") { ...F0 } } ${fragments}`);
    const op = doc.definitions[0] as OperationDefinitionNode;
    const byName = new Map(doc.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
    expect(operationCost(schema, op, (f) => byName.get(f), {})).toBe(1 + 2 ** (n - 1));
  });

  it('puts four nested pages of 100 above the default limit of 20000 and two of 10 below it', () => {
    expect(cost(`{ student(id: "1") { ${nested([100, 100, 100, 100])} } }`)).toBeGreaterThan(20_000);
    expect(cost(`{ student(id: "1") { ${nested([10, 10])} } }`)).toBeLessThanOrEqual(20_000);
  });
});

function weigh(query: string, variables?: Record<string, unknown>) {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  expect(validate(schema, doc)).toEqual([]);
  return operationWeight(schema, op, (n) => fragments.get(n), variables);
}

describe('mutation cost and fan-out mutations', () => {
  it('prices every mutation field at MUTATION_COST plus what its result selects', () => {
    expect(weigh('mutation { createStudent(input: { name: "a" }) { id } }').cost).toBe(MUTATION_COST);
    expect(
      weigh('mutation { a: createStudent(input: { name: "a" }) { id courses(first: 5) { totalCount } } b: unenroll(studentId: "1", courseId: "A") }').cost,
    ).toBe(2 * MUTATION_COST + 5);
  });

  it('counts renames and deletes as fan-out mutations, whatever their alias', () => {
    const renames = Array.from({ length: 30 }, (_, i) => `r${i}: updateCourse(id: "A", input: { title: "T${i}" }) { id }`).join(' ');
    expect(weigh(`mutation { ${renames} }`).fanOutMutations).toBe(30);
    expect(weigh('mutation { deleteStudent(id: "1") updateStudent(id: "2", input: { email: null }) { id } }').fanOutMutations).toBe(2);
    expect(weigh('mutation { createCourse(input: { title: "x" }) { id } enroll(studentId: "1", courseId: "A") { cursor } }').fanOutMutations).toBe(0);
  });
});

describe('response fields', () => {
  it('counts each leaf once per item a page may hold, __typename and cursors included', () => {
    expect(weigh('{ student(id: "1") { id name __typename } }').fields).toBe(3);
    expect(weigh('{ student(id: "1") { courses(first: 10) { totalCount edges { cursor node { id } } } } }').fields).toBe(10 * 3);
    // 29 aliases of cursor over 100 × 100 edges: 290,000 fields, far past the default of 50,000.
    const cursors = Array.from({ length: 29 }, (_, i) => `c${i}: cursor`).join(' ');
    expect(weigh(`{ course(id: "A") { students(first: 100) { edges { node { courses(first: 100) { edges { ${cursors} } } } } } } }`).fields).toBe(
      100 * 100 * 29,
    );
  });
});
