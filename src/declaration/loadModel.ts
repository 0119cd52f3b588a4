/**
 * loadModel(): the model file a process serves (SCHEMA_FILE, default the
 * project's schema.graphql) read and built once at start-up. A missing
 * file or a model with problems throws ModelError, which the entry points
 * print as one line per problem before exiting non-zero.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DEFAULT_SCHEMA_FILE } from '../config.js';
import { buildModel } from './buildModel.js';
import type { Model } from './model.js';
import { ModelError } from './problems.js';

/** The project's default model (the SCHEMA_FILE setting's default). */
export { DEFAULT_SCHEMA_FILE };

const cache = new Map<string, Model>();

export function loadModel(file: string = DEFAULT_SCHEMA_FILE): Model {
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
  const model = buildModel(sdl, shown);
  cache.set(file, model);
  return model;
}
