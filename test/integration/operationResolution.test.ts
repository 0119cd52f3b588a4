/**
 * An operation name that names no operation of the document, or none for a
 * document of several, is refused before anything runs, as GraphiQL sends
 * it (a POST of JSON with `query` and a stale `operationName`): no DynamoDB
 * request, no write, no idempotency record, an info-level log line, every
 * time it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoItems } from '../support/demoData.js';
import { IDEMPOTENCY_PREFIX } from '../../src/dynamo/keys.js';
import { postGraphQL, testGateway, type TestGateway } from '../support/gateway.js';
import { captureLogger } from '../support/oidc.js';

const PLACE = 'mutation Place { placeOrder(customerId: "1", input: { total: 3 }) { id } }';
const TWO = 'query A { course(id: "A") { id } } mutation B { placeOrder(customerId: "1", input: { total: 4 }) { id } }';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

describe('an unresolvable operation name', () => {
  let gw: TestGateway;
  let url: string;
  const log = captureLogger();
  beforeAll(async () => {
    gw = await testGateway({ logger: log.logger, httpLogger: log.logger });
    await gw.put(demoItems());
    url = await gw.listen();
  });
  afterAll(() => gw.stop());

  const orders = async () => (await gw.scan()).filter((i) => String(i.SK).startsWith('ORDER#')).length;
  const records = async () => (await gw.scan()).filter((i) => String(i.PK).startsWith(IDEMPOTENCY_PREFIX)).length;
  const operationLines = () => log.lines.filter((l) => l.msg === 'graphql operation');

  it('refuses a stale operationName before running the mutation: no write, no idempotency record, no DynamoDB request', async () => {
    const before = await orders();
    log.lines.length = 0;
    // Three times: Apollo caches a document after its first run.
    for (let i = 0; i < 3; i++) {
      const answer = await postGraphQL(url, { query: PLACE, operationName: 'Retry' }, { 'idempotency-key': 'stale' });
      expect(answer.status).toBe(200);
      expect(answer.json.data).toBeUndefined();
      expect(answer.json.errors).toHaveLength(1);
      expect(answer.json.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
      expect(answer.json.errors[0].message).toBe('Unknown operation named "Retry".');
    }
    expect(await orders()).toBe(before);
    expect(await records()).toBe(0);
    const lines = operationLines();
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect(line.dynamodb.requests).toBe(0);
      expect(line.errorCodes).toEqual(['OPERATION_RESOLUTION_FAILURE']);
      expect(line.operationName).toBe('(unknown operation)');
    }
    expect(log.lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(log.raw.join('\n')).not.toContain('stack');
  });

  it('answers 400 under application/graphql-response+json', async () => {
    const answer = await postGraphQL(url, { query: PLACE, operationName: 'Retry' }, { accept: GRAPHQL_RESPONSE });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
  });

  it('refuses a document of several operations without an operationName, running neither', async () => {
    const before = await orders();
    for (let i = 0; i < 3; i++) {
      const answer = await postGraphQL(url, { query: TWO });
      expect(answer.status).toBe(200);
      expect(answer.json.errors.map((e: any) => e.extensions.code)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
      expect(answer.json.errors[0].message).toBe('Must provide operation name if query contains multiple operations.');
      const unknown = await postGraphQL(url, { query: TWO, operationName: 'C' }, { accept: GRAPHQL_RESPONSE });
      expect(unknown.status).toBe(400);
      expect(unknown.json.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    }
    expect(await orders()).toBe(before);
  });

  it('still runs the operation a valid name picks', async () => {
    const answer = await postGraphQL(url, { query: TWO, operationName: 'A' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { course: { id: 'A' } } });
  });
});
