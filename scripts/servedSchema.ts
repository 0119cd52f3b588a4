/**
 * The API a model serves, as its clients see it: the executable schema the
 * gateway builds (src/graphql/server.ts: the generated PageInfo, connection
 * and edge types included) without the storage vocabulary the gateway
 * supplies to model files (@item, @children, … and their argument types),
 * which no client sends or receives. What is left is what introspection of
 * the running gateway answers, but for those definitions; the model's own
 * directive definitions stay. `npm run schema` prints it for codegen
 * (docs/clients.md#the-served-schema).
 */
import { GraphQLSchema, Kind } from 'graphql';
import { suppliedDefinitions } from '../src/declaration/buildModel.js';
import type { Model } from '../src/declaration/model.js';
import { gatewaySchema } from '../src/graphql/server.js';

/** Names of the directives and types the gateway supplies to every model file. */
function supplied(): { directives: Set<string>; types: Set<string> } {
  const directives = new Set<string>();
  const types = new Set<string>();
  for (const d of suppliedDefinitions().definitions) {
    if (d.kind === Kind.DIRECTIVE_DEFINITION) directives.add(d.name.value);
    else if ('name' in d && d.name) types.add(d.name.value);
  }
  return { directives, types };
}

/** The schema the gateway serves for `model`, without the supplied storage vocabulary. */
export function servedSchema(model: Model): GraphQLSchema {
  const config = gatewaySchema(model, undefined).schema.toConfig();
  const { directives, types } = supplied();
  return new GraphQLSchema({
    ...config,
    directives: config.directives.filter((d) => !directives.has(d.name)),
    types: config.types.filter((t) => !types.has(t.name)),
  });
}
