/**
 * A model file whose exact text the bundler validated (scripts/bundle.ts
 * records its SHA-256 in the bundle) is not validated by graphql again at
 * start-up; any other text is, in full. Shown with a text that only
 * graphql's SDL rules refuse (an unknown directive).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel, modelFingerprint } from '../../src/declaration/loadModel.js';
import { ModelError } from '../../src/declaration/problems.js';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'model-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sdl = readFileSync(join(root, 'schema.graphql'), 'utf8').replace(/^type Query\b/m, 'type Query @notADirective');
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('a model validated when bundled', () => {
  it('is validated in full when its text has no recorded fingerprint', () => {
    expect(sdl).toContain('@notADirective');
    const file = write('unrecorded.graphql', sdl);
    expect(() => loadModel(file, [])).toThrow(ModelError);
    expect(() => loadModel(write('other.graphql', sdl), [modelFingerprint(sdl + ' ')])).toThrow(/Unknown directive "@notADirective"/);
  });

  it('skips graphql validation for exactly the recorded text, and still builds the whole model', () => {
    const model = loadModel(write('recorded.graphql', sdl), [modelFingerprint(sdl)]);
    expect(model.schema.getQueryType()?.name).toBe('Query');
    expect(model.items.size).toBe(loadModel(join(root, 'schema.graphql')).items.size);
  });
});
