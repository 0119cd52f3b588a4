/**
 * A DynamoDB that trickles its answers (headers at once, then a byte of
 * body every 250 ms, as a struggling endpoint or a hostile middlebox does):
 * every read ends within its deadline, the sockets that missed it are
 * destroyed rather than pooled, `/health` says so, and once DynamoDB is
 * healthy again the next read and mutation answer at once, on both read
 * paths, without a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/transport/startGateway.js';
import { silentLogger } from '../../src/logger.js';
import { localEndpoint, postGraphQL, TEST_CURSOR_SECRET } from '../support/gateway.js';
import { startProxy, type DynamoProxy } from '../support/proxy.js';
import { dynamoFault, injectFaults } from '../support/faults.js';
import { patience, until } from '../support/patience.js';

function gatewayConfig(endpoint: string, env: Record<string, string>) {
  return loadConfig({
    // Every /health call checks DynamoDB: these tests watch it change from one call to the next.
    HEALTH_CACHE_MS: '0',
    ...env,
    DYNAMODB_ENDPOINT: endpoint,
    PORT: '0',
    HOST: '127.0.0.1',
    TABLE_NAME: `t_${randomUUID().slice(0, 8)}`,
    CURSOR_SECRET: TEST_CURSOR_SECRET,
    LOG_LEVEL: 'silent',
  });
}

const health = async (url: string) => (await fetch(url.replace(/\/graphql$/, '/health'))).status;
const codesOf = (json: any): string[] => (json?.errors ?? []).map((e: any) => e.extensions?.code);

/** The promise's value, or `late` once `ms` pass (a wedged read path never answers: the test says so instead of hanging). */
const within = <T>(ms: number, promise: Promise<T>, late: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(late), ms).unref())]);

/** More reads at once than a client pools sockets (50 a host), so a pool that keeps trickling sockets is wedged for good. */
const READERS = 60;

let proxy: DynamoProxy | undefined;
let gateway: Gateway | undefined;
afterEach(async () => {
  // The proxy first: it ends any answer still trickling, so stopping the gateway cannot wait on one.
  await proxy?.stop();
  await gateway?.stop();
  proxy = gateway = undefined;
});

describe.each(['lean', 'sdk'])('a DynamoDB that trickles its answers (DYNAMODB_READ_PATH=%s)', (readPath) => {
  it('fails each read within its deadline, destroys the sockets, turns /health 503, and answers the next read and mutation once DynamoDB is healthy', async () => {
    proxy = await startProxy(localEndpoint());
    gateway = await startGateway(gatewayConfig(proxy.endpoint, { DYNAMODB_READ_PATH: readPath }), silentLogger);
    const { url } = gateway;
    const created = await postGraphQL(url, { query: 'mutation { createStudent(input: { id: "s1", name: "Ada" }) { id } }' });
    expect(created.json).toEqual({ data: { createStudent: { id: 's1' } } });
    expect(await health(url)).toBe(200);

    proxy.trickle(250);
    const reads = Array.from({ length: READERS }, () => postGraphQL(url, { query: '{ student(id: "s1") { name } }' }));
    const healthWhileTrickling = health(url);
    // With the defaults (3 attempts of at most 2 s each) every read fails in about 6.5 s; 60 s leaves a loaded machine room.
    const answered = await within(patience(60_000), Promise.all(reads), null);
    expect(answered, 'every read answered while DynamoDB trickled').not.toBeNull();
    expect(answered!.map((r) => codesOf(r.json))).toEqual(Array(READERS).fill(['UNAVAILABLE']));
    expect(await healthWhileTrickling).toBe(503);

    proxy.trickle(null);
    // Each socket whose answer missed its deadline is destroyed, none pooled: none is left holding an answer once
    // the last deadline has passed (2 s, the stream reader's 5 s; a trickled answer here takes about 30 s).
    await until(() => proxy!.trickling() === 0, 'no socket left holding a trickled answer', 15_000, 50);
    // The next read answers from its first attempt (one request: under the 2 s deadline, no retry).
    const next = await postGraphQL(url, { query: '{ student(id: "s1") { name } }' }, { 'x-dynamodb-metrics': '1' });
    expect(next.json.data).toEqual({ student: { name: 'Ada' } });
    expect(next.json.extensions.dynamodb.requests).toBe(1);
    const renamed = await postGraphQL(url, { query: 'mutation { updateStudent(id: "s1", input: { name: "Grace" }) { name } }' });
    expect(renamed.json).toEqual({ data: { updateStudent: { name: 'Grace' } } });
    expect(await health(url)).toBe(200);
  });
});

describe.each(['lean', 'sdk'])('/health while reads fail and DescribeTable answers (DYNAMODB_READ_PATH=%s)', (readPath) => {
  it('answers 503 while every read answers UNAVAILABLE, and 200 again once reads answer', async () => {
    gateway = await startGateway(gatewayConfig(localEndpoint(), { DYNAMODB_READ_PATH: readPath }), silentLogger);
    const { url } = gateway;
    expect(await health(url)).toBe(200);
    const reads = new Set(['GetItem', 'Query', 'BatchGetItem']);
    const heal = injectFaults(gateway.dynamo, ({ operation }) => (reads.has(operation) ? dynamoFault('ServiceUnavailable') : null));
    const read = await postGraphQL(url, { query: '{ student(id: "s1") { name } }' });
    expect(codesOf(read.json)).toEqual(['UNAVAILABLE']);
    expect(await health(url)).toBe(503);
    heal();
    expect(await health(url)).toBe(200);
  });
});

describe('start-up against a trickling DynamoDB', () => {
  it('fails with one line naming the endpoint, within the attempts of its first request, instead of never becoming ready', async () => {
    proxy = await startProxy(localEndpoint());
    proxy.trickle(250);
    const starting = startGateway(gatewayConfig(proxy.endpoint, {}), silentLogger).then(
      (started) => {
        gateway = started;
        return 'ready';
      },
      (err: Error) => err.message,
    );
    // The first DescribeTable's 3 attempts of 2 s fail it in about 6.5 s; READINESS_DEADLINE_MS (90 s) bounds the rest.
    const outcome = await within(100_000, starting, 'still starting');
    expect(outcome).toMatch(new RegExp(`^DynamoDB at ${proxy.endpoint} is unavailable \\(TimeoutError: .*\\): check DYNAMODB_ENDPOINT`));
  });
});
