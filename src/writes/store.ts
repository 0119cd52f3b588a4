/**
 * What every write needs: the document client, the table, the read port,
 * and the knobs of retries and fan-outs. Resolvers pass the request context
 * (which has `doc`, `reads` and `tableName`) and take the defaults; tests
 * inject small pages, a single worker or a faulty client.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sdkReads, type ReadPort } from '../dynamo/readPort.js';
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey } from '../dynamo/keys.js';
import type { Plan } from '../plan/plan.js';

export interface WriteOptions {
  /**
   * A rename whose entity has at most this many edges updates the entity and
   * every copy in one transaction (all or nothing); more edges are fanned out.
   * At most 99: a transaction holds 100 items, one of them the entity.
   */
  atomicEdges: number;
  /** Edges read per page during a fan-out or cascade (Query `Limit`). */
  pageSize: number;
  /** Edge writes in flight at once during a fan-out or cascade. */
  concurrency: number;
  /** Attempts of one transaction when it is cancelled by a conflict (first included). */
  conflictAttempts: number;
  /** Base delay of the jittered backoff between those attempts, in ms. */
  conflictDelayMs: number;
  /** Read-then-transact rounds when what was read changed before the transaction. */
  staleReadAttempts: number;
}

export const DEFAULT_WRITE_OPTIONS: WriteOptions = {
  atomicEdges: 99,
  pageSize: 100,
  concurrency: 8,
  conflictAttempts: 5,
  conflictDelayMs: 20,
  staleReadAttempts: 8,
};

/**
 * Who brings edge copies and cascades to completion:
 * - `stream`: the table's stream processor (src/stream/); renames and
 *   deletes write the entity alone and answer (constant cost);
 * - `inRequest` (default, and on tables without a stream): the mutation
 *   itself, before it answers.
 */
export type FanOutMode = 'stream' | 'inRequest';

export interface Store {
  /** Writes go here (the SDK's middleware stack: an operation's view of it counts them). */
  doc: DynamoDBDocumentClient;
  /** Reads go here (the operation's read port, dynamo/readPort.ts); absent: through `doc` (the SDK). */
  reads?: ReadPort;
  tableName: string;
  writeOptions?: Partial<WriteOptions>;
  fanOut?: FanOutMode;
  /** The plan of the model served (the request context carries it): the writes follow it and name no type. */
  plan: Plan;
}

/** The plan the writes of `store` follow. */
export const planOf = (store: Store): Plan => store.plan;

export const optionsOf = (store: Pick<Store, 'writeOptions'>): WriteOptions => ({ ...DEFAULT_WRITE_OPTIONS, ...store.writeOptions });

/** Where the reads of `store` go: its read port, or the SDK through its client. */
export const readsOf = (store: Store): ReadPort => store.reads ?? sdkReads(store.doc);

/** One item, strongly consistent: writes decide from what they read, so they read the latest. */
export async function getItem(store: Store, key: ItemKey): Promise<Item | null> {
  const out = await readsOf(store).get({ TableName: store.tableName, Key: store.plan.keys.key(key), ConsistentRead: true });
  return out.Item ?? null;
}
