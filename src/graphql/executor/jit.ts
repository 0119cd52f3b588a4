/**
 * jitGateway(schema): compiled execution. Apollo Server hands execution to
 * a "gateway" (`load()` → `{ executor }`); ours runs each operation with
 * graphql-jit, compiled once per parsed document (a WeakMap: when Apollo's
 * document store drops the document, the compiled form goes too).
 * Everything before and after execution stays Apollo's.
 *
 * What it must keep (docs/runtime.md, "Execution: graphql-jit"):
 * - variable errors: coerced by graphql-js's `getVariableValues` first,
 *   so messages and nodes are graphql-js's and Apollo answers BAD_USER_INPUT
 *   as usual (all-built-in variables skip that unless graphql-jit refuses);
 * - resolver errors: remade by `asLocatedError` as graphql-js errors, so
 *   our codes and formatError's classification see what they see there.
 * Compiled on repeat: the first `compileAfter` executions run on
 * graphql-js; graphql-jit is imported only when an operation is first
 * compiled, so a cold start neither parses it nor competes with it for CPU.
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
