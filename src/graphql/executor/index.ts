/**
 * The executor port: who runs an operation once Apollo has parsed,
 * validated and checked it (operation resolution, limits, arguments).
 * createServer spreads `executorOptions(...)` into Apollo's options; nothing
 * else in the gateway knows which executor runs.
 *
 * - `graphql-jit` (the default, `GRAPHQL_EXECUTOR`): compiled execution,
 *   plugged in as Apollo's `gateway` (jit.ts);
 * - `graphql-js`: Apollo's own execution of the schema.
 *
 * Both give the same answers, errors (codes, paths, messages) and DynamoDB
 * requests; test/integration/jitExecutor.test.ts runs the same operations
 * through both. Subscriptions (graphql-ws) run on graphql-js either way.
 */
import type { GraphQLSchema } from 'graphql';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { invariant } from '../../errors.js';
import { jitGateway, type JitOptions } from './jit.js';

export type Executor = 'graphql-jit' | 'graphql-js';

/** The part of Apollo's options that chooses the executor: a gateway that executes, or the schema Apollo executes itself. */
export type ExecutorOptions = { gateway: GatewayInterface; schema?: never } | { schema: GraphQLSchema; gateway?: never };

export function executorOptions(executor: Executor, schema: GraphQLSchema, jit: JitOptions = {}): ExecutorOptions {
  switch (executor) {
    case 'graphql-jit':
      return { gateway: jitGateway(schema, jit) };
    case 'graphql-js':
      return { schema };
    default:
      invariant(false, `unknown executor ${String(executor satisfies never)}`);
  }
}
