/**
 * The DynamoDB Streams client of the local reader, configured like the
 * DynamoDB client (dynamo/client.ts): dummy credentials for local
 * endpoints, the SDK chain for real AWS, one deadline over each whole
 * exchange (a trickling answer is given up with its socket).
 */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { Sha256 } from '../dynamo/sha256.js';
import { DeadlineHandler } from '../dynamo/deadlineHandler.js';
import { proxyEnvOf } from '../config/proxy.js';

export interface StreamsClientOptions {
  endpoint?: string;
  region?: string;
  maxAttempts?: number;
  connectionTimeoutMs?: number;
  /** AWS credentials are configured: the SDK's chain, even for a local endpoint. */
  credentialsConfigured?: boolean;
  requestTimeoutMs?: number;
}

const isAwsEndpoint = (endpoint: string) => /\.amazonaws\.com(\.cn)?$/.test(new URL(endpoint).hostname);

export function createStreamsClient(options: StreamsClientOptions = {}): DynamoDBStreamsClient {
  const local = options.endpoint !== undefined && !isAwsEndpoint(options.endpoint);
  return new DynamoDBStreamsClient({
    // A DynamoDB endpoint URL serves the Streams API too (DynamoDB Local does); real AWS has its own.
    endpoint: local ? options.endpoint : undefined,
    region: options.region ?? (local ? 'us-east-1' : undefined),
    credentials: local && !options.credentialsConfigured ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    maxAttempts: options.maxAttempts ?? 3,
    sha256: Sha256,
    requestHandler: new DeadlineHandler({
      connectionTimeoutMs: options.connectionTimeoutMs ?? 1000,
      requestTimeoutMs: options.requestTimeoutMs ?? 5000,
      proxyEnv: proxyEnvOf(),
    }),
  });
}
