/**
 * The compiled executor compiles an operation on its second execution: the
 * first runs through graphql-js (nothing to load or compile on a cold
 * start), later ones run compiled, with the same answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';

const compiles = vi.hoisted(() => ({ count: 0 }));
vi.mock('graphql-jit', async (importOriginal) => {
  const real = await importOriginal<typeof import('graphql-jit')>();
  return { ...real, compileQuery: (...args: Parameters<typeof real.compileQuery>) => (compiles.count++, real.compileQuery(...args)) };
});

const { jitExecutor } = await import('../../src/graphql/jitExecutor.js');

const schema = makeExecutableSchema({
  typeDefs: 'type Query { hello(name: String!): String! }',
  resolvers: { Query: { hello: (_: unknown, { name }: { name: string }) => `hello ${name}` } },
});

function run(executor: ReturnType<typeof jitExecutor>, document: ReturnType<typeof parse>, variables: Record<string, unknown>) {
  const operation = document.definitions[0] as never;
  return executor({ document, operation, operationName: null, request: { variables }, context: {} } as never);
}

describe('compile on repeat', () => {
  it('runs an operation uncompiled first, compiled from its second execution on, with the same answers', async () => {
    compiles.count = 0;
    const executor = jitExecutor(schema);
    const document = parse('query ($n: String!) { hello(name: $n) }');
    expect(await run(executor, document, { n: 'a' })).toEqual({ data: { hello: 'hello a' } });
    expect(compiles.count).toBe(0);
    expect(await run(executor, document, { n: 'b' })).toEqual({ data: { hello: 'hello b' } });
    expect(await run(executor, document, { n: 'c' })).toEqual({ data: { hello: 'hello c' } });
    expect(compiles.count).toBe(1);
  });

  it('compiles on first use with compileAfter: 0', async () => {
    compiles.count = 0;
    const executor = jitExecutor(schema, { compileAfter: 0 });
    expect(await run(executor, parse('{ hello(name: "x") }'), {})).toEqual({ data: { hello: 'hello x' } });
    expect(compiles.count).toBe(1);
  });

  it('reports a variable error of an uncompiled first execution as graphql-js does', async () => {
    const executor = jitExecutor(schema);
    const result = await run(executor, parse('query ($n: String!) { hello(name: $n) }'), {});
    expect(result.errors?.[0]?.message).toBe('Variable "$n" of required type "String!" was not provided.');
  });
});
