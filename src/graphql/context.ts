/**
 * The per-request context: the DynamoDB client and table, and fresh
 * loaders for every operation.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createLoaders, type Loaders } from '../loaders.js';
import { metricsClient, OperationMetrics } from '../dynamo/metrics.js';
import type { CursorCodec } from '../connections/cursorSigning.js';
import type { ShortPage } from '../connections/filledRange.js';
import type { FanOutMode } from '../writes/store.js';
import { cursorReader, type CursorReader } from '../connections/cursor.js';
import { ANONYMOUS, EVERYONE, type Identity } from '../auth/identity.js';
import { compilePlan, type Plan } from '../plan/plan.js';
import { loadModel } from '../declaration/loadModel.js';
import type { RuleLookup } from '../auth/rules.js';

export interface Deps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** Batching, caching and look-ahead off: the benchmark's baseline (`GATEWAY_NAIVE=1`). */
  naive?: boolean;
  /** Signs and verifies cursors (connections/cursor.ts); built once from CURSOR_SECRET. */
  cursors: CursorCodec;
  /** Read units one filled page may consume (`PAGE_READ_BUDGET`, connections/filledRange.ts). Default 100. */
  pageReadBudget?: number;
  /** Renames and deletes: leave the fan-out to the table's stream, or do it in the request (default). */
  fanOut?: FanOutMode;
  /**
   * AUTH_MODE=oidc: the rules apply (the model's @access, src/auth/), and a
   * context made without an identity is anonymous. Off: everyone may do everything.
   */
  authRequired?: boolean;
  /** The model's plans (src/plan/); default: the project's default model. */
  plan?: Plan;
  /** The compiled rules, for reads that ask ahead of the guarded field (look-ahead); without them only admins read ahead. */
  rules?: RuleLookup;
}

export interface Context extends Deps {
  /** The server's codec, reading each cursor of this operation once (connections/cursor.ts). */
  cursors: CursorReader;
  loaders: Loaders;
  /** DynamoDB requests of this operation: everything sent through `doc` is counted here. */
  metrics: OperationMetrics;
  /** Identifies the operation in logs and in masked error responses. */
  requestId: string;
  pageReadBudget: number;
  /** Pages of this operation cut short by the read budget (answered in `extensions.shortPages`). */
  shortPages: ShortPage[];
  /** Who is calling (transport verified the bearer token before this context was made). */
  identity: Identity;
  plan: Plan;
  /** The operation's cost as weighed before execution (plugins/queryLimits.ts), for telemetry; unset until then. */
  cost?: number;
}

export const DEFAULT_PAGE_READ_BUDGET = 100;

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
