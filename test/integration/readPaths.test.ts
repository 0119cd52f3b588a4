/**
 * The two implementations of the read port answer alike: the same GraphQL
 * operations run through the lean reader (src/dynamo/leanReads/, the
 * default) and through the SDK's document client (`DYNAMODB_READ_PATH=sdk`)
 * over the same table, and must give the same answers and the same DynamoDB
 * requests. The operations are the benchmark's (bench/cases.ts) and a paged
 * read with cursors; a dependency upgrade that changes what either path
 * sends or returns fails here. Attribute types, errors and signing are
 * compared request by request in readPath.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CASES, SHAPE as BENCH_SHAPE } from '../../bench/cases.js';
import { buildDataset, DEFAULT_SHAPE, type Dataset } from '../../scripts/dataset.js';
import { writeItems } from '../../scripts/seedTable.js';
import { createDynamo, type Dynamo } from '../../src/dynamo/client.js';
import { OperationMetrics } from '../../src/dynamo/metrics.js';
import { createContext } from '../../src/graphql/context.js';
import { DEFAULT_LIMITS } from '../../src/graphql/plugins/queryLimits.js';
import { localEndpoint, PATIENT_CLIENT, testGateway, type TestGateway } from '../support/gateway.js';

const SHAPE = {
  ...DEFAULT_SHAPE,
  students: 260,
  courses: 12,
  enrollmentsPerStudent: 2,
  customers: 10,
  ordersPerCustomer: 12,
  products: 3,
  partsPerProduct: 2,
  scaleBase: 2,
};

let gw: TestGateway;
let sdk: Dynamo;
let dataset: Dataset;

beforeAll(async () => {
  // The 250-alias case needs more than the served limits, as in the bench.
  gw = await testGateway({ limits: { ...DEFAULT_LIMITS, maxAliases: 300, maxTokens: 5000 } });
  sdk = createDynamo({ endpoint: localEndpoint(), ...PATIENT_CLIENT, readPath: 'sdk' });
  const data = buildDataset(SHAPE);
  await writeItems(gw.dynamo.doc, gw.tableName, data.items, { concurrency: 4 });
  // The bench's cases name ids by position in its larger data set: wrap them onto this one.
  const wrap = (list: string[], n: number) => Array.from({ length: n }, (_, i) => list[i % list.length]!);
  dataset = { ...data, ids: { ...data.ids, students: wrap(data.ids.students, BENCH_SHAPE.students), courses: wrap(data.ids.courses, BENCH_SHAPE.courses) } };
});
afterAll(async () => {
  sdk?.raw.destroy();
  await gw?.stop();
});

/**
 * One operation on the given path: its answer and its requests. Retries the
 * machine caused (a starved DynamoDB Local) are taken out of the counts:
 * both paths retry alike, and a count compares what the operation sends.
 */
async function run(path: 'lean' | 'sdk', query: string, variables: Record<string, unknown>) {
  const deps = path === 'lean' ? gw.deps : { ...gw.deps, doc: sdk.doc, readPath: sdk.reads };
  const metrics = new OperationMetrics();
  const response = await gw.server.executeOperation({ query, variables }, { contextValue: createContext(deps, metrics) });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  const summary = metrics.summary();
  for (const [operation, n] of Object.entries(metrics.retriesByOperation)) {
    summary.requests -= n;
    summary.byOperation[operation]! -= n;
  }
  return { result: response.body.singleResult, requests: summary };
}

describe('the lean reader and the SDK behind the read port', () => {
  it('sends each path its reads: the lean reader without the SDK client, the SDK path without the lean reader', async () => {
    const spec = CASES.find((c) => c.name.startsWith('course(id) { title students(first: 10) { id name email }'))!;
    const leanSend = vi.spyOn(gw.dynamo.reads!, 'send');
    const leanClientSend = vi.spyOn(gw.dynamo.raw, 'send');
    // The SDK path's requests leave through its own client's HTTP handler.
    const sdkHandler = vi.spyOn(sdk.raw.config.requestHandler as { handle: (...args: unknown[]) => unknown }, 'handle');
    try {
      await run('lean', spec.query, spec.variables(dataset));
      expect(leanSend).toHaveBeenCalledTimes(3);
      expect(leanClientSend).not.toHaveBeenCalled();
      expect(sdkHandler).not.toHaveBeenCalled();
      leanSend.mockClear();
      await run('sdk', spec.query, spec.variables(dataset));
      expect(sdkHandler.mock.calls.length).toBeGreaterThanOrEqual(3);
      expect(leanSend).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  for (const spec of CASES) {
    it(`answers ${spec.name} alike, with the same DynamoDB requests`, async () => {
      const variables = spec.variables(dataset);
      const lean = await run('lean', spec.query, variables);
      const viaSdk = await run('sdk', spec.query, variables);
      expect(lean.result.errors).toBeUndefined();
      expect(lean.result.data).not.toBeNull();
      expect(lean.requests.requests).toBeGreaterThan(0);
      expect(viaSdk).toEqual(lean);
    });
  }

  it('pages alike: the same cursors, pages and requests, forward and backward', async () => {
    const query = `query ($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      customer(id: $id) { name orders(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id total } } pageInfo { hasNextPage hasPreviousPage endCursor startCursor } } } }`;
    const id = dataset.ids.customers[3];
    let after: string | null = null;
    let pages = 0;
    do {
      const lean = await run('lean', query, { id, first: 5, after });
      const viaSdk = await run('sdk', query, { id, first: 5, after });
      expect(lean.result.errors).toBeUndefined();
      expect(viaSdk).toEqual(lean);
      const page = (lean.result.data as any).customer.orders;
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      pages += 1;
    } while (after);
    expect(pages).toBe(3); // 12 orders, 5 a page
    const lean = await run('lean', query, { id, last: 4 });
    expect(await run('sdk', query, { id, last: 4 })).toEqual(lean);
    expect((lean.result.data as any).customer.orders.edges).toHaveLength(4);
  });
});
