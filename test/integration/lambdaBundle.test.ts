import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambda } from '../../scripts/build-lambda.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { createStreamsClient } from '../../src/stream/streamsClient.js';
import { lambdaEvent, readAll, readAfter } from '../support/streamRecords.js';
import { localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';

const run = promisify(execFile);

// The deployable artifact, not the source: bundled, copied outside the
// repository (no node_modules to fall back on) and run by plain `node`.
let gw: TestGateway;
let outDir: string;
beforeAll(async () => {
  gw = await testGateway();
  await gw.put([studentItem({ id: 'b1', name: 'Bundled' })]);
  outDir = await buildLambda(join(mkdtempSync(join(tmpdir(), 'lambda-bundle-')), 'lambda'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(join(outDir, '..'), { recursive: true, force: true });
});

const invoke = `
const { handler } = await import(process.argv[1] + '/src/transport/lambda.mjs');
const event = {
  version: '2.0', rawPath: '/graphql', rawQueryString: '', headers: { 'content-type': 'application/json' },
  requestContext: { http: { method: 'POST', path: '/graphql' } },
  body: JSON.stringify({ query: '{ student(id: "b1") { name } }' }), isBase64Encoded: false,
};
const result = await handler(event, { awsRequestId: 'bundle-test' });
process.stdout.write('RESULT ' + JSON.stringify(result) + '\\n');
`;

describe('Lambda bundle (npm run build:lambda)', () => {
  it('runs under plain node outside the repository and answers a GraphQL request', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', invoke, outDir], {
      cwd: outDir,
      env: {
        PATH: process.env.PATH,
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
        NODE_ENV: 'production',
        AUTH_MODE: 'off',
        LOG_LEVEL: 'info',
        CURSOR_SECRET: 'bundle-test-cursor-secret-0123456789abcdef',
      },
    });
    const lines = stdout.split('\n').filter(Boolean);
    const result = JSON.parse(lines.find((l) => l.startsWith('RESULT '))!.slice('RESULT '.length));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ data: { student: { name: 'Bundled' } } });
    const logLine = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((l) => l.msg === 'graphql operation');
    expect(logLine).toMatchObject({ requestId: 'bundle-test', dynamodb: { requests: 1 } });
  });

  it('with OTEL_* set, loads its telemetry chunk and exports the invocation\'s spans over OTLP before returning', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      received.push({ path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', invoke, outDir], {
        cwd: outDir,
        env: {
          PATH: process.env.PATH,
          DYNAMODB_ENDPOINT: localEndpoint(),
          TABLE_NAME: gw.tableName,
          NODE_ENV: 'production',
          AUTH_MODE: 'off',
          LOG_LEVEL: 'warn',
          CURSOR_SECRET: 'bundle-test-cursor-secret-0123456789abcdef',
          OTEL_SERVICE_NAME: 'bundled-gateway',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        },
      });
      expect(stdout).toContain('RESULT ');
      const traces = received.filter((r) => r.path === '/v1/traces').flatMap((r) => JSON.parse(r.body).resourceSpans);
      const names = traces.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans.map((span: any) => span.name)));
      expect(names.sort()).toEqual(['DynamoDB.GetItem', 'query']);
      expect(traces[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'bundled-gateway' } });
      expect(received.some((r) => r.path === '/v1/metrics')).toBe(true);
    } finally {
      collector.closeAllConnections();
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});

describe('stream consumer bundle (src/stream/lambda.mjs)', () => {
  it('runs under plain node outside the repository and propagates a rename from records read off the stream', async () => {
    await gw.put([
      courseItem({ id: 'BC', title: 'Old', studentCount: 2 }),
      ...['bs1', 'bs2'].map((id) => enrollmentItem({ studentId: id, courseId: 'BC', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: id })),
    ]);
    const streams = createStreamsClient({ endpoint: localEndpoint() });
    const mark = (await readAll(streams, gw.streamArn!)).at(-1)?.dynamodb?.SequenceNumber;
    await gw.run(`mutation { updateCourse(id: "BC", input: { title: "New" }) { id } }`);
    const event = lambdaEvent(await readAfter(streams, gw.streamArn!, mark), gw.streamArn!);
    streams.destroy();
    const script = `
const { handler } = await import(process.argv[1] + '/src/stream/lambda.mjs');
const result = await handler(JSON.parse(process.env.EVENT));
process.stdout.write('RESULT ' + JSON.stringify(result) + '\\n');
`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, outDir], {
      cwd: outDir,
      env: {
        PATH: process.env.PATH,
        DYNAMODB_ENDPOINT: localEndpoint(),
        TABLE_NAME: gw.tableName,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        EVENT: JSON.stringify(event),
      },
    });
    const lines = stdout.split('\n').filter(Boolean);
    expect(JSON.parse(lines.find((l) => l.startsWith('RESULT '))!.slice('RESULT '.length))).toEqual({ batchItemFailures: [] });
    const logLine = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((l) => l.msg === 'stream batch processed');
    expect(logLine).toMatchObject({ records: 1, processed: 1, failed: 0, copies: 2 });
    expect((await gw.get('STUDENT#bs1', 'COURSE#BC'))?.courseTitle).toBe('New');
    expect((await gw.get('STUDENT#bs2', 'COURSE#BC'))?.courseTitle).toBe('New');
  });
});
