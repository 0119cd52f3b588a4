/**
 * `npm run bench:fanout [-- --sizes 100,1000,10000 --in-request 1000]`
 *
 * Renames and deletes of one course with N enrollments, on its own DynamoDB
 * Local, with the fan-out done by the table's stream processor (the
 * in-process reader of src/stream/, as `npm start` runs it):
 * - the mutation: its DynamoDB requests (by operation) and latency;
 * - convergence: the time from the mutation's answer until the last edge
 *   copy carries the new title (rename) or the last edge is gone and the
 *   course deleted (delete), and the processor's DynamoDB requests and CPU
 *   time for that work (CPU per edge: what the worker spends, measured with
 *   process.cpuUsage around the wait, the bench's own idle polling included).
 * For comparison, sizes up to `--in-request` (default 1000) also run the
 * same rename and delete with the fan-out inside the request, as on a table
 * without a stream.
 *
 * Only the course and its edges are seeded (the cascade decrements student
 * counters where students exist; without them it checks their absence),
 * so a 10,000-edge run takes a few minutes on a 2-core machine.
 * Results: a table on stdout and dist/bench/fanout.md (`--write-docs`: also
 * bench/fanout.md, the tracked copy; bench/output.ts).
 */
import { parseArgs } from 'node:util';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../src/dynamo/client.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { describeLayout, ensureTable } from '../src/dynamo/table.js';
import { metricsClient, OperationMetrics } from '../src/dynamo/metrics.js';
import { operationReads } from '../src/dynamo/readPort.js';
import { silentLogger } from '../src/logger.js';
import { courseItem, enrollmentItem } from '../test/support/defaultItems.js';
import { StreamReader } from '../src/stream/reader.js';
import { createStreamsClient } from '../src/stream/streamsClient.js';
import { deleteCourse, updateCourse } from '../test/support/writes.js';
import type { FanOutMode, Store } from '../src/writes/store.js';
import { writeItems } from '../scripts/seedTable.js';
import { WRITE_DOCS_OPTION, writeDocument, wrote } from './output.js';
import { loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';

/** The model measured: the project's default. */
const plan = compilePlan(loadModel());

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '100,1000,10000' }, 'in-request': { type: 'string', default: '1000' }, ...WRITE_DOCS_OPTION },
});
const sizes = values.sizes!.split(',').map(Number);
const inRequestUpTo = Number(values['in-request']);

interface Row {
  case: string;
  edges: number;
  fanOut: FanOutMode;
  requests: string;
  requestCount: number;
  mutationMs: number;
  convergedMs: number | null;
  workerRequests: number | null;
  workerCpuUsPerEdge: number | null;
}

