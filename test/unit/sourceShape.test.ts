/**
 * The shape of src/: the default layout's GSI1 key attributes are named
 * where the default layout is declared (declaration/layout.ts, and the
 * vocabulary's own description of @table) and read from GSI1_KEYS
 * everywhere else, so no module holds the layout as text; and no file
 * grows past 600 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, GSI1_KEYS } from '../../src/declaration/layout.js';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('layout text', () => {
  it("names GSI1's key attributes in src/ on at most three lines, where the default layout is declared", () => {
    const lines = sourceFiles(join(ROOT, 'src')).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/GSI1PK|GSI1SK/.test(line) ? [`${relative(ROOT, path)}:${i + 1}`] : [])),
    );
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines.every((at) => at.startsWith('src/declaration/layout.ts:') || at.startsWith('src/declaration/directives.ts:'))).toBe(true);
  });

  it('declares the default GSI1 on those names', () => {
    expect(DEFAULT_LAYOUT.indexes.find((i) => i.name === 'GSI1')).toMatchObject({ pk: [GSI1_KEYS.pk], sk: [GSI1_KEYS.sk] });
  });
});

describe('file size', () => {
  it('keeps every file of src/ at 600 lines or fewer (split by what it exports)', () => {
    const long = sourceFiles(join(ROOT, 'src'))
      .map((path) => ({ file: relative(ROOT, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 600);
    expect(long).toEqual([]);
  });
});
