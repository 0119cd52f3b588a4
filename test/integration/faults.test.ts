import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { demoItems } from '../support/demoData.js';
import { isUnavailableError } from '../../src/errors.js';
import { createContext } from '../../src/graphql/context.js';
import { createDynamo, type ClientOptions } from '../../src/dynamo/client.js';
import { freePort } from '../../src/dynamo/local.js';
import { metricsClient, OperationMetrics } from '../../src/dynamo/metrics.js';
import { createHttpHandler } from '../../src/transport/httpHandler.js';
import { codes, localEndpoint, postGraphQL, testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';
import { dynamoFault, injectFaults, type FaultKind } from '../support/faults.js';
import { TEST_DEPTH } from '../support/depth.js';
import { patience } from '../support/patience.js';

let gw: TestGateway;
let removeFaults: (() => void) | undefined;
beforeAll(async () => {
  // Throttling backoff in tests starts at 1 ms instead of 25 ms: same attempts, less waiting.
  gw = await testGateway({ client: { throttleBaseDelayMs: 1 } });
  await gw.put(demoItems());
});
afterEach(() => {
  removeFaults?.();
  removeFaults = undefined;
});
afterAll(() => gw.stop());

const NESTED = `{ student(id: "1") { name courses(first: 10) { totalCount edges { node { title students { edges { node { name } } } } } } } }`;

describe('throttling and 5xx from DynamoDB', () => {
  it('still answers reads correctly when the first attempt of every request is throttled, at twice the requests', async () => {
    const clean = await gw.counted(NESTED);
    expect(clean.result.errors).toBeUndefined();

    removeFaults = injectFaults(gw.dynamo, ({ attempt }) => (attempt === 1 ? dynamoFault('ProvisionedThroughputExceededException') : null));
    const throttled = await gw.counted(NESTED);
    expect(throttled.result).toEqual(clean.result);
    const doubled = Object.fromEntries(Object.entries(clean.requests.byOperation).map(([op, n]) => [op, 2 * n]));
    expect(throttled.requests.byOperation).toEqual(doubled);
  });

  it.each<[FaultKind, number]>([
    ['ProvisionedThroughputExceededException', 10],
    ['ThrottlingException', 10],
    ['InternalServerError', 3],
    ['ServiceUnavailable', 3],
  ])('answers UNAVAILABLE when every attempt fails with %s, after %i attempts (throttling has its own budget)', async (kind, attempts) => {
    removeFaults = injectFaults(gw.dynamo, () => dynamoFault(kind));
    const { result, requests } = await gw.counted(`{ student(id: "1") { name } }`);
    expect(result.data).toEqual({ student: null });
    expect(codes(result)).toEqual(['UNAVAILABLE']);
    expect(result.errors![0].extensions!.requestId).toEqual(expect.any(String));
    expect(requests.byOperation).toEqual({ GetItem: attempts });
  });

  it('answers UNAVAILABLE for a connection read whose Query is throttled on every attempt', async () => {
    removeFaults = injectFaults(gw.dynamo, ({ operation }) => (operation === 'Query' ? dynamoFault('ThrottlingException') : null));
    const { result, requests } = await gw.counted(`{ course(id: "A") { title students(first: 2) { edges { node { id } } } } }`);
    expect(codes(result)).toEqual(['UNAVAILABLE']);
    expect(result.data).toEqual({ course: null });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 10 });
  });

  it(`absorbs 30% throttling: ${100 * TEST_DEPTH} reads of two requests each, none failed`, async () => {
    const clean = await gw.counted(`{ course(id: "A") { title students(first: 2) { edges { node { id name } } } } }`);
    expect(clean.result.errors).toBeUndefined();
    // Deterministic "random": a fixed sequence, so the run is the same every time.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let throttled = 0;
    removeFaults = injectFaults(gw.dynamo, () => (next() < 0.3 ? (throttled++, dynamoFault('ThrottlingException')) : null));
    const query = `query($id: ID!) { course(id: $id) { title students(first: 2) { edges { node { id name } } } } }`;
    let failed = 0;
    for (let round = 0; round < 5 * TEST_DEPTH; round++) {
      const results = await Promise.all(Array.from({ length: 20 }, () => gw.counted(query, { id: 'A' })));
      for (const { result } of results) if (result.errors || JSON.stringify(result.data) !== JSON.stringify(clean.result.data)) failed++;
    }
    // Some 60 of every 200-odd first attempts and retries.
    expect(throttled).toBeGreaterThan(40 * TEST_DEPTH);
    expect(failed).toBe(0);
  });

  it('answers HTTP 200 with UNAVAILABLE errors, never a 5xx, when every field failed', async () => {
    removeFaults = injectFaults(gw.dynamo, () => dynamoFault('ServiceUnavailable'));
    const url = await gw.listen();
    const { status, json } = await postGraphQL(url, { query: `{ a: student(id: "1") { name } b: course(id: "A") { title } }` });
    expect(status).toBe(200);
    expect(json.data).toEqual({ a: null, b: null });
    expect(json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE']);
  });
});

