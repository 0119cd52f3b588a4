/**
 * `npm run bench -- --baseline <ref>`: the plumbing that readies another
 * version of the gateway (bench/baseline.ts), driven by a fake command
 * runner that plays git and npm: a temporary worktree outside the
 * repository, this repository's node_modules linked into it, the ref's own
 * build script, the command its start:compiled script names (or tsx from
 * source when it has no build), and everything removed afterwards; the
 * replay harness each version bundles itself; and the rule that turns a
 * row's per-round (or per-pair) ratios new ÷ old into its verdict.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledCommand, prepareBaseline, replayHarness, tsxEntry, type Exec } from '../../bench/baseline.js';
import { verdict } from '../../bench/compare.js';
import { opsFor, pairOrder, parseSummary, perOperation } from '../../bench/replay.js';

const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with one installed package, and a fake git/npm that writes what the real ones would. */
function fixture(scripts: Record<string, string>, opts: { buildWrites?: string; pins?: Record<string, string> } = {}) {
  const repo = temp('bench-repo-');
  mkdirSync(join(repo, 'node_modules/graphql'), { recursive: true });
  writeFileSync(join(repo, 'node_modules/graphql/package.json'), JSON.stringify({ version: '16.15.0' }));
  const calls: string[] = [];
  const exec: Exec = async (command, args, { cwd }) => {
    calls.push(`${cwd === repo ? 'repo' : cwd.endsWith('/tree') ? 'tree' : cwd}: ${command} ${args.join(' ')}`);
    if (command === 'git' && args[0] === 'rev-parse') {
      if (args[2] !== 'v1^{commit}') throw new Error(`fatal: Needed a single revision`);
      return 'abc123def4567890\n';
    }
    if (command === 'git' && args[0] === 'worktree' && args[1] === 'add') {
      const dir = args[3]!;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts, dependencies: opts.pins ?? { graphql: '16.15.0' } }));
    }
    if (command === 'git' && args[0] === 'worktree' && args[1] === 'remove') rmSync(args[3]!, { recursive: true, force: true });
    if (command === 'npm' && args.join(' ') === 'run build' && opts.buildWrites) {
      const file = join(cwd, opts.buildWrites);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '// bundle');
    }
    return '';
  };
  return { repo, tmp: temp('bench-tmp-'), exec, calls };
}

