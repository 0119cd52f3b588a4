/**
 * The layout maps (the README's and docs/architecture.md's "Layout" blocks)
 * stay true to src/: every file or folder a map names under src/ exists, and
 * every file of src/ is named somewhere in the README or docs/, by its path
 * or by its name in its folder's block of a map. Renaming a file without the
 * map fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = posix.join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A line of a map, with the src/ folder whose block it belongs to (null outside src/). */
interface MapLine {
  folder: string | null;
  text: string;
}

/** The lines of the fenced block under `## Layout`, each with its src/ folder. */
export function layoutMap(markdown: string): MapLine[] {
  const section = markdown.slice(markdown.indexOf('\n## Layout\n'));
  const start = section.indexOf('```\n') + 4;
  const block = section.slice(start, section.indexOf('\n```', start));
  let folder: string | null = null;
  return block.split('\n').map((text) => {
    if (!/^\s/.test(text)) {
      // A line at the margin opens a block: a src/ folder, a src/ file (its folder's block), or something else.
      const head = text.split(/\s+/)[0] ?? '';
      folder = head.startsWith('src/') ? (head.endsWith('/') ? head : `${posix.dirname(head)}/`) : null;
    }
    return { folder, text };
  });
}

/** The names a map line gives: file names with an extension, and folder names ending in `/`. */
const namesIn = (text: string) => [...text.matchAll(/(?<![\w.@/-])((?:[\w.-]+\/)*[\w-]+(?:\.(?:ts|java|class)\b|\/(?!\w)))/g)].map((m) => m[1]!);

/** Where a name of a folder's block may point: within the folder, within src/, or from the repository's root. */
const candidates = (folder: string, name: string) => [posix.join(folder, name), posix.join('src', name), name];

const MAPS = ['README.md', 'docs/architecture.md'];
const srcFiles = filesUnder('src');

describe('the layout maps', () => {
  for (const map of MAPS) {
    it(`${map} names only files and folders of src/ that exist`, () => {
      const missing = layoutMap(read(map))
        .filter((line) => line.folder)
        .flatMap((line) =>
          namesIn(line.text)
            .filter((name) => !candidates(line.folder!, name).some((path) => existsSync(join(root, path))))
            .map((name) => `${line.folder} ${name}`),
        );
      expect(missing).toEqual([]);
    });
  }

  it("name every file of src/: by its path in the README or docs/, or by its name in its folder's block", () => {
    const docs = ['README.md', ...filesUnder('docs').filter((f) => f.endsWith('.md'))].map(read).join('\n');
    const named = new Set(
      MAPS.flatMap((map) =>
        layoutMap(read(map)).flatMap((line) => (line.folder ? namesIn(line.text).map((name) => posix.normalize(posix.join(line.folder!, name))) : [])),
      ),
    );
    const unnamed = srcFiles.filter((file) => !named.has(file) && !docs.includes(file) && !docs.includes(file.slice('src/'.length)));
    expect(unnamed).toEqual([]);
  });
});

describe('the map reader', () => {
  const sample = [
    '',
    '## Layout',
    '',
    '```',
    'src/a.ts        top',
    'src/b/          folder: c.ts, sub/d.ts',
    '  e.ts          more',
    'scripts/        f.ts',
    '```',
  ].join('\n');

  it("gives each line its src/ folder, continuation lines their block's", () => {
    expect(layoutMap(sample).map((l) => l.folder)).toEqual(['src/', 'src/b/', 'src/b/', null]);
  });

  it('reads file and folder names, not prose', () => {
    expect(namesIn('folder: c.ts, sub/d.ts and plugins/ (docs/x.md), the read port')).toEqual(['c.ts', 'sub/d.ts', 'plugins/']);
  });
});