/** A gateway over the test table whose DynamoDB client talks to `endpoint` instead. */
function gatewayAt(endpoint: string, client: Omit<ClientOptions, 'endpoint'> = {}) {
  const dynamo = createDynamo({ endpoint, ...client });
  const deps = { ...gw.deps, doc: dynamo.doc, readPath: dynamo.reads };
  return {
    dynamo,
    async counted(query: string) {
      const metrics = new OperationMetrics();
      const response = await gw.server.executeOperation({ query }, { contextValue: createContext(deps, metrics) });
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      return { result: response.body.singleResult as GqlResult, requests: metrics };
    },
    handler: createHttpHandler(gw.server, {
      corsOrigins: undefined,
      health: async () => true,
      context: async (metrics) => createContext(deps, metrics),
    }),
  };
}

describe('adaptive retry mode', () => {
  it('still retries throttling with DYNAMODB_RETRY_MODE=adaptive, within the throttling budget', async () => {
    const adaptive = gatewayAt(localEndpoint(), { retryMode: 'adaptive', throttleBaseDelayMs: 1 });
    const remove = injectFaults(adaptive.dynamo, ({ attempt }) => (attempt <= 2 ? dynamoFault('ThrottlingException') : null));
    try {
      const { result, requests } = await adaptive.counted(`{ student(id: "1") { name } }`);
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ student: { name: expect.any(String) } });
      expect(requests.byOperation).toEqual({ GetItem: 3 });
    } finally {
      remove();
      adaptive.dynamo.raw.destroy();
    }
  });
});

describe('DynamoDB unreachable', () => {
  it(
    'answers UNAVAILABLE after the configured attempts when the connection is refused',
    async () => {
      const dead = gatewayAt(`http://127.0.0.1:${await freePort()}`);
      try {
        const { result, requests } = await dead.counted(`{ student(id: "1") { name } }`);
        expect(codes(result)).toEqual(['UNAVAILABLE']);
        expect(result.data).toEqual({ student: null });
        expect(requests.byOperation).toEqual({ GetItem: 3 });
      } finally {
        dead.dynamo.raw.destroy();
      }
    },
    patience(15_000),
  );

  it(
    'answers HTTP 200 with UNAVAILABLE over HTTP when the connection is refused',
    async () => {
      const dead = gatewayAt(`http://127.0.0.1:${await freePort()}`);
      const http = createHttpServer(dead.handler);
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
        const { status, json } = await postGraphQL(url, { query: `{ course(id: "A") { students { totalCount } } }` });
        expect(status).toBe(200);
        expect(json.errors.map((e: any) => e.extensions.code)).toEqual(['UNAVAILABLE']);
      } finally {
        http.close();
        dead.dynamo.raw.destroy();
      }
    },
    patience(15_000),
  );

  it(
    'answers UNAVAILABLE, not a hang, when DynamoDB accepts connections but never replies',
    async () => {
      const sockets: Socket[] = [];
      const silent: Server = createNetServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const hung = gatewayAt(endpoint, { maxAttempts: 2, requestTimeoutMs: 300 });
      try {
        const { result, requests } = await hung.counted(`{ student(id: "1") { name } }`);
        expect(codes(result)).toEqual(['UNAVAILABLE']);
        expect(requests.byOperation).toEqual({ GetItem: 2 });
      } finally {
        hung.dynamo.raw.destroy();
        for (const s of sockets) s.destroy();
        silent.close();
      }
    },
    patience(15_000),
  );
});

