/**
 * The read path (src/dynamo/leanReads/readPath.ts): operations' GetItem, Query and
 * BatchGetItem sent without the SDK's middleware stack. It must answer
 * exactly what the SDK's document client answers, count the same, fail the
 * same, and sign as AWS verifies (DynamoDB Local checks no signature, so a
 * SigV4-verifying server on 127.0.0.1 stands in for AWS here).
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo, type Dynamo } from '../../src/dynamo/client.js';
import { metricsClient, OperationMetrics } from '../../src/dynamo/metrics.js';
import { SdkReads } from '../../src/dynamo/readPort.js';
import { LeanReads, operationReads } from '../../src/dynamo/leanReads/leanReads.js';
import { ReadPath } from '../../src/dynamo/leanReads/readPath.js';
import { GatewayRetryStrategy } from '../../src/dynamo/retryStrategy.js';
import { isUnavailableError } from '../../src/errors.js';
import { PATIENT_CLIENT, localEndpoint, testGateway, type TestGateway } from '../support/gateway.js';
import { patience } from '../support/patience.js';

const strategy = () => new GatewayRetryStrategy({ maxAttempts: 3, mode: 'standard', throttleAttempts: 10, throttleBudgetMs: 5000, baseDelayMs: 1 });

/** Every attribute type DynamoDB has, and numbers at the edges of what JavaScript holds. */
const ODD_ITEM = {
  PK: 'ODD#1',
  SK: 'PROFILE',
  text: 'héllo – ✓',
  empty: '',
  int: 42,
  negative: -7.25,
  big: 2n ** 60n,
  yes: true,
  no: false,
  nothing: null,
  list: [1, 'two', { three: [3] }, null],
  map: { nested: { deeper: 'x' }, n: 0 },
  strings: new Set(['a', 'b']),
  numbers: new Set([1, 2.5]),
  bytes: new Uint8Array([0, 1, 2, 255]),
  byteSet: new Set([new Uint8Array([1]), new Uint8Array([2])]),
};

/** A document-client command sent on an operation's read port, made as the request context makes it (LeanReads on a read path, else SdkReads). */
function portSend(dynamo: Dynamo, metrics: OperationMetrics, command: object): Promise<unknown> {
  const port = operationReads(dynamo.reads, metricsClient(dynamo.doc, metrics), metrics);
  if (command instanceof GetCommand) return port.get(command.input);
  if (command instanceof QueryCommand) return port.query(command.input);
  if (command instanceof BatchGetCommand) return port.batchGet(command.input);
  throw new Error('not a read');
}

