/**
 * The executable schema is built from the model's own schema (Model.schema,
 * built and validated once by buildModel) instead of from the SDL a second
 * time: it must be the schema graphql-tools builds from the SDL, field for
 * field, for every model, and leave the model's schema without resolvers.
 * (The one visible difference: where the built-in scalars sit in the
 * unordered list of introspection types.)
 */
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { introspectionFromSchema, printSchema, type GraphQLObjectType, type IntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compileRules } from '../../src/auth/compileRules.js';
import { gatewaySchema } from '../../src/graphql/server.js';
import { applyRules } from '../../src/auth/applyRules.js';
import { compilePlan } from '../../src/plan/plan.js';
import { buildResolvers } from '../../src/resolvers/index.js';
import { withSubscriptions } from '../../src/subscriptions/schema.js';
import { modelFromPlan } from '../../src/subscriptions/model.js';

const root = join(import.meta.dirname, '..', '..');
const byName = (result: IntrospectionQuery) => ({
  ...result.__schema,
  types: [...result.__schema.types].sort((a, b) => a.name.localeCompare(b.name)),
});

describe('the executable schema', () => {
  for (const file of ['schema.graphql', 'examples/crm.graphql']) {
    it(`of ${file} is the one built from its SDL, with and without rules`, () => {
      const model = loadModel(join(root, file));
      const plan = compilePlan(model);
      for (const rules of [undefined, compileRules(model)]) {
        // As the schema was built before: graphql-tools parsing, merging and validating the SDL itself.
        const { resolvers } = withSubscriptions(model.schema, buildResolvers(plan), modelFromPlan(plan));
        const fromSdl = makeExecutableSchema({ typeDefs: model.typeDefs, resolvers: rules ? applyRules(resolvers, model.typeDefs, rules) : resolvers });
        const { schema } = gatewaySchema(model, rules);
        expect(printSchema(schema)).toBe(printSchema(fromSdl));
        // Every type, field, argument, description and default as before; only where the built-in scalars
        // (String, Boolean, …) sit in the unordered list of types may differ.
        expect(byName(introspectionFromSchema(schema))).toEqual(byName(introspectionFromSchema(fromSdl)));
        expect(schema).not.toBe(model.schema);
      }
      // Resolvers went to a copy: the model's schema has none.
      const query = model.schema.getQueryType() as GraphQLObjectType;
      expect(Object.values(query.getFields()).filter((f) => f.resolve !== undefined)).toEqual([]);
      const served = gatewaySchema(model, undefined).schema.getQueryType() as GraphQLObjectType;
      expect(Object.values(served.getFields()).filter((f) => f.resolve !== undefined).length).toBe(Object.keys(served.getFields()).length);
    });
  }
});

describe('a model that declares no DateTime or PageInfo', () => {
  it('is served: the gateway supplies resolvers only for the types a model declares', () => {
    const model = buildModel(
      `type Note @item(pk: "NOTE#{id}", sk: "META") { id: ID! text: String! }
       type Query { note(id: ID!): Note @get }`,
      'notes.graphql',
    );
    const { schema } = gatewaySchema(model, undefined);
    expect(schema.getType('DateTime')).toBeUndefined();
    expect(Object.keys((schema.getQueryType() as GraphQLObjectType).getFields())).toEqual(['note']);
  });
});

describe('a connection type the model declares without totalCount', () => {
  it('is served as declared: start-up supplies no resolver for the field it lacks', () => {
    const model = buildModel(
      `type Thing @item(pk: "T#{id}", sk: "META") { id: ID! parts(first: Int, after: String, last: Int, before: String): PartConnection! @children }
       type Part @item(pk: "T#{thing}", sk: "P#{id}") { id: ID! thing: Thing! @parent }
       type PartConnection { edges: [PartEdge!]! pageInfo: PageInfo! }
       type PartEdge { cursor: String! node: Part! }
       type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
       type Query { thing(id: ID!): Thing @get }`,
      'things.graphql',
    );
    const { schema } = gatewaySchema(model, undefined);
    expect(Object.keys((schema.getType('PartConnection') as GraphQLObjectType).getFields())).toEqual(['edges', 'pageInfo']);
  });
});
