/**
 * tracedBatch(): one stream batch handled under a span of its own, with its
 * DynamoDB calls as child spans. Used by the in-process reader
 * (stream/reader.ts) and the stream Lambda (stream/lambda.ts). Without
 * telemetry the batch runs on the same store, with no wrapper.
 */
import { metricsClient, OperationMetrics } from '../dynamo/metrics.js';
import { SdkReads } from '../dynamo/readPort.js';
import type { BatchOutcome } from './handler.js';
import type { Store } from '../writes/store.js';
import type { BatchStart, Telemetry } from '../telemetry/telemetry.js';

export async function tracedBatch(
  telemetry: Telemetry | undefined,
  store: Store,
  start: BatchStart,
  run: (store: Store) => Promise<BatchOutcome>,
): Promise<BatchOutcome> {
  if (!telemetry) return run(store);
  const batch = telemetry.startBatch(start);
  const metrics = new OperationMetrics();
  metrics.calls = batch.calls;
  let outcome: BatchOutcome | undefined;
  try {
    const doc = metricsClient(store.doc, metrics);
    outcome = await run({ ...store, doc, reads: new SdkReads(doc) });
    return outcome;
  } finally {
    batch.finish({
      processed: outcome?.done ?? 0,
      failed: outcome ? outcome.failedAt !== null : true,
      copies: outcome?.copies ?? 0,
      edgesRemoved: outcome?.edgesRemoved ?? 0,
      error: outcome?.error,
    });
  }
}
