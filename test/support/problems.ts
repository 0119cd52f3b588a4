/** The problems a model is refused with at start-up, one `where: message` line each; [] when it is served. */
import { buildModel } from '../../src/declaration/buildModel.js';
import { ModelError } from '../../src/declaration/problems.js';

export function problemsOf(sdl: string, file = 'model.graphql'): string[] {
  try {
    buildModel(sdl, file);
    return [];
  } catch (error) {
    if (error instanceof ModelError) return error.problems.map((p) => `${p.where}: ${p.message}`);
    throw error;
  }
}
