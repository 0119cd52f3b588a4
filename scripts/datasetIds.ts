/**
 * The default data set's shape and its ids (scripts/dataset.ts builds the
 * items): apart, so that a process that only needs the ids imports no model.
 */
import { pad } from './modelDataset.js';

export interface DatasetShape {
  students: number;
  courses: number;
  enrollmentsPerStudent: number;
  customers: number;
  ordersPerCustomer: number;
  products: number;
  partsPerProduct: number;
  scaleBase: number;
  seed: number;
}

/** The ids a benchmark addresses the data set's items by. */
export interface DatasetIds {
  students: string[];
  /** The courses, then the scale courses. */
  courses: string[];
  customers: string[];
  products: string[];
  /** Scale courses by factor (1, 10, 100); empty without `scaleBase`. */
  scaleCourses: Record<number, string>;
}

export const SCALE_FACTORS = [1, 10, 100] as const;

/**
 * The data set's ids alone, without building an item, for a process that
 * only sends operations. buildDataset takes its ids from here, so the two
 * cannot differ.
 */
export function datasetIds(shape: DatasetShape): DatasetIds {
  const scaleCourses: Record<number, string> = {};
  if (shape.scaleBase > 0) for (const factor of SCALE_FACTORS) scaleCourses[factor] = `scale-x${factor}`;
  return {
    students: Array.from({ length: shape.students }, (_, i) => `s${pad(i, 6)}`),
    courses: [...Array.from({ length: shape.courses }, (_, i) => `c${pad(i, 4)}`), ...Object.values(scaleCourses)],
    customers: Array.from({ length: shape.customers }, (_, i) => `cu${pad(i, 5)}`),
    products: Array.from({ length: shape.products }, (_, i) => `p${pad(i, 4)}`),
    scaleCourses,
  };
}
