/**
 * `npm run bench:catalog [-- --courses 50000 --orders 2000 --migrate 5000]`
 *
 * What the lists, searches and filters cost, in DynamoDB requests and read
 * units per page (consumed capacity as DynamoDB Local reports it, the same
 * formula DynamoDB bills: 0.5 unit per 4 KB read, eventually consistent),
 * and how fast `npm run migrate` brings an old table up to date.
 *
 * 1. A table of `--courses` courses in the current layout (titles chosen so
 *    that 10% start with "Mu" and 1% with "Zeta"): pages of
 *    `courses(first: 20)` at the start, in the middle (after a cursor) and at
 *    the end (`last: 20`), the whole list and prefix searches matching 100%,
 *    10% and 1%; totalCount alone.
 * 2. Three customers of `--orders` orders whose status is PAID for 100%,
 *    10% and 1% of them: `orders(first: 20, status: PAID)` (filled pages),
 *    and a date-range page without a filter.
 * 3. `--migrate` items written in the first-round layout (no GSI2 keys) and
 *    migrated with 4 segments, unthrottled: items per second.
 *
 * Runs on its own DynamoDB Local (in memory); results on stdout and in
 * bench/results/catalog.json.
 */
import { parseArgs } from 'node:util';
import { createDynamo } from '../src/dynamo/client.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { ensureTable } from '../src/dynamo/table.js';
import { OperationMetrics } from '../src/dynamo/metrics.js';
import { createServer } from '../src/graphql/server.js';
import { createContext } from '../src/graphql/context.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { catalogCounterItems, courseItem, customerItem, orderItem } from '../test/support/defaultItems.js';
import type { Item } from '../src/dynamo/batchGet.js';
import { runMigration } from '../src/migration/migrate.js';
import { progressBar, writeItems } from '../scripts/seedTable.js';
import { writeResult, wrote } from './output.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';

/** The model measured: the project's default. */
const model = loadModel();

const { values } = parseArgs({
  options: { courses: { type: 'string' }, orders: { type: 'string' }, migrate: { type: 'string' } },
  strict: true,
});
const COURSES = Number(values.courses ?? 50_000);
const ORDERS = Number(values.orders ?? 2_000);
const MIGRATE = Number(values.migrate ?? 5_000);

const WORDS = ['Applied', 'Modern', 'Intro to', 'Advanced', 'History of', 'Théorie des', 'Études', 'Practical', 'Quantum', 'Organic'];
const SUBJECTS = ['Algebra', 'Databases', 'Poetry', 'Économie', 'Networks', 'Ceramics', 'Genetics', 'Law', 'Robotics', 'Music'];

function courseTitle(i: number): string {
  const rest = `${WORDS[(i * 7) % WORDS.length]} ${SUBJECTS[(i * 13) % SUBJECTS.length]} ${i}`;
  if (i % 100 === 0) return `Zeta ${rest}`; // 1%
  if (i % 10 === 1) return `Mu ${rest}`; // 10%
  return rest;
}

