/**
 * The suite holds on a busy machine: every deadline a test sets (a test's
 * or a hook's timeout, a poll's, a child process's, a loop's) is a guard
 * against a hang sized for a 2-core machine running the suite alone and
 * stretched by the load (test/support/patience.ts), never a literal a
 * loaded machine outruns. What a test asserts is an outcome or a count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Deadlines written as literals: a timeout of a second or more, and a deadline taken from the clock. */
const LITERAL_DEADLINES: { what: string; pattern: RegExp }[] = [
  { what: 'a test or hook timeout', pattern: /^\s*\}, (\d[\d_]{3,})\);$/ },
  { what: 'a poll, process or run timeout', pattern: /\b(timeout|testTimeout|hookTimeout): (\d[\d_]{3,})\b/ },
  // (A fake clock set ahead, and a server's clock skewed on purpose, are no deadlines.)
  { what: 'a deadline from the clock', pattern: /(?<!setSystemTime\()Date\.now\(\) \+ (?!skew)/ },
  { what: 'a loop bounded by a count of sleeps', pattern: /for \(let \w+ = 0; \w+ < \d+ && .*setTimeout/ },
];

/** Not this suite's to change, or the one place deadlines are made. */
const EXEMPT = new Set(['test/support/patience.ts', 'test/unit/testDeadlines.test.ts', 'test/integration/copyHealth.test.ts']);

describe('deadlines in tests', () => {
  it("are stretched by the machine's load (patience, until), never literals", () => {
    const found: string[] = [];
    for (const path of [...files(join(ROOT, 'test')), join(ROOT, 'vitest.config.ts')]) {
      const file = relative(ROOT, path);
      if (EXEMPT.has(file)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const { what, pattern } of LITERAL_DEADLINES) {
            if (pattern.test(line))
              found.push(`${file}:${i + 1}: ${what}: wrap it in patience() or wait with until() (test/support/patience.ts): ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
