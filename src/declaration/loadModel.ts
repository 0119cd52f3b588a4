/**
 * loadModel(): the model file a process serves (SCHEMA_FILE, default the
 * project's schema.graphql) read and built once at start-up. A missing
 * file or a model with problems throws ModelError, which the entry points
 * print as one line per problem before exiting non-zero.
 *
 * Validated when bundled: the bundler (scripts/bundle.ts) builds the model
 * file it ships, refuses to bundle one with problems, and writes the
 * SHA-256 of its text into the bundle (`__VALIDATED_MODELS__`). A process
 * whose model file has exactly that text then skips graphql's validation of
 * the SDL and of the type system (buildModel's `validated`), which it would
 * only repeat; any other text, and every run outside a bundle (tsx, tests),
 * is validated in full.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DEFAULT_SCHEMA_FILE } from '../config.js';
import { buildModel } from './buildModel.js';
import type { Model } from './model.js';
import { ModelError } from './problems.js';

/** The project's default model (the SCHEMA_FILE setting's default). */
export { DEFAULT_SCHEMA_FILE };

const cache = new Map<string, Model>();

/** Set by the bundler (esbuild `define`); absent outside a bundle. */
declare const __VALIDATED_MODELS__: readonly string[] | undefined;
const validatedWhenBundled: readonly string[] = typeof __VALIDATED_MODELS__ === 'undefined' ? [] : __VALIDATED_MODELS__;

/** The fingerprint the bundler records for a model file's text. */
export const modelFingerprint = (sdl: string): string => createHash('sha256').update(sdl).digest('hex');

/** The model files this process has loaded so far (tests: a process serving one model reads no other). */
export const loadedModelFiles = (): string[] => [...cache.keys()];

export function loadModel(file: string = DEFAULT_SCHEMA_FILE, validated: readonly string[] = validatedWhenBundled): Model {
  const cached = cache.get(file);
  if (cached) return cached;
  const near = relative(process.cwd(), file);
  const shown = near && !near.startsWith('..') ? near : file;
  let sdl: string;
  try {
    sdl = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ModelError(shown, [{ where: 'SCHEMA_FILE', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, line: null }]);
  }
  const model = buildModel(sdl, shown, { validated: validated.length > 0 && validated.includes(modelFingerprint(sdl)) });
  cache.set(file, model);
  return model;
}
