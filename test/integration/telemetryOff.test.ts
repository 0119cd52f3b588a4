/**
 * Telemetry off costs nothing: with no OTEL_* variable the OpenTelemetry
 * module (src/telemetry/otel.ts, every OpenTelemetry import) is never
 * loaded, no telemetry plugin is made, and operations and stream batches
 * carry no call observer, over HTTP, through the Lambda entry point and in
 * the stream reader. Spies on the module and the plugin prove it; the last
 * test turns telemetry on and sees the same spies fire, so they can.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { loadConfig } from '../../src/config.js';
import { loadTelemetry } from '../../src/telemetry/telemetry.js';
import { telemetrySettings } from '../../src/telemetry/settings.js';
import { OperationMetrics } from '../../src/dynamo/metrics.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint, postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { twoStudentsTwoCourses } from '../support/fixtures.js';

const seen = vi.hoisted(() => ({ otelLoads: 0, plugins: 0, observed: 0 }));

vi.mock('../../src/telemetry/otel.js', async (importOriginal) => {
  seen.otelLoads += 1;
  return importOriginal();
});
vi.mock('../../src/graphql/plugins/telemetry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/graphql/plugins/telemetry.js')>();
  return {
    ...real,
    telemetryPlugin: (...args: Parameters<typeof real.telemetryPlugin>) => {
      seen.plugins += 1;
      return real.telemetryPlugin(...args);
    },
  };
});

/** Every operation metrics object that ever had a call observer set on it. */
const descriptor = {
  configurable: true,
  set(this: { _calls?: unknown }, value: unknown) {
    seen.observed += 1;
    this._calls = value;
  },
  get(this: { _calls?: unknown }) {
    return this._calls;
  },
};

const NESTED = `query StudentCourses($id: ID!) {
  student(id: $id) { name courses(first: 2) { edges { node { title students(first: 2) { edges { node { name } } } } } } }
}`;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let gw: TestGateway;
beforeAll(async () => {
  Object.defineProperty(OperationMetrics.prototype, 'calls', descriptor);
  gw = await testGateway();
  await gw.put(twoStudentsTwoCourses());
});
afterAll(async () => {
  await gw.stop();
  delete (OperationMetrics.prototype as { calls?: unknown }).calls;
});

const withoutOtel = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('OTEL_')));

function apiEvent(body: unknown): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /graphql',
    rawPath: '/graphql',
    rawQueryString: '',
    headers: { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'content-type': 'application/json', traceparent: TRACEPARENT },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc',
      domainName: 'abc.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc',
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'test' },
      requestId: 'r',
      routeKey: 'POST /graphql',
      stage: '$default',
      time: '29/Nov/2026:12:00:00 +0000',
      timeEpoch: 1795000000000,
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

describe('with no OTEL_* variable', () => {
  it('has no telemetry settings, and loading telemetry loads no OpenTelemetry code', async () => {
    const config = loadConfig(withoutOtel({ DYNAMODB_ENDPOINT: localEndpoint() }));
    expect(config.telemetry).toBeUndefined();
    expect(await loadTelemetry(config.telemetry, silentLogger)).toBeUndefined();
    expect(seen.otelLoads).toBe(0);
  });

  it('does no telemetry work for operations over HTTP, even with a traceparent', async () => {
    const url = await gw.listen();
    const { json } = await postGraphQL(url, { query: NESTED, variables: { id: 's1' } }, { traceparent: TRACEPARENT });
    expect(json.data.student.name).toBe('One');
    const { requests } = await gw.counted(NESTED, { id: 's2' });
    expect(requests.requests).toBeGreaterThan(1);
    expect(seen).toEqual({ otelLoads: 0, plugins: 0, observed: 0 });
  });

  it('does no telemetry work in the Lambda entry point', async () => {
    for (const [name, value] of Object.entries(process.env)) if (name.startsWith('OTEL_') && value) vi.stubEnv(name, '');
    vi.stubEnv('DYNAMODB_ENDPOINT', localEndpoint());
    vi.stubEnv('TABLE_NAME', gw.tableName);
    vi.stubEnv('LOG_LEVEL', 'silent');
    vi.stubEnv('AWS_REGION', 'us-east-1');
    try {
      const { handler } = await import('../../src/transport/lambdaHandler.js');
      const context = { awsRequestId: 'off-1', getRemainingTimeInMillis: () => 10_000 } as LambdaContext;
      const result = await handler(apiEvent({ query: NESTED, variables: { id: 's1' } }), context);
      expect(JSON.parse(result.body!).data.student.name).toBe('One');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(seen).toEqual({ otelLoads: 0, plugins: 0, observed: 0 });
  });

  it('hands stream batches to the handler without a traced store', async () => {
    await gw.run('mutation { updateCourse(id: "b", input: { title: "B2" }) { id } }');
    await gw.settle();
    expect((await gw.get('STUDENT#s1', 'COURSE#b'))?.courseTitle).toBe('B2');
    expect(seen).toEqual({ otelLoads: 0, plugins: 0, observed: 0 });
  });
});

describe('with an OTEL_* variable (the spies can see telemetry)', () => {
  it('loads the OpenTelemetry module once, installs the plugin and observes every operation', async () => {
    const settings = telemetrySettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }, (m) => {
      throw new Error(m);
    });
    const telemetry = (await loadTelemetry(settings, silentLogger))!;
    const on = await testGateway({ telemetry });
    try {
      await on.put(twoStudentsTwoCourses());
      const { requests } = await on.counted(NESTED, { id: 's1' });
      expect(requests.calls).toBeDefined();
      expect(seen).toEqual({ otelLoads: 1, plugins: 1, observed: 1 });
    } finally {
      await on.stop();
      await telemetry.shutdown();
    }
  });
});
