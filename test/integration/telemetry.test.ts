/**
 * Traces and metrics with telemetry on, read back from an in-memory span
 * exporter and a metric reader handed to the real telemetry (src/telemetry/):
 * one span per operation, child of the caller's traceparent, one child per
 * DynamoDB call with its table, index, capacity and retries; a span per
 * stream batch; the metric values after known operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { loadConfig } from '../../src/config.js';
import { loadTelemetry, type Telemetry } from '../../src/telemetry/telemetry.js';
import { telemetrySettings } from '../../src/telemetry/settings.js';
import { silentLogger } from '../../src/logger.js';
import { createStreamLambdaHandler } from '../../src/stream/lambda.js';
import { createLambdaHandler } from '../../src/transport/lambdaHandler.js';
import { createStreamsClient } from '../../src/stream/streamsClient.js';
import { operationCost } from '../../src/graphql/plugins/queryLimits.js';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { loadModel } from '../../src/declaration/loadModel.js';
import { codes, localEndpoint, postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { twoStudentsTwoCourses } from '../support/fixtures.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { lambdaEvent, readAll } from '../support/streamRecords.js';
import { patience } from '../support/patience.js';

const { typeDefs } = loadModel();

class TestReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

const spans = new InMemorySpanExporter();
const reader = new TestReader();
let telemetry: Telemetry;
let gw: TestGateway;
let url: string;

const fail = (message: string): never => {
  throw new Error(message);
};

beforeAll(async () => {
  telemetry = (await loadTelemetry(telemetrySettings({ OTEL_SERVICE_NAME: 'gateway-under-test' }, fail), silentLogger, {
    spanProcessors: [new SimpleSpanProcessor(spans)],
    metricReaders: [reader],
  }))!;
  gw = await testGateway({ telemetry });
  await gw.put(twoStudentsTwoCourses());
  url = await gw.listen();
});
afterAll(async () => {
  await gw.stop();
  await telemetry.shutdown();
});

const NESTED = `query StudentCourses($id: ID!) {
  student(id: $id) { name courses(first: 2) { edges { node { title students(first: 2) { edges { node { name } } } } } } }
}`;

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const childrenOf = (parent: ReadableSpan) => spans.getFinishedSpans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const spanOfRequest = (requestId: string) => spans.getFinishedSpans().find((s) => s.attributes['gateway.request_id'] === requestId);

async function metricPoints(name: string): Promise<DataPoint<unknown>[]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
}

/** The value of a counter's point with exactly these attributes (0 when absent). */
async function counter(name: string, attributes: Record<string, unknown>): Promise<number> {
  const point = (await metricPoints(name)).find((p) => JSON.stringify(p.attributes) === JSON.stringify(attributes));
  return (point?.value as number | undefined) ?? 0;
}

