/**
 * Command-line flags of `npm run seed`.
 *
 * Any model (SCHEMA_FILE): `--count <Type>=<n>` items of a top-level type,
 * `--per <Owner.field>=<n>` children or edges per owner item, `--ids
 * <Type>=seq|ulid|date`, each repeatable (scripts/modelDataset.ts).
 * The default model also keeps its own flags (`--students 5000 --courses
 * 300 …`, scripts/dataset.ts); they cannot be mixed with the generic ones.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../src/config.js';
import { DEFAULT_SHAPE, type DatasetShape } from './dataset.js';
import { DEFAULT_COUNT, DEFAULT_PER, ID_STYLES, type IdStyle, type ModelShape } from './modelDataset.js';

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
const GENERIC = ['count', 'per', 'ids'] as const;

export function usage(): string {
  const lines = Object.entries(OPTIONS).map(([flag, key]) => `  --${flag} <n>  (default ${DEFAULT_SHAPE[key]})`);
  return [
    'usage: npm run seed -- [options]',
    'any model (SCHEMA_FILE):',
    `  --count <Type>=<n>         items of a top-level @item type (default ${DEFAULT_COUNT} each); repeatable`,
    `  --per <Owner.field>=<n>    children or edges per owner item (default ${DEFAULT_PER}); repeatable`,
    `  --ids <Type>=${ID_STYLES.join('|')}  how ids are made (default seq for top-level types, ulid for children)`,
    '  --seed <n>                 (default 1)',
    'the default model only (not mixed with the flags above):',
    ...lines,
    '  --concurrency <n>  BatchWriteItem calls in flight (default 8)',
    'env: SCHEMA_FILE, DYNAMODB_ENDPOINT, TABLE_NAME, AWS_REGION',
  ].join('\n');
}

type Values = Record<string, string | boolean | string[] | undefined>;

function readValues(argv: string[]): Values {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' }, concurrency: { type: 'string' } };
  for (const flag of Object.keys(OPTIONS)) options[flag] = { type: 'string' };
  for (const flag of GENERIC) options[flag] = { type: 'string', multiple: true };
  let values: Values;
  try {
    values = parseArgs({ args: argv, options, strict: true }).values as Values;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  return values;
}

const integer = (flag: string, raw: string): number => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0) throw new ConfigError(`--${flag} must be a non-negative integer; got "${raw}"`);
  return n;
};

const int = (values: Values, flag: string, fallback: number) => {
  const raw = values[flag];
  return raw === undefined ? fallback : integer(flag, String(raw));
};

/** Do these flags ask for the generic (any model) data set? */
export function isGeneric(argv: string[]): boolean {
  const values = readValues(argv);
  return GENERIC.some((flag) => values[flag] !== undefined);
}

/** The default model's shape (its own flags). */
export function parseShape(argv: string[]): { shape: DatasetShape; concurrency: number } {
  const values = readValues(argv);
  const generic = GENERIC.find((flag) => values[flag] !== undefined);
  if (generic) throw new ConfigError(`--${generic} cannot be mixed with the default model's own flags`);
  const shape = { ...DEFAULT_SHAPE };
  for (const [flag, key] of Object.entries(OPTIONS)) shape[key] = int(values, flag, DEFAULT_SHAPE[key]);
  return { shape, concurrency: Math.max(1, int(values, 'concurrency', 8)) };
}

/** A shape for any model: `--count Type=n`, `--per Owner.field=n`, `--ids Type=style`, `--seed n`. */
export function parseModelShape(argv: string[]): { shape: ModelShape; concurrency: number } {
  const values = readValues(argv);
  const own = Object.keys(OPTIONS).find((flag) => flag !== 'seed' && values[flag] !== undefined);
  if (own) throw new ConfigError(`--${own} is a flag of the default model's data set; for any model give --count <Type>=<n> and --per <Owner.field>=<n>`);
  const pairs = (flag: (typeof GENERIC)[number]) =>
    ((values[flag] as string[] | undefined) ?? []).map((entry) => {
      const at = entry.indexOf('=');
      if (at <= 0) throw new ConfigError(`--${flag} expects <name>=<value>; got "${entry}"`);
      return [entry.slice(0, at), entry.slice(at + 1)] as const;
    });
  const counts: Record<string, number> = {};
  for (const [type, n] of pairs('count')) counts[type] = integer(`count ${type}`, n);
  const per: Record<string, number> = {};
  for (const [path, n] of pairs('per')) {
    if (!/^[_A-Za-z]\w*\.[_A-Za-z]\w*$/.test(path)) throw new ConfigError(`--per expects <Owner.field>=<n>; got "${path}"`);
    per[path] = integer(`per ${path}`, n);
  }
  const ids: Record<string, IdStyle> = {};
  for (const [type, style] of pairs('ids')) {
    if (!ID_STYLES.includes(style as IdStyle)) throw new ConfigError(`--ids ${type}: expected one of ${ID_STYLES.join(', ')}; got "${style}"`);
    ids[type] = style as IdStyle;
  }
  return { shape: { counts, per, ids, seed: int(values, 'seed', 1) }, concurrency: Math.max(1, int(values, 'concurrency', 8)) };
}
