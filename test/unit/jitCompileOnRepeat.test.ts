/**
 * The compiled executor (src/graphql/executor/jit.ts) compiles an operation
 * on its second execution: the first runs through graphql-js (nothing to
 * load or compile on a cold start), later ones run compiled, with the same
 * answers. graphql-jit is loaded through the executor's `load` option, so
 * the test counts loads and compilations without mocking a module.
 */
import { describe, expect, it } from 'vitest';
import { parse, type DocumentNode } from 'graphql';
import * as graphqlJit from 'graphql-jit';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { jitExecutor, type JitOptions } from '../../src/graphql/executor/jit.js';

const schema = makeExecutableSchema({
  typeDefs: 'type Query { hello(name: String!): String! }',
  resolvers: { Query: { hello: (_: unknown, { name }: { name: string }) => `hello ${name}` } },
});

/** An executor whose graphql-jit counts how often it was loaded and how often it compiled. */
function counted(options: JitOptions = {}) {
  const counts = { loads: 0, compiles: 0 };
  const load = async () => {
    counts.loads++;
    const compileQuery = ((...args: Parameters<typeof graphqlJit.compileQuery>) => (counts.compiles++, graphqlJit.compileQuery(...args))) as typeof graphqlJit.compileQuery;
    return { ...graphqlJit, compileQuery };
  };
  return { executor: jitExecutor(schema, { ...options, load }), counts };
}

function run(executor: ReturnType<typeof jitExecutor>, document: DocumentNode, variables: Record<string, unknown>) {
  const operation = document.definitions[0] as never;
  return executor({ document, operation, operationName: null, request: { variables }, context: {} } as never);
}

describe('compile on repeat', () => {
  it('runs an operation uncompiled first, without loading graphql-jit, and compiled from its second execution on, with the same answers', async () => {
    const { executor, counts } = counted();
    const document = parse('query ($n: String!) { hello(name: $n) }');
    expect(await run(executor, document, { n: 'a' })).toEqual({ data: { hello: 'hello a' } });
    expect(counts).toEqual({ loads: 0, compiles: 0 });
    expect(await run(executor, document, { n: 'b' })).toEqual({ data: { hello: 'hello b' } });
    expect(await run(executor, document, { n: 'c' })).toEqual({ data: { hello: 'hello c' } });
    expect(counts).toEqual({ loads: 1, compiles: 1 });
  });

  it('compiles each document once, however often it runs', async () => {
    const { executor, counts } = counted();
    const [one, two] = [parse('{ hello(name: "1") }'), parse('{ hello(name: "2") }')];
    for (let i = 0; i < 4; i++) {
      expect(await run(executor, one, {})).toEqual({ data: { hello: 'hello 1' } });
      expect(await run(executor, two, {})).toEqual({ data: { hello: 'hello 2' } });
    }
    expect(counts.compiles).toBe(2);
  });

  it('compiles on first use with compileAfter: 0', async () => {
    const { executor, counts } = counted({ compileAfter: 0 });
    expect(await run(executor, parse('{ hello(name: "x") }'), {})).toEqual({ data: { hello: 'hello x' } });
    expect(counts.compiles).toBe(1);
  });

  it('reports a missing variable in graphql-js\'s words, uncompiled and compiled', async () => {
    const { executor, counts } = counted();
    const document = parse('query ($n: String!) { hello(name: $n) }');
    for (let i = 0; i < 2; i++) {
      const result = await run(executor, document, {});
      expect(result.errors?.map((e) => e.message)).toEqual(['Variable "$n" of required type "String!" was not provided.']);
    }
    expect(counts.compiles).toBe(1);
  });
});
