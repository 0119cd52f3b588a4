/**
 * Fault injection for what DynamoDB Local cannot do (throttle, fail with
 * 5xx), on both of the client's paths:
 * - the SDK (writes, table management): a middleware in the deserialize
 *   step, below the SDK's retry middleware and just inside the request
 *   counter;
 * - the read path (src/dynamo/leanReads/readPath.ts: operations' GetItem, Query,
 *   BatchGetItem): an attempt hook, run after the attempt is counted.
 * On both every attempt is counted, and a fault is retried exactly as a
 * real DynamoDB answer would be.
 */
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Dynamo } from '../../src/dynamo/client.js';

export type FaultKind = 'ProvisionedThroughputExceededException' | 'ThrottlingException' | 'InternalServerError' | 'ServiceUnavailable';

const STATUS: Record<FaultKind, number> = {
  ProvisionedThroughputExceededException: 400,
  ThrottlingException: 400,
  InternalServerError: 500,
  ServiceUnavailable: 503,
};

/** An error shaped like the SDK's own for that DynamoDB answer. */
export function dynamoFault(kind: FaultKind): DynamoDBServiceException {
  return new DynamoDBServiceException({
    name: kind,
    $fault: STATUS[kind] >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: STATUS[kind], attempts: 1 },
    message: `injected ${kind}`,
  });
}

export interface Attempt {
  operation: string;
  /** 1 for the first attempt of a request, 2 for its first retry, … */
  attempt: number;
}

/**
 * Fails the attempts for which `decide` returns a fault, on both paths.
 * Returns a function that removes the injection again.
 */
export function injectFaults(dynamo: Dynamo, decide: (attempt: Attempt) => Error | null): () => void {
  injecting.set(dynamo, (injecting.get(dynamo) ?? 0) + 1);
  const removeSdk = injectSdkFaults(dynamo.raw, decide);
  const removeReads = dynamo.reads?.onAttempt(({ operation, attempt }) => {
    const fault = decide({ operation, attempt });
    if (fault) throw fault;
  });
  let removed = false;
  return () => {
    removeSdk();
    removeReads?.();
    if (!removed) injecting.set(dynamo, injecting.get(dynamo)! - 1);
    removed = true;
  };
}

/** Clients with an injection in place (how many), so request counts know which retries a test asked for. */
const injecting = new WeakMap<Dynamo, number>();

/** True while `injectFaults` fails attempts of this client. */
export const faultsInjected = (dynamo: Dynamo): boolean => (injecting.get(dynamo) ?? 0) > 0;

/** The SDK path only: a middleware below the retries. */
function injectSdkFaults(client: DynamoDBClient, decide: (attempt: Attempt) => Error | null): () => void {
  const name = `faultInjection${Math.random().toString(36).slice(2)}`;
  const attempts = new WeakMap<object, number>();
  client.middlewareStack.addRelativeTo(
    (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
      const attempt = (attempts.get(context) ?? 0) + 1;
      attempts.set(context, attempt);
      const fault = decide({ operation: String(context.commandName ?? '').replace(/Command$/, ''), attempt });
      if (fault) throw fault;
      return next(args);
    },
    { name, relation: 'after', toMiddleware: 'gatewayOperationMetrics' },
  );
  return () => void client.middlewareStack.remove(name);
}