interface Row {
  case: string;
  requests: number;
  byOperation: Record<string, number>;
  readUnits: number;
  edges: number;
}

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  // Patient: DynamoDB Local on a busy machine answers slowly.
  const dynamo = createDynamo({ endpoint: local.endpoint, requestTimeoutMs: 60_000 });
  const rows: Row[] = [];
  try {
    // 3. Migration of a first-round table (first, on a DynamoDB Local that holds nothing else yet).
    const oldTable = 'MigrateBench';
    await ensureTable(dynamo.raw, oldTable);
    const old: Item[] = [];
    for (let i = 0; i < MIGRATE; i++) {
      const { GSI2PK, GSI2SK, ...plain } = i % 2 === 0
        ? courseItem({ id: `m${i}`, title: courseTitle(i), studentCount: 0 })
        : orderItem({ customerId: 'mc', id: `mo${i}`, placedAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), total: 1, status: 'PLACED' });
      void GSI2PK;
      void GSI2SK;
      old.push(plain);
    }
    await writeItems(dynamo.doc, oldTable, old, { concurrency: 8 });
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await dynamo.doc.send(new DeleteCommand({ TableName: oldTable, Key: { PK: 'LAYOUT', SK: 'MIGRATION' } }));
    const migrationStarted = Date.now();
    const migration = await runMigration({ raw: dynamo.raw, doc: dynamo.doc, tableName: oldTable, plan: compilePlan(model), segments: 4, writeUnitsPerSecond: 1_000_000, pageSize: 200, concurrency: 8 });
    console.error(`migrated in ${((Date.now() - migrationStarted) / 1000).toFixed(1)} s`);

    const tableName = 'CatalogBench';
    await ensureTable(dynamo.raw, tableName);
    const items: Item[] = [];
    for (let i = 0; i < COURSES; i++) items.push(courseItem({ id: `c${String(i).padStart(6, '0')}`, title: courseTitle(i), studentCount: 0 }));
    items.push(...catalogCounterItems(items));
    for (const [customer, every] of [['paid100', 1], ['paid10', 10], ['paid1', 100]] as const) {
      items.push(customerItem({ id: customer, name: customer, orderCount: ORDERS }));
      for (let i = 0; i < ORDERS; i++) {
        const placedAt = new Date(Date.UTC(2025, 0, 1) + i * 600_000).toISOString();
        items.push(orderItem({ customerId: customer, id: `o${String(i).padStart(6, '0')}`, placedAt, total: i % 97, status: i % every === 0 ? 'PAID' : 'PLACED' }));
      }
    }
    let started = Date.now();
    await writeItems(dynamo.doc, tableName, items, { concurrency: 8, onProgress: progressBar('loading') });
    console.error(`loaded ${items.length} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const server = createServer({ prod: false, model });
    await server.start();
    const deps = { doc: dynamo.doc, readPath: dynamo.reads, tableName, cursors: createCursorCodec({ current: 'bench-cursor-secret-0123456789abcdefghij' }), plan: compilePlan(model) };
    const measure = async (name: string, query: string, pick: (data: any) => any) => {
      const t0 = Date.now();
      const metrics = new OperationMetrics();
      const response = await server.executeOperation({ query }, { contextValue: createContext(deps, metrics) });
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      const result = response.body.singleResult;
      if (result.errors) throw new Error(`${name}: ${JSON.stringify(result.errors)}`);
      const conn = pick(result.data);
      const s = metrics.summary();
      rows.push({ case: name, requests: s.requests, byOperation: s.byOperation, readUnits: s.consumedCapacity, edges: conn.edges?.length ?? 0 });
      console.error(`${name}: ${s.requests} requests, ${s.consumedCapacity} read units, ${Date.now() - t0} ms`);
      return conn;
    };
    const PAGE = 'pageInfo { hasNextPage endCursor } edges { node { id title } }';

    // 1. Listing and search.
    const first = await measure(`courses(first: 20) of ${COURSES}`, `{ courses(first: 20) { ${PAGE} } }`, (d) => d.courses);
    let cursor = first.pageInfo.endCursor;
    for (let i = 0; i < 5; i++) {
      const next = await measure(`courses(first: 100, after) #${i + 1}`, `{ courses(first: 100, after: "${cursor}") { ${PAGE} } }`, (d) => d.courses);
      cursor = next.pageInfo.endCursor;
    }
    await measure(`courses(first: 20, after: cursor) (middle)`, `{ courses(first: 20, after: "${cursor}") { ${PAGE} } }`, (d) => d.courses);
    await measure(`courses(last: 20) (end)`, `{ courses(last: 20) { ${PAGE} } }`, (d) => d.courses);
    await measure(`courses { totalCount } (shard counters)`, `{ courses(first: 0) { totalCount edges { cursor } } }`, (d) => d.courses);
    for (const [prefix, share] of [['', '100%'], ['mu', '10%'], ['zeta', '1%']]) {
      const arg = prefix ? `, titlePrefix: "${prefix}"` : '';
      await measure(`courses(first: 20${arg}) matching ${share}`, `{ courses(first: 20${arg}) { ${PAGE} } }`, (d) => d.courses);
    }
    await measure(`courses(first: 20, titlePrefix: "zeta") { totalCount } (counted, 1%)`, `{ courses(first: 20, titlePrefix: "zeta") { totalCount ${PAGE} } }`, (d) => d.courses);

    // 2. Orders filtered by status (filled pages), and by date.
    const ORDER_PAGE = 'pageInfo { hasNextPage endCursor } edges { node { id placedAt status } }';
    for (const [customer, share] of [['paid100', '100%'], ['paid10', '10%'], ['paid1', '1%']]) {
      await measure(`orders(first: 20, status: PAID) matching ${share} of ${ORDERS}`, `{ customer(id: "${customer}") { orders(first: 20, status: PAID) { ${ORDER_PAGE} } } }`, (d) => d.customer.orders);
    }
    // A day of orders (144 at one every 10 minutes), within the data whatever --orders is (≥ 288).
    const from = new Date(Date.UTC(2025, 0, 2)).toISOString();
    const to = new Date(Date.UTC(2025, 0, 3)).toISOString();
    await measure(`orders(first: 20, placedAfter, placedBefore) (date range, no filter)`, `{ customer(id: "paid1") { orders(first: 20, placedAfter: "${from}", placedBefore: "${to}") { ${ORDER_PAGE} } } }`, (d) => d.customer.orders);
    await measure(`orders(first: 20, placedAfter, placedBefore, status: PAID) (range + 1% filter)`, `{ customer(id: "paid1") { orders(first: 20, placedAfter: "${from}", placedBefore: "${to}", status: PAID) { ${ORDER_PAGE} } } }`, (d) => d.customer.orders);
    await server.stop();

    const table = [
      '| case | requests | by operation | read units | edges |',
      '|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.case} | ${r.requests} | ${Object.entries(r.byOperation).map(([k, v]) => `${k} ${v}`).join(', ')} | ${r.readUnits} | ${r.edges} |`),
    ];
    const summary = `migration of ${MIGRATE} first-round items (half courses, half orders), 4 segments, unthrottled: ${migration.itemsPerSecond} items/s scanned, ${migration.changed} changed, ${migration.writeUnits} write units, ${migration.seconds.toFixed(1)} s`;
    console.log([...table, '', summary].join('\n'));
    console.error(wrote([writeResult('catalog.json', JSON.stringify({ courses: COURSES, orders: ORDERS, rows, migration }, null, 2))]));
  } finally {
    dynamo.raw.destroy();
    await local.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
