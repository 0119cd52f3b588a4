/**
 * `npm run reshard -- --course <cid> --shards <n>`
 *
 * Moves one course's enrollments and counts to a layout of n write shards
 * (1–64; 1 = unsharded) while gateways keep serving (src/writes/reshard.ts,
 * docs/sharding.md). Resumable: after an interruption run it again with the
 * same arguments. Uses TABLE_NAME at DYNAMODB_ENDPOINT and the RESHARD_*
 * settings; progress goes to stderr, a summary to stdout.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDynamo } from '../src/dynamo/client.js';
import { seedClientOptions } from './seedTable.js';
import { reshardCourse } from '../src/writes/reshard.js';

const USAGE = 'usage: npm run reshard -- --course <courseId> --shards <1-64>';

async function main() {
  let values: { course?: string; shards?: string };
  try {
    ({ values } = parseArgs({ options: { course: { type: 'string' }, shards: { type: 'string' } }, strict: true }));
  } catch {
    throw new ConfigError(USAGE);
  }
  const shards = Number(values.shards);
  if (!values.course || !Number.isInteger(shards)) throw new ConfigError(USAGE);
  const config = loadConfig();
  // The configured endpoint (a URL, or AWS); never an embedded Local, which would hold no table to reshard.
  const dynamo = createDynamo(seedClientOptions(config));
  try {
    const result = await reshardCourse({ doc: dynamo.doc, tableName: config.tableName }, values.course, shards, {
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
