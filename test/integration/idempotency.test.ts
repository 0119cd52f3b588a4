import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { demoItems } from '../support/demoData.js';
import { IDEMPOTENCY_PREFIX } from '../../src/dynamo/keys.js';
import { testGateway, type TestGateway } from '../support/gateway.js';
import { dynamoFault, injectFaults } from '../support/faults.js';

let gw: TestGateway;
let url: string;
let removeFaults: (() => void) | undefined;
beforeAll(async () => {
  gw = await testGateway({ client: { throttleBaseDelayMs: 1 } });
  await gw.put(demoItems());
  url = await gw.listen();
});
afterEach(() => {
  removeFaults?.();
  removeFaults = undefined;
});
afterAll(() => gw.stop());

const PLACE = 'mutation($total: Float!) { placeOrder(customerId: "1", input: { total: $total }) { id total } }';

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), json: (await response.json()) as any };
}

const orders = async () => (await gw.scan()).filter((i) => String(i.SK).startsWith('ORDER#'));
const records = async () => (await gw.scan()).filter((i) => String(i.PK).startsWith(IDEMPOTENCY_PREFIX));

describe('Idempotency-Key on mutations', () => {
  it('runs placeOrder without an explicit id once, and answers the retry with the first response', async () => {
    const before = (await orders()).length;
    const first = await post({ query: PLACE, variables: { total: 10 } }, { 'idempotency-key': 'order-1' });
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    const retry = await post({ query: PLACE, variables: { total: 10 } }, { 'idempotency-key': 'order-1' });
    expect(retry).toEqual({ status: 200, replayed: 'true', json: first.json });
    expect((await orders()).length).toBe(before + 1);
    expect((await gw.get('CUSTOMER#1', 'PROFILE'))!.orderCount).toBe(before + 1);
  });

  it('keeps the record for 24 hours through expiresAt, a Number of epoch seconds', async () => {
    const [record] = (await records()).filter((r) => r.state === 'COMPLETE');
    expect(typeof record!.expiresAt).toBe('number');
    expect(Math.abs((record!.expiresAt as number) - (Date.now() / 1000 + 86_400))).toBeLessThan(120);
    expect(JSON.stringify(record)).not.toContain('order-1'); // the key itself is stored only as a hash
  });

  it('refuses the same key with another body with 422 BAD_USER_INPUT, running nothing', async () => {
    await post({ query: PLACE, variables: { total: 1 } }, { 'idempotency-key': 'order-2' });
    const before = (await orders()).length;
    const other = await post({ query: PLACE, variables: { total: 2 } }, { 'idempotency-key': 'order-2' });
    expect(other.status).toBe(422);
    expect(other.json.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', reason: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await orders()).length).toBe(before);
  });

  it('writes once for concurrent requests with the same key: the others wait (409) or get the same response', async () => {
    const before = (await orders()).length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => post({ query: PLACE, variables: { total: 3 } }, { 'idempotency-key': 'order-3' })));
    expect((await orders()).length).toBe(before + 1);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.json.data.placeOrder.id)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.json.errors[0].extensions).toEqual({ code: 'CONFLICT', reason: 'IDEMPOTENCY_KEY_IN_USE' });
    }
    const again = await post({ query: PLACE, variables: { total: 3 } }, { 'idempotency-key': 'order-3' });
    expect(again.json).toEqual(ok[0]!.json);
  });

  it('runs again once the record is gone (deleted by time to live) or past its expiresAt', async () => {
    const first = await post({ query: PLACE, variables: { total: 4 } }, { 'idempotency-key': 'order-4' });
    const [record] = (await records()).filter((r) => r.response && String(r.response).includes(first.json.data.placeOrder.id));
    await gw.dynamo.doc.send(
      new UpdateCommand({
        TableName: gw.tableName,
        Key: { PK: record!.PK, SK: record!.SK },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 10 },
      }),
    );
    const afterExpiry = await post({ query: PLACE, variables: { total: 4 } }, { 'idempotency-key': 'order-4' });
    expect(afterExpiry.replayed).toBeNull();
    expect(afterExpiry.json.data.placeOrder.id).not.toBe(first.json.data.placeOrder.id);

    await gw.dynamo.doc.send(new DeleteCommand({ TableName: gw.tableName, Key: { PK: record!.PK, SK: record!.SK } }));
    const afterDelete = await post({ query: PLACE, variables: { total: 4 } }, { 'idempotency-key': 'order-4' });
    expect(afterDelete.replayed).toBeNull();
    expect(new Set([first, afterExpiry, afterDelete].map((a) => a.json.data.placeOrder.id)).size).toBe(3);
  });

  it('keeps callers apart: the same key from another Authorization runs on its own', async () => {
    const a = await post({ query: PLACE, variables: { total: 5 } }, { 'idempotency-key': 'shared', authorization: 'Bearer a' });
    const b = await post({ query: PLACE, variables: { total: 5 } }, { 'idempotency-key': 'shared', authorization: 'Bearer b' });
    expect(b.replayed).toBeNull();
    expect(b.json.data.placeOrder.id).not.toBe(a.json.data.placeOrder.id);
  });

  it('works for every mutation: a create replayed is not a CONFLICT', async () => {
    const create = { query: 'mutation { createStudent(input: { id: "idem-s", name: "Ida" }) { id name } }' };
    const first = await post(create, { 'idempotency-key': 'create-1' });
    const retry = await post(create, { 'idempotency-key': 'create-1' });
    expect(first.json).toEqual({ data: { createStudent: { id: 'idem-s', name: 'Ida' } } });
    expect(retry).toMatchObject({ status: 200, replayed: 'true', json: first.json });
    const plain = await post(create);
    expect(plain.json.errors[0].extensions.code).toBe('CONFLICT');
  });

  it('releases the key when the mutation failed as UNAVAILABLE and wrote nothing, so a retry runs it', async () => {
    removeFaults = injectFaults(gw.dynamo, ({ operation }) => (operation === 'TransactWriteItems' ? dynamoFault('ServiceUnavailable') : null));
    const failed = await post({ query: PLACE, variables: { total: 6 } }, { 'idempotency-key': 'order-6' });
    expect(failed.json.errors[0].extensions.code).toBe('UNAVAILABLE');
    removeFaults();
    removeFaults = undefined;
    const retry = await post({ query: PLACE, variables: { total: 6 } }, { 'idempotency-key': 'order-6' });
    expect(retry.replayed).toBeNull();
    expect(retry.json.data.placeOrder.total).toBe(6);
  });

  it('ignores the header on queries, and refuses a malformed key with 400', async () => {
    const query = await post({ query: '{ student(id: "1") { name } }' }, { 'idempotency-key': 'q' });
    expect(query.status).toBe(200);
    const bad = await post({ query: PLACE, variables: { total: 7 } }, { 'idempotency-key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
