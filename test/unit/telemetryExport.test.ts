/**
 * The standard OTEL_* variables, read by config.ts (settings.ts) and by the
 * SDK's exporters: what turns telemetry on, what is refused, and the real
 * exporters: OTLP/HTTP to a collector stand-in on 127.0.0.1, and the
 * Prometheus endpoint on its own port.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config.js';
import { telemetrySettings } from '../../src/telemetry/settings.js';
import { loadTelemetry, type Telemetry } from '../../src/telemetry/telemetry.js';
import { silentLogger } from '../../src/logger.js';
import type { MetricsSummary } from '../../src/dynamo/metrics.js';
import { patience } from '../support/patience.js';

const fail = (message: string): never => {
  throw new ConfigError(message);
};

const NO_DYNAMODB: MetricsSummary = { requests: 0, byOperation: {}, consumedCapacity: 0, waves: 0, maxConcurrency: 0 };

let telemetry: Telemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
  vi.unstubAllEnvs();
});

/** One finished query operation, as the plugin reports it. */
function oneOperation(t: Telemetry, carrier?: Map<string, string>) {
  t.startOperation(carrier).finish({ name: 'One', type: 'query', cost: 1, codes: [], outcome: 'ok', dynamodb: NO_DYNAMODB, requestId: 'r1' });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('settings', () => {
  it('are off with no OTEL_* variable, and with OTEL_SDK_DISABLED=true', () => {
    expect(telemetrySettings({ PORT: '4000' }, fail)).toBeUndefined();
    expect(telemetrySettings({ OTEL_SERVICE_NAME: 'x', OTEL_SDK_DISABLED: 'true' }, fail)).toBeUndefined();
    expect(loadConfig({}).telemetry).toBeUndefined();
  });

  it('default to OTLP over HTTP/protobuf for traces and metrics once any OTEL_* variable is set', () => {
    expect(telemetrySettings({ OTEL_SERVICE_NAME: 'api' }, fail)).toEqual({
      traces: { exporters: ['otlp'], protocol: 'http/protobuf' },
      metrics: { exporters: ['otlp'], protocol: 'http/protobuf', intervalMs: 60_000, timeoutMs: 30_000 },
      propagators: ['tracecontext', 'baggage'],
      resource: { 'service.name': 'api' },
      lambdaFirstExport: 'after-answer',
    });
  });

  it('read exporters, per-signal protocols, propagators and resource attributes', () => {
    const settings = telemetrySettings(
      {
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRICS_EXPORTER: 'prometheus,otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
        OTEL_PROPAGATORS: 'tracecontext',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=a%2Cb',
        TELEMETRY_LAMBDA_FIRST_EXPORT: 'before-answer',
      },
      fail,
    );
    expect(settings).toMatchObject({
      traces: { exporters: [], protocol: 'http/json' },
      metrics: { exporters: ['prometheus', 'otlp'], protocol: 'http/protobuf' },
      propagators: ['tracecontext'],
      resource: { 'deployment.environment': 'prod', team: 'a,b' },
      lambdaFirstExport: 'before-answer',
    });
  });

  it('refuse gRPC, unknown exporters and propagators with the variable named', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/);
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER may list otlp, console or none; got "zipkin"/);
    expect(() => loadConfig({ OTEL_PROPAGATORS: 'b3' })).toThrow(/OTEL_PROPAGATORS/);
    expect(() => loadConfig({ OTEL_METRIC_EXPORT_INTERVAL: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_SERVICE_NAME: 'api', TELEMETRY_LAMBDA_FIRST_EXPORT: 'later' })).toThrow(
      /TELEMETRY_LAMBDA_FIRST_EXPORT must be one of after-answer, before-answer/,
    );
  });
});

describe('exporters', () => {
  it('send spans and metrics over OTLP/HTTP to the configured endpoint on flush', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer(async (req: IncomingMessage, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      received.push({ path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      // The OTLP exporters read their endpoint from the environment themselves.
      vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint);
      const settings = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, fail);
      telemetry = (await loadTelemetry(settings, silentLogger))!;
      oneOperation(telemetry, new Map([['traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']]));
      await telemetry.flush();
      const traces = received.filter((r) => r.path === '/v1/traces');
      expect(traces).toHaveLength(1);
      const span = JSON.parse(traces[0]!.body).resourceSpans[0].scopeSpans[0].spans[0];
      expect(span).toMatchObject({ name: 'query One', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7' });
      const metrics = received.filter((r) => r.path === '/v1/metrics');
      expect(metrics).toHaveLength(1);
      expect(metrics[0]!.body).toContain('gateway.graphql.operations');
    } finally {
      await telemetry?.shutdown();
      telemetry = undefined;
      collector.closeAllConnections();
      await new Promise((resolve) => collector.close(resolve));
    }
  });

  it('serve Prometheus text on OTEL_EXPORTER_PROMETHEUS_PORT, apart from the GraphQL port', async () => {
    const port = await freePort();
    vi.stubEnv('OTEL_EXPORTER_PROMETHEUS_HOST', '127.0.0.1');
    vi.stubEnv('OTEL_EXPORTER_PROMETHEUS_PORT', String(port));
    const settings = telemetrySettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'prometheus' }, fail);
    telemetry = (await loadTelemetry(settings, silentLogger))!;
    oneOperation(telemetry);
    oneOperation(telemetry);
    const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    await expect.poll(scrape, { timeout: patience(5000) }).toMatch(/^gateway_graphql_operations_total\{graphql_operation_type="query",outcome="ok"[^}]*\} 2$/m);
    const text = await scrape();
    expect(text).toMatch(/^gateway_graphql_operation_duration_count\{graphql_operation_type="query",outcome="ok"[^}]*\} 2$/m);
  });
});
