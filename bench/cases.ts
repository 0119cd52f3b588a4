/**
 * The benchmark's data set shape and its cases: each a GraphQL operation,
 * the bench/direct.ts function giving the same answer, and the minimum
 * DynamoDB request count the gateway must reach. Used by bench/run.ts
 * and test/integration/modelSize.test.ts.
 */
import type { Dataset, DatasetShape } from '../scripts/dataset.js';

export type Mode = 'gateway' | 'naive' | 'direct';
export const MODES: Mode[] = ['gateway', 'naive', 'direct'];

export const SHAPE: DatasetShape = {
  students: 5000,
  courses: 300,
  enrollmentsPerStudent: 10,
  customers: 200,
  ordersPerCustomer: 12,
  products: 20,
  partsPerProduct: 6,
  scaleBase: 50,
  seed: 7,
};

export interface OperationSpec {
  name: string;
  query: string;
  /** Only the data set's ids, so a caller need not build the items. */
  variables: (d: Pick<Dataset, 'ids'>) => Record<string, unknown>;
  /** Name of the bench/direct.ts function giving the same answer. */
  direct: string;
  /** The minimum request count the gateway must reach (asserted in npm test). */
  minimum?: number;
  modes?: Mode[];
}

const ORDER_FIELDS = 'edges { node { id placedAt total status } }';
const aliasQuery = (n: number) => {
  const params = Array.from({ length: n }, (_, i) => `$id${i}: ID!`).join(', ');
  return `query (${params}) { ${Array.from({ length: n }, (_, i) => `a${i}: student(id: $id${i}) { name }`).join(' ')} }`;
};
const aliasVars = (ids: string[]) => Object.fromEntries(ids.map((id, i) => [`id${i}`, id]));

export const CASES: OperationSpec[] = [
  {
    name: 'customer(id) { name orders(last: 10) }',
    query: `query ($id: ID!) { customer(id: $id) { name orders(last: 10) { ${ORDER_FIELDS} pageInfo { hasPreviousPage } } } }`,
    variables: (d) => ({ id: d.ids.customers[7] }),
    direct: 'customerLast10',
    minimum: 1,
  },
  {
    name: 'customer(id) { name orders(first: 10) }, 12 orders',
    query: `query ($id: ID!) { customer(id: $id) { name orders(first: 10) { ${ORDER_FIELDS} pageInfo { hasNextPage } } } }`,
    variables: (d) => ({ id: d.ids.customers[8] }),
    direct: 'customerFirst10',
    minimum: 1,
  },
  {
    name: 'student(id) { name courses(first: 10) { id title } }',
    query: `query ($id: ID!) { student(id: $id) { name courses(first: 10) { edges { node { id title } } } } }`,
    variables: (d) => ({ id: d.ids.students[4242] }),
    direct: 'studentCourses',
    minimum: 1,
  },
  {
    name: 'course(id) { title students(first: 10) { id name } }',
    query: `query ($id: ID!) { course(id: $id) { title students(first: 10) { edges { node { id name } } } } }`,
    variables: (d) => ({ id: d.ids.courses[42] }),
    direct: 'courseStudents',
    minimum: 2,
  },
  {
    name: 'course(id) { title students(first: 10) { id name email } }',
    query: `query ($id: ID!) { course(id: $id) { title students(first: 10) { edges { node { id name email } } } } }`,
    variables: (d) => ({ id: d.ids.courses[43] }),
    direct: 'courseStudentsEmail',
    minimum: 3,
  },
  {
    name: 'nested: student → 10 courses → 10 students { name email }',
    query: `query ($id: ID!) { student(id: $id) { courses(first: 10) { edges { node { title students(first: 10) { edges { node { name email } } } } } } } }`,
    variables: (d) => ({ id: d.ids.students[1234] }),
    direct: 'nested',
    minimum: 12,
  },
  {
    name: '30 aliased student(id) { name }',
    query: aliasQuery(30),
    variables: (d) => aliasVars(d.ids.students.slice(100, 130)),
    direct: 'students',
    minimum: 1,
  },
  {
    name: '250 distinct student(id) { name }',
    query: aliasQuery(250),
    variables: (d) => aliasVars(d.ids.students.slice(2000, 2250)),
    direct: 'students',
    minimum: 3,
    // Naive mode sends 250 requests per operation: under 16 clients DynamoDB Local times them out.
    modes: ['gateway', 'direct'],
  },
  ...[1, 10, 100].map(
    (factor): OperationSpec => ({
      name: `scale ×${factor}: course(id) { title students(first: 20) }`,
      // Every variable sent is declared: the gateway refuses undeclared ones.
      query: `query ($id: ID!, $first: Int) { course(id: $id) { title students(first: $first) { edges { node { id name } } } } }`,
      variables: (d) => ({ id: d.ids.scaleCourses[factor], first: 20 }),
      direct: 'courseStudents',
      minimum: 2,
      modes: ['gateway', 'direct'],
    }),
  ),
];
