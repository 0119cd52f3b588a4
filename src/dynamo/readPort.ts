/**
 * The read port: the three DynamoDB reads the gateway serves from (GetItem,
 * Query, BatchGetItem), in the document client's own input and output shapes
 * (native values). Everything that reads takes one: the loaders
 * (`createLoaders(reads, …)`), the range and batch readers of this folder
 * (collection.ts, filledRange.ts, batchGet.ts), the connections, the writes'
 * reads (through their store) and the stream processor's.
 *
 * Two implementations, chosen where the port is made, in plain sight:
 * - `LeanReads`: an operation's reads on the read path (readPath.ts: no SDK
 *   middleware stack, same wire requests), counted into the operation's
 *   metrics. The request context makes one per operation when the client
 *   has a read path (`DYNAMODB_READ_PATH=lean`, the default).
 * - `SdkReads`: the reads sent through a document client's `send`, counted
 *   by the client's middleware when the client is an operation's view
 *   (metrics.ts `metricsClient`). Used with `DYNAMODB_READ_PATH=sdk`, and
 *   by everything outside an operation (stream processor, migration,
 *   scripts, tests).
 *
 * Either costs one object; neither allocates per read beyond the read
 * itself. Both answer alike (readPath.ts keeps the SDK's outputs and error
 * classes), so a caller cannot tell them apart.
 *
 * Counting: the port is a routing decision only. Each read is one call;
 * its attempts are the requests (metrics.ts), on either implementation.
 * There is no `count`: a count is a Query with `Select: 'COUNT'`
 * (collection.ts `countCollection`, filledRange.ts `countFilled`).
 */
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type GetCommandInput,
  type GetCommandOutput,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { OperationMetrics } from './metrics.js';
import type { ReadPath } from './readPath.js';

export interface ReadPort {
  get(input: GetCommandInput): Promise<GetCommandOutput>;
  query(input: QueryCommandInput): Promise<QueryCommandOutput>;
  batchGet(input: BatchGetCommandInput): Promise<BatchGetCommandOutput>;
}

/** Reads through `doc.send` (the SDK's middleware stack; counted there when `doc` is an operation's view). */
export class SdkReads implements ReadPort {
  constructor(private readonly doc: DynamoDBDocumentClient) {}

  get(input: GetCommandInput): Promise<GetCommandOutput> {
    return this.doc.send(new GetCommand(input));
  }

  query(input: QueryCommandInput): Promise<QueryCommandOutput> {
    return this.doc.send(new QueryCommand(input));
  }

  batchGet(input: BatchGetCommandInput): Promise<BatchGetCommandOutput> {
    return this.doc.send(new BatchGetCommand(input));
  }
}

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
 * The read port of one operation: the read path when there is one, else the
 * SDK through the operation's counted view of the client (`view`, made with
 * the same `metrics`).
 */
export const operationReads = (path: ReadPath | undefined, view: DynamoDBDocumentClient, metrics: OperationMetrics): ReadPort =>
  path ? new LeanReads(path, metrics) : new SdkReads(view);

const sdkPorts = new WeakMap<DynamoDBDocumentClient, SdkReads>();

/** The SDK port of a client, made once per client (for stores without a port of their own). */
export function sdkReads(doc: DynamoDBDocumentClient): ReadPort {
  let port = sdkPorts.get(doc);
  if (!port) sdkPorts.set(doc, (port = new SdkReads(doc)));
  return port;
}
