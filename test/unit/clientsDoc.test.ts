/**
 * docs/clients.md shows excerpts of the files in clients/, which the tests
 * run: every snippet that names its file (a first line `// clients/…`, or
 * an `<!-- clients/… -->` line before the fence) must still be in that
 * file, line for line (indentation aside).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(root, 'docs/clients.md'), 'utf8');

interface Snippet {
  file: string;
  lines: string[];
}

function snippets(markdown: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```\w+/.test(lines[i]!)) continue;
    const body: string[] = [];
    let j = i + 1;
    while (!/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!);
    const named = /^\s*<!-- (clients\/\S+) -->\s*$/.exec(lines[i - 1] ?? '')?.[1];
    const commented = /^\s*\/\/ (clients\/\S+)\s*$/.exec(body[0] ?? '')?.[1];
    if (commented) out.push({ file: commented, lines: body.slice(1) });
    else if (named) out.push({ file: named, lines: body });
    i = j;
  }
  return out;
}

const trimmed = (lines: string[]) => lines.map((l) => l.trim()).filter((l) => l !== '');

describe('docs/clients.md', () => {
  const found = snippets(doc);

  it('names the file of its snippets', () => {
    expect(found.length).toBe(15);
    expect([...new Set(found.map((s) => s.file))].sort()).toEqual([
      'clients/api/cacheShape.ts',
      'clients/apolloClient.ts',
      'clients/codegen.ts',
      'clients/relay/relay.config.json',
      'clients/relay/src/StudentCourses.ts',
      'clients/urqlClient.ts',
    ]);
  });

  for (const snippet of found) {
    it(`shows lines that are in ${snippet.file}: ${snippet.lines
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 60)}`, () => {
      const file = trimmed(readFileSync(resolve(root, snippet.file), 'utf8').split('\n'));
      const wanted = trimmed(snippet.lines);
      const start = file.indexOf(wanted[0]!);
      expect(start, `first line not in ${snippet.file}`).toBeGreaterThanOrEqual(0);
      expect(file.slice(start, start + wanted.length)).toEqual(wanted);
    });
  }
});
