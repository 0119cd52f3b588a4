/**
 * The default layout's GSI1 key attribute names are written once, where
 * the default layout is declared (src/declaration/layout.ts); every other
 * file of src/ names them through `GSI1_PK`/`GSI1_SK`. The directives'
 * own documentation (src/declaration/directives.ts, the text a model's
 * author reads) describes the default layout in words and may name them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const NAMES = /GSI1PK|GSI1SK/;
const DECLARED_IN = 'declaration/layout.ts';
const DOCUMENTED_IN = 'declaration/directives.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const lines = sources(SRC).flatMap((f) => {
  const file = relative(SRC, f).split('\\').join('/');
  return readFileSync(f, 'utf8')
    .split('\n')
    .flatMap((line, i) => (NAMES.test(line) ? [`${file}:${i + 1}`] : []));
});

describe('GSI1 key attribute names', () => {
  it('are written in at most 3 lines where the default layout is declared', () => {
    expect(lines.filter((l) => l.startsWith(`${DECLARED_IN}:`)).length).toBeLessThanOrEqual(3);
  });

  it('are written nowhere else in src/ but the directives’ documentation', () => {
    expect(lines.filter((l) => !l.startsWith(`${DECLARED_IN}:`) && !l.startsWith(`${DOCUMENTED_IN}:`))).toEqual([]);
  });
});
