/**
 * A query's DynamoDB requests bounded by the length of its text: at most one
 * request per `bytesPerRequest` bytes (default 10, i.e. 0.1 requests per
 * byte), and never less than REQUEST_FLOOR. A short query cannot make the
 * gateway send thousands of requests: three aliased connection pages under
 * a catalog page of 100 items ask for over 300 in 190 bytes and are stopped
 * at 200. The floor keeps
 * any single page working whatever its text: a page of a parent written
 * with 64 shards, between two cursors, is a Query per shard and up to two
 * existence checks per shard (3 × 64), and a catalog page a Query per GSI2
 * shard (8).
 *
 * Enforced as the operation runs, on its metrics (dynamo/metrics.ts): the
 * request that would pass the budget fails with BAD_USER_INPUT, `reason:
 * DYNAMODB_REQUEST_LIMIT`, and so does every later one. Mutations are left
 * to their own limits (MUTATION_COST, the fan-out limit and
 * MAX_DYNAMODB_REQUESTS): a rename's text says nothing of its edges.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../context.js';
import { MAX_SHARDS } from '../../dynamo/keys.js';

/** The fewest requests any query may send, whatever its length: one page of the widest sharded parent (3 × 64) and more. */
export const REQUEST_FLOOR = 3 * MAX_SHARDS + 8;

/** The requests a query of `text` may send. */
export const requestBudget = (text: string, bytesPerRequest: number): number =>
  Math.max(REQUEST_FLOOR, Math.floor(Buffer.byteLength(text, 'utf8') / bytesPerRequest));

export function requestBudgetPlugin(bytesPerRequest: number): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      if (bytesPerRequest <= 0) return;
      return {
        async didResolveOperation({ operation, request, contextValue }) {
          if (operation?.operation !== 'query' || !contextValue?.metrics) return;
          const limit = requestBudget(request.query ?? '', bytesPerRequest);
          contextValue.metrics.capRequests(limit, ` (a query may send one per ${bytesPerRequest} bytes of its text, and at least ${REQUEST_FLOOR})`);
        },
      };
    },
  };
}
