/**
 * `npm run bench -- --baseline <ref>`: the plumbing that readies another
 * version of the gateway (bench/baseline.ts), driven by a fake command
 * runner that plays git and npm: a temporary worktree outside the
 * repository, this repository's node_modules linked into it, the ref's own
 * build script, the command its start:compiled script names (or tsx from
 * source when it has no build), and everything removed afterwards.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledCommand, prepareBaseline, tsxEntry, type Exec } from '../../bench/baseline.js';

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