/** A document client that counts the commands sent through it. */
function counting(doc: DynamoDBDocumentClient) {
  let sent = 0;
  const wrapped = {
    send: (command: object, ...rest: unknown[]) => {
      sent++;
      return (doc.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc: wrapped, sent: () => sent, reset: () => (sent = 0) };
}

const summary = (m: OperationMetrics) =>
  Object.entries(m.byOperation)
    .map(([op, n]) => `${n} ${op}`)
    .join(', ');

async function main() {
  const local = await startLocalDynamo({ port: 0 });
  const dynamo = createDynamo({ endpoint: local.endpoint, requestTimeoutMs: 30_000 });
  const streams = createStreamsClient({ endpoint: local.endpoint, requestTimeoutMs: 30_000 });
  const rows: Row[] = [];
  try {
    for (const [n, fanOut] of sizes.flatMap((n) => [[n, 'stream'] as const, ...(n <= inRequestUpTo ? [[n, 'inRequest'] as const] : [])])) {
      const tableName = `fanout_${n}_${fanOut}`;
      await ensureTable(dynamo.raw, tableName);
      const courseId = 'C';
      const items = [
        courseItem({ id: courseId, title: 'Old', studentCount: n }),
        ...Array.from({ length: n }, (_, i) =>
          enrollmentItem({ studentId: `s${i}`, courseId, enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: `s${i}` }),
        ),
      ];
      let seeded = Date.now();
      await writeItems(dynamo.doc, tableName, items, { concurrency: 8 });
      process.stderr.write(`seeded ${items.length} items into ${tableName} in ${Date.now() - seeded} ms\n`);

      const workerDoc = counting(dynamo.doc);
      let reader: StreamReader | undefined;
      if (fanOut === 'stream') {
        const { streamArn } = await describeLayout(dynamo.raw, tableName);
        reader = new StreamReader({ store: { doc: workerDoc.doc, tableName, plan }, streams, streamArn: streamArn!, logger: silentLogger, pollMs: 50 }).start();
        seeded = Date.now();
        await reader.caughtUp(); // the seed's own records
        process.stderr.write(`processor read the seed's ${items.length} records in ${Date.now() - seeded} ms\n`);
      }
      const store: Store = { doc: dynamo.doc, tableName, fanOut, plan };

      for (const kind of ['rename', 'delete'] as const) {
        const metrics = new OperationMetrics();
        workerDoc.reset();
        const started = Date.now();
        const doc = metricsClient(dynamo.doc, metrics);
        const counted: Store = { ...store, doc, reads: operationReads(dynamo.reads, doc, metrics) };
        await (kind === 'rename' ? updateCourse(counted, courseId, { title: 'New' }) : deleteCourse(counted, courseId));
        const mutationMs = Date.now() - started;
        let convergedMs: number | null = null;
        let cpuPerEdge: number | null = null;
        if (reader) {
          const cpu = process.cpuUsage();
          await reader.caughtUp();
          convergedMs = Date.now() - started - mutationMs;
          const used = process.cpuUsage(cpu);
          cpuPerEdge = Math.round((used.user + used.system) / n);
        }
        // The outcome, checked: every copy renamed / every edge gone (a COUNT Query pages at 1 MB too).
        const left = { Count: 0 };
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await dynamo.doc.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: 'GSI1',
              KeyConditionExpression: 'GSI1PK = :pk',
              Select: 'COUNT',
              ExclusiveStartKey: startKey,
              ...(kind === 'rename'
                ? { FilterExpression: 'courseTitle = :t', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':t': 'New' } }
                : { ExpressionAttributeValues: { ':pk': `COURSE#${courseId}` } }),
            }),
          );
          left.Count += page.Count ?? 0;
          startKey = page.LastEvaluatedKey;
        } while (startKey);
        const expected = kind === 'rename' ? n : 0;
        if ((left.Count ?? -1) !== expected) {
          throw new Error(`${kind} of ${n} edges (${fanOut}): ${left.Count} edges match, expected ${expected}; processor: ${JSON.stringify(reader?.stats.snapshot())}`);
        }
        const row: Row = {
          case: kind,
          edges: n,
          fanOut,
          requests: summary(metrics),
          requestCount: metrics.requests,
          mutationMs,
          convergedMs,
          workerRequests: reader ? workerDoc.sent() : null,
          workerCpuUsPerEdge: cpuPerEdge,
        };
        rows.push(row);
        process.stderr.write(`${JSON.stringify(row)}\n`);
      }
      await reader?.stop();
    }
  } finally {
    streams.destroy();
    dynamo.raw.destroy();
    await local.stop();
  }

  const table = [
    '| case | edges | fan-out | mutation requests | mutation ms | converged after ms | worker requests | worker CPU µs/edge |',
    '|---|---:|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.case} | ${r.edges} | ${r.fanOut === 'stream' ? 'stream' : 'in request'} | ${r.requestCount} (${r.requests}) | ${r.mutationMs} | ${r.convergedMs ?? '—'} | ${r.workerRequests ?? '—'} | ${r.workerCpuUsPerEdge ?? '—'} |`,
    ),
  ].join('\n');
  console.log(table);
  const text = `# Fan-out benchmark (\`npm run bench:fanout\`)\n\nRun ${new Date().toISOString()} on ${process.version}, DynamoDB Local in memory on this machine.\n\n${table}\n`;
  console.error(wrote(writeDocument('bench/fanout.md', text, values['write-docs'])));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
