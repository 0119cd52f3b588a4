/** Command-line flags of `npm run seed` → a data set shape. */
import { parseArgs } from 'node:util';
import { ConfigError } from '../src/config.js';
import { DEFAULT_SHAPE, type DatasetShape } from './dataset.js';

const OPTIONS: Record<string, keyof DatasetShape> = {
  students: 'students',
  courses: 'courses',
  'enrollments-per-student': 'enrollmentsPerStudent',
  customers: 'customers',
  'orders-per-customer': 'ordersPerCustomer',
  products: 'products',
  'parts-per-product': 'partsPerProduct',
  'scale-base': 'scaleBase',
  seed: 'seed',
};

export function usage(): string {
  const lines = Object.entries(OPTIONS).map(([flag, key]) => `  --${flag} <n>  (default ${DEFAULT_SHAPE[key]})`);
  return ['usage: npm run seed -- [options]', ...lines, '  --concurrency <n>  BatchWriteItem calls in flight (default 8)', 'env: DYNAMODB_ENDPOINT, TABLE_NAME, AWS_REGION'].join('\n');
}

export function parseShape(argv: string[]): { shape: DatasetShape; concurrency: number } {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' }, concurrency: { type: 'string' } };
  for (const flag of Object.keys(OPTIONS)) options[flag] = { type: 'string' };
  const values = parseArgs({ args: argv, options, strict: true }).values as Record<string, string | boolean | undefined>;
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const int = (flag: string, fallback: number) => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new ConfigError(`--${flag} must be a non-negative integer; got "${raw}"`);
    return n;
  };
  const shape = { ...DEFAULT_SHAPE };
  for (const [flag, key] of Object.entries(OPTIONS)) shape[key] = int(flag, DEFAULT_SHAPE[key]);
  return { shape, concurrency: Math.max(1, int('concurrency', 8)) };
}

