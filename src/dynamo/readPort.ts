/**
 * The read port: the three DynamoDB reads the gateway serves from (GetItem,
 * Query, BatchGetItem), in the document client's own input and output shapes
 * (native values). Everything that reads takes one: the loaders
 * (`createLoaders(reads, …)`), the range and batch readers of this folder
 * (collection.ts, filledRange.ts, batchGet.ts), the connections, the writes'
 * reads (through their store) and the stream processor's.
 *
 * Two implementations:
 * - `SdkReads` (here): the reads sent through a document client's `send`,
 *   counted by the client's middleware when the client is an operation's
 *   view (metrics.ts `metricsClient`). Used by everything outside an
 *   operation (stream processor, migration, scripts, tests), and by
 *   operations with `DYNAMODB_READ_PATH=sdk`.
 * - `LeanReads` (leanReads/): an operation's reads without the SDK's
 *   middleware stack, same wire requests, counted into the operation's
 *   metrics; `operationReads` there picks one of the two per operation.
 *
 * Both answer alike (the lean reader keeps the SDK's outputs and error
 * classes), so a caller cannot tell them apart;
 * test/integration/readPaths.test.ts holds them to it.
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

const sdkPorts = new WeakMap<DynamoDBDocumentClient, SdkReads>();

/** The SDK port of a client, made once per client (for stores without a port of their own). */
export function sdkReads(doc: DynamoDBDocumentClient): ReadPort {
  let port = sdkPorts.get(doc);
  if (!port) sdkPorts.set(doc, (port = new SdkReads(doc)));
  return port;
}
