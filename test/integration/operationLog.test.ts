import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createContext } from '../../src/graphql/context.js';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { createServer } from '../../src/graphql/server.js';
import { testGateway, type TestGateway } from '../support/gateway.js';

/** A pino logger writing JSON lines into memory. */
function capturedLogger(level = 'info') {
  const lines: Array<Record<string, any>> = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  const logger = pino({ level, base: undefined }, stream);
  return { logger, lines, text: () => raw.join('\n'), flush: () => new Promise((r) => setImmediate(r)) };
}

const log = capturedLogger();
let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ logger: log.logger });
  await gw.put([
    studentItem({ id: 's1', name: 'Grace Hopper', email: 'grace@example.com', courseCount: 1 }),
    courseItem({ id: 'c1', title: 'Compilers', studentCount: 1 }),
    enrollmentItem({ studentId: 's1', courseId: 'c1', enrolledAt: '2026-01-01T00:00:00.000Z', courseTitle: 'Compilers', studentName: 'Grace Hopper' }),
  ]);
});
afterAll(() => gw.stop());

async function lastLine() {
  await log.flush();
  return log.lines.at(-1)!;
}

describe('operation log', () => {
  it('writes one info line per operation with its name, duration, DynamoDB requests and request id', async () => {
    const before = log.lines.length;
    const result = await gw.run(`query StudentPage { student(id: "s1") { name courses { edges { node { title } } } } }`);
    expect(result.errors).toBeUndefined();
    await log.flush();
    const lines = log.lines.slice(before);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'graphql operation',
      operationName: 'StudentPage',
      operationType: 'query',
      errorCodes: [],
    });
    expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof line.durationMs).toBe('number');
    expect(line.dynamodb.requests).toBeGreaterThan(0);
    expect(Object.values(line.dynamodb.byOperation).reduce((a: number, b: any) => a + b, 0)).toBe(line.dynamodb.requests);
    // The student comes with its courses in one Query (look-ahead); the line carries capacity and waves too.
    expect(line.dynamodb.byOperation.Query).toBe(1);
    expect(line.dynamodb).toMatchObject({ consumedCapacity: expect.any(Number), waves: expect.any(Number) });
  });

  it('never logs variables, names, emails, cursors or query text', async () => {
    const first = await gw.run(`query Q($id: ID!) { student(id: $id) { name email courses(first: 1) { pageInfo { endCursor } } } }`, { id: 's1' });
    const cursor = first.data.student.courses.pageInfo.endCursor;
    await gw.run(`query Next($id: ID!, $after: String) { student(id: $id) { courses(first: 1, after: $after) { totalCount } } }`, {
      id: 's1',
      after: cursor,
    });
    await gw.run(`{ student(id: "s1") { name } }`);
    await log.flush();
    const text = log.text();
    expect(text).not.toContain('Grace');
    expect(text).not.toContain('grace@example.com');
    expect(text).not.toContain(cursor);
    expect(text).not.toContain('"s1"');
    expect(text).not.toContain('student(');
  });

  it('reports the error codes of user errors without echoing the rejected input', async () => {
    const result = await gw.run(`query Bad($id: ID!) { student(id: $id) { name } }`, { id: 'secret#value' });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const line = await lastLine();
    expect(line).toMatchObject({ level: 30, operationName: 'Bad', errorCodes: ['BAD_USER_INPUT'] });
    expect(log.text()).not.toContain('secret#value');
  });

  it('logs a document that does not parse with its code and no operation type', async () => {
    await gw.run(`{ student(id: "s1") { name }`);
    const line = await lastLine();
    expect(line).toMatchObject({ operationType: null, errorCodes: ['GRAPHQL_PARSE_FAILED'], dynamodb: { requests: 0 } });
  });
});

describe('operation error log', () => {
  it('logs an unexpected error at level error with the request id, and the operation line says INTERNAL_SERVER_ERROR', async () => {
    const local = capturedLogger();
    const server = createServer({ prod: true, logger: local.logger, model: gw.model });
    await server.start();
    try {
      const broken = { send: async () => Promise.reject(new TypeError('resolver bug')) } as unknown as DynamoDBDocumentClient;
      const contextValue = createContext({ ...gw.deps, doc: broken, readPath: undefined, tableName: 'unused' });
      const response = await server.executeOperation({ query: `query Broken { student(id: "x") { name } }` }, { contextValue });
      expect(response.body.kind === 'single' && response.body.singleResult.errors?.[0]?.message).toBe('Internal server error');
      await local.flush();
      const errorLine = local.lines.find((l) => l.msg === 'operation error')!;
      expect(errorLine).toMatchObject({
        level: 50,
        requestId: contextValue.requestId,
        code: 'INTERNAL_SERVER_ERROR',
        path: 'student',
        error: { name: 'TypeError', message: 'resolver bug' },
      });
      expect(local.lines.at(-1)).toMatchObject({
        level: 50,
        msg: 'graphql operation',
        requestId: contextValue.requestId,
        operationName: 'Broken',
        errorCodes: ['INTERNAL_SERVER_ERROR'],
      });
    } finally {
      await server.stop();
    }
  });

  it('logs DynamoDB being unavailable at level warn', async () => {
    const local = capturedLogger();
    const server = createServer({ prod: false, logger: local.logger, model: gw.model });
    await server.start();
    try {
      const contextValue = createContext({ ...gw.deps, tableName: 'no_such_table' });
      await server.executeOperation({ query: `{ student(id: "x") { name } }` }, { contextValue });
      await local.flush();
      expect(local.lines.find((l) => l.msg === 'operation error')).toMatchObject({ level: 40, code: 'UNAVAILABLE' });
      expect(local.lines.at(-1)).toMatchObject({ level: 40, errorCodes: ['UNAVAILABLE'] });
    } finally {
      await server.stop();
    }
  });

  it('drops operation lines below the configured level', async () => {
    const quiet = capturedLogger('warn');
    const server = createServer({ prod: false, logger: quiet.logger, model: gw.model });
    await server.start();
    try {
      await server.executeOperation({ query: `{ __typename }` }, { contextValue: createContext(gw.deps) });
      await quiet.flush();
      expect(quiet.lines).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
