/**
 * deferTelemetry: what an operation tells telemetry while the SDK is still
 * loading is replayed into it once it is ready, with the times it happened:
 * the same spans (parent, caller's trace id, attributes, start and end
 * times) and the same metrics as without the deferral.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { deferTelemetry } from '../../src/telemetry/deferred.js';
import { telemetrySettings } from '../../src/telemetry/settings.js';
import { loadTelemetry, type Telemetry } from '../../src/telemetry/telemetry.js';
import { silentLogger } from '../../src/logger.js';
import type { MetricsSummary } from '../../src/dynamo/metrics.js';

class TestReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

const spans = new InMemorySpanExporter();
const reader = new TestReader();
const fail = (message: string): never => {
  throw new Error(message);
};
let sdk: Telemetry | undefined;
afterAll(async () => sdk?.shutdown());

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const carrier = (headers: Record<string, string>) => ({ get: (name: string) => headers[name] });
const summary = { requests: 3, waves: 2, consumedCapacity: 1.5, maxConcurrency: 2, byOperation: {} } as unknown as MetricsSummary;
const finish = { name: 'Nested', type: 'query', cost: 7, codes: [], outcome: 'ok' as const, dynamodb: summary, requestId: 'r-1' };

async function counter(name: string): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return ((metric?.dataPoints ?? []) as DataPoint<number>[]).reduce((n, p) => n + p.value, 0);
}

/**
 * How far a replayed time may sit from the recorded one: the SDK converts
 * performance.now() readings to epoch time through its own origin, which
 * drifts from performance.timeOrigin by a few ms in a long-running machine.
 * Replaying at the wrong time (the flush's) would be off by 50 ms or more.
 */
const CLOCK_SLACK_MS = 20;

/** Epoch ms of a performance.now() reading, as the SDK converts it (to within its clock's rounding). */
const wall = (at: number) => performance.timeOrigin + at;

describe('telemetry deferred while the SDK loads', () => {
  it('replays an operation and its DynamoDB calls, told before the SDK was ready, with their times', async () => {
    let ready!: (t: Telemetry) => void;
    let loads = 0;
    const telemetry = deferTelemetry(() => {
      loads += 1;
      return new Promise<Telemetry>((resolve) => (ready = resolve));
    });

    const startedAt = performance.now() - 50;
    const headers: Record<string, string> = { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` };
    const trace = telemetry.startOperation(carrier(headers), startedAt);
    delete headers.traceparent; // the request's headers are gone by the time the SDK is ready
    const input = { TableName: 'AppTable', IndexName: 'GSI1', Limit: 3 };
    const first = trace.calls.callStarted('Query', input, startedAt + 5);
    input.TableName = 'Changed'; // changed after the call started: the span has the table it was sent to
    first.attemptFailed(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    first.finished({ $metadata: { attempts: 2 }, ConsumedCapacity: { CapacityUnits: 1 } }, undefined, startedAt + 20);
    const second = trace.calls.callStarted('BatchGetItem', { RequestItems: { AppTable: {} } }, startedAt + 21);
    expect(spans.getFinishedSpans()).toEqual([]);

    // Recording loads nothing; the first flush loads the SDK.
    expect(loads).toBe(0);
    const flushed = telemetry.flush();
    expect(loads).toBe(1);
    sdk = (await loadTelemetry(telemetrySettings({ OTEL_SERVICE_NAME: 'deferred-test' }, fail), silentLogger, {
      spanProcessors: [new SimpleSpanProcessor(spans)],
      metricReaders: [reader],
    }))!;
    ready(sdk);
    await flushed;
    // Still running when the SDK became ready: it ends on the real span.
    second.finished({ $metadata: { attempts: 1 } });
    trace.finish(finish, startedAt + 40);
    await telemetry.flush();

    const finished = spans.getFinishedSpans();
    expect(finished.map((s) => s.name).sort()).toEqual(['DynamoDB.BatchGetItem', 'DynamoDB.Query', 'query Nested']);
    const operation = finished.find((s) => s.name === 'query Nested')!;
    expect(operation.spanContext().traceId).toBe(TRACE_ID);
    expect(operation.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(Math.abs(hrTimeToMilliseconds(operation.startTime) - wall(startedAt))).toBeLessThan(CLOCK_SLACK_MS);
    expect(Math.abs(hrTimeToMilliseconds(operation.duration) - 40)).toBeLessThan(CLOCK_SLACK_MS);
    expect(operation.attributes['gateway.dynamodb.requests']).toBe(3);

    const query = finished.find((s) => s.name === 'DynamoDB.Query')!;
    expect(query.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
    expect(query.attributes['aws.dynamodb.table_names']).toEqual(['AppTable']);
    expect(query.attributes['aws.dynamodb.index_name']).toBe('GSI1');
    expect(query.attributes['gateway.dynamodb.attempts']).toBe(2);
    expect(query.attributes['gateway.dynamodb.throttles']).toBe(1);
    expect(Math.abs(hrTimeToMilliseconds(query.startTime) - wall(startedAt + 5))).toBeLessThan(CLOCK_SLACK_MS);
    expect(Math.abs(hrTimeToMilliseconds(query.duration) - 15)).toBeLessThan(CLOCK_SLACK_MS);
    const batch = finished.find((s) => s.name === 'DynamoDB.BatchGetItem')!;
    expect(batch.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);

    expect(await counter('gateway.graphql.operations')).toBe(1);
    expect(await counter('gateway.dynamodb.requests')).toBe(3);
    expect(await counter('gateway.dynamodb.throttles')).toBe(1);

    // Once ready, calls go straight to the SDK.
    spans.reset();
    const direct = telemetry.startOperation(undefined);
    direct.calls.callStarted('GetItem', { TableName: 'AppTable' }).finished({ $metadata: { attempts: 1 } });
    direct.finish({ ...finish, name: 'Direct' });
    expect(
      spans
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['DynamoDB.GetItem', 'query Direct']);
    expect(await counter('gateway.graphql.operations')).toBe(2);
    await telemetry.flush();
    expect(loads).toBe(1);
  });

  it('loads no SDK to shut down when nothing was recorded', async () => {
    let loads = 0;
    const telemetry = deferTelemetry(async () => {
      loads += 1;
      return undefined;
    });
    await telemetry.shutdown();
    expect(loads).toBe(0);
    telemetry.startOperation(undefined).finish(finish);
    await telemetry.shutdown();
    expect(loads).toBe(1);
  });

  it('starts loading at once when eager', async () => {
    let loads = 0;
    const telemetry = deferTelemetry(
      async () => {
        loads += 1;
        return undefined;
      },
      { eager: true },
    );
    expect(loads).toBe(1);
    await telemetry.flush();
    expect(loads).toBe(1);
  });

  it('drops what was recorded when the SDK does not load, and flush still returns', async () => {
    const telemetry = deferTelemetry(() => Promise.reject(new Error('no SDK')));
    const trace = telemetry.startOperation(undefined);
    trace.calls.callStarted('Query', { TableName: 'AppTable' }).finished({ $metadata: { attempts: 1 } });
    trace.finish(finish);
    telemetry.subscriptionsChanged(1);
    await expect(telemetry.flush()).resolves.toBeUndefined();
    await expect(telemetry.shutdown()).resolves.toBeUndefined();
  });
});