describe('the baseline of a bench run', () => {
  it('is built by its own build script in a worktree outside the repository, with node_modules linked, and runs what start:compiled names', async () => {
    const f = fixture(
      { build: 'tsx scripts/build-server.ts', 'start:compiled': 'npm run build && node --enable-source-maps dist/server/src/transport/main.mjs' },
      { buildWrites: 'dist/server/src/transport/main.mjs' },
    );
    const baseline = await prepareBaseline('v1', { repo: f.repo, tmp: f.tmp, exec: f.exec });
    expect(baseline.commit).toBe('abc123def4567890');
    expect(baseline.dir.startsWith(f.tmp)).toBe(true);
    expect(baseline.dir.startsWith(f.repo)).toBe(false);
    expect(lstatSync(join(baseline.dir, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(baseline.dir, 'node_modules'))).toBe(join(f.repo, 'node_modules'));
    expect(baseline.how).toBe('bundle');
    expect(baseline.command).toEqual(['--enable-source-maps', join(baseline.dir, 'dist/server/src/transport/main.mjs')]);
    expect(baseline.dependencyDrift).toEqual([]);
    expect(f.calls).toEqual([
      'repo: git rev-parse --verify v1^{commit}',
      `repo: git worktree add --detach ${baseline.dir} abc123def4567890`,
      'tree: npm run build',
    ]);

    await baseline.cleanup();
    expect(f.calls.slice(3)).toEqual([`repo: git worktree remove --force ${baseline.dir}`, 'repo: git worktree prune']);
    expect(existsSync(baseline.dir)).toBe(false);
    expect(existsSync(join(baseline.dir, '..'))).toBe(false);
  });

  it('runs from source through tsx when the ref has no build script', async () => {
    const f = fixture({ start: 'tsx src/main.ts' });
    const baseline = await prepareBaseline('v1', { repo: f.repo, tmp: f.tmp, exec: f.exec });
    expect(baseline.how).toBe('tsx');
    expect(baseline.command).toEqual(['--import', 'tsx', join(baseline.dir, 'src/main.ts')]);
    expect(f.calls.some((c) => c.includes('npm run build'))).toBe(false);
    await baseline.cleanup();
  });

  it('names the packages the ref pins at versions other than the installed ones', async () => {
    const f = fixture({ start: 'tsx src/main.ts' }, { pins: { graphql: '16.11.0', ulid: '3.0.2' } });
    const baseline = await prepareBaseline('v1', { repo: f.repo, tmp: f.tmp, exec: f.exec });
    expect(baseline.dependencyDrift).toEqual(['graphql 16.11.0→16.15.0', 'ulid 3.0.2→missing']);
    await baseline.cleanup();
  });

  it('refuses a ref that names no commit, leaving nothing behind', async () => {
    const f = fixture({ start: 'tsx src/main.ts' });
    await expect(prepareBaseline('nope', { repo: f.repo, tmp: f.tmp, exec: f.exec })).rejects.toThrow('Needed a single revision');
    expect(f.calls).toEqual(['repo: git rev-parse --verify nope^{commit}']);
  });

  it('refuses a build that does not write the file start:compiled names, and removes the worktree', async () => {
    const f = fixture({ build: 'tsx scripts/build.ts', 'start:compiled': 'node dist/main.mjs' });
    await expect(prepareBaseline('v1', { repo: f.repo, tmp: f.tmp, exec: f.exec })).rejects.toThrow('did not write');
    expect(f.calls.at(-2)).toMatch(/^repo: git worktree remove --force /);
    expect(readdirSync(f.tmp)).toEqual([]);
  });
});

describe('reading the scripts', () => {
  it('takes the Node flags and entry of a compiled start', () => {
    expect(compiledCommand('npm run build && node --enable-source-maps dist/server/src/transport/main.mjs')).toEqual([
      '--enable-source-maps',
      'dist/server/src/transport/main.mjs',
    ]);
    expect(compiledCommand('node dist/main.js')).toEqual(['dist/main.js']);
    // This checkout's own: npm's shell hands its process over (exec), so a signal to npm reaches the gateway.
    expect(compiledCommand('npm run build && exec node --enable-source-maps dist/server/src/transport/main.mjs')).toEqual([
      '--enable-source-maps',
      'dist/server/src/transport/main.mjs',
    ]);
    expect(compiledCommand('tsx src/main.ts')).toBeNull();
    expect(compiledCommand(undefined)).toBeNull();
  });

  it('takes the entry of a tsx start', () => {
    expect(tsxEntry('tsx src/main.ts')).toBe('src/main.ts');
    expect(tsxEntry('node --import tsx src/main.ts')).toBe('src/main.ts');
    expect(tsxEntry('node dist/main.mjs')).toBeNull();
  });
});

describe('the replay harness of a version', () => {
  const checkout = (files: Record<string, string>) => {
    const dir = temp('bench-checkout-');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const CPU_WITH_REPLAY = "parseArgs({ options: { replay: { type: 'boolean', default: false } } })";
  const BUNDLER = 'export async function bundle({ entry, outDir, name }) {}';

  it('is bench/cpu.ts bundled by the version\'s own scripts/bundle.ts, run from the version\'s directory', async () => {
    const dir = checkout({ 'bench/cpu.ts': CPU_WITH_REPLAY, 'scripts/bundle.ts': BUNDLER });
    const outDir = join(dir, 'dist/bench/cpu-old');
    const calls: string[] = [];
    const exec: Exec = async (command, args, { cwd }) => {
      calls.push(`${cwd === dir ? 'checkout' : cwd}: ${args.slice(0, 2).join(' ')}`);
      const file = join(outDir, 'src/transport/cpu.mjs');
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, '// bundle');
      return `${file}\n`;
    };
    const harness = await replayHarness(dir, outDir, { exec, what: 'the baseline' });
    expect(harness).toEqual({ command: ['--enable-source-maps', join(outDir, 'src/transport/cpu.mjs')], how: 'bundle' });
    expect(calls).toEqual(['checkout: --import tsx']);
  });

  it('is missing, with the reason, for a version whose bench/cpu.ts has no --replay or that has no bench/cpu.ts', async () => {
    const exec: Exec = async () => {
      throw new Error('nothing should run');
    };
    const old = checkout({ 'bench/cpu.ts': "parseArgs({ options: { ops: { type: 'string' } } })", 'scripts/bundle.ts': BUNDLER });
    expect(await replayHarness(old, join(old, 'out'), { exec, what: 'the baseline v0' })).toEqual({ missing: "the baseline v0's bench/cpu.ts has no --replay" });
    const older = checkout({ 'scripts/bundle.ts': BUNDLER });
    expect(await replayHarness(older, join(older, 'out'), { exec, what: 'the baseline v-1' })).toEqual({ missing: 'the baseline v-1 has no bench/cpu.ts' });
  });

  it('runs bench/cpu.ts through tsx when the version has no bundle()', async () => {
    const dir = checkout({ 'bench/cpu.ts': CPU_WITH_REPLAY });
    const harness = await replayHarness(dir, join(dir, 'out'), { what: 'the baseline' });
    expect(harness).toEqual({ command: ['--import', 'tsx', join(dir, 'bench/cpu.ts')], how: 'tsx' });
  });

  it('reads the summary line bench/cpu.ts prints, and requests per operation from the warm-up\'s counts', () => {
    expect(parseSummary('gateway v24.1.0 nested: 300 ops in 812 ms, process CPU 1620 ms, measured CPU 407 ms (1.357 ms/op), 0 failed\n')).toEqual({ ops: 300, measuredMs: 407, failed: 0 });
    expect(parseSummary('Error: no case matches x')).toBeNull();
    expect(perOperation({ Query: 352, BatchGetItem: 32 }, 32)).toEqual({ BatchGetItem: 1, Query: 11 });
    // A replay that missed sends requests in the measured part too: the count no longer divides evenly.
    expect(perOperation({ GetItem: 40 }, 32)).toEqual({ GetItem: 1.25 });
  });

  it('rotates the sides from one pair to the next and sizes the runs from a calibration', () => {
    expect([0, 1, 2, 3].map((i) => pairOrder(['old', 'new', 'big'], i).join(' '))).toEqual(['old new big', 'new big old', 'big old new', 'old new big']);
    expect(pairOrder(['old', 'new'], 1)).toEqual(['new', 'old']);
    expect(opsFor(0.1, 400)).toBe(4000);
    expect(opsFor(3, 400)).toBe(133);
    expect(opsFor(40, 400)).toBe(50);
    expect(opsFor(NaN, 400)).toBe(500);
  });
});

describe('the verdict of a row, from its rounds', () => {
  const row = (ratios: number[], same = { sameRequests: true, sameAnswer: true }) => verdict({ ...same, ratios }, 0.05);

  it('passes a row only when every round is within 5%', () => {
    expect(row([0.98, 1.02, 1.04, 1.05])).toMatchObject({ kind: 'within', pass: true, text: 'within 5%' });
    expect(row([0.9, 0.97, 1.01])).toMatchObject({ kind: 'within', pass: true, text: 'within 5% (3% less)' });
  });

  it('says "less" when every round is below 0.95, and "more" when every round is above 1.05', () => {
    expect(row([0.7, 0.8, 0.9])).toMatchObject({ kind: 'less', pass: true, text: '20% less' });
    expect(row([1.06, 1.2, 1.3, 2.1])).toMatchObject({ kind: 'more', pass: false, text: '**25% more**' });
  });

  it('calls a row whose rounds straddle 1.05 noise: "within noise" by a median at most 1.05, never a pass', () => {
    expect(row([0.87, 1.0, 1.29, 1.02])).toMatchObject({ kind: 'noise, within', pass: false, text: 'within noise (median 1% more)' });
    expect(row([0.8, 0.9, 1.2])).toMatchObject({ kind: 'noise, within', text: 'within noise (median 10% less)' });
    expect(row([0.99, 1.12, 1.15, 1.86])).toMatchObject({ kind: 'noise, more', pass: false, text: '**14% more by the median** (not every round)' });
  });

  it('gives the median and the range it decided on', () => {
    expect(row([1.2, 1.0, 1.1])).toMatchObject({ median: 1.1, low: 1.0, high: 1.2 });
  });

  it('never calls a row equal when its requests or answers differ, however close the rounds', () => {
    expect(row([1, 1, 1], { sameRequests: false, sameAnswer: true })).toMatchObject({ kind: 'not comparable', pass: false });
    expect(row([1, 1, 1], { sameRequests: true, sameAnswer: false })).toMatchObject({ kind: 'not comparable', pass: false });
  });

  it('gives no verdict when fewer than half the rounds completed an operation, and decides on the rest otherwise', () => {
    expect(row([NaN, NaN, Infinity, 1.0])).toMatchObject({ kind: 'not measured', pass: false, text: 'not measured' });
    expect(row([])).toMatchObject({ kind: 'not measured' });
    expect(row([NaN, 1.01, 1.03, 0.99])).toMatchObject({ kind: 'within', median: 1.01 });
  });

  it('claims nothing from fewer than 3 rounds, however they agree', () => {
    expect(row([0.5])).toMatchObject({ kind: 'too few rounds', pass: false, text: 'too few rounds (1; median 0.50)' });
    expect(row([1.0, 1.01])).toMatchObject({ kind: 'too few rounds', pass: false });
    expect(row([1.0, 1.01, 1.02])).toMatchObject({ kind: 'within', pass: true });
  });
});
