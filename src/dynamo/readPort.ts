/**
 * The read port: GetItem, Query and BatchGetItem in the document client's
 * own input and output shapes. Everything that reads takes one (loaders,
 * this folder's range and batch readers, connections, the writes' store,
 * the stream processor). `SdkReads` (here) sends through a document
 * client, counted when it is an operation's view (metrics.ts); `LeanReads`
 * (leanReads/) skips the SDK's middleware with the same wire requests.
 * Both answer alike, so a caller cannot tell them apart
 * (test/integration/readPaths.test.ts holds them to it); the choice is
 * made once per operation (docs/architecture.md, "The read port"). A count
 * is a Query with `Select: 'COUNT'` (collection.ts, filledRange.ts).
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