describe('writes under faults (transaction level; mutations build on this)', () => {
  const write = (metrics: OperationMetrics) =>
    metricsClient(gw.dynamo.doc, metrics).send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: gw.tableName, Item: { PK: 'STUDENT#tx', SK: 'PROFILE', name: 'Tx', courseCount: 0 } } },
          {
            Update: {
              TableName: gw.tableName,
              Key: { PK: 'COURSE#A', SK: 'PROFILE' },
              UpdateExpression: 'ADD studentCount :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );

  it('leaves the table as it was when every attempt of a transaction is throttled, and reports it as UNAVAILABLE', async () => {
    const before = await gw.scan();
    const metrics = new OperationMetrics();
    removeFaults = injectFaults(gw.dynamo, ({ operation }) => (operation === 'TransactWriteItems' ? dynamoFault('ThrottlingException') : null));
    const error = await write(metrics).catch((e: unknown) => e);
    expect(isUnavailableError(error)).toBe(true);
    expect(metrics.byOperation).toEqual({ TransactWriteItems: 10 });
    removeFaults();
    removeFaults = undefined;
    expect(await gw.scan()).toEqual(before);
  });

  it('does not retry a cancelled transaction, and does not call it UNAVAILABLE', async () => {
    const metrics = new OperationMetrics();
    const error = await metricsClient(gw.dynamo.doc, metrics)
      .send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: gw.tableName,
                Item: { PK: 'STUDENT#1', SK: 'PROFILE', name: 'Duplicate' },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('TransactionCanceledException');
    expect(isUnavailableError(error)).toBe(false);
    expect(metrics.byOperation).toEqual({ TransactWriteItems: 1 });
  });
});

describe('mutations under faults (GraphQL level)', () => {
  it('answers enroll under persistent throttling with UNAVAILABLE and leaves no edge, counter or copy behind', async () => {
    const before = await gw.scan();
    removeFaults = injectFaults(gw.dynamo, ({ operation }) => (operation === 'TransactWriteItems' ? dynamoFault('ThrottlingException') : null));
    const result = await gw.run(`mutation { enroll(studentId: "4", courseId: "B") { enrolledAt } }`);
    expect(codes(result)).toEqual(['UNAVAILABLE']);
    removeFaults();
    removeFaults = undefined;
    expect(await gw.scan()).toEqual(before);
  });

  it('answers placeOrder with UNAVAILABLE when DynamoDB answers 5xx, and writes nothing', async () => {
    const before = await gw.scan();
    removeFaults = injectFaults(gw.dynamo, ({ operation }) => (operation === 'TransactWriteItems' ? dynamoFault('InternalServerError') : null));
    const result = await gw.run(`mutation { placeOrder(customerId: "1", input: { total: 5 }) { id } }`);
    expect(codes(result)).toEqual(['UNAVAILABLE']);
    removeFaults();
    removeFaults = undefined;
    expect(await gw.scan()).toEqual(before);
  });

  it('completes enroll when only the first attempts are throttled', async () => {
    removeFaults = injectFaults(gw.dynamo, ({ attempt }) => (attempt === 1 ? dynamoFault('ProvisionedThroughputExceededException') : null));
    const result = await gw.run(`mutation { enroll(studentId: "4", courseId: "C") { node { id title } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.enroll.node).toEqual({ id: 'C', title: 'Compilers' });
    expect(await gw.get('STUDENT#4', 'COURSE#C')).toMatchObject({ GSI1PK: 'COURSE#C', courseTitle: 'Compilers' });
  });
});
