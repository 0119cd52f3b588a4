/**
 * What makes the executable schema of a federated model a Federation 2
 * subgraph (docs/federation.md): `_service { sdl }` and, when the model has
 * entities, `_entities(representations:)` over the `_Entity` union of its
 * entity types, with their resolvers. Added beside the model's own
 * definitions when the server builds its schema (graphql/server.ts); the
 * model itself, its checks and its rules never see them.
 *
 * The rules: `_service` answers anyone (the router composes from it; keep
 * the subgraph behind the router), `_entities` checks each representation
 * as the read of its type's own root field (entities.ts); the entities'
 * fields keep their own rules.
 */
import { Kind, parse, type DefinitionNode, type DocumentNode, type ArgumentNode, valueFromASTUntyped } from 'graphql';
import type { Model } from '../declaration/model.js';
import type { Plan } from '../plan/plan.js';
import { entitiesResolver, type EntityRecord } from './entities.js';
import { subgraphSdl } from './sdl.js';

export const ENTITIES_FIELD = '_entities';

/** The definitions a federated model's executable schema adds: _Any, _Service, _Entity and the two root fields; none for another model. */
export function federationTypeDefs(model: Model): DefinitionNode[] {
  if (!model.federation) return [];
  const entities = [...model.federation.entities.keys()];
  const hasQuery = model.schema.getQueryType() !== undefined && model.schema.getQueryType() !== null;
  const fields = [...(entities.length > 0 ? [`${ENTITIES_FIELD}(representations: [_Any!]!): [_Entity]!`] : []), '_service: _Service!'];
  const text = [
    'scalar _Any',
    'type _Service { sdl: String }',
    ...(entities.length > 0 ? [`union _Entity = ${entities.join(' | ')}`] : []),
    `${hasQuery ? 'extend type' : 'type'} Query { ${fields.join(' ')} }`,
  ];
  return [...parse(text.join('\n'), { noLocation: true }).definitions];
}

/** The model's type definitions with the federation ones added (the model's own for another model). */
export function withFederation(model: Model): DocumentNode {
  const added = federationTypeDefs(model);
  return added.length === 0 ? model.typeDefs : { kind: Kind.DOCUMENT, definitions: [...model.typeDefs.definitions, ...added] };
}

/** The resolvers of the federation fields and types: Query._service and _entities, _Entity's resolveType, _Any's values as they come. */
export function federationResolvers(plan: Plan): Record<string, object> {
  if (!plan.model.federation) return {};
  const service = { sdl: subgraphSdl(plan.model) };
  const query: Record<string, unknown> = { _service: () => service };
  const resolvers: Record<string, object> = { Query: query };
  if (plan.model.federation.entities.size > 0) {
    query[ENTITIES_FIELD] = entitiesResolver(plan);
    resolvers._Entity = { __resolveType: (record: EntityRecord) => record.__typename };
  }
  return resolvers;
}

/**
 * How many representations an `_entities` selection carries (its list
 * argument, literal or variable), for the query limits: each is a read.
 * Null for any other field.
 */
export function representationCount(field: string, args: readonly ArgumentNode[], variables: Record<string, unknown> | undefined): number | null {
  if (field !== ENTITIES_FIELD) return null;
  const arg = args.find((a) => a.name.value === 'representations');
  if (!arg) return 0;
  const value = arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] : valueFromASTUntyped(arg.value);
  return Array.isArray(value) ? value.length : value == null ? 0 : 1;
}
