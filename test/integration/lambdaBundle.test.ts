import { execFile, spawn } from 'node:child_process';
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
    const logLine = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'graphql operation');
    expect(logLine).toMatchObject({ requestId: 'bundle-test', dynamodb: { requests: 1 } });
  });

  describe('with OTEL_* set', () => {
    interface Received {
      path: string;
      body: string;
    }
    /**
     * A collector stand-in that answers no export until `release()`: an
     * invocation that waited for its export would never return while held.
     */
    async function heldCollector() {
      const received: Received[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const server = createServer(async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        received.push({ path: req.url ?? '', body });
        await released;
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        received,
        release,
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        async close() {
          release();
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        },
      };
    }

    /** Runs `script` against the bundle; `onLine` sees each stdout line as it comes. */
    function runBundle(script: string, env: Record<string, string>, onLine: (line: string) => void = () => {}) {
      return new Promise<{ code: number | null; lines: string[] }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, outDir], {
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
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            // Longer than the test may take: an export is never given up while the collector holds it.
            OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const lines: string[] = [];
        let rest = '';
        child.stdout.on('data', (chunk: Buffer) => {
          const parts = (rest + chunk.toString()).split('\n');
          rest = parts.pop()!;
          for (const line of parts) {
            lines.push(line);
            onLine(line);
          }
        });
        child.once('error', reject);
        child.once('exit', (code) => resolve({ code, lines }));
      });
    }

    const spanNames = (received: Received[]) =>
      received
        .filter((r) => r.path === '/v1/traces')
        .flatMap((r) => JSON.parse(r.body).resourceSpans)
        .flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans.map((span: any) => span.name)))
        .sort();

    const invocation = (n: number) =>
      `await handler({ ...event, requestContext: { ...event.requestContext, requestId: 'r${n}' } }, { awsRequestId: 'bundle-test-${n}' })`;
    const setup = invoke.slice(0, invoke.indexOf('const result'));

    it('answers the first invocation before its export, and the second invocation returns only once both are exported', async () => {
      const collector = await heldCollector();
      try {
        const script = `${setup}
const first = ${invocation(1)};
process.stdout.write('FIRST ' + first.statusCode + '\\n');
const second = ${invocation(2)};
process.stdout.write('SECOND ' + second.statusCode + '\\n');
process.exit(0); // as Lambda freezes the instance once an invocation returns
`;
        const { code, lines } = await runBundle(script, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint }, (line) => {
          if (line.startsWith('FIRST ')) collector.release();
        });
        expect(code).toBe(0);
        expect(lines).toContain('FIRST 200');
        expect(lines).toContain('SECOND 200');
        expect(spanNames(collector.received)).toEqual(['DynamoDB.GetItem', 'DynamoDB.GetItem', 'query', 'query']);
        const resource = JSON.parse(collector.received.find((r) => r.path === '/v1/traces')!.body).resourceSpans[0].resource;
        expect(resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'bundled-gateway' } });
        expect(collector.received.some((r) => r.path === '/v1/metrics')).toBe(true);
      } finally {
        await collector.close();
      }
    });

    it('exports what is left on SIGTERM, then exits', async () => {
      const collector = await heldCollector();
      collector.release();
      try {
        const script = `${setup}
const first = ${invocation(1)};
process.stdout.write('FIRST ' + first.statusCode + '\\n');
process.kill(process.pid, 'SIGTERM'); // what Lambda sends before shutting an instance with an extension down
await new Promise(() => {});
`;
        const { code, lines } = await runBundle(script, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
        expect(code).toBe(0);
        expect(lines).toContain('FIRST 200');
        expect(spanNames(collector.received)).toEqual(['DynamoDB.GetItem', 'query']);
      } finally {
        await collector.close();
      }
    });

    it("with TELEMETRY_LAMBDA_FIRST_EXPORT=before-answer, exports the first invocation's spans before returning", async () => {
      const collector = await heldCollector();
      collector.release();
      try {
        const script = `${setup}
const first = ${invocation(1)};
process.stdout.write('FIRST ' + first.statusCode + '\\n');
process.exit(0);
`;
        const { code, lines } = await runBundle(script, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, TELEMETRY_LAMBDA_FIRST_EXPORT: 'before-answer' });
        expect(code).toBe(0);
        expect(lines).toContain('FIRST 200');
        expect(spanNames(collector.received)).toEqual(['DynamoDB.GetItem', 'query']);
        expect(collector.received.some((r) => r.path === '/v1/metrics')).toBe(true);
      } finally {
        await collector.close();
      }
    });
  });
});

describe('stream consumer bundle (src/stream/lambda.mjs)', () => {
  it('runs under plain node outside the repository and propagates a rename from records read off the stream', async () => {
    await gw.put([
      courseItem({ id: 'BC', title: 'Old', studentCount: 2 }),
      ...['bs1', 'bs2'].map((id) =>
        enrollmentItem({ studentId: id, courseId: 'BC', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Old', studentName: id }),
      ),
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
    const logLine = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'stream batch processed');
    expect(logLine).toMatchObject({ records: 1, processed: 1, failed: 0, copies: 2 });
    expect((await gw.get('STUDENT#bs1', 'COURSE#BC'))?.courseTitle).toBe('New');
    expect((await gw.get('STUDENT#bs2', 'COURSE#BC'))?.courseTitle).toBe('New');
  });
});
