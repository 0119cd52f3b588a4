/**
 * `npm run migrate -- [--dry-run] [--segments 4] [--write-units 100] [--page-size 200] [--restart]`
 *
 * Brings the items of TABLE_NAME at DYNAMODB_ENDPOINT (AWS itself when
 * unset) up to the layout the model in SCHEMA_FILE declares
 * (src/migration/migrate.ts, layoutFix.ts): adds GSI2 to an older table,
 * then the GSI2 entries of @catalog types and types keyed by instant, the catalog
 * counters, GSI1 keys of inverted items and edges that lack them, the copies
 * and shard-count copies edges lack, and the counters items lack. Safe to interrupt and run again: it
 * resumes from its checkpoints. Progress with an ETA goes to stderr, a JSON
 * summary to stdout. Defaults of the flags: MIGRATE_SEGMENTS,
 * MIGRATE_WRITE_UNITS_PER_SECOND (src/config.ts).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo, endpointLabel } from '../src/dynamo/client.js';
import { runMigration } from '../src/migration/migrate.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { ModelError } from '../src/declaration/problems.js';
import { compilePlan } from '../src/plan/plan.js';
import { progressBar, seedClientOptions } from './seedTable.js';

const USAGE = `usage: npm run migrate -- [options]
  --dry-run            scan and report what would change; write nothing
  --segments <n>       parallel Scan segments (default MIGRATE_SEGMENTS, 4); a resumed run keeps its own
  --write-units <n>    write capacity units per second (default MIGRATE_WRITE_UNITS_PER_SECOND, 100)
  --page-size <n>      items per Scan page and checkpoint (default 200)
  --restart            ignore an unfinished run's checkpoints and start over
env: SCHEMA_FILE (the model), DYNAMODB_ENDPOINT (unset: AWS), TABLE_NAME, AWS_REGION`;

function positive(values: Record<string, unknown>, flag: string, fallback: number): number {
  const raw = values[flag];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--${flag} must be a positive integer; got "${raw}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      help: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      restart: { type: 'boolean' },
      segments: { type: 'string' },
      'write-units': { type: 'string' },
      'page-size': { type: 'string' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const plan = compilePlan(loadModel(config.schemaFile));
  const options = seedClientOptions(config);
  const dynamo = createDynamo(options);
  console.error(`migrating table ${config.tableName} at ${endpointLabel(options)}`);
  const bar = progressBar(values['dry-run'] ? 'migrate (dry run)' : 'migrate');
  try {
    const result = await runMigration({
      raw: dynamo.raw,
      doc: dynamo.doc,
      tableName: config.tableName,
      plan,
      segments: positive(values, 'segments', config.catalog.migrateSegments),
      writeUnitsPerSecond: positive(values, 'write-units', config.catalog.migrateWriteUnitsPerSecond),
      pageSize: positive(values, 'page-size', 200),
      dryRun: values['dry-run'] === true,
      restart: values.restart === true,
      // ItemCount is approximate: never let the bar claim more than it knows.
      onProgress: (p) => bar(p.scanned, Math.max(p.estimatedTotal, p.scanned + (p.segmentsDone < p.segments ? 1 : 0))),
    });
    console.log(JSON.stringify({ table: config.tableName, dryRun: values['dry-run'] === true, ...result }));
  } finally {
    dynamo.raw.destroy();
  }
}

main().catch((err) => {
  if (err instanceof ModelError) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err instanceof ConfigError || (err as Error)?.name === 'TypeError' ? `migrate: ${(err as Error).message}\n${USAGE}` : err);
  process.exit(1);
});
