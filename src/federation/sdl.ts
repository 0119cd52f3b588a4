/**
 * The SDL `{ _service { sdl } }` answers: the model as written (its public
 * types, the connection types the gateway writes, its own directive
 * definitions, Federation's @link and directives as the model applies them)
 * with the gateway's vocabulary left out: the storage and rule directives
 * (@item, @get, @access, …) say how this subgraph reads its table, which is
 * no other subgraph's business. Composition reads Federation's definitions
 * from the @link, so they are not printed either.
 */
import { Kind, print, visit, type DefinitionNode, type DocumentNode } from 'graphql';
import { DIRECTIVE_NAMES } from '../declaration/directives.js';
import type { Model } from '../declaration/model.js';

const VOCABULARY = new Set<string>(DIRECTIVE_NAMES);

export function subgraphSdl(model: Pick<Model, 'document'>): string {
  const stripped = visit(model.document, {
    Directive: (node) => (VOCABULARY.has(node.name.value) ? null : undefined),
  }) as DocumentNode;
  // A schema extension that held only vocabulary (`extend schema @table(…)`) is left out whole.
  const definitions = stripped.definitions.filter(
    (d: DefinitionNode) => !((d.kind === Kind.SCHEMA_EXTENSION || d.kind === Kind.SCHEMA_DEFINITION) && !d.directives?.length && !d.operationTypes?.length),
  );
  return `${print({ ...stripped, definitions })}\n`;
}
