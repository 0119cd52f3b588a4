/**
 * A query's DynamoDB requests bounded by the length of its text: at most one
 * request per `bytesPerRequest` bytes (default 10, i.e. 0.1 requests per
 * byte). Three aliased connection pages under a catalog page of 100 items
 * ask for over 300 requests in 190 bytes and are stopped at 19.
 *
 * Only where one page of a connection the query names needs more requests
 * than its text buys does that page's need stand instead (`pageFloor`): a
 * page of a write-sharded relation is a Query per shard and up to two
 * existence checks per shard (3 × its `@edges(maxShards)`, and 2 more), a
 * catalog page a Query per GSI2 shard and, with a prefix count, a
 * `Select: COUNT` per shard, a narrowed page (@query beside @children) the Queries
 * that fill it. So a short query can always read one page of anything; it
 * cannot buy more than that.
 *
 * Enforced as the operation runs, on its metrics (dynamo/metrics.ts): the
 * request that would pass the budget fails with BAD_USER_INPUT, `reason:
 * DYNAMODB_REQUEST_LIMIT`, and so does every later one. Mutations are left
 * to their own limits (MUTATION_COST, the fan-out limit and
 * MAX_DYNAMODB_REQUESTS): a rename's text says nothing of its edges.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Context } from '../context.js';
import type { Plan } from '../../plan/plan.js';

/** What any page needs at most: the parent, its page, the item past it. */
export const PAGE_FLOOR = 3;
/** The Queries one narrowed (@query beside @children, filtered) page may take to fill itself. */
export const FILLED_PAGE_REQUESTS = 10;

const floors = new WeakMap<DocumentNode, number>();

/**
 * The requests the widest single page `document` names needs (at least
 * PAGE_FLOOR), from the model: computed once per parsed document.
 */
export function pageFloor(plan: Plan, schema: GraphQLSchema, document: DocumentNode): number {
  const known = floors.get(document);
  if (known !== undefined) return known;
  let floor = PAGE_FLOOR;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType()?.name;
        if (!parent) return;
        const path = `${parent}.${node.name.value}`;
        const relation = plan.relations.get(path);
        if (relation) {
          const sharded = relation.relation.kind === 'edges' ? relation.relation.sharded : null;
          if (sharded) floor = Math.max(floor, 3 * sharded.max + 2);
          if (relation.range) floor = Math.max(floor, FILLED_PAGE_REQUESTS);
          return;
        }
        if (parent === schema.getQueryType()?.name) {
          const catalog = plan.catalogs.find((c) => c.field === node.name.value);
          if (catalog) floor = Math.max(floor, 2 * catalog.shards + 1);
        }
      },
    }),
  );
  floors.set(document, floor);
  return floor;
}

/** The requests a query of `text` may send, when its widest page needs `floor`. */
export const requestBudget = (text: string, bytesPerRequest: number, floor = PAGE_FLOOR): number =>
  Math.max(floor, Math.floor(Buffer.byteLength(text, 'utf8') / bytesPerRequest));

export function requestBudgetPlugin(bytesPerRequest: number): GatewayPlugin {
  // Per parsed document (Apollo's document store keeps one per query text): its cap and the reason given.
  const caps = new WeakMap<DocumentNode, { limit: number; why: string }>();
  const hooks: RequestHooks = {
    didResolveOperation({ operation, request, contextValue, document, schema }) {
      if (operation?.operation !== 'query' || !contextValue?.metrics) return;
      let cap = caps.get(document);
      if (cap === undefined || request.query === undefined) {
        const floor = pageFloor(contextValue.plan, schema, document);
        cap = {
          limit: requestBudget(request.query ?? '', bytesPerRequest, floor),
          why: ` (a query may send one per ${bytesPerRequest} bytes of its text, or what the widest page it names needs: ${floor})`,
        };
        if (request.query !== undefined) caps.set(document, cap);
      }
      contextValue.metrics.capRequests(cap.limit, cap.why);
    },
  };
  return { requestDidStart: () => (bytesPerRequest > 0 ? hooks : undefined) };
}
