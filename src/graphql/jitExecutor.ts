/**
 * jitGateway(schema): compiled execution. Apollo Server hands execution to
 * a "gateway" (`load()` → `{ executor }`); ours runs each operation with
 * graphql-jit, which compiles an operation once into JavaScript functions
 * (no per-field lookups of the AST, arguments or resolvers at run time) and
 * then executes the compiled form for every request that sends the same
 * document. Everything before execution is still Apollo's: parsing, the
 * document store, validation (our limits), `didResolveOperation` (argument
 * checks), and after it error formatting and HTTP statuses.
 *
 * What it must keep, and how:
 * - Variable errors (a wrong type, a missing required variable) are
 *   coerced and reported by graphql-js's own `getVariableValues` before
 *   the compiled query runs: the same messages, and the variable
 *   definition as the error's node, by which Apollo answers them with
 *   BAD_USER_INPUT and HTTP 400 exactly as when it executes itself.
 * - Errors from resolvers: graphql-jit's carry message, locations and path
 *   and keep the thrown error as `originalError`; `asLocatedError` remakes
 *   them as graphql-js errors with that `originalError`, so the extensions
 *   (our codes) and `formatError`'s classification (UNAVAILABLE, masking)
 *   see what they see under graphql-js.
 * - Compiled operations are cached per parsed document (a WeakMap): Apollo's
 *   document store hands out the same DocumentNode for the same query, and
 *   when the store evicts it the compiled form goes with it. Memory is
 *   bounded by the store's own bound.
 */
import { getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';

/** A graphql-jit error as a graphql-js located error: same message, locations, path; the thrown error as `originalError`. */
export function asLocatedError(error: GraphQLError): GraphQLError {
  const original = error.originalError ?? undefined;
  const located = new GraphQLError(error.message, {
    path: error.path,
    originalError: original,
    extensions: error.extensions && Object.keys(error.extensions).length > 0 ? error.extensions : undefined,
  });
  if (error.locations) (located as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return located;
}

export function jitExecutor(schema: GraphQLSchema): GatewayExecutor {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery>>();

  function compiledFor(document: DocumentNode, operationName: string | null): CompiledQuery | ExecutionResult {
    let byName = compiled.get(document);
    const key = operationName ?? '';
    const hit = byName?.get(key);
    if (hit) return hit;
    const result = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
    if (!isCompiledQuery(result)) return result;
    if (!byName) compiled.set(document, (byName = new Map()));
    byName.set(key, result);
    return result;
  }

  return async ({ document, operation, operationName, request, context }) => {
    const variables = request.variables ?? {};
    if (operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    const query = compiledFor(document, operationName);
    if (!isCompiledQuery(query)) return query;
    const result = await query.query(undefined, context, variables);
    if (!result.errors?.length) return { data: result.data };
    return { data: result.data, errors: result.errors.map(asLocatedError) };
  };
}

/** The `gateway` option of ApolloServer: a fixed schema, executed by jitExecutor. */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return { executor: jitExecutor(schema) };
    },
    async stop() {},
  };
}
