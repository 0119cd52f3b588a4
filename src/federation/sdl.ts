/**
 * The SDL `{ _service { sdl } }` answers: the model as written (its public
 * types, the connection types the gateway writes, its own directive
 * definitions, Federation's @link and directives as the model applies them)
 * with the gateway's vocabulary left out: the storage and rule directives
 * (@item, @get, @access, …) say how this subgraph reads its table, which is
 * no other subgraph's business. Composition reads Federation's definitions
 * from the @link, so they are not printed either. PageInfo, which every
 * Relay subgraph defines alike, is printed @shareable unless the model
 * gives it directives of its own.
 */
import { Kind, print, visit, type DefinitionNode, type DocumentNode } from 'graphql';
import { directiveUse, hasDirectives, withoutVocabulary } from '../declaration/annotations.js';
import type { Model } from '../declaration/model.js';

export function subgraphSdl(model: Pick<Model, 'document' | 'federation'>): string {
  const shareable = model.federation?.names.shareable;
  const extended = new Set(model.federation?.extended ?? []);
  const stripped = visit(withoutVocabulary(model.document), {
    ObjectTypeDefinition: (node) => {
      // A type the model extends without defining it, printed as written.
      if (extended.has(node.name.value)) return { ...node, kind: Kind.OBJECT_TYPE_EXTENSION };
      // Relay's PageInfo is every such subgraph's: without a directive of its own, it is @shareable, so two compose.
      if (node.name.value === 'PageInfo' && !hasDirectives(node) && shareable) {
        return { ...node, directives: [directiveUse(shareable)] };
      }
      return undefined;
    },
    InterfaceTypeDefinition: (node) => (extended.has(node.name.value) ? { ...node, kind: Kind.INTERFACE_TYPE_EXTENSION } : undefined),
  }) as DocumentNode;
  // A schema extension that held only vocabulary (`extend schema @table(…)`) is left out whole.
  const definitions = stripped.definitions.filter(
    (d: DefinitionNode) => !((d.kind === Kind.SCHEMA_EXTENSION || d.kind === Kind.SCHEMA_DEFINITION) && !hasDirectives(d) && !d.operationTypes?.length),
  );
  return `${print({ ...stripped, definitions })}\n`;
}
