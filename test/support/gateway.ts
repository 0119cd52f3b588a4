/**
 * A gateway per test file, against the run's DynamoDB Local: a fresh table,
 * the Apollo server driven through executeOperation (no HTTP), raw item
 * writes for "table filled by another program" cases, and a DynamoDB
 * request counter.
 */
import type { CheckOptions } from '../../src/migration/checkRun.js';
import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { GraphQLFormattedError } from 'graphql';
import { createContext } from '../../src/graphql/context.js';
import { createDynamo } from '../../src/dynamo/client.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { OperationMetrics, type RequestLimits } from '../../src/dynamo/metrics.js';
import { faultsInjected } from './faults.js';
import type { Server } from 'node:http';
import { createHttpListener } from '../../src/transport/httpServer.js';
import type { HttpConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions } from '../../src/graphql/server.js';
import { createCursorCodec, type CursorSecrets } from '../../src/connections/cursorSigning.js';
import { createHttpHandler } from '../../src/transport/httpHandler.js';
import { createExplorer, explorerExample } from '../../src/transport/explorer.js';
import { demoItemsOf } from '../../src/transport/demoData.js';
import type { TrustedDocuments } from '../../src/transport/trustedDocuments.js';
import type { ClientOptions } from '../../src/dynamo/client.js';
import { describeLayout } from '../../src/dynamo/table.js';
import { silentLogger } from '../../src/logger.js';
import { StreamReader, type ReaderOptions } from '../../src/stream/reader.js';
import { createStreamsClient } from '../../src/stream/streamsClient.js';
import type { FanOutMode } from '../../src/writes/store.js';
import type { Authenticator } from '../../src/auth/authenticate.js';
import { compileRules } from '../../src/auth/compileRules.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';

/** Timeouts for test gateways: generous, since tests assert behaviour and counts, not latency. */
export const PATIENT_CLIENT = { requestTimeoutMs: 20_000, connectionTimeoutMs: 10_000 };

export function localEndpoint(): string {
  const endpoint = inject('dynamoEndpoint');
  // Connected tests refuse any endpoint but a local one: they create and drop tables.
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint)) {
    throw new Error(`refusing to run integration tests against non-local endpoint ${endpoint}`);
  }
  return endpoint;
}

export interface GqlResult<T = any> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
  extensions?: Record<string, any>;
}

/** The fixed cursor secret of the test gateways (≥ 32 characters, as config.ts requires). */
export const TEST_CURSOR_SECRET = 'test-cursor-secret-0123456789abcdefghij';

export interface TestGatewayOptions extends Partial<Omit<ServerOptions, 'production'>> {
  production?: boolean;
  /** Cursor secrets; default TEST_CURSOR_SECRET alone. */
  cursorSecrets?: CursorSecrets;
  /** Largest HTTP body accepted by `listen()`. */
  maxBodyBytes?: number;
  /**
   * DynamoDB client settings (retries, timeouts). Default: a patient client
   * (20 s per attempt), so a loaded test machine's latency never turns into
   * retries or UNAVAILABLE; tests of timeouts pass their own.
   */
  client?: Omit<ClientOptions, 'endpoint'>;
  /** A local endpoint in front of the run's DynamoDB Local (a proxy that counts or breaks requests); default the run's own. */
  endpoint?: string;
  /** Batching, caching and look-ahead off (the benchmark's baseline). */
  naive?: boolean;
  /** Read units one filled page may consume (PAGE_READ_BUDGET). */
  pageReadBudget?: number;
  /** Renames and deletes: `stream` (default, as on a table with a stream) or `inRequest`. */
  fanOut?: FanOutMode;
  /** Caps on each operation's DynamoDB requests (none unless given). */
  requestLimits?: RequestLimits;
  /** Timeouts and connection cap of `listen()`'s HTTP server (defaults of config.ts). */
  http?: HttpConfig;
  /** Logger of `listen()`'s HTTP handler (failures outside GraphQL). */
  httpLogger?: Logger;
  /** AUTH_MODE=oidc: rules on, identities from this authenticator (test/support/oidc.ts). Default: off. */
  auth?: Authenticator;
  /** TRUSTED_DOCUMENTS for `listen()`: only this manifest's operations run over HTTP. */
  trusted?: TrustedDocuments;
  /** The model file served (e.g. examples/crm.graphql); default the project's schema.graphql. `model` wins when both are given. */
  schemaFile?: string;
}

