import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset, DEFAULT_SHAPE, type Dataset } from '../../scripts/dataset.js';
import { parseShape } from '../../scripts/seedArgs.js';
import { writeItems } from '../../scripts/seedTable.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

const shape = {
  ...DEFAULT_SHAPE,
  students: 40,
  courses: 6,
  enrollmentsPerStudent: 3,
  customers: 4,
  ordersPerCustomer: 5,
  products: 2,
  partsPerProduct: 3,
  scaleBase: 2,
};

let gw: TestGateway;
let dataset: Dataset;
let stored: Item[];
const progress: number[] = [];
beforeAll(async () => {
  gw = await testGateway();
  dataset = buildDataset(shape);
  await writeItems(gw.dynamo.doc, gw.tableName, dataset.items, { concurrency: 3, onProgress: (done) => progress.push(done) });
  // The layout record is the table's, written when it was created, not the data set's.
  stored = (await gw.scan()).filter((i) => i.PK !== 'LAYOUT');
});
afterAll(() => gw?.stop());

const childrenOf = (pk: string, prefix: string) => stored.filter((i) => i.PK === pk && String(i.SK).startsWith(prefix)).length;

describe('seeding a synthetic data set', () => {
  it('writes every item, reporting progress up to the total', () => {
    expect(stored).toHaveLength(dataset.items.length);
    expect(progress.at(-1)).toBe(dataset.items.length);
    expect(dataset.counts).toMatchObject({ students: 40, courses: 6 + 3, customers: 4, orders: 20, parts: 6 });
    expect(dataset.counts.enrollments).toBe(40 * 3 + 2 + 20 + 40);
  });

  it('keeps every counter equal to the children stored', () => {
    const profiles = stored.filter((item) => item.SK === 'PROFILE');
    const products = stored.filter((item) => item.SK === 'PRODUCT');
    const holding = (counter: string) => profiles.filter((item) => counter in item);
    // Each kind of counter is there to check: students' courses, customers' orders, courses' students, products' parts.
    expect([holding('courseCount').length, holding('orderCount').length, holding('studentCount').length, products.length]).toEqual([40, 4, 9, 2]);
    for (const item of holding('courseCount')) expect(item.courseCount).toBe(childrenOf(String(item.PK), 'COURSE#'));
    for (const item of holding('orderCount')) expect(item.orderCount).toBe(childrenOf(String(item.PK), 'ORDER#'));
    for (const item of products) expect(item.partCount).toBe(childrenOf(String(item.PK), 'PART#'));
    for (const item of holding('studentCount')) {
      expect(item.studentCount).toBe(stored.filter((e) => e.GSI1PK === item.PK && String(e.GSI1SK).startsWith('STUDENT#')).length);
    }
  });

  it('keeps the denormalized copies equal to the entities', () => {
    const byKey = new Map(stored.map((i) => [`${i.PK}|${i.SK}`, i]));
    for (const edge of stored.filter((i) => String(i.PK).startsWith('STUDENT#') && String(i.SK).startsWith('COURSE#'))) {
      expect(edge.studentName).toBe(byKey.get(`${edge.PK}|PROFILE`)?.name);
      expect(edge.courseTitle).toBe(byKey.get(`${edge.SK}|PROFILE`)?.title);
    }
  });

  it('reads back through the gateway with the stored counters', async () => {
    const { result } = await gw.counted(`{ course(id: "${dataset.ids.scaleCourses[10]}") { students(first: 5) { totalCount edges { node { name } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.course.students.totalCount).toBe(20);
  });

  it('builds the same items from the same seed', () => {
    expect(buildDataset(shape).items).toEqual(dataset.items);
  });
});

describe('seed command-line flags', () => {
  it('reads the shape from flags and keeps defaults for the rest', () => {
    const { shape: parsed, concurrency } = parseShape(['--students', '12', '--orders-per-customer', '3', '--concurrency', '2']);
    expect(parsed).toMatchObject({ students: 12, ordersPerCustomer: 3, courses: DEFAULT_SHAPE.courses });
    expect(concurrency).toBe(2);
  });

  it('refuses a count that is not a non-negative integer', () => {
    expect(() => parseShape(['--students', 'many'])).toThrow(/--students must be a non-negative integer/);
  });
});