describe('the trace of a nested operation', () => {
  it("is one operation span under the caller's traceparent with one child span per DynamoDB request", async () => {
    spans.reset();
    const { status, json } = await postGraphQL(
      url,
      { query: NESTED, variables: { id: 's1' } },
      { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, 'x-dynamodb-metrics': '1' },
    );
    expect(status).toBe(200);
    expect(json.errors).toBeUndefined();
    const dynamodb = json.extensions.dynamodb;
    expect(dynamodb.requests).toBeGreaterThan(1);

    const operations = spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(operations).toHaveLength(1);
    const [operation] = operations;
    expect(operation.name).toBe('query StudentCourses');
    expect(operation.spanContext().traceId).toBe(TRACE_ID);
    expect(operation.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    const schema = makeExecutableSchema({ typeDefs });
    const definition = parse(NESTED).definitions[0] as Parameters<typeof operationCost>[1];
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'StudentCourses',
      'graphql.operation.type': 'query',
      'gateway.cost': operationCost(schema, definition, () => undefined, { id: 's1' }),
      'gateway.error_codes': [],
      'gateway.outcome': 'ok',
      'gateway.dynamodb.requests': dynamodb.requests,
      'gateway.dynamodb.waves': dynamodb.waves,
      'gateway.dynamodb.consumed_capacity': dynamodb.consumedCapacity,
    });
    expect(operation.resource.attributes['service.name']).toBe('gateway-under-test');

    const calls = childrenOf(operation);
    expect(calls).toHaveLength(dynamodb.requests);
    expect(spans.getFinishedSpans()).toHaveLength(1 + dynamodb.requests); // no span per resolver
    const byMethod: Record<string, number> = {};
    for (const call of calls) {
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(call.spanContext().traceId).toBe(TRACE_ID);
      expect(call.name).toBe(`DynamoDB.${call.attributes['rpc.method']}`);
      expect(call.attributes['aws.dynamodb.table_names']).toEqual([gw.tableName]);
      expect(call.attributes['gateway.dynamodb.retries']).toBe(0);
      expect(call.attributes['gateway.dynamodb.capacity_units']).toBeGreaterThan(0);
      byMethod[call.attributes['rpc.method'] as string] = (byMethod[call.attributes['rpc.method'] as string] ?? 0) + 1;
    }
    expect(byMethod).toEqual(dynamodb.byOperation);
    // Course.students reads the inverted index.
    expect(calls.filter((c) => c.attributes['aws.dynamodb.index_name'] === 'GSI1').length).toBeGreaterThan(0);
    const capacity = calls.reduce((sum, c) => sum + (c.attributes['gateway.dynamodb.capacity_units'] as number), 0);
    expect(capacity).toBeCloseTo(dynamodb.consumedCapacity, 3);
  });

  it('starts a new trace when the caller sends no traceparent', async () => {
    spans.reset();
    await postGraphQL(url, { query: NESTED, variables: { id: 's2' } });
    const [operation] = spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(operation.parentSpanContext).toBeUndefined();
    expect(operation.spanContext().traceId).not.toBe(TRACE_ID);
  });

  it('names the error codes of a refused operation, which has no DynamoDB spans', async () => {
    spans.reset();
    const { result } = await gw.counted('query Bad { student(id: "a#b") { name } }');
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    const [operation] = spans.getFinishedSpans();
    expect(operation.attributes).toMatchObject({ 'gateway.error_codes': ['BAD_USER_INPUT'], 'gateway.outcome': 'user_error', 'gateway.dynamodb.requests': 0 });
    expect(operation.status.code).toBe(SpanStatusCode.UNSET);
    expect(childrenOf(operation)).toHaveLength(0);
  });

  it('gives a throttled and retried request one span with its retry, throttle and two requests counted', async () => {
    const throttlesBefore = await counter('gateway.dynamodb.throttles', { 'rpc.method': 'GetItem' });
    const retriesBefore = await counter('gateway.dynamodb.retries', { 'rpc.method': 'GetItem' });
    const remove = injectFaults(gw.dynamo, ({ operation, attempt }) =>
      operation === 'GetItem' && attempt === 1 ? dynamoFault('ProvisionedThroughputExceededException') : null,
    );
    spans.reset();
    try {
      const { result, requests } = await gw.counted('query One { course(id: "a") { title } }');
      expect(result.errors).toBeUndefined();
      expect(requests.requests).toBe(2);
    } finally {
      remove();
    }
    const [operation] = spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    const [call, ...more] = childrenOf(operation);
    expect(more).toHaveLength(0);
    expect(call.attributes).toMatchObject({
      'rpc.method': 'GetItem',
      'gateway.dynamodb.attempts': 2,
      'gateway.dynamodb.retries': 1,
      'gateway.dynamodb.throttles': 1,
    });
    expect(operation.attributes['gateway.dynamodb.requests']).toBe(2);
    expect(await counter('gateway.dynamodb.throttles', { 'rpc.method': 'GetItem' })).toBe(throttlesBefore + 1);
    expect(await counter('gateway.dynamodb.retries', { 'rpc.method': 'GetItem' })).toBe(retriesBefore + 1);
  });

  it('marks an operation DynamoDB failed with UNAVAILABLE as a server error', async () => {
    const remove = injectFaults(gw.dynamo, () => dynamoFault('InternalServerError'));
    spans.reset();
    try {
      const { result } = await gw.counted('query Down { course(id: "a") { title } }');
      expect(codes(result)).toEqual(['UNAVAILABLE']);
    } finally {
      remove();
    }
    const [operation] = spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(operation.status.code).toBe(SpanStatusCode.ERROR);
    expect(operation.attributes).toMatchObject({ 'gateway.outcome': 'server_error', 'error.type': 'UNAVAILABLE' });
    const [call] = childrenOf(operation);
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('InternalServerError');
  });
});

