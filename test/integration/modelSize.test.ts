/**
 * A request costs what it costs whatever the size of the model: the same
 * operations, served by the gateway of the default model (6 item types, 2
 * indexes) and by the one of the bench model of 50 types and 10 declared
 * indexes (bench/bigModel.ts: the default model plus 44 types, 8 indexes
 * with @indexed keys and @query reads), make the same DynamoDB requests
 * and do the same work, counted, not timed.
 *
 * Both gateways are built as `npm start` builds them (createGatewayParts,
 * createContext) over one table holding a small bench data set. Each
 * operation runs a few times first (compiled, caches warm); the counted run
 * gets DynamoDB's answers from what those runs received (no SDK, no socket:
 * only the gateway's own work is counted). Counted in that run:
 * - every call of the served plan's functions (keys, mapping, edges,
 *   collections, narrowing) and every lookup in its maps, by name;
 * - every element visited by the built-in walks (array methods and
 *   iterators, Map and Set iteration, Object.keys/values/entries) and every
 *   Map, Set and WeakMap lookup, whoever makes them (our plugins, Apollo,
 *   graphql-js, DataLoader).
 * Anything on the request path that walked the model's types, relations or
 * rules, or looked something up per type, would count more for 50 types.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeaderMap } from '@apollo/server';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { bigModel } from '../../bench/bigModel.js';
import { CASES, SHAPE as BENCH_SHAPE } from '../../bench/cases.js';
import { buildDataset, DEFAULT_SHAPE, type Dataset } from '../../scripts/dataset.js';
import { writeItems } from '../../scripts/seedTable.js';
import { loadConfig, DEFAULT_SCHEMA_FILE } from '../../src/config.js';
import { createDynamo, type Dynamo } from '../../src/dynamo/client.js';
import { ensureTable } from '../../src/dynamo/table.js';
import { OperationMetrics } from '../../src/dynamo/metrics.js';
import type { ReadPath } from '../../src/dynamo/leanReads/readPath.js';
import { createContext } from '../../src/graphql/context.js';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan, type Plan } from '../../src/plan/plan.js';
import { createGatewayParts, type GatewayParts } from '../../src/transport/gatewayParts.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint, PATIENT_CLIENT } from '../support/gateway.js';

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

/** The bench's ids, repeated to the bench's counts: the small data set has fewer students than the bench's cases name. */
function cyclic(dataset: Dataset): Dataset {
  const wrap = (list: string[], n: number) => Array.from({ length: n }, (_, i) => list[i % list.length]!);
  return {
    ...dataset,
    ids: { ...dataset.ids, students: wrap(dataset.ids.students, BENCH_SHAPE.students), courses: wrap(dataset.ids.courses, BENCH_SHAPE.courses) },
  };
}

/** A plain object, not a Map: the Map lookups it counts must not count themselves. */
type Counts = Record<string, number>;
let counts: Counts | null = null;
const count = (what: string, n = 1) => {
  if (counts) counts[what] = (counts[what] ?? 0) + n;
};

/** The plan's functions and map lookups, counted by name while `counts` is set. */
function countPlan(plan: Plan): void {
  const wrap = (owner: object, label: string) => {
    for (const [key, value] of Object.entries(owner)) {
      if (typeof value !== 'function') continue;
      (owner as Record<string, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
        count(`plan ${label}.${key}`);
        return value.apply(this, args);
      };
    }
  };
  const watch = (map: ReadonlyMap<string, unknown>, label: string) => {
    const m = map as Map<string, unknown> & Record<string, unknown>;
    m.get = (key: string) => (count(`plan ${label}.get`), Map.prototype.get.call(m, key));
    m.has = (key: string) => (count(`plan ${label}.has`), Map.prototype.has.call(m, key));
    for (const walk of ['values', 'entries', 'keys', 'forEach', Symbol.iterator] as const) {
      const original = Map.prototype[walk] as (...a: unknown[]) => unknown;
      (m as Record<PropertyKey, unknown>)[walk] = (...a: unknown[]) => (count(`plan ${label} walked`, m.size), original.apply(m, a));
    }
  };
  for (const item of plan.items.values()) wrap(item, item.name);
  for (const relation of plan.relations.values()) wrap(relation, relation.path);
  wrap(plan, 'plan');
  watch(plan.items, 'items');
  watch(plan.relations, 'relations');
  watch(plan.relationsOf, 'relationsOf');
}

