/**
 * The default model's data set (schema.graphql), for `npm run seed` with
 * the default model's own flags and for the benchmarks: a configuration
 * over the model-driven builder's parts (scripts/modelDataset.ts: the seeded
 * PRNG, ULIDs, the catalog counters from the plan), with names a reader
 * recognises and the scale courses a benchmark needs. Any other model, or
 * the default one with `--count`/`--per`, is seeded by modelDataset.ts alone.
 *
 * In:  a shape (how many students, courses, enrollments per student, …) and
 *      a seed.
 * Out: every item, built from the model's plan (test/support/defaultItems.ts),
 *      and the ids a benchmark needs to address them.
 *
 * Invariants: the same shape and seed give the same items; counters equal
 * the number of children written (courseCount, studentCount, orderCount,
 * partCount); every enrollment edge carries the current courseTitle and
 * studentName; order ids are ULIDs whose time part is `placedAt`, so orders
 * list oldest first.
 *
 * Scale courses (`scaleBase` > 0): three extra courses `scale-x1`,
 * `scale-x10`, `scale-x100` enrolling the first `scaleBase`, 10× and 100×
 * as many students (capped at the student count), to measure how the cost
 * of a page grows with the collection.
 */
import type { Item } from '../src/dynamo/batchGet.js';
import { BASE, catalogCounterItemsOf, pad, prng, ulidAt } from './modelDataset.js';
import { datasetIds, SCALE_FACTORS, type DatasetIds, type DatasetShape } from './datasetIds.js';
import { defaultPlan } from '../test/support/model.js';
import { courseItem, customerItem, enrollmentItem, orderItem, partItem, productItem, studentItem } from '../test/support/defaultItems.js';

export { datasetIds, type DatasetIds, type DatasetShape };

export const DEFAULT_SHAPE: DatasetShape = {
  students: 5000,
  courses: 300,
  enrollmentsPerStudent: 8,
  customers: 200,
  ordersPerCustomer: 12,
  products: 50,
  partsPerProduct: 6,
  scaleBase: 0,
  seed: 1,
};

export interface Dataset {
  items: Item[];
  ids: DatasetIds;
  counts: { students: number; courses: number; enrollments: number; customers: number; orders: number; products: number; parts: number };
}

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Ken', 'Margaret', 'Tim'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman', 'Thompson', 'Hamilton', 'Berners-Lee'];
const SUBJECTS = ['Algorithms', 'Databases', 'Compilers', 'Networks', 'Graphics', 'Security', 'Statistics', 'Logic', 'Robotics', 'Ethics'];

export function buildDataset(shape: DatasetShape): Dataset {
  const random = prng(shape.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const base = BASE;
  const minutes = (n: number) => new Date(base + n * 60_000).toISOString();
  const ids = datasetIds(shape);

  const students = ids.students.map((id, i) => ({
    id,
    name: `${pick(FIRST)} ${pick(LAST)} ${i}`,
    courses: [] as string[],
  }));
  const courses = ids.courses.slice(0, shape.courses).map((id, i) => ({
    id,
    title: `${pick(SUBJECTS)} ${100 + i}`,
    students: [] as number[],
  }));
  const perStudent = Math.min(shape.enrollmentsPerStudent, shape.courses);
  students.forEach((s, si) => {
    const chosen = new Set<number>();
    while (chosen.size < perStudent) chosen.add(Math.floor(random() * shape.courses));
    for (const ci of chosen) courses[ci].students.push(si);
  });
  if (shape.scaleBase > 0) {
    for (const factor of SCALE_FACTORS) {
      const course = { id: ids.scaleCourses[factor]!, title: `Scale ×${factor}`, students: [] as number[] };
      const n = Math.min(shape.scaleBase * factor, shape.students);
      for (let si = 0; si < n; si++) course.students.push(si);
      courses.push(course);
    }
  }

  const items: Item[] = [];
  let enrollments = 0;
  for (const c of courses) {
    c.students.forEach((si, k) => {
      const s = students[si];
      s.courses.push(c.id);
      items.push(enrollmentItem({ studentId: s.id, courseId: c.id, enrolledAt: minutes(k), courseTitle: c.title, studentName: s.name }));
      enrollments++;
    });
    items.push(courseItem({ id: c.id, title: c.title, studentCount: c.students.length }));
  }
  for (const s of students) {
    items.push(studentItem({ id: s.id, name: s.name, email: `${s.id}@example.com`, courseCount: s.courses.length }));
  }

  let orders = 0;
  for (const [i, id] of ids.customers.entries()) {
    items.push(customerItem({ id, name: `Customer ${i}`, email: `${id}@example.com`, orderCount: shape.ordersPerCustomer }));
    for (let k = 0; k < shape.ordersPerCustomer; k++) {
      const placed = base + (i * shape.ordersPerCustomer + k) * 3_600_000;
      const orderId = ulidAt(placed, random);
      const statuses = ['PLACED', 'SHIPPED', 'DELIVERED'];
      items.push(
        orderItem({ customerId: id, id: orderId, placedAt: new Date(placed).toISOString(), total: Math.round(random() * 50000) / 100, status: pick(statuses) }),
      );
      orders++;
    }
  }

  for (const [i, id] of ids.products.entries()) {
    items.push(productItem({ id, name: `Product ${i}`, partCount: shape.partsPerProduct }));
    for (let k = 0; k < shape.partsPerProduct; k++) {
      items.push(partItem({ productId: id, id: `part${pad(k, 3)}`, name: `Part ${k}`, quantity: 1 + Math.floor(random() * 8) }));
    }
  }

  items.push(...catalogCounterItemsOf(defaultPlan, items));
  return {
    items,
    ids,
    counts: {
      students: students.length,
      courses: courses.length,
      enrollments,
      customers: ids.customers.length,
      orders,
      products: ids.products.length,
      parts: ids.products.length * shape.partsPerProduct,
    },
  };
}
