/**
 * The integration files share one module cache per worker (vitest.config.ts):
 * a file whose assertions depend on a fresh module state must be listed
 * among the isolated ones, or it passes or fails by which files ran before
 * it in its worker.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'test', 'integration');

/** What in a test file's text needs a module cache of its own. */
const NEEDS_FRESH_MODULES = [
  { what: 'a module mock', pattern: /\bvi\.(mock|doMock|unmock|resetModules)\(/ },
  { what: "the process's loaded model files", pattern: /\bloadedModelFiles\(/ },
];

export const needsFreshModules = (text: string) => NEEDS_FRESH_MODULES.filter((n) => n.pattern.test(text)).map((n) => n.what);

describe('the integration projects', () => {
  it('run every file that mocks a module or reads module-level state in the isolated project', () => {
    const shared = readdirSync(DIR)
      .filter((f) => f.endsWith('.test.ts') && !ISOLATED.includes(`test/integration/${f}`))
      .flatMap((f) => needsFreshModules(readFileSync(join(DIR, f), 'utf8')).map((what) => `${f}: ${what}`));
    expect(shared).toEqual([]);
  });

  it('isolate only files that exist and need it', () => {
    for (const file of ISOLATED) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(needsFreshModules(readFileSync(join(ROOT, file), 'utf8')), file).not.toEqual([]);
    }
  });

  it('recognises each reason', () => {
    expect(needsFreshModules("vi.mock('../../src/telemetry/otel.js', async () => ({}));")).toEqual(['a module mock']);
    expect(needsFreshModules('expect(loadedModelFiles()).toEqual([file]);')).toEqual(["the process's loaded model files"]);
    expect(needsFreshModules("const spy = vi.spyOn(gw.dynamo.raw, 'send');")).toEqual([]);
  });
});
