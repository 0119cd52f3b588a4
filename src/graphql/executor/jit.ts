/**
 * jitGateway(schema): compiled execution. Apollo Server hands execution to
 * a "gateway" (`load()` → `{ executor }`); ours runs each operation with
 * graphql-jit, which compiles an operation once into JavaScript functions
 * (no per-field lookups of the AST, arguments or resolvers at run time) and
 * then executes the compiled form for every request that sends the same
 * document. Everything before execution is still Apollo's: parsing, the
 * document store, validation (our limits), `didResolveOperation` (operation
 * resolution, argument checks), and after it error formatting and HTTP
 * statuses.
 *
 * What it must keep, and how:
 * - Variable errors (a wrong type, a missing required variable) are
 *   coerced and reported by graphql-js's own `getVariableValues` before
 *   the compiled query runs: the same messages, and the variable
 *   definition as the error's node, by which Apollo answers them with
 *   BAD_USER_INPUT exactly as when it executes itself. Operations whose
 *   variables are all built-in scalars skip that pass: graphql-jit coerces
 *   those by graphql-js's rules, and only when it refuses one does
 *   graphql-js coerce them again, for its errors.
 * - Errors from resolvers: graphql-jit's carry message, locations and path
 *   and keep the thrown error as `originalError`, but no `nodes`;
 *   `asLocatedError` remakes them as graphql-js errors, so the extensions
 *   (our codes) and `formatError`'s classification (UNAVAILABLE, masking)
 *   see what they see under graphql-js.
 * - Compiled operations are cached per parsed document (a WeakMap): Apollo's
 *   document store hands out the same DocumentNode for the same query, and
 *   when the store evicts it the compiled form goes with it.
 *
 * Compiled on repeat: an operation's first `compileAfter` executions
 * (default 1) run through graphql-js's `execute`, as `GRAPHQL_EXECUTOR=
 * graphql-js` runs them; the next one compiles it. graphql-jit itself (with
 * its JSON schema compiler) is loaded by a dynamic `import()` when an
 * operation is first compiled, so a cold start neither parses it nor waits
 * for a compilation, and an operation sent once is never compiled. Loading
 * it during the first request instead competed with that request for CPU.
 */
import {
  execute,
  getVariableValues,
  GraphQLError,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { operationResolutionError, unresolvedOperationMessage } from '../plugins/operationResolution.js';

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

const BUILT_IN_SCALARS = new Set(['ID', 'String', 'Int', 'Float', 'Boolean']);

/** Is every variable of the operation a built-in scalar (or a non-null one)? Then graphql-jit coerces it as graphql-js does. */
export function builtInScalarVariables(operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).every((def) => {
    const type = def.type.kind === Kind.NON_NULL_TYPE ? def.type.type : def.type;
    return type.kind === Kind.NAMED_TYPE && BUILT_IN_SCALARS.has(type.name.value);
  });
}

interface Compiled {
  query: CompiledQuery;
  /** Variables are coerced by graphql-js only when graphql-jit refuses them (see the module comment). */
  jitCoercesVariables: boolean;
}

type GraphqlJit = Pick<typeof import('graphql-jit'), 'compileQuery' | 'isCompiledQuery'>;

export interface JitOptions {
  /** Executions of an operation by graphql-js before it is compiled (default 1; 0 compiles on first use). */
  compileAfter?: number;
  /** Loads graphql-jit (default: a dynamic import, once per process); tests count compilations through it. */
  load?: () => Promise<GraphqlJit>;
}

let jit: Promise<GraphqlJit> | undefined;
const loadJit = () => (jit ??= import('graphql-jit'));

export function jitExecutor(schema: GraphQLSchema, { compileAfter = 1, load = loadJit }: JitOptions = {}): GatewayExecutor {
  /** Per document and operation name: the compiled operation, or how often it has run uncompiled. */
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled | number>>();

  /** The compiled operation when there is one (the hot path: no promise); otherwise `prepare`. */
  function cached(document: DocumentNode, operationName: string | null): Compiled | undefined {
    const hit = compiled.get(document)?.get(operationName ?? '');
    return typeof hit === 'object' ? hit : undefined;
  }

  async function prepare(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | null,
  ): Promise<Compiled | ExecutionResult | 'interpret'> {
    let byName = compiled.get(document);
    const key = operationName ?? '';
    const hit = byName?.get(key);
    if (typeof hit === 'object') return hit;
    if (!byName) compiled.set(document, (byName = new Map()));
    const runs = hit ?? 0;
    if (runs < compileAfter) {
      byName.set(key, runs + 1);
      return 'interpret';
    }
    const { compileQuery, isCompiledQuery } = await load();
    const query = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
    if (!isCompiledQuery(query)) return query;
    const result = { query, jitCoercesVariables: builtInScalarVariables(operation) };
    byName.set(key, result);
    return result;
  }

  const coercionErrors = (operation: OperationDefinitionNode, variables: Record<string, unknown>) =>
    operation.variableDefinitions?.length
      ? getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 }).errors
      : undefined;

  return async ({ document, operation, operationName, request, context }) => {
    // Apollo passes a null operation when the request's name resolves to nothing; never run one then.
    if (!operation) return { errors: [operationResolutionError(unresolvedOperationMessage(document, request.operationName))] };
    const variables = request.variables ?? {};
    const entry = cached(document, operationName) ?? (await prepare(document, operation, operationName));
    if (entry === 'interpret') {
      return execute({ schema, document, operationName, variableValues: variables, contextValue: context });
    }
    if (!('query' in entry && 'jitCoercesVariables' in entry)) {
      // Not compiled: variable errors first, as execution would report them.
      return { errors: coercionErrors(operation, variables) ?? entry.errors };
    }
    if (!entry.jitCoercesVariables) {
      const errors = coercionErrors(operation, variables);
      if (errors) return { errors };
    }
    const result = await entry.query.query(undefined, context, variables);
    if (!('data' in result)) {
      // graphql-jit refused the variables: graphql-js's own errors (words and nodes), as without the shortcut.
      const errors = coercionErrors(operation, variables);
      if (errors) return { errors };
    }
    if (!result.errors?.length) return { data: result.data };
    return { data: result.data, errors: result.errors.map(asLocatedError) };
  };
}

/** The `gateway` option of ApolloServer: a fixed schema, executed by jitExecutor. */
export function jitGateway(schema: GraphQLSchema, options: JitOptions = {}): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return { executor: jitExecutor(schema, options) };
    },
    async stop() {},
  };
}