describe('the read path against DynamoDB Local', () => {
  let gw: TestGateway;
  let sdk: Dynamo;

  beforeAll(async () => {
    gw = await testGateway();
    sdk = createDynamo({ endpoint: localEndpoint(), ...PATIENT_CLIENT, readPath: 'sdk' });
    await gw.put([ODD_ITEM, ...Array.from({ length: 5 }, (_, i) => ({ PK: 'ODD#1', SK: `CHILD#${i}`, n: i, GSI1PK: 'ODDS', GSI1SK: `ODD#${i}` }))]);
  });
  afterAll(async () => {
    sdk.raw.destroy();
    await gw.stop();
  });

  /** One read through an operation's read port on the given client; the output without $metadata, and what was counted. */
  async function read(dynamo: Dynamo, command: object) {
    const metrics = new OperationMetrics();
    const { $metadata, ...output } = (await portSend(dynamo, metrics, command)) as Record<string, unknown>;
    expect($metadata).toMatchObject({ httpStatusCode: 200, attempts: 1 });
    return { output, metrics: metrics.summary() };
  }

  it('answers GetItem, Query and BatchGetItem with exactly what the document client answers, every attribute type included', async () => {
    const t = gw.tableName;
    const commands = [
      () => new GetCommand({ TableName: t, Key: { PK: 'ODD#1', SK: 'PROFILE' } }),
      () => new GetCommand({ TableName: t, Key: { PK: 'ODD#1', SK: 'NONE' } }),
      () =>
        new GetCommand({
          TableName: t,
          Key: { PK: 'ODD#1', SK: 'PROFILE' },
          ConsistentRead: true,
          ProjectionExpression: 'big, #m.nested',
          ExpressionAttributeNames: { '#m': 'map' },
        }),
      () => new QueryCommand({ TableName: t, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ODD#1' }, Limit: 3 }),
      () =>
        new QueryCommand({
          TableName: t,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
          ExpressionAttributeValues: { ':pk': 'ODD#1', ':p': 'CHILD#' },
          ExclusiveStartKey: { PK: 'ODD#1', SK: 'CHILD#1' },
          ScanIndexForward: false,
        }),
      () =>
        new QueryCommand({ TableName: t, IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'ODDS' }, Limit: 2 }),
      () => new QueryCommand({ TableName: t, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'ODD#1' }, Select: 'COUNT' }),
      // Binary and set values in the request's own values.
      () =>
        new QueryCommand({
          TableName: t,
          KeyConditionExpression: 'PK = :pk',
          FilterExpression: '#b = :b AND contains(strings, :s) AND #m.n = :zero',
          ExpressionAttributeNames: { '#b': 'bytes', '#m': 'map' },
          ExpressionAttributeValues: { ':pk': 'ODD#1', ':b': new Uint8Array([0, 1, 2, 255]), ':s': 'a', ':zero': 0 },
        }),
      () =>
        new BatchGetCommand({
          RequestItems: {
            [t]: {
              Keys: [
                { PK: 'ODD#1', SK: 'PROFILE' },
                { PK: 'ODD#1', SK: 'CHILD#3' },
                { PK: 'ODD#9', SK: 'X' },
              ],
            },
          },
        }),
    ];
    for (const command of commands) {
      const lean = await read(gw.dynamo, command());
      const reference = await read(sdk, command());
      expect(lean).toEqual(reference);
      expect(lean.metrics.requests).toBe(1);
    }
    const { output } = await read(gw.dynamo, commands[0]!());
    expect(output.Item).toEqual(ODD_ITEM);
    const filtered = await read(gw.dynamo, commands[7]!());
    expect(filtered.output.Items).toEqual([ODD_ITEM]);
  });

  it('sends an operation’s reads without the SDK, counted as on the SDK path', async () => {
    await gw.put([
      { PK: 'COURSE#rp', SK: 'PROFILE', title: 'Read paths', studentCount: 3 },
      ...[1, 2, 3].flatMap((i) => [
        { PK: `STUDENT#rp${i}`, SK: 'PROFILE', name: `S${i}`, email: `s${i}@example.com` },
        { PK: `STUDENT#rp${i}`, SK: 'COURSE#rp', GSI1PK: 'COURSE#rp', GSI1SK: `STUDENT#rp${i}`, courseTitle: 'Read paths', studentName: `S${i}` },
      ]),
    ]);
    const query = '{ course(id: "rp") { title students(first: 10) { edges { node { id name email } } } } }';
    const sdkSend = vi.spyOn(gw.dynamo.raw, 'send');
    const leanSend = vi.spyOn(gw.dynamo.reads!, 'send');
    try {
      const { result, requests } = await gw.counted(query);
      expect(result.errors).toBeUndefined();
      expect(result.data.course.students.edges.map((e: any) => e.node.email)).toEqual(['s1@example.com', 's2@example.com', 's3@example.com']);
      expect(sdkSend).not.toHaveBeenCalled();
      expect(leanSend).toHaveBeenCalledTimes(3);
      expect(requests.summary()).toEqual({
        requests: 3,
        byOperation: { GetItem: 1, Query: 1, BatchGetItem: 1 },
        consumedCapacity: 2.5,
        waves: 2,
        maxConcurrency: 2,
      });
    } finally {
      sdkSend.mockRestore();
      leanSend.mockRestore();
    }
  });

  it('fails a read of a missing table with the SDK’s own exception, as the SDK path does', async () => {
    const command = () => new GetCommand({ TableName: 'no-such-table', Key: { PK: 'a', SK: 'b' } });
    const lean = await portSend(gw.dynamo, new OperationMetrics(), command()).catch((e: unknown) => e);
    const reference = await portSend(sdk, new OperationMetrics(), command()).catch((e: unknown) => e);
    expect(lean).toBeInstanceOf(ResourceNotFoundException);
    expect(reference).toBeInstanceOf(ResourceNotFoundException);
    for (const e of [lean, reference] as ResourceNotFoundException[]) {
      expect(e).toMatchObject({ name: 'ResourceNotFoundException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 1 } });
    }
    expect((lean as Error).message).toBe((reference as Error).message);
  });

  it('leaves reads to the SDK with DYNAMODB_READ_PATH=sdk', () => {
    expect(sdk.reads).toBeUndefined();
    expect(gw.dynamo.reads).toBeInstanceOf(ReadPath);
    const metrics = new OperationMetrics();
    expect(operationReads(sdk.reads, metricsClient(sdk.doc, metrics), metrics)).toBeInstanceOf(SdkReads);
    expect(operationReads(gw.dynamo.reads, metricsClient(gw.dynamo.doc, metrics), metrics)).toBeInstanceOf(LeanReads);
  });

  it('sends nothing through a counted client view but through the SDK: the view only counts', async () => {
    const leanSend = vi.spyOn(gw.dynamo.reads!, 'send');
    try {
      const metrics = new OperationMetrics();
      const out = await metricsClient(gw.dynamo.doc, metrics).send(new GetCommand({ TableName: gw.tableName, Key: { PK: 'ODD#1', SK: 'PROFILE' } }));
      expect(out.Item).toEqual(ODD_ITEM);
      expect(leanSend).not.toHaveBeenCalled();
      expect(metrics.summary()).toMatchObject({ requests: 1, byOperation: { GetItem: 1 } });
    } finally {
      leanSend.mockRestore();
    }
  });
});

/** A DynamoDB stand-in that verifies SigV4 as AWS does (its own implementation, not the SDK's), optionally with a skewed clock. */
async function verifyingServer(secret: string, { skewMs = 0 } = {}) {
  const seen: { headers: IncomingMessage['headers']; verified: boolean; reason?: string }[] = [];
  const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
  const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1', ...headers });
        res.end(JSON.stringify(payload));
      };
      const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
      const now = Date.now() + skewMs;
      const date = String(req.headers['x-amz-date'] ?? '');
      const at = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
      let reason: string | undefined;
      if (!auth) reason = 'no SigV4 authorization header';
      else if (Math.abs(at - now) > 5 * 60_000) reason = 'skew';
      else {
        const [, , day, region, service, signedHeaders, signature] = auth;
        const names = signedHeaders!.split(';');
        for (const required of ['host', 'x-amz-date', 'x-amz-target', 'content-type']) if (!names.includes(required)) reason = `${required} not signed`;
        if (req.headers['x-amz-security-token'] && !names.includes('x-amz-security-token')) reason = 'session token not signed';
        const canonical = ['POST', req.url, '', ...names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}`), '', signedHeaders, sha(body)].join('\n');
        const scope = `${day}/${region}/${service}/aws4_request`;
        const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), service!), 'aws4_request');
        const expected = createHmac('sha256', key)
          .update(['AWS4-HMAC-SHA256', date, scope, sha(canonical)].join('\n'))
          .digest('hex');
        if (expected !== signature) reason ??= 'signature mismatch';
      }
      seen.push({ headers: req.headers, verified: !reason, reason });
      if (reason === 'skew') {
        answer(
          400,
          { __type: 'com.amazon.coral.service#InvalidSignatureException', message: 'Signature expired: the request time is too far from the server time' },
          { date: new Date(now).toUTCString() },
        );
      } else if (reason) {
        answer(400, { __type: 'com.amazon.coral.service#InvalidSignatureException', message: reason });
      } else {
        answer(200, { Item: { PK: { S: 'A' }, SK: { S: 'PROFILE' }, n: { N: '7' } }, ConsumedCapacity: { TableName: 't', CapacityUnits: 0.5 } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the read path’s signature', () => {
  it('signs every read as AWS verifies it, the session token of temporary credentials included', async () => {
    const server = await verifyingServer('s3cr3t');
    const client = new DynamoDBClient({
      endpoint: server.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 's3cr3t', sessionToken: 'token-of-a-role' },
    });
    try {
      const reads = new ReadPath(client, strategy());
      const metrics = new OperationMetrics();
      const out = await reads.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } }, metrics);
      expect(out.Item).toEqual({ PK: 'A', SK: 'PROFILE', n: 7 });
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]).toMatchObject({ verified: true });
      expect(server.seen[0]!.headers).toMatchObject({ 'x-amz-security-token': 'token-of-a-role', 'x-amz-target': 'DynamoDB_20120810.GetItem' });
      expect(metrics.summary()).toMatchObject({ requests: 1, consumedCapacity: 0.5 });

      // The same stand-in refuses a wrong secret: the check above can fail.
      const wrong = new ReadPath(
        new DynamoDBClient({ endpoint: server.url, region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'other' } }),
        strategy(),
      );
      await expect(wrong.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } })).rejects.toMatchObject({ name: 'InvalidSignatureException' });
      expect(server.seen[1]).toMatchObject({ verified: false, reason: 'signature mismatch' });
    } finally {
      client.destroy();
      await server.close();
    }
  });

  it('moves its clock to the server’s when a read is refused for clock skew, and retries it once', async () => {
    const server = await verifyingServer('s3cr3t', { skewMs: 3_600_000 });
    const client = new DynamoDBClient({ endpoint: server.url, region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 's3cr3t' } });
    try {
      const metrics = new OperationMetrics();
      const out = await new ReadPath(client, strategy()).send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } }, metrics);
      expect(out.Item).toEqual({ PK: 'A', SK: 'PROFILE', n: 7 });
      expect(server.seen.map((s) => s.reason ?? 'ok')).toEqual(['skew', 'ok']);
      expect(metrics.requests).toBe(2);
      expect(Math.abs((client.config.systemClockOffset ?? 0) - 3_600_000)).toBeLessThan(5_000);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  it('sends reads on AWS to the region’s endpoint, FIPS when configured, or where AWS_ENDPOINT_URL_DYNAMODB says', async () => {
    const credentials = { accessKeyId: 'AKID', secretAccessKey: 'x' };
    const plain = new DynamoDBClient({ region: 'eu-west-1', credentials });
    const fips = new DynamoDBClient({ region: 'us-east-2', credentials, useFipsEndpoint: true });
    expect(await new ReadPath(plain, strategy()).target()).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
    expect(await new ReadPath(fips, strategy()).target()).toBe('https://dynamodb-fips.us-east-2.amazonaws.com/');
    // AWS_ENDPOINT_URL_DYNAMODB, as the SDK client reads it: reads and writes never go to different places.
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', 'http://127.0.0.1:4566');
    const configured = new DynamoDBClient({ region: 'eu-west-1', credentials });
    try {
      expect(await new ReadPath(configured, strategy()).target()).toBe('http://127.0.0.1:4566/');
    } finally {
      vi.unstubAllEnvs();
      configured.destroy();
    }
    plain.destroy();
    fips.destroy();
  });
});

describe("the read path's endpoint, as the SDK resolves its own requests'", () => {
  /** The host the SDK itself sends a GetItem of `client` to (stopped before sending). */
  async function sdkHost(client: DynamoDBClient): Promise<string> {
    client.middlewareStack.add(
      () => async (args: any) => {
        throw Object.assign(new Error('stop'), { host: `${args.request.protocol}//${args.request.hostname}${args.request.path}` });
      },
      { step: 'finalizeRequest', name: 'captureHost', priority: 'low' },
    );
    const { GetItemCommand } = await import('@aws-sdk/client-dynamodb');
    return client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'A' } } })).then(
      () => 'sent',
      (err: { host: string }) => err.host,
    );
  }

  it('puts the account of the credentials in the host name in the account-id endpoint mode, as the SDK does, and not when it is disabled', async () => {
    const credentials = { accessKeyId: 'AKID', secretAccessKey: 'x', accountId: '123456789012' };
    const preferred = new DynamoDBClient({ region: 'eu-west-1', credentials });
    const disabled = new DynamoDBClient({ region: 'eu-west-1', credentials, accountIdEndpointMode: 'disabled' });
    try {
      expect(await new ReadPath(preferred, strategy()).target('t')).toBe('https://123456789012.ddb.eu-west-1.amazonaws.com/');
      expect(await sdkHost(preferred)).toBe('https://123456789012.ddb.eu-west-1.amazonaws.com/');
      expect(await new ReadPath(disabled, strategy()).target('t')).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
      expect(await sdkHost(disabled)).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
    } finally {
      preferred.destroy();
      disabled.destroy();
    }
  });
});

