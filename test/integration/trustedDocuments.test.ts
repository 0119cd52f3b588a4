/**
 * TRUSTED_DOCUMENTS: only the operations of the client build's manifest
 * run; every other document is refused before it is parsed, over HTTP and
 * over API Gateway (Lambda). The manifest is the one the client codegen
 * produced (clients/__generated__/persisted-documents.json); Apollo
 * Client and urql send its ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { courseItem, enrollmentItem, studentItem } from '../support/defaultItems.js';
import { loadManifest, parseManifest } from '../../src/transport/trustedDocuments.js';
import { createLambdaHandler } from '../../src/transport/lambdaHandler.js';
import { createGatewayParts } from '../../src/transport/gatewayParts.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint, postGraphQL, testGateway, TEST_CURSOR_SECRET, type TestGateway } from '../support/gateway.js';
import { createApolloClient } from '../../clients/apolloClient.js';
import { createUrqlClient } from '../../clients/urqlClient.js';
import { Enroll, StudentCourses } from '../../clients/operations.js';

const MANIFEST = resolve(import.meta.dirname, '../../clients/__generated__/persisted-documents.json');
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
const [studentCoursesId, studentCoursesText] = Object.entries(manifest).find(([, text]) => text.startsWith('query StudentCourses'))!;

let gw: TestGateway;
let url: string;

beforeAll(async () => {
  gw = await testGateway({ trusted: loadManifest(MANIFEST) });
  await gw.put([
    studentItem({ id: 'p1', name: 'Ada', courseCount: 1 }),
    studentItem({ id: 'p2', name: 'Grace', courseCount: 0 }),
    courseItem({ id: 'c1', title: 'Engines', studentCount: 1 }),
    enrollmentItem({ studentId: 'p1', courseId: 'c1', enrolledAt: '2026-02-01T10:00:00.000Z', courseTitle: 'Engines', studentName: 'Ada' }),
  ]);
  url = await gw.listen();
});
afterAll(() => gw.stop());

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

describe('operations from the manifest', () => {
  it('runs an operation named by documentId', async () => {
    const { status, json } = await postGraphQL(url, { documentId: studentCoursesId, variables: { id: 'p1', first: 5 } });
    expect(status).toBe(200);
    expect(json.data.student.courses.edges[0].node.title).toBe('Engines');
  });

  it("runs an operation named by Apollo's persisted-query extension, with the id with or without its sha256: prefix", async () => {
    for (const sha256Hash of [studentCoursesId, studentCoursesId.replace(/^sha256:/, '')]) {
      const { json } = await postGraphQL(url, { extensions: { persistedQuery: { version: 1, sha256Hash } }, variables: { id: 'p1' } });
      expect(json.data.student.name).toBe('Ada');
    }
  });

  it("runs a text that is exactly the manifest's", async () => {
    const { json } = await postGraphQL(url, { query: studentCoursesText, variables: { id: 'p1' } });
    expect(json.data.student.name).toBe('Ada');
  });

  it('runs a GET naming its document by id', async () => {
    const search = new URLSearchParams({ documentId: studentCoursesId, variables: JSON.stringify({ id: 'p1' }) });
    const res = await fetch(`${url}?${search}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.student.name).toBe('Ada');
  });

  it('Apollo Client with PersistedQueryLink sends ids only, and they run', async () => {
    const client = createApolloClient({ url, trustedDocuments: true });
    const { data } = await client.query({ query: StudentCourses, variables: { id: 'p1', first: 1 } });
    expect(data?.student?.courses.edges.map((e) => e.enrolledAt)).toEqual(['2026-02-01T10:00:00.000Z']);
    // Without the link the same client sends text, which is Apollo's print, not the manifest's: refused.
    const seen: string[] = [];
    const plain = createApolloClient({ url, onError: (code) => seen.push(code) });
    await plain.query({ query: StudentCourses, variables: { id: 'p1' } }).catch(() => {});
    expect(seen).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    client.stop();
    plain.stop();
  });

  it('urql with persistedExchange sends ids only, for queries and mutations', async () => {
    const client = createUrqlClient({ url, trustedDocuments: true });
    const query = await client.query(StudentCourses, { id: 'p1', first: 1 }).toPromise();
    expect(query.error).toBeUndefined();
    expect(query.data?.student?.name).toBe('Ada');
    const mutation = await client.mutation(Enroll, { studentId: 'p2', courseId: 'c1' }).toPromise();
    expect(mutation.error).toBeUndefined();
    expect(mutation.data?.enroll.node.title).toBe('Engines');
  });
});

describe('everything else is refused before parsing', () => {
  it('refuses a document outside the manifest with PERSISTED_QUERY_NOT_IN_LIST and no DynamoDB request', async () => {
    const before = (await gw.scan()).length;
    const { status, json } = await postGraphQL(url, { query: 'mutation { createCourse(input: { title: "Injected" }) { id } }' });
    expect(status).toBe(200);
    expect(json).toEqual({ errors: [{ message: expect.stringMatching(/trusted documents only/), extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }] });
    expect((await gw.scan()).length).toBe(before);
  });

  it('never parses what it refuses: text that is not GraphQL gets the same refusal, not a parse error', async () => {
    const { json } = await postGraphQL(url, { query: '{'.repeat(50_000) });
    expect(json.errors.map((e: any) => e.extensions.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
  });

  it('refuses introspection, a changed manifest text and a GET with text', async () => {
    for (const query of ['{ __schema { types { name } } }', studentCoursesText.replace('name', 'name email')]) {
      const { json } = await postGraphQL(url, { query });
      expect(json.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    }
    const res = await fetch(`${url}?query=${encodeURIComponent('{ course(id: "c1") { title } }')}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(((await res.json()) as any).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('answers an unknown id with PERSISTED_QUERY_NOT_FOUND', async () => {
    const { json } = await postGraphQL(url, { documentId: 'sha256:0000', variables: {} });
    expect(json.errors.map((e: any) => e.extensions.code)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('answers 400 with application/graphql-response+json', async () => {
    const { status, json } = await postGraphQL(url, { query: '{ course(id: "c1") { title } }' }, { accept: GRAPHQL_RESPONSE });
    expect(status).toBe(400);
    expect(json.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('refuses a batch holding one untrusted operation whole', async () => {
    const batching = await testGateway({ trusted: loadManifest(MANIFEST), allowBatchedRequests: true });
    try {
      const batchUrl = await batching.listen();
      const ok = await postGraphQL(batchUrl, [
        { documentId: studentCoursesId, variables: { id: 'x' } },
        { documentId: studentCoursesId, variables: { id: 'y' } },
      ]);
      expect(ok.json).toEqual([{ data: { __typename: 'Query', student: null } }, { data: { __typename: 'Query', student: null } }]);
      const mixed = await postGraphQL(batchUrl, [{ documentId: studentCoursesId, variables: { id: 'x' } }, { query: '{ course(id: "c1") { title } }' }]);
      expect(mixed.json.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    } finally {
      await batching.stop();
    }
  });
});

describe('over API Gateway (Lambda)', () => {
  it('runs manifest operations and refuses others the same way', async () => {
    const config = loadConfig({
      DYNAMODB_ENDPOINT: localEndpoint(),
      TABLE_NAME: gw.tableName,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      CURSOR_SECRET: TEST_CURSOR_SECRET,
      TRUSTED_DOCUMENTS: MANIFEST,
      LOG_LEVEL: 'silent',
    });
    const lambda = createLambdaHandler(config, { logger: silentLogger, dynamo: gw.dynamo });
    const event = (body: unknown, headers: Record<string, string> = {}) =>
      ({
        version: '2.0',
        routeKey: '$default',
        rawPath: '/graphql',
        rawQueryString: '',
        headers: { 'content-type': 'application/json', ...headers },
        requestContext: { http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'r' },
        body: JSON.stringify(body),
        isBase64Encoded: false,
      }) as unknown as APIGatewayProxyEventV2;
    const context = { awsRequestId: 'aws-1', functionName: 'gateway', getRemainingTimeInMillis: () => 10_000 } as LambdaContext;
    const ok = await lambda(event({ documentId: studentCoursesId, variables: { id: 'p1' } }), context);
    expect(JSON.parse(ok.body!).data.student.name).toBe('Ada');
    const refused = await lambda(event({ query: '{ course(id: "c1") { title } }' }), context);
    expect(refused.statusCode).toBe(200);
    expect(JSON.parse(refused.body!).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    const strict = await lambda(event({ query: '{ course(id: "c1") { title } }' }, { accept: GRAPHQL_RESPONSE }), context);
    expect(strict.statusCode).toBe(400);
    const get = (search: URLSearchParams) => {
      const e = event(undefined, { 'apollo-require-preflight': '1' }) as any;
      e.requestContext.http.method = 'GET';
      e.body = undefined;
      e.rawQueryString = search.toString();
      return e as APIGatewayProxyEventV2;
    };
    const byId = await lambda(get(new URLSearchParams({ documentId: studentCoursesId, variables: JSON.stringify({ id: 'p1' }) })), context);
    expect(JSON.parse(byId.body!).data.student.name).toBe('Ada');
    const text = await lambda(get(new URLSearchParams({ query: '{ course(id: "c1") { title } }' })), context);
    expect(JSON.parse(text.body!).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });
});

describe('the manifest', () => {
  it("reads Apollo's persisted query manifest format", () => {
    const apollo = parseManifest({
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'abc123', name: 'Course', type: 'query', body: 'query Course { course(id: "c1") { title } }' }],
    });
    expect(apollo.size).toBe(1);
    expect(apollo.byId('abc123')).toBe('query Course { course(id: "c1") { title } }');
    expect(apollo.hasText('query Course { course(id: "c1") { title } }')).toBe(true);
    expect(apollo.hasText('query Course { course(id: "c2") { title } }')).toBe(false);
  });

  it('refuses a manifest it cannot use, naming what is wrong, and so stops start-up', () => {
    expect(() => parseManifest([])).toThrow(/not a manifest/);
    expect(() => parseManifest({})).toThrow(/lists no operation/);
    expect(() => parseManifest({ a: 1 })).toThrow(/"a" is not a document text/);
    expect(() => parseManifest({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] })).toThrow(/version 2/);
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    for (const [path, message] of [
      [join(dir, 'bad.json'), /TRUSTED_DOCUMENTS: .*bad\.json is not JSON/],
      [join(dir, 'missing.json'), /TRUSTED_DOCUMENTS: cannot read .*missing\.json/],
    ] as const) {
      const config = loadConfig({ DYNAMODB_ENDPOINT: localEndpoint(), TRUSTED_DOCUMENTS: path, LOG_LEVEL: 'silent' });
      expect(() => createGatewayParts(config, { logger: silentLogger, dynamo: gw.dynamo })).toThrow(message);
    }
  });
});
