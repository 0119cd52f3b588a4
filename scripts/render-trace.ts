/**
 * `npx tsx scripts/render-trace.ts [out.svg]`: the trace of the nested
 * operation, drawn from the spans the gateway really exports.
 *
 * Starts DynamoDB Local with the demo data, runs the operation below through
 * a gateway whose telemetry exports to an in-memory exporter (once to warm
 * up, once traced), and draws the traced run's spans as a waterfall: one
 * row per span, bars at their start and duration, labels from their
 * attributes. Default output: docs/trace-nested.svg (shown in
 * docs/observability.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { root } from './bundle.js';
import { startLocalDynamo } from '../src/dynamo/local.js';
import { createDynamo } from '../src/dynamo/client.js';
import { ensureTable } from '../src/dynamo/table.js';
import { loadDemoData } from '../src/transport/demoData.js';
import { DEFAULT_SCHEMA_FILE, loadModel } from '../src/declaration/loadModel.js';
import { compilePlan } from '../src/plan/plan.js';
import { createServer } from '../src/graphql/server.js';
import { createContext } from '../src/graphql/context.js';
import { createCursorCodec } from '../src/connections/cursorSigning.js';
import { loadTelemetry } from '../src/telemetry/telemetry.js';
import { telemetrySettings } from '../src/telemetry/settings.js';
import { silentLogger } from '../src/logger.js';

export const NESTED = `query StudentCourses($id: ID!) {
  student(id: $id) { name courses(first: 3) { edges { node { title students(first: 3) { edges { node { name } } } } } } }
}`;

const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function label(span: ReadableSpan): string {
  const a = span.attributes;
  if (a['rpc.method']) {
    const parts = [String(a['aws.dynamodb.table_names'] ?? '')];
    if (a['aws.dynamodb.index_name']) parts.push(`index ${a['aws.dynamodb.index_name']}`);
    parts.push(`${a['gateway.dynamodb.capacity_units']} RCU`, `retries ${a['gateway.dynamodb.retries']}`);
    return `${span.name}  ·  ${parts.join(' · ')}`;
  }
  return `${span.name}  ·  cost ${a['gateway.cost']} · ${a['gateway.dynamodb.requests']} DynamoDB requests in ${a['gateway.dynamodb.waves']} waves · ${a['gateway.dynamodb.consumed_capacity']} RCU · errors [${(a['gateway.error_codes'] as string[]).join(', ')}]`;
}

export function renderSvg(spans: ReadableSpan[]): string {
  const sorted = [...spans].sort((x, y) => (x.parentSpanContext ? 1 : 0) - (y.parentSpanContext ? 1 : 0) || ms(x.startTime) - ms(y.startTime));
  const t0 = Math.min(...sorted.map((s) => ms(s.startTime)));
  const t1 = Math.max(...sorted.map((s) => ms(s.endTime)));
  const width = 1000;
  const left = 20;
  const scale = (width - 3 * left) / Math.max(t1 - t0, 0.001);
  const row = 34;
  const top = 50;
  const height = top + sorted.length * row + 40;
  const rows = sorted.map((s, i) => {
    const x = left + (ms(s.startTime) - t0) * scale;
    const w = Math.max(2, (ms(s.endTime) - ms(s.startTime)) * scale);
    const y = top + i * row;
    const fill = s.parentSpanContext ? '#4c78a8' : '#f58518';
    const duration = (ms(s.endTime) - ms(s.startTime)).toFixed(1);
    return [
      `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="12" rx="2" fill="${fill}"/>`,
      `<text x="${left}" y="${y + 26}" font-size="12">${esc(label(s))}  ·  ${duration} ms</text>`,
    ].join('\n');
  });
  const ticks = Array.from({ length: 6 }, (_, i) => {
    const t = ((t1 - t0) * i) / 5;
    const x = left + t * scale;
    return `<line x1="${x.toFixed(1)}" y1="${top - 8}" x2="${x.toFixed(1)}" y2="${height - 30}" stroke="#ddd"/><text x="${x.toFixed(1)}" y="${height - 14}" font-size="11" text-anchor="${i === 5 ? 'end' : 'middle'}">${t.toFixed(1)} ms</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${left}" y="24" font-size="14" font-weight="bold">Trace of the nested operation: one operation span (orange), one child per DynamoDB request (blue)</text>`,
    ...ticks,
    ...rows,
    '</svg>',
    '',
  ].join('\n');
}

async function main() {
  const out = process.argv[2] ?? join(root, 'docs/trace-nested.svg');
  const local = await startLocalDynamo({ port: 0 });
  const exporter = new InMemorySpanExporter();
  const telemetry = (await loadTelemetry(
    telemetrySettings({ OTEL_SERVICE_NAME: 'dynamo-graph-gateway' }, (m) => {
      throw new Error(m);
    }),
    silentLogger,
    {
      spanProcessors: [new SimpleSpanProcessor(exporter)],
      metricReaders: [],
    },
  ))!;
  const dynamo = createDynamo({ endpoint: local.endpoint });
  try {
    const tableName = 'TraceDemo';
    await ensureTable(dynamo.raw, tableName);
    await loadDemoData(dynamo.doc, tableName, DEFAULT_SCHEMA_FILE);
    const model = loadModel();
    const server = createServer({ prod: false, telemetry, model });
    await server.start();
    const deps = {
      doc: dynamo.doc,
      readPath: dynamo.reads,
      tableName,
      cursors: createCursorCodec({ current: 'render-trace-cursor-secret-0123456789abcdef' }),
      plan: compilePlan(model),
    };
    const run = () => server.executeOperation({ query: NESTED, variables: { id: '1' } }, { contextValue: createContext(deps) });
    await run();
    await run();
    exporter.reset();
    const response = await run();
    if (response.body.kind !== 'single' || response.body.singleResult.errors) throw new Error(JSON.stringify(response.body));
    writeFileSync(out, renderSvg(exporter.getFinishedSpans()));
    console.log(`${exporter.getFinishedSpans().length} spans drawn to ${out}`);
    await server.stop();
  } finally {
    await telemetry.shutdown();
    dynamo.raw.destroy();
    await local.stop();
  }
}

if (process.argv[1]?.endsWith('render-trace.ts')) await main();
