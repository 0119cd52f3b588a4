/**
 * The executor port (src/graphql/executor/): `GRAPHQL_EXECUTOR` picks who
 * runs operations behind Apollo, and the compiled executor keeps graphql-js's
 * errors: an unresolved operation never runs, a resolver's error keeps its
 * code, path and locations.
 */
import { describe, expect, it } from 'vitest';
import { ApolloServer } from '@apollo/server';
import { GraphQLError, parse } from 'graphql';
import * as graphqlJit from 'graphql-jit';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { executorOptions, type Executor } from '../../src/graphql/executor/index.js';
import { asLocatedError, jitExecutor } from '../../src/graphql/executor/jit.js';

let resolved = 0;
const schema = makeExecutableSchema({
  typeDefs: 'type Query { hello: String! fails: String }',
  resolvers: {
    Query: {
      hello: () => (resolved++, 'hi'),
      fails: () => {
        throw new GraphQLError('nope', { extensions: { code: 'NOT_FOUND' } });
      },
    },
  },
});

async function apolloWith(executor: Executor) {
  let compiles = 0;
  const load = async () => ({ ...graphqlJit, compileQuery: ((...args: Parameters<typeof graphqlJit.compileQuery>) => (compiles++, graphqlJit.compileQuery(...args))) as typeof graphqlJit.compileQuery });
  const server = new ApolloServer({ ...executorOptions(executor, schema, { compileAfter: 0, load }) });
  await server.start();
  const run = async (query: string, operationName?: string) => {
    const response = await server.executeOperation({ query, operationName });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    return response.body.singleResult;
  };
  return { server, run, compiles: () => compiles };
}

describe('the executor port', () => {
  it('runs operations through graphql-jit for graphql-jit and through Apollo\'s own execution for graphql-js, with the same answers', async () => {
    const answers: Record<string, unknown> = {};
    for (const executor of ['graphql-jit', 'graphql-js'] as const) {
      const { server, run, compiles } = await apolloWith(executor);
      answers[executor] = [await run('{ hello }'), await run('{ fails }')];
      expect(compiles(), executor).toBe(executor === 'graphql-jit' ? 2 : 0);
      await server.stop();
    }
    expect(answers['graphql-jit']).toEqual(answers['graphql-js']);
    expect((answers['graphql-jit'] as any)[1].errors).toEqual([expect.objectContaining({ message: 'nope', path: ['fails'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
  });

  it('never runs an operation Apollo could not resolve: OPERATION_RESOLUTION_FAILURE from the compiled executor itself', async () => {
    const executor = jitExecutor(schema, { compileAfter: 0 });
    resolved = 0;
    const document = parse('query A { hello }');
    const result = await executor({ document, operation: undefined, operationName: null, request: { operationName: 'B', variables: {} }, context: {} } as never);
    expect(result.data).toBeUndefined();
    expect(result.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([['Unknown operation named "B".', 'OPERATION_RESOLUTION_FAILURE']]);
    expect(resolved).toBe(0);
  });

  it('remakes a graphql-jit error as a graphql-js located error: message, path, locations, extensions and the thrown error kept', () => {
    const thrown = new GraphQLError('nope', { extensions: { code: 'NOT_FOUND' } });
    const jitError = new GraphQLError('nope', { path: ['a', 0, 'b'], originalError: thrown });
    (jitError as { locations?: unknown }).locations = [{ line: 1, column: 3 }];
    const located = asLocatedError(jitError);
    expect(located).toBeInstanceOf(GraphQLError);
    expect(located.toJSON()).toEqual({ message: 'nope', path: ['a', 0, 'b'], locations: [{ line: 1, column: 3 }], extensions: { code: 'NOT_FOUND' } });
    expect(located.originalError).toBe(thrown);
  });
});
