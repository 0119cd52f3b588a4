/**
 * `npx tsx bench/modelStartup.ts [--repeat 10] [--model big] <checkout> …`: per checkout (one twice: the
 * control), interleaved, one warm-up each, against one DynamoDB Local: `npm start` from spawn to the first
 * `/health` 200 (wall ms, and its CPU ms then, which load moves less), and in a fresh process with the
 * modules imported, loadModel + compilePlan (CPU ms) and the RSS after it. `--model big`: bench/bigModel.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startLocalDynamo } from '../src/dynamo/local.js';
import { bigModel } from './bigModel.js';
import { median } from './compare.js';
import { cpuMs } from './run.js';

const { values, positionals } = parseArgs({
  options: { repeat: { type: 'string', default: '10' }, model: { type: 'string', default: 'default' } },
  allowPositionals: true,
});
const dirs = (positionals.length ? positionals : ['.']).map((d) => resolve(d));
const schema = values.model === 'big' ? join(mkdtempSync(join(tmpdir(), 'startup-')), 'big.graphql') : null;
if (schema) writeFileSync(schema, bigModel());

async function startup(dir: string, env: NodeJS.ProcessEnv): Promise<[number, number]> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: dir, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${dir}: npm start exited with ${child.exitCode}`);
      if (
        await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        return [performance.now() - started, cpuMs(child.pid!)];
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

function build(dir: string): [number, number] {
  const code = `const { loadModel } = await import(${JSON.stringify(`${dir}/src/declaration/loadModel.ts`)});
const { compilePlan } = await import(${JSON.stringify(`${dir}/src/plan/plan.ts`)});
const c = process.cpuUsage(); compilePlan(loadModel(${JSON.stringify(schema ?? `${dir}/schema.graphql`)})); const { user, system } = process.cpuUsage(c);
console.log(JSON.stringify([(user + system) / 1000, process.memoryUsage().rss / 2 ** 20]));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${dir}: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

const local = await startLocalDynamo();
const figures = dirs.map(() => [[], [], [], []] as number[][]);
try {
  for (let round = 0; round <= Number(values.repeat); round++) {
    for (const [i, dir] of dirs.entries()) {
      const env = {
        ...process.env,
        DYNAMODB_ENDPOINT: local.endpoint,
        TABLE_NAME: `startup_${i}`,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'development',
        ...(schema ? { SCHEMA_FILE: schema } : {}),
      };
      const row = [...(await startup(dir, env)), ...build(dir)];
      if (round > 0) row.forEach((x, k) => figures[i]![k]!.push(x)); // round 0 makes the table and warms the file cache
    }
  }
} finally {
  await local.stop();
}
const cell = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(
  `model: ${values.model}, ${values.repeat} runs each\n| checkout | start-up ms | start-up CPU ms | model build CPU ms | RSS MB after build |\n|---|---:|---:|---:|---:|`,
);
for (const [i, dir] of dirs.entries()) console.log(`| ${basename(dir)} (#${i + 1}) | ${figures[i]!.map(cell).join(' | ')} |`);
