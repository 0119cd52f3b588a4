/**
 * `npm run seed -- --count User=1000 --per User.orders=5 --per User.groups=3
 *   [--ids Order=date] [--seed 1] [--concurrency 8]`: a data set for the
 * model SCHEMA_FILE declares (scripts/modelDataset.ts).
 *
 * The default model keeps its own flags as well: `npm run seed --
 * --students 5000 --courses 300 --enrollments-per-student 8 --customers 200
 * --orders-per-customer 12 [--products 50 --parts-per-product 6]
 * [--scale-base 50]` (scripts/dataset.ts), which is also what runs with no
 * flags at all.
 *
 * Writes the items to TABLE_NAME at DYNAMODB_ENDPOINT (a URL, or `aws`;
 * unset is refused), creating the table if it is missing. Over a table that
 * already held data, the catalog counters are recounted afterwards so that
 * they stay exact. Progress goes to stderr, a
 * summary to stdout.
 */
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo, endpointLabel } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../src/declaration/loadModel.js';
import { ModelError } from '../src/declaration/problems.js';
import { compilePlan } from '../src/plan/plan.js';
import type { Item } from '../src/dynamo/batchGet.js';
import { buildDataset } from './dataset.js';
import { buildModelDataset, shapeProblems } from './modelDataset.js';
import { isGeneric, parseModelShape, parseShape, usage } from './seedArgs.js';
import { progressBar, recountCatalogs, seedClientOptions, writeItems } from './seedTable.js';

async function main() {
  const argv = process.argv.slice(2);
  const config = loadConfig();
  const model = loadModel(config.schemaFile);
  const legacy = config.schemaFile === DEFAULT_SCHEMA_FILE && !isGeneric(argv);
  let items: Item[];
  let counts: Record<string, number>;
  let concurrency: number;
  if (legacy) {
    const parsed = parseShape(argv);
    const dataset = buildDataset(parsed.shape);
    ({ items, counts } = dataset);
    concurrency = parsed.concurrency;
  } else {
    const parsed = parseModelShape(argv);
    const plan = compilePlan(model);
    const problems = shapeProblems(plan, parsed.shape);
    if (problems.length > 0) throw new ConfigError(problems.join('\n'));
    ({ items, counts } = buildModelDataset(plan, parsed.shape));
    concurrency = parsed.concurrency;
  }
  const options = seedClientOptions(config);
  const dynamo = createDynamo(options);
  try {
    const created = await ensureTable(dynamo.raw, config.tableName, compilePlan(model).table);
    console.error(`table ${config.tableName} ${created ? 'created' : 'exists'} at ${endpointLabel(options)}`);
    const started = Date.now();
    await writeItems(dynamo.doc, config.tableName, items, { concurrency, onProgress: progressBar('seeding') });
    // The data set's counters count only its own entries; the table may hold others.
    if (!created) console.error(`catalog counters recounted: ${JSON.stringify(await recountCatalogs(dynamo.doc, config.tableName, compilePlan(model)))}`);
    console.log(JSON.stringify({ table: config.tableName, model: model.source, items: items.length, ...counts, seconds: (Date.now() - started) / 1000 }));
  } finally {
    dynamo.raw.destroy();
  }
}

main().catch((err) => {
  if (err instanceof ModelError) console.error(err.message);
  else console.error(err instanceof ConfigError ? `seed: ${err.message}\n${usage()}` : err);
  process.exit(1);
});
