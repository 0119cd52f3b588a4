/**
 * Subscriptions visible to operators: with the Prometheus exporter on,
 * `gateway_subscriptions_active` and `gateway_subscriptions_events_total`
 * appear on /metrics, the DynamoDB requests of event executions are counted
 * in `gateway_dynamodb_requests_total`, and each event writes one log line
 * with its cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { batchPut } from '../../src/dynamo/batchWrite.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { localEndpoint } from '../support/gateway.js';
import { captureLogger } from '../support/oidc.js';
import { freePort, untilOpen, wsClient, type WsClient } from '../support/subscriptions.js';

let gateway: Gateway;
let url: string;
let metricsUrl: string;
const tableName = `wsmet_${randomUUID().slice(0, 8)}`;
const log = captureLogger();
const COURSE = courseItem({ id: 'c1', title: 'Engines', studentCount: 2 });
let client: WsClient;

beforeAll(async () => {
  const port = await freePort();
  // The exporter reads its host and port from the environment itself.
  process.env.OTEL_EXPORTER_PROMETHEUS_HOST = '127.0.0.1';
  process.env.OTEL_EXPORTER_PROMETHEUS_PORT = String(port);
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  gateway = await startGateway(
    loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      HOST: '127.0.0.1',
      STREAM_POLL_MS: '100',
      LOG_LEVEL: 'info',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_TRACES_EXPORTER: 'none',
    }),
    log.logger,
  );
  url = gateway.url;
  const items = [COURSE];
  for (const id of ['s1', 's2']) {
    items.push(studentItem({ id, name: `Student ${id}`, courseCount: 1 }));
    items.push(enrollmentItem({ studentId: id, courseId: 'c1', enrolledAt: '2026-02-01T10:00:00.000Z', courseTitle: 'Engines', studentName: `Student ${id}` }));
  }
  await batchPut(gateway.dynamo.doc, tableName, items);
  await gateway.stream.reader!.caughtUp();
});

afterAll(async () => {
  await client?.dispose().catch(() => {});
  await gateway?.dynamo.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
  await gateway?.stop();
  delete process.env.OTEL_EXPORTER_PROMETHEUS_HOST;
  delete process.env.OTEL_EXPORTER_PROMETHEUS_PORT;
});

/** The sum of a metric's samples on /metrics (every label set), 0 when it is absent. */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('subscriptions on the Prometheus endpoint and in the log', () => {
  it('shows open subscriptions, delivered events and the DynamoDB requests of their executions, and logs each event with its cost', async () => {
    client = wsClient(url);
    // The students' emails are not on the course item: each event reads them.
    const w = client.watch('subscription { courseChanged(id: "c1") { title students(first: 5) { edges { node { email } } } } }');
    await untilOpen(url, { subscriptions: 1 });
    expect(await metric('gateway_subscriptions_active')).toBe(1);
    const requestsBefore = await metric('gateway_dynamodb_requests_total');
    const eventsBefore = await metric('gateway_subscriptions_events_total');
    log.lines.length = 0;

    // The event straight to the hub: no stream work of its own, so every request counted is the execution's.
    gateway.changes.hub.receive({ topic: 'Course#c1', item: 'c1', seq: String(10n ** 30n), kind: 'UPDATED', image: { ...COURSE, title: 'Engines II' } });
    const [message] = await w.untilCount(1);
    expect(message!.data.courseChanged.title).toBe('Engines II');
    expect(message!.data.courseChanged.students.edges).toHaveLength(2);

    const lines = log.lines.filter((l) => l.msg === 'subscription event');
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.level).toBe(30);
    expect(line).toMatchObject({ topic: 'Course', kind: 'UPDATED', subscriptions: ['courseChanged'], deliveries: 1, executions: 1, errorCodes: [] });
    expect(line.dynamodb.requests).toBeGreaterThan(0);
    // No ids or values in the line.
    expect(JSON.stringify(line)).not.toMatch(/c1|Engines|s1|s2/);

    expect(await metric('gateway_subscriptions_events_total')).toBe(eventsBefore + 1);
    expect(await metric('gateway_dynamodb_requests_total')).toBe(requestsBefore + line.dynamodb.requests);

    await client.dispose();
    await untilOpen(url, { subscriptions: 0 });
    expect(await metric('gateway_subscriptions_active')).toBe(0);
  });
});
