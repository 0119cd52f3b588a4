/**
 * The per-request context's shape: what every resolver, write and
 * subscription of one operation is handed. Types only; the context itself is
 * made by the GraphQL layer (graphql/context.ts `createContext`), fresh for
 * every operation. It sits below the layers that take it (subscriptions/,
 * stream/, resolvers/, idempotency/, graphql/) and above the parts it is
 * made of (loaders, connections, writes, auth, plan, dynamo).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Loaders } from './loaders.js';
import type { OperationMetrics } from './dynamo/metrics.js';
import type { ReadPath } from './dynamo/leanReads/readPath.js';
import type { ReadPort } from './dynamo/readPort.js';
import type { CursorCodec } from './connections/cursorSigning.js';
import type { ShortPage } from './connections/filledRange.js';
import type { CursorReader } from './connections/cursor.js';
import type { FanOutMode } from './writes/store.js';
import type { Identity } from './auth/identity.js';
import type { Plan } from './plan/plan.js';
import type { RuleLookup } from './auth/rules.js';

export interface Deps {
  /** The shared document client (each operation sends its writes through a counted view of it). */
  doc: DynamoDBDocumentClient;
  /** The read path of the same client as `doc` (dynamo/client.ts `reads`): operations' reads skip the SDK's middleware; absent: they go through `doc`. Replace both together. */
  readPath?: ReadPath;
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
  /** The plan of the model served (src/plan/): every read and write follows it. */
  plan: Plan;
  /** The compiled rules, for reads that ask ahead of the guarded field (look-ahead); without them only admins read ahead. */
  rules?: RuleLookup;
}

export interface Context extends Deps {
  /** The server's codec, reading each cursor of this operation once (connections/cursor.ts). */
  cursors: CursorReader;
  loaders: Loaders;
  /** The operation's read port (dynamo/readPort.ts): the loaders', the connections' and the writes' reads. */
  reads: ReadPort;
  /** DynamoDB requests of this operation: everything sent through `doc` and `reads` is counted here. */
  metrics: OperationMetrics;
  /** Identifies the operation in logs and in masked error responses. */
  requestId: string;
  pageReadBudget: number;
  /** Pages of this operation cut short by the read budget (answered in `extensions.shortPages`). */
  shortPages: ShortPage[];
  /** Who is calling (transport verified the bearer token before this context was made). */
  identity: Identity;
  plan: Plan;
  /** The client's address as the transport saw it (the per-caller budget of callers without a verified subject). */
  clientAddress?: string;
  /** The operation's cost as weighed before execution (plugins/queryLimits.ts), for telemetry; unset until then. */
  cost?: number;
}

export const DEFAULT_PAGE_READ_BUDGET = 100;