describe('the read path when DynamoDB misbehaves', () => {
  it('gives up on an answer that stalls halfway, retries it, and reports DynamoDB unavailable instead of hanging, on both paths', async () => {
    let requests = 0;
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((req, res) => {
      requests += 1;
      req.resume();
      // Headers and half a JSON body, then nothing more.
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': '100' });
      res.write('{"Item": {"PK": {"S": "A"}');
    });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dynamo = createDynamo({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requestTimeoutMs: 150,
      connectionTimeoutMs: patience(2000),
      maxAttempts: 3,
    });
    try {
      const metrics = new OperationMetrics();
      const error = await dynamo.reads!.send('GetItem', { TableName: 't', Key: { PK: 'A', SK: 'PROFILE' } }, metrics).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(isUnavailableError(error)).toBe(true);
      expect(requests).toBe(3);
      expect(metrics.requests).toBe(3);
      expect((error as { $metadata?: { attempts?: number } }).$metadata?.attempts).toBe(3);

      // The SDK path (writes) has the same guard: its HTTP handler stops timing once the headers arrived.
      requests = 0;
      const write = await dynamo.doc.send(new PutCommand({ TableName: 't', Item: { PK: 'A', SK: 'PROFILE' } })).catch((e: unknown) => e);
      expect(isUnavailableError(write)).toBe(true);
      expect(write).toMatchObject({ name: 'TimeoutError' });
      expect(requests).toBe(3);
    } finally {
      dynamo.raw.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('names an error answer that is not JSON by its status, and retries a 5xx', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dynamo = createDynamo({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxAttempts: 2 });
    try {
      const error = await dynamo
        .reads!.send('Query', { TableName: 't', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'A' } })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 502, attempts: 2 } });
      expect(isUnavailableError(error)).toBe(true);
      expect(requests).toBe(2);
    } finally {
      dynamo.raw.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
