/**
 * The lean reader behind the read port (../readPort.ts): `LeanReads` sends
 * an operation's GetItem, Query and BatchGetItem on the read path
 * (readPath.ts: no SDK middleware stack, the same wire requests, signing,
 * retries and errors), counted into the operation's metrics.
 *
 * Kept because it costs less CPU per operation than the SDK's document
 * client (the measurement: docs/performance.md, "The read path").
 * `DYNAMODB_READ_PATH=sdk` sends the same reads through `SdkReads`
 * instead; test/integration/readPaths.test.ts runs the same operations
 * both ways and compares answers and request counts, so a dependency
 * upgrade that changes one shows.
 */
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  DynamoDBDocumentClient,
  GetCommandInput,
  GetCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { OperationMetrics } from '../metrics.js';
import { SdkReads, type ReadPort } from '../readPort.js';
import type { ReadPath } from './readPath.js';

/** One operation's reads on the read path, counted into its metrics. */
export class LeanReads implements ReadPort {
  constructor(
    private readonly path: ReadPath,
    private readonly metrics: OperationMetrics,
  ) {}

  get(input: GetCommandInput): Promise<GetCommandOutput> {
    return this.path.send('GetItem', input as Record<string, unknown>, this.metrics) as Promise<GetCommandOutput>;
  }

  query(input: QueryCommandInput): Promise<QueryCommandOutput> {
    return this.path.send('Query', input as Record<string, unknown>, this.metrics) as Promise<QueryCommandOutput>;
  }

  batchGet(input: BatchGetCommandInput): Promise<BatchGetCommandOutput> {
    return this.path.send('BatchGetItem', input as Record<string, unknown>, this.metrics) as Promise<BatchGetCommandOutput>;
  }
}

/**
 * The read port of one operation: the read path when the client has one
 * (`DYNAMODB_READ_PATH=lean`, the default), else the SDK through the
 * operation's counted view of the client (`view`, made with the same
 * `metrics`).
 */
export const operationReads = (path: ReadPath | undefined, view: DynamoDBDocumentClient, metrics: OperationMetrics): ReadPort =>
  path ? new LeanReads(path, metrics) : new SdkReads(view);
