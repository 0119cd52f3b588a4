import { describe, expect, it } from 'vitest';
import { buildDataset, datasetIds, DEFAULT_SHAPE, type DatasetShape } from '../../scripts/dataset.js';
import { SHAPE } from '../../bench/cases.js';

const small: DatasetShape = { ...DEFAULT_SHAPE, students: 40, courses: 7, enrollmentsPerStudent: 3, customers: 5, ordersPerCustomer: 2, products: 3, partsPerProduct: 2 };

describe('the data set ids without its items (what the measured harness sends operations with)', () => {
  it.each([
    ['the benchmark shape, with scale courses', SHAPE],
    ['the default shape, without scale courses', DEFAULT_SHAPE],
    ['a small shape with scale courses capped at its students', { ...small, scaleBase: 30 }],
  ])('are the ids the built data set addresses its items by: %s', (_, shape) => {
    const built = buildDataset(shape);
    expect(datasetIds(shape)).toEqual(built.ids);
    // Every id is a key segment of the data set's items (the courses' ids include the scale courses).
    const segments = new Set(built.items.flatMap((item) => [String(item.PK), String(item.SK)]).flatMap((key) => key.split('#')));
    const { students, courses, customers, products } = datasetIds(shape);
    expect([...students, ...courses, ...customers, ...products].filter((id) => !segments.has(id))).toEqual([]);
  });

  it('has the scale courses by factor only when the shape asks for them', () => {
    expect(datasetIds({ ...small, scaleBase: 0 }).scaleCourses).toEqual({});
    expect(datasetIds({ ...small, scaleBase: 5 }).scaleCourses).toEqual({ 1: 'scale-x1', 10: 'scale-x10', 100: 'scale-x100' });
  });
});
