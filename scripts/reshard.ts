/**
 * `npm run reshard -- --<type> <id> --shards <n>` (default model:
 * `--course <cid>`), or `npm run reshard -- --type <Type> --id <id> --shards <n>`
 *
 * Moves the edges and counts of one item of a type with a write-sharded
 * relation to a layout of n write shards (1–max; 1 = unsharded) while
 * gateways keep serving (src/writes/reshard.ts, docs/sharding.md). The flag
 * `--<type>` is the lower-cased name of each such type of the model in
 * SCHEMA_FILE. Resumable: after an interruption run it again with the same
 * arguments. Uses TABLE_NAME at DYNAMODB_ENDPOINT and the RESHARD_*
 * settings; progress goes to stderr, a summary to stdout.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo } from '../src/dynamo/client.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';
import { seedClientOptions } from './seedTable.js';
import { reshard } from '../src/writes/reshard.js';

async function main() {
  const config = loadConfig();
  const plan = compilePlan(loadModel(config.schemaFile));
  // The types with a write-sharded relation (@edges(shards)), by their flag.
  const sharded = new Map([...plan.items.values()].filter((item) => plan.shardedOf(item.name) !== null).map((item) => [item.name.toLowerCase(), item.name]));
  const flags = [...sharded.keys()].map((flag) => `--${flag} <id>`).join(' | ');
  const USAGE = `usage: npm run reshard -- (${flags ? `${flags} | ` : ''}--type <Type> --id <id>) --shards <n>`;
  const options: Record<string, { type: 'string' }> = { type: { type: 'string' }, id: { type: 'string' }, shards: { type: 'string' } };
  for (const flag of sharded.keys()) options[flag] = { type: 'string' };
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ options, strict: true }) as { values: Record<string, string | undefined> });
  } catch {
    throw new ConfigError(USAGE);
  }
  const byFlag = [...sharded].filter(([flag]) => values[flag] !== undefined);
  const target =
    values.type !== undefined && values.id !== undefined && byFlag.length === 0
      ? { type: values.type, id: values.id }
      : values.type === undefined && values.id === undefined && byFlag.length === 1
        ? { type: byFlag[0]![1], id: values[byFlag[0]![0]]! }
        : null;
  const shards = Number(values.shards);
  if (!target || !Number.isInteger(shards)) throw new ConfigError(USAGE);
  // The configured endpoint (a URL, or AWS); never an embedded Local, which would hold no table to reshard.
  const dynamo = createDynamo(seedClientOptions(config));
  try {
    const result = await reshard({ doc: dynamo.doc, tableName: config.tableName, plan }, target.type, target.id, shards, {
      ...config.reshard,
      onProgress: ({ moved, sweep }) => console.error(`sweep ${sweep}: ${moved} edges moved`),
      onStep: (step) => console.error(`step done: ${step}`),
    });
    console.log(JSON.stringify(result));
  } finally {
    dynamo.raw.destroy();
  }
}

main().catch((err) => {
  console.error(`reshard: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