/** The built-ins' walks and lookups, counted (elements visited, lookups made) while `counts` is set. */
function countBuiltIns(): () => void {
  const restore: (() => void)[] = [];
  const patch = <T extends object>(target: T, key: PropertyKey, counted: (self: any, args: unknown[], result: unknown) => number, label: string) => {
    const original = (target as Record<PropertyKey, (...a: unknown[]) => unknown>)[key]!;
    Object.defineProperty(target, key, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        const result = original.apply(this, args);
        if (counts) count(label, counted(this, args, result));
        return result;
      },
    });
    restore.push(() => Object.defineProperty(target, key, { configurable: true, writable: true, value: original }));
  };
  const length = (self: { length: number }) => self.length;
  for (const name of ['find', 'findIndex', 'filter', 'some', 'every', 'map', 'forEach', 'flatMap', 'reduce', 'includes', 'indexOf'] as const) {
    patch(Array.prototype, name, length, 'array elements walked');
  }
  patch(Array.prototype, Symbol.iterator, length, 'array elements walked');
  for (const proto of [Map.prototype, Set.prototype]) {
    for (const walk of ['values', 'entries', 'keys', 'forEach', Symbol.iterator] as const)
      patch(proto, walk, (self: { size: number }) => self.size, 'map/set entries walked');
    patch(proto, 'has', () => 1, 'map/set lookups');
  }
  patch(Map.prototype, 'get', () => 1, 'map/set lookups');
  patch(WeakMap.prototype, 'get', () => 1, 'weakmap lookups');
  for (const name of ['keys', 'values', 'entries'] as const) patch(Object, name, (_, __, result) => (result as unknown[]).length, 'object properties walked');
  return () => restore.forEach((r) => r());
}

/** DynamoDB's answers recorded while `recording`, then replayed (parsed copies, a tick later). */
function replaying(real: ReadPath) {
  const recorded = new Map<string, string>();
  let replay = false;
  const path = {
    send: async (operation: Parameters<ReadPath['send']>[0], input: Record<string, unknown>, metrics: Parameters<ReadPath['send']>[2]) => {
      const key = `${operation} ${JSON.stringify(input)}`;
      const known = replay ? recorded.get(key) : undefined;
      if (known !== undefined) {
        await new Promise((resolve) => setImmediate(resolve));
        return JSON.parse(known);
      }
      const out = await real.send(operation, input, metrics);
      recorded.set(key, JSON.stringify(out));
      return out;
    },
  } as unknown as ReadPath;
  return { path, start: () => (replay = true), stop: () => (replay = false) };
}

interface Served {
  parts: GatewayParts;
  plan: Plan;
  replay: ReturnType<typeof replaying>;
}

let dynamo: Dynamo;
let tableName: string;
let dataset: Dataset;
const served: Record<'six' | 'fifty', Served> = {} as never;
let restoreBuiltIns: () => void;

function serve(schemaFile: string): Served {
  const plan = compilePlan(loadModel(schemaFile));
  countPlan(plan);
  const config = loadConfig({
    SCHEMA_FILE: schemaFile,
    DYNAMODB_ENDPOINT: localEndpoint(),
    TABLE_NAME: tableName,
    LOG_LEVEL: 'silent',
    MAX_QUERY_ALIASES: '300',
    MAX_QUERY_TOKENS: '5000',
  });
  const parts = createGatewayParts(config, { logger: silentLogger, dynamo });
  const replay = replaying(parts.deps.readPath!);
  parts.deps.readPath = replay.path;
  return { parts, plan, replay };
}

beforeAll(async () => {
  tableName = `t_${randomUUID().slice(0, 8)}`;
  dynamo = createDynamo({ endpoint: localEndpoint(), ...PATIENT_CLIENT });
  const file = join(mkdtempSync(join(tmpdir(), 'model-size-')), 'big.graphql');
  writeFileSync(file, bigModel());
  // The table of the big model: the default model's keys and indexes, and 8 more.
  await ensureTable(dynamo.raw, tableName, compilePlan(loadModel(file)).table);
  const data = buildDataset(SHAPE);
  await writeItems(dynamo.doc, tableName, data.items, { concurrency: 4 });
  dataset = cyclic(data);
  served.six = serve(DEFAULT_SCHEMA_FILE);
  served.fifty = serve(file);
  await served.six.parts.server.start();
  await served.fifty.parts.server.start();
  restoreBuiltIns = countBuiltIns();
});