/**
 * Takes out of an operation's counts the retries the test did not ask for.
 * Counts are exact because the calls an operation sends are deterministic;
 * a retry is not: with the patient client and no injected fault, one can
 * only come from the machine (a kept-alive connection DynamoDB Local closed
 * as it was reused, a 5xx from a DynamoDB Local starved of CPU). The
 * gateway's answer to that is right (the attempt is sent again); it is not
 * what a count asserts. Said on stderr, so a run shows it happened.
 */
function discountEnvironmentRetries(metrics: OperationMetrics, query: string): void {
  const retried = Object.entries(metrics.retriesByOperation);
  if (retried.length === 0) return;
  for (const [operation, n] of retried) {
    metrics.byOperation[operation]! -= n;
    if (metrics.byOperation[operation] === 0) delete metrics.byOperation[operation];
    metrics.requests -= n;
    delete metrics.retriesByOperation[operation];
  }
  process.stderr.write(
    `note: ${retried.map(([op, n]) => `${op} ×${n}`).join(', ')} retried by the client (not an injected fault), not counted: ${query.replace(/\s+/g, ' ').slice(0, 120)}\n`,
  );
}

export async function testGateway({
  production = false,
  cursorSecrets = { current: TEST_CURSOR_SECRET },
  maxBodyBytes,
  client,
  naive = false,
  pageReadBudget,
  fanOut = 'stream',
  requestLimits,
  http,
  httpLogger,
  auth,
  trusted,
  schemaFile,
  endpoint: through,
  ...serverOptions
}: TestGatewayOptions = {}) {
  // One model for the server (resolvers) and the context (plan): a test gateway serves it end to end.
  const model = serverOptions.model ?? loadModel(schemaFile);
  const plan = compilePlan(model);
  // One compilation of the rules for the server's guards and the contexts' look-ahead, as gatewayParts.ts does.
  const rules = compileRules(model);
  const endpoint = through ?? localEndpoint();
  const tableName = `t_${randomUUID().slice(0, 8)}`;
  const dynamo = createDynamo({ endpoint, ...PATIENT_CLIENT, ...client });
  await ensureTable(dynamo.raw, tableName, plan.table);
  const server = createServer({ prod: production, authRules: auth?.rulesOn ?? false, rules, ...serverOptions, model });
  await server.start();
  const deps = {
    doc: dynamo.doc,
    readPath: dynamo.reads,
    tableName,
    naive,
    cursors: createCursorCodec(cursorSecrets),
    fanOut,
    authRequired: auth?.rulesOn ?? false,
    rules,
    pageReadBudget,
    plan,
  };
  /** The identity of a request with this Authorization header (undefined: the context's default). */
  const identify = async (authorization: string | undefined) => (auth ? auth.identify(authorization) : undefined);
  let listener: Server | undefined;
  const { streamArn } = await describeLayout(dynamo.raw, tableName, undefined, plan.table);
  const readers: StreamReader[] = [];
  const streams = createStreamsClient({ endpoint });

  /** A stream reader over this table (not started); stopped with the gateway. */
  function streamReader(options: Partial<Omit<ReaderOptions, 'streamArn' | 'streams'>> = {}): StreamReader {
    const reader = new StreamReader({
      store: { doc: dynamo.doc, tableName, plan },
      logger: silentLogger,
      // An idle reader polls every shard each pollMs, and each poll costs DynamoDB Local CPU the other
      // files need; caughtUp() (settle) wakes the reader at once, so a wait for the stream never sits out a poll.
      pollMs: 250,
      retryDelayMs: 5,
      ...options,
      streams,
      streamArn: streamArn!,
    });
    readers.push(reader);
    return reader;
  }
  let worker: StreamReader | undefined;

  /** Waits until the stream processor (started on first use) has handled every write made so far. */
  async function settle(): Promise<void> {
    worker ??= streamReader().start();
    await worker.caughtUp();
  }

  /** Serves the gateway over HTTP on 127.0.0.1 (once); returns the /graphql URL. */
  async function listen(): Promise<string> {
    if (!listener) {
      const handler = createHttpHandler(server, {
        corsOrigins: undefined,
        maxBodyBytes,
        health: async () => true,
        context: async (metrics, req) => createContext(deps, metrics, await identify(req.headers.authorization)),
        requestLimits,
        logger: httpLogger,
        // As startGateway: the offline explorer in development only.
        ...(production ? {} : { explorer: createExplorer(explorerExample(plan, demoItemsOf(model.source))) }),
        trusted,
      });
      listener = createHttpListener(handler, http);
      await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve));
    }
    return `http://127.0.0.1:${(listener.address() as AddressInfo).port}/graphql`;
  }

  /** Runs an operation and reports the DynamoDB requests it made; `token` is sent as a bearer token. */
  async function counted<T = any>(query: string, variables?: Record<string, unknown>, token?: string) {
    const metrics = new OperationMetrics(requestLimits);
    const identity = await identify(token === undefined ? undefined : `Bearer ${token}`);
    const response = await server.executeOperation({ query, variables }, { contextValue: createContext(deps, metrics, identity) });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    if (client === undefined && !faultsInjected(dynamo)) discountEnvironmentRetries(metrics, query);
    return { result: response.body.singleResult as GqlResult<T>, requests: metrics };
  }

  const run = async <T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>> =>
    (await counted<T>(query, variables, token)).result;

  return {
    tableName,
    model,
    plan,
    dynamo,
    server,
    run,
    counted,
    put: (items: Item[]) => batchPut(dynamo.doc, tableName, items),
    /** The item at this key (under the table's key attributes, whatever the model names them). */
    get: async (PK: string, SK: string) => (await dynamo.doc.send(new GetCommand({ TableName: tableName, Key: plan.keys.key({ PK, SK }) }))).Item,
    scan: async () => {
      const items: Item[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const out = await dynamo.doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
        items.push(...(out.Items ?? []));
        ExclusiveStartKey = out.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    },
    deps,
    listen,
    streamArn,
    streamReader,
    settle,
    /** Stops the processor `settle` started (tests that run their own readers); `settle` starts a new one. */
    stopWorker: async () => {
      await worker?.stop();
      worker = undefined;
    },
    stop: async () => {
      for (const reader of readers) reader.kill();
      streams.destroy();
      if (listener) await new Promise<void>((resolve) => listener!.close(() => resolve()));
      await server.stop();
      await dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
      dynamo.raw.destroy();
    },
  };
}

export type TestGateway = Awaited<ReturnType<typeof testGateway>>;

/** POSTs a GraphQL operation as JSON; the HTTP status and parsed body. */
export async function postGraphQL(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** The codes of a result's errors, in order. */
export const codes = (result: GqlResult) => (result.errors ?? []).map((e) => e.extensions?.code);

/** `npm run check`'s options over a test gateway's table: one segment, no read-rate limit, no wait for indexes. */
export function checkOptionsOf(gw: TestGateway): CheckOptions {
  return { raw: gw.dynamo.raw, doc: gw.dynamo.doc, tableName: gw.tableName, plan: gw.plan, segments: 1, readUnitsPerSecond: 100_000, indexSettleMs: 0 };
}