describe('metrics', () => {
  it('count operations by type and outcome, their latency, errors by code and DynamoDB requests and capacity by operation', async () => {
    const before = {
      ok: await counter('gateway.graphql.operations', { 'graphql.operation.type': 'query', outcome: 'ok' }),
      refused: await counter('gateway.graphql.operations', { 'graphql.operation.type': 'query', outcome: 'user_error' }),
      created: await counter('gateway.graphql.operations', { 'graphql.operation.type': 'mutation', outcome: 'ok' }),
      badInput: await counter('gateway.graphql.errors', { 'error.code': 'BAD_USER_INPUT' }),
      queries: await counter('gateway.dynamodb.requests', { 'rpc.method': 'Query' }),
      batchGets: await counter('gateway.dynamodb.requests', { 'rpc.method': 'BatchGetItem' }),
      transactions: await counter('gateway.dynamodb.requests', { 'rpc.method': 'TransactWriteItems' }),
      queryCapacity: await counter('gateway.dynamodb.consumed_capacity', { 'rpc.method': 'Query' }),
    };
    const histogramCount = async () => (await metricPoints('gateway.graphql.operation.duration')).reduce((n, p) => n + (p.value as Histogram).count, 0);
    const countBefore = await histogramCount();

    const byOperation: Record<string, number> = {};
    for (const id of ['s1', 's2', 's1']) {
      const { result, requests } = await gw.counted(NESTED, { id });
      expect(result.errors).toBeUndefined();
      for (const [op, n] of Object.entries(requests.byOperation)) byOperation[op] = (byOperation[op] ?? 0) + n;
    }
    const refused = await gw.counted('{ student(id: "") { name } }');
    expect(codes(refused.result)).toEqual(['BAD_USER_INPUT']);
    const created = await gw.counted('mutation { createCourse(input: { id: "metrics-c", title: "M" }) { id } }');
    expect(created.result.errors).toBeUndefined();
    for (const [op, n] of Object.entries(created.requests.byOperation)) byOperation[op] = (byOperation[op] ?? 0) + n;

    expect(await counter('gateway.graphql.operations', { 'graphql.operation.type': 'query', outcome: 'ok' })).toBe(before.ok + 3);
    expect(await counter('gateway.graphql.operations', { 'graphql.operation.type': 'query', outcome: 'user_error' })).toBe(before.refused + 1);
    expect(await counter('gateway.graphql.operations', { 'graphql.operation.type': 'mutation', outcome: 'ok' })).toBe(before.created + 1);
    expect(await counter('gateway.graphql.errors', { 'error.code': 'BAD_USER_INPUT' })).toBe(before.badInput + 1);
    expect(await histogramCount()).toBe(countBefore + 5);
    expect(await counter('gateway.dynamodb.requests', { 'rpc.method': 'Query' })).toBe(before.queries + (byOperation.Query ?? 0));
    expect(await counter('gateway.dynamodb.requests', { 'rpc.method': 'BatchGetItem' })).toBe(before.batchGets + (byOperation.BatchGetItem ?? 0));
    expect(await counter('gateway.dynamodb.requests', { 'rpc.method': 'TransactWriteItems' })).toBe(before.transactions + 1);
    expect(await counter('gateway.dynamodb.consumed_capacity', { 'rpc.method': 'Query' })).toBeGreaterThan(before.queryCapacity);
  });

  it("count a server's open connections while they are open", async () => {
    const server = createHttpServer((_req, res) => res.end('ok'));
    telemetry.watchConnections(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const open = async () => (await metricPoints('gateway.http.open_connections')).reduce((n, p) => n + (p.value as number), 0);
    const before = await open();
    const { port } = server.address() as AddressInfo;
    const { Agent, request } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const get = () =>
      new Promise<void>((resolve, reject) => {
        request({ host: '127.0.0.1', port, agent }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end();
      });
    await Promise.all([get(), get()]);
    expect(await open()).toBe(before + 2);
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect.poll(open, { timeout: patience(5000) }).toBe(before);
  });
});

describe('the stream processor', () => {
  it('gives each batch of the in-process reader a span with its DynamoDB calls as children', async () => {
    await gw.settle(); // earlier writes handled by the untraced worker
    await gw.stopWorker();
    spans.reset();
    const rename = await gw.run('mutation { updateCourse(id: "a", input: { title: "A2" }) { id } }');
    expect(rename.errors).toBeUndefined();
    const traced = gw.streamReader({ telemetry, checkpointName: 'traced' });
    traced.start();
    await traced.caughtUp();
    await traced.stop();

    const batches = spans.getFinishedSpans().filter((s) => s.name === 'stream batch');
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) {
      expect(batch.kind).toBe(SpanKind.CONSUMER);
      expect(batch.attributes['gateway.stream.source']).toBe('reader');
      expect(batch.attributes['gateway.stream.failed']).toBe(false);
      expect(typeof batch.attributes['gateway.stream.shard_id']).toBe('string');
      for (const call of childrenOf(batch)) expect(call.name).toMatch(/^DynamoDB\./);
    }
    // Course a has two students: the rename rewrote both edge copies, inside some batch's span.
    const copies = batches.reduce((n, b) => n + (b.attributes['gateway.stream.copies'] as number), 0);
    expect(copies).toBe(2);
    const withCopies = batches.find((b) => (b.attributes['gateway.stream.copies'] as number) > 0)!;
    expect(childrenOf(withCopies).length).toBeGreaterThan(0);
    expect((await metricPoints('gateway.stream.lag')).length).toBeGreaterThan(0);
  });

  it("gives the stream Lambda's batch one span and exports it before the invocation returns", async () => {
    const streams = createStreamsClient({ endpoint: localEndpoint() });
    const records = await readAll(streams, gw.streamArn!);
    streams.destroy();
    const config = loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), TABLE_NAME: gw.tableName, LOG_LEVEL: 'silent' }, { servesGraphql: false });
    const lambda = createStreamLambdaHandler(config, { dynamo: gw.dynamo, logger: silentLogger, telemetry });
    spans.reset();
    const out = await lambda(lambdaEvent(records, gw.streamArn!));
    expect(out.batchItemFailures).toEqual([]);
    const batches = spans.getFinishedSpans().filter((s) => s.name === 'stream batch');
    expect(batches).toHaveLength(1);
    expect(batches[0].attributes).toMatchObject({
      'gateway.stream.source': 'lambda',
      'gateway.stream.records': records.length,
      'gateway.stream.processed': records.length,
    });
  });
});

