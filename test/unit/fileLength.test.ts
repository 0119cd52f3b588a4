/**
 * No file of src/ is over 600 lines: a longer one is split by what it
 * exports (docs/architecture.md, "Code for the reader").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const LIMIT = 600;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Lines as `wc -l` counts them: newline characters. */
export const lineCount = (text: string): number => text.split('\n').length - 1;

describe('file length', () => {
  it(`finds no file of src/ over ${LIMIT} lines`, () => {
    const long = sources(SRC).flatMap((f) => {
      const n = lineCount(readFileSync(f, 'utf8'));
      return n > LIMIT ? [`${relative(SRC, f)}: ${n} lines`] : [];
    });
    expect(long).toEqual([]);
  });

  it('counts lines as wc -l does', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(1);
  });
});