afterAll(async () => {
  restoreBuiltIns?.();
  await served.six?.parts.server.stop();
  await served.fifty?.parts.server.stop();
  await dynamo?.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  dynamo?.raw.destroy();
});

/** One operation through Apollo's HTTP entry, as the HTTP transport sends it: its answer and the DynamoDB requests it made. */
async function post({ parts }: Served, query: string, variables: Record<string, unknown>): Promise<{ answer: string; requests: Record<string, number> }> {
  const metrics = new OperationMetrics();
  const response = await parts.server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: 'POST', headers: new HeaderMap([['content-type', 'application/json']]), search: '', body: { query, variables } },
    context: async () => createContext(parts.deps, metrics),
  });
  if (response.body.kind !== 'complete') throw new Error('expected a complete body');
  return { answer: response.body.string, requests: { ...metrics.byOperation } };
}

/** Warm runs (recorded; the last one's DynamoDB requests), then one counted run (replayed): its answer and what it counted. */
async function measure(gateway: Served, query: string, variables: Record<string, unknown>) {
  let requests: Record<string, number> = {};
  for (let i = 0; i < 3; i++) requests = (await post(gateway, query, variables)).requests;
  gateway.replay.start();
  const counted: Counts = Object.create(null);
  counts = counted;
  try {
    const { answer } = await post(gateway, query, variables);
    counts = null;
    return { answer, requests, counts: { ...counted } };
  } finally {
    counts = null;
    gateway.replay.stop();
  }
}

describe('a model of 50 types costs a request what the model of 6 does', () => {
  it('serves each operation with the plan of the model it serves', () => {
    for (const gateway of [served.six, served.fifty]) expect(createContext(gateway.parts.deps).plan).toBe(gateway.plan);
    expect(served.fifty.plan.items.size).toBe(50);
    expect(served.six.plan.items.size).toBe(6);
    expect(served.fifty.plan.table.indexes.map((i) => i.name)).toEqual(['GSI1', 'GSI2', ...Array.from({ length: 8 }, (_, k) => `things${k}`)]);
    expect(served.six.plan.table.indexes.map((i) => i.name)).toEqual(['GSI1', 'GSI2']);
    // The second model of the repository too: its look-ahead and writes need its own plan.
    const crm = fileURLToPath(new URL('../../examples/crm.graphql', import.meta.url));
    const config = loadConfig({ SCHEMA_FILE: crm, DYNAMODB_ENDPOINT: localEndpoint(), TABLE_NAME: tableName, LOG_LEVEL: 'silent' });
    const parts = createGatewayParts(config, { logger: silentLogger, dynamo });
    expect(createContext(parts.deps).plan).toBe(compilePlan(loadModel(crm)));
  });

  for (const spec of CASES) {
    it(`does the same work for ${spec.name}`, async () => {
      const variables = spec.variables(dataset);
      // The built-ins are counted process-wide: a timer of the SDK or Node firing inside one counted run
      // (a loaded machine moves them) adds its lookups there. Up to three tries; work that grows with the
      // model differs in every one of them.
      let six = await measure(served.six, spec.query, variables);
      let fifty = await measure(served.fifty, spec.query, variables);
      for (let attempt = 1; attempt < 3 && JSON.stringify(fifty.counts) !== JSON.stringify(six.counts); attempt++) {
        six = await measure(served.six, spec.query, variables);
        fifty = await measure(served.fifty, spec.query, variables);
      }
      expect(six.answer).not.toContain('"errors"');
      expect(fifty.answer).toBe(six.answer);
      // The same DynamoDB requests, operation by operation, and at least one.
      expect(Object.values(six.requests).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(fifty.requests).toEqual(six.requests);
      // The counting itself works: the operation used its plan and walked and looked things up.
      expect(Object.keys(six.counts).some((k) => k.startsWith('plan '))).toBe(true);
      expect(six.counts['map/set lookups']).toBeGreaterThan(0);
      expect(fifty.counts).toEqual(six.counts);
    });
  }
});