describe('on Lambda', () => {
  it("traces an API Gateway event as over HTTP: the caller's trace, one operation span, a child per DynamoDB request", async () => {
    const config = loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), TABLE_NAME: gw.tableName, LOG_LEVEL: 'silent', AWS_REGION: 'us-east-1' });
    const lambda = createLambdaHandler(config, { dynamo: gw.dynamo, logger: silentLogger, telemetry });
    spans.reset();
    const result = await lambda(
      {
        version: '2.0',
        routeKey: 'POST /graphql',
        rawPath: '/graphql',
        rawQueryString: '',
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
        requestContext: { http: { method: 'POST', path: '/graphql' } },
        body: JSON.stringify({ query: NESTED, variables: { id: 's1' } }),
        isBase64Encoded: false,
      } as never,
      { awsRequestId: 'lambda-traced', getRemainingTimeInMillis: () => 10_000 } as never,
    );
    expect(JSON.parse(result.body!).data.student.name).toBe('One');
    const operations = spans.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    expect(operations).toHaveLength(1);
    expect(operations[0].spanContext().traceId).toBe(TRACE_ID);
    expect(operations[0].attributes['gateway.request_id']).toBe('lambda-traced');
    expect(childrenOf(operations[0])).toHaveLength(operations[0].attributes['gateway.dynamodb.requests'] as number);
  });
});

describe('event delivery (for subscriptions)', () => {
  it('is a span under the trace context the event carries, counted by outcome', async () => {
    spans.reset();
    const headers = new Map([['traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`]]);
    telemetry.startDelivery('courseChanged', headers).finish({ outcome: 'ok' });
    const [delivery] = spans.getFinishedSpans();
    expect(delivery.name).toBe('subscription courseChanged');
    expect(delivery.spanContext().traceId).toBe(TRACE_ID);
    expect(await counter('gateway.subscriptions.events', { 'gateway.subscription': 'courseChanged', outcome: 'ok' })).toBe(1);
  });
});
