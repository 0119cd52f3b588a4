/**
 * createContext(): the per-request context (its shape: src/context.ts), with
 * fresh loaders, metrics and cursor reader for every operation.
 */
import { randomUUID } from 'node:crypto';
import { createLoaders } from '../loaders.js';
import { DEFAULT_PAGE_READ_BUDGET, type Context, type Deps } from '../context.js';
import { metricsClient, OperationMetrics } from '../dynamo/metrics.js';
import { operationReads } from '../dynamo/leanReads/leanReads.js';
import { cursorReader } from '../connections/cursor.js';
import { ANONYMOUS, EVERYONE, type Identity } from '../auth/identity.js';

export { DEFAULT_PAGE_READ_BUDGET, type Context, type Deps };

/**
 * `doc` in the context is the operation's own counted view of the shared
 * client (dynamo/metrics.ts), `reads` its read port (dynamo/readPort.ts): on
 * the read path when the deps have one, else through that view.
 */
export function createContext(deps: Deps, metrics = new OperationMetrics(), identity?: Identity): Context {
  const doc = metricsClient(deps.doc, metrics);
  const reads = operationReads(deps.readPath, doc, metrics);
  return {
    ...deps,
    doc,
    reads,
    cursors: cursorReader(deps.cursors),
    loaders: createLoaders(reads, deps.tableName, deps.plan.keys, { naive: deps.naive }),
    metrics,
    requestId: randomUUID(),
    pageReadBudget: deps.pageReadBudget ?? DEFAULT_PAGE_READ_BUDGET,
    shortPages: [],
    // Fails closed: with rules on, no identity means anonymous.
    identity: identity ?? (deps.authRequired ? ANONYMOUS : EVERYONE),
    plan: deps.plan,
  };
}
