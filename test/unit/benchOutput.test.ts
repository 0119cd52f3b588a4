/**
 * The benches write their results outside the tracked files: under
 * dist/bench/ (gitignored) by default, the tracked documents only with
 * `--write-docs`, and no bench writes a file except through bench/output.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, resultsPath, writeDocument, writeResult, writeSection } from '../../bench/output.js';

const temps: string[] = [];
const tempRoot = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-output-'));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function benchFiles(dir = join(REPO_ROOT, 'bench')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? benchFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('bench results', () => {
  it('go under dist/bench of the root by default, leaving the tracked document alone', () => {
    const root = tempRoot();
    const written = writeDocument('bench/results.md', 'table\n', false, root);
    expect(written).toEqual([join(root, 'dist/bench/results.md')]);
    expect(readFileSync(written[0]!, 'utf8')).toBe('table\n');
    expect(existsSync(join(root, 'bench/results.md'))).toBe(false);
  });

  it('also rewrite the tracked document when asked with --write-docs', () => {
    const root = tempRoot();
    const written = writeDocument('bench/results/hot.md', 'hot\n', true, root);
    expect(written).toEqual([join(root, 'dist/bench/results-hot.md'), join(root, 'bench/results/hot.md')]);
    expect(readFileSync(join(root, 'bench/results/hot.md'), 'utf8')).toBe('hot\n');
  });

  it('rewrite only the marked section of a tracked document with --write-docs, and refuse one without the markers', () => {
    const root = tempRoot();
    mkdirSync(join(root, 'docs'));
    const doc = join(root, 'docs/performance.md');
    writeFileSync(doc, '# Perf\n\nbefore\n<!-- bench:old-vs-new -->\nold table\n<!-- /bench:old-vs-new -->\nafter\n');
    expect(writeSection('docs/performance.md', 'old-vs-new', 'new table\n', false, root)).toEqual([join(root, 'dist/bench/old-vs-new.md')]);
    expect(readFileSync(doc, 'utf8')).toContain('old table');
    writeSection('docs/performance.md', 'old-vs-new', 'new table\n', true, root);
    expect(readFileSync(doc, 'utf8')).toBe('# Perf\n\nbefore\n<!-- bench:old-vs-new -->\nnew table\n<!-- /bench:old-vs-new -->\nafter\n');
    writeFileSync(doc, '# Perf\n');
    expect(() => writeSection('docs/performance.md', 'old-vs-new', 'x', true, root)).toThrow('has no <!-- bench:old-vs-new --> … <!-- /bench:old-vs-new --> section');
  });

  it('raw figures are written under dist/bench only', () => {
    const root = tempRoot();
    expect(writeResult('latest.json', '{}', root)).toBe(join(root, 'dist/bench/latest.json'));
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('dist/bench is ignored by git, so a default run changes no tracked file', () => {
    const root = tempRoot();
    const probe = resultsPath('probe/results.md', root).replace(`${root}/`, '');
    expect(probe).toBe('dist/bench/probe/results.md');
    // check-ignore exits 0 and prints the path when it is ignored (throws otherwise).
    expect(execFileSync('git', ['check-ignore', probe], { cwd: REPO_ROOT, encoding: 'utf8' }).trim()).toBe(probe);
  });

  it('no bench writes a file except through bench/output.ts', () => {
    const writers = /\b(writeFileSync|appendFileSync|createWriteStream|copyFileSync|cpSync|renameSync|writeFile|appendFile)\s*\(/;
    const offenders = benchFiles()
      .filter((file) => !file.endsWith('/bench/output.ts'))
      .filter((file) => writers.test(readFileSync(file, 'utf8')))
      .map((file) => file.replace(`${REPO_ROOT}/`, ''));
    expect(offenders).toEqual([]);
  });

  it('every bench that keeps a tracked document takes --write-docs', () => {
    const keepers = benchFiles().filter((file) => /writeDocument\(/.test(readFileSync(file, 'utf8')) && !file.endsWith('/bench/output.ts'));
    expect(keepers.map((f) => f.replace(`${REPO_ROOT}/bench/`, '')).sort()).toEqual(['auth.ts', 'fanOut.ts', 'hot.ts', 'run.ts']);
    for (const file of keepers) expect(readFileSync(file, 'utf8')).toContain('WRITE_DOCS_OPTION');
  });
});
