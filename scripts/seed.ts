/**
 * `npm run seed -- --students 5000 --courses 300 --enrollments-per-student 8
 *   --customers 200 --orders-per-customer 12 [--products 50 --parts-per-product 6]
 *   [--scale-base 50] [--seed 1] [--concurrency 8]`
 *
 * Writes a synthetic data set (scripts/dataset.ts) in the table layout
 * to TABLE_NAME at DYNAMODB_ENDPOINT (a URL, or `aws`; unset is refused),
 * creating the table if it is missing. Over a table that already held
 * data, the catalog counters are recounted afterwards so that they stay
 * exact. Progress goes to stderr, a summary to stdout.
 */
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo, endpointLabel } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { buildDataset } from './dataset.js';
import { parseShape, usage } from './seedArgs.js';
import { progressBar, recountCatalogs, seedClientOptions, writeItems } from './seedTable.js';

async function main() {
  const { shape, concurrency } = parseShape(process.argv.slice(2));
  const config = loadConfig();
  const options = seedClientOptions(config);
  const dynamo = createDynamo(options);
  try {
    const created = await ensureTable(dynamo.raw, config.tableName);
    console.error(`table ${config.tableName} ${created ? 'created' : 'exists'} at ${endpointLabel(options)}`);
    const dataset = buildDataset(shape);
    const started = Date.now();
    await writeItems(dynamo.doc, config.tableName, dataset.items, { concurrency, onProgress: progressBar('seeding') });
    // The data set's counters count only its own entries; the table may hold others.
    if (!created) console.error(`catalog counters recounted: ${JSON.stringify(await recountCatalogs(dynamo.doc, config.tableName))}`);
    console.log(JSON.stringify({ table: config.tableName, items: dataset.items.length, ...dataset.counts, seconds: (Date.now() - started) / 1000 }));
  } finally {
    dynamo.raw.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `seed: ${err.message}\n${usage()}` : err);
  process.exit(1);
});
