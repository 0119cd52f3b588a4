/** The problems a model is refused with at start-up, one `where: message` line each; [] when it is served. */
import { buildModel } from '../../src/declaration/buildModel.js';
import { ModelError, type ModelProblem } from '../../src/declaration/problems.js';

function refusal(sdl: string, file: string, line: (p: ModelProblem) => string): string[] {
  try {
    buildModel(sdl, file);
    return [];
  } catch (error) {
    if (error instanceof ModelError) return error.problems.map(line);
    throw error;
  }
}

export const problemsOf = (sdl: string, file = 'model.graphql'): string[] => refusal(sdl, file, (p) => `${p.where}: ${p.message}`);

/** As problemsOf, each line led by the problem's line in the model file (`-` when it has none). */
export const numberedProblemsOf = (sdl: string, file = 'model.graphql'): string[] => refusal(sdl, file, (p) => `${p.line ?? '-'}: ${p.where}: ${p.message}`);
