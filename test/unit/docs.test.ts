/**
 * The repository documents itself: README is a map whose layout names what
 * is in src/, the documents link only to files that exist, and no file
 * points outside the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

const markdown = ['README.md', ...filesUnder('docs').filter((f) => f.endsWith('.md'))];

/**
 * The paths a Layout map names. A line at the left margin names paths
 * (`src/config.ts`, a folder `src/plan/`, several separated by spaces or
 * commas) before its description; a line indented by two names files of
 * the folder above (`  itemPlan.ts`, `  plugins/combine.ts`,
 * `  create.ts update.ts`); deeper lines continue a description. The names
 * are the leading words that are paths (a name with an extension, or a
 * folder ending in `/`) before two spaces.
 */
function layoutMap(markdown: string): Set<string> {
  const block = markdown.slice(markdown.indexOf('## Layout')).split('```')[1] ?? '';
  const named = new Set<string>();
  const isPath = (word: string) => /^[\w.+-]+(\/[\w.+-]+)*(\/|\.[a-z]+)$/.test(word);
  let folder = '';
  for (const line of block.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    if (indent > 2 || line.trim() === '') continue;
    // The name column ends where two spaces begin the description; within it, a description may follow one space.
    const words = line.trim().split(/ {2,}/)[0]!.split(/[ ,]+/);
    const stop = words.findIndex((w) => !isPath(w));
    const names = stop === -1 ? words : words.slice(0, stop);
    for (const name of names) {
      if (indent === 0 && name.endsWith('/')) folder = name;
      named.add(indent === 0 ? name : folder + name);
    }
  }
  return named;
}

describe('README', () => {
  const readme = read('README.md');

  it('names the two commands', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('names every file and folder at the top of src/ in its layout map', () => {
    const entries = readdirSync(join(root, 'src')).map((name) => (statSync(join(root, 'src', name)).isDirectory() ? `src/${name}/` : `src/${name}`));
    const missing = entries.filter((entry) => !readme.includes(entry));
    expect(missing).toEqual([]);
  });

  it('stays a map, not a manual', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('the documentation', () => {
  it("links every document of docs/ from the README's documentation table", () => {
    const readme = read('README.md');
    const missing = filesUnder('docs')
      .filter((f) => f.endsWith('.md') && f !== join('docs', 'README.md'))
      .filter((f) => !readme.includes(`](${f})`));
    expect(missing).toEqual([]);
  });

  it("maps every file of src/ and scripts/ in docs/architecture.md's Layout, and no file that is gone", () => {
    const named = layoutMap(read('docs/architecture.md'));
    const files = [...filesUnder('src'), ...filesUnder('scripts')];
    const missing = files
      .filter((f) => !named.has(f))
      .map((f) => {
        const folder = `${dirname(f)}/`;
        const line = named.has(folder) ? `  ${f.slice(folder.length)}` : f;
        return `docs/architecture.md's Layout lacks ${f}: add the line "${line.padEnd(28)}<what it holds>"${named.has(folder) ? ` under ${folder}` : ''}`;
      });
    expect(missing).toEqual([]);
    const gone = [...named].filter((n) => /^(src|scripts)\//.test(n) && !n.endsWith('/') && !files.includes(n));
    expect(gone.map((n) => `docs/architecture.md's Layout names ${n}, which does not exist: remove or rename its line`)).toEqual([]);
  });

  it('links only to files that exist in the repository', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const [, target] of read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // an absolute URL, not a file
        const path = resolve(join(root, dirname(file)), target!);
        if (!path.startsWith(root + '/') || !existsSync(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('cites only sections that exist: every #anchor of a link is a heading of its target', () => {
    // GitHub's heading anchors: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens.
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const anchorsOf = (path: string) => {
      const seen = new Map<string, number>();
      const out = new Set<string>();
      for (const [, heading] of readFileSync(path, 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .matchAll(/^#{1,6}\s+(.+)$/gm)) {
        const base = slug(heading!);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        out.add(n === 0 ? base : `${base}-${n}`);
      }
      return out;
    };
    const missing: string[] = [];
    for (const file of markdown) {
      for (const [, target, anchor] of read(file).matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const path = target ? resolve(join(root, dirname(file)), target) : join(root, file);
        if (!path.endsWith('.md') || !existsSync(path)) continue;
        if (!anchorsOf(path).has(decodeURIComponent(anchor!))) missing.push(`${file} → ${target}#${anchor}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the repository', () => {
  it('refers to nothing outside itself: no external contract files, shared folders or issue numbers', () => {
    const outside = [/CONTRACT\.md/, /\bshared\//, /\bissue \d/i, /\bissue\s#/i];
    const files = [...['src', 'test', 'infra', 'scripts', 'bench', 'docs'].flatMap(filesUnder), 'README.md'].filter(
      (f) => /\.(ts|md|ya?ml|json)$/.test(f) && !f.includes('__generated__'),
    );
    const found: string[] = [];
    for (const file of files) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          if (outside.some((pattern) => pattern.test(line))) found.push(`${relative(root, join(root, file))}:${i + 1}`);
        });
    }
    expect(found).toEqual([]);
  });
});
