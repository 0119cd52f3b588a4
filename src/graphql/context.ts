/**
 * createContext(): the per-request context (its shape: src/context.ts), with
 * fresh loaders, metrics and cursor reader for every operation.
 */
import { randomUUID } from 'node:crypto';
import { createLoaders } from '../loaders.js';
import { DEFAULT_PAGE_READ_BUDGET, type Context, type Deps } from '../context.js';
import { metricsClient, OperationMetrics } from '../dynamo/metrics.js';
import { cursorReader } from '../connections/connection.js';
import { ANONYMOUS, EVERYONE, type Identity } from '../auth/identity.js';
import { compilePlan } from '../plan/plan.js';
import { loadModel } from '../declaration/loadModel.js';

export { DEFAULT_PAGE_READ_BUDGET, type Context, type Deps };

/** `doc` in the context is the operation's own view of the shared client (dynamo/metrics.ts). */
export function createContext(deps: Deps, metrics = new OperationMetrics(), identity?: Identity): Context {
  const doc = metricsClient(deps.doc, metrics);
  return {
    ...deps,
    doc,
    cursors: cursorReader(deps.cursors),
    loaders: createLoaders(doc, deps.tableName, { naive: deps.naive }),
    metrics,
    requestId: randomUUID(),
    pageReadBudget: deps.pageReadBudget ?? DEFAULT_PAGE_READ_BUDGET,
    shortPages: [],
    // Fails closed: with rules on, no identity means anonymous.
    identity: identity ?? (deps.authRequired ? ANONYMOUS : EVERYONE),
    plan: deps.plan ?? compilePlan(loadModel()),
  };
}
