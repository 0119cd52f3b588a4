/**
 * What is wrong with a model: one problem per mistake, each naming the
 * type, field or directive and its line, all reported at once. A model with
 * problems is refused at start-up (ModelError's message is the list).
 */
import type { ASTNode } from 'graphql';

export interface ModelProblem {
  /** `Type`, `Type.field`, `Type.field @directive`, or `@directive`. */
  where: string;
  message: string;
  line: number | null;
}

export class ModelError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly ModelProblem[],
  ) {
    super(
      `The model in ${source} cannot be served (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  ${formatProblem(source, p)}`).join('\n'),
    );
    this.name = 'ModelError';
  }
}

export const formatProblem = (source: string, p: ModelProblem): string => `${source}${p.line === null ? '' : `:${p.line}`}: ${p.where}: ${p.message}`;

/** Collects problems while the model is built. */
export class Problems {
  readonly list: ModelProblem[] = [];
  /** The model's own lines start after the supplied definitions: `offset` lines are subtracted. */
  constructor(private readonly lineOffset = 0) {}

  add(where: string, message: string, node?: ASTNode | null): void {
    const line = node?.loc ? node.loc.startToken.line - this.lineOffset : null;
    this.list.push({ where, message, line: line !== null && line > 0 ? line : null });
  }
}
