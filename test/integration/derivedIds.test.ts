/**
 * Items keyed by natural fields alone (a receipt at `ACC#<account>` /
 * `REC#<processedAt>#SKU#<sku>`, as AWS's recurring-payments design keys
 * it): their id is derived from the key, and finds the item alone with one
 * GetItem, as node(id:), @get(id:), @update(id:), @delete(id:) and
 * references use it; @get/@update/@delete also take the key's values.
 * Requests are counted exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { formatDerivedId } from '../../src/plan/derivedId.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';
import { RECEIPTS, SKUS } from '../support/receiptsModel.js';

let gw: TestGateway;
const AT = '2026-03-02T10:00:00Z';
const STORED_AT = '2026-03-02T10:00:00.000Z';
const receiptId = (account: string, at: string, sku: string) => formatDerivedId([account, at, sku]);
const R1 = receiptId('a1', STORED_AT, '999');

beforeAll(async () => {
  gw = await testGateway({ model: buildModel(RECEIPTS, 'receipts.graphql') });
});
afterAll(() => gw?.stop());

const create = (account: string, sku: string, at = AT, amount = '12.99') =>
  gw.counted(`mutation($a: ID!, $i: CreateReceiptInput!) { createReceipt(account: $a, input: $i) { id sku processedAt amount account { id } } }`, {
    a: account,
    i: { sku, processedAt: at, amount },
  });

describe('an item type whose key names no {id}', () => {
  it('is created with one PutItem at the key its fields name, its id derived from that key', async () => {
    const { result, requests } = await create('a1', '999');
    expect(result.errors).toBeUndefined();
    expect(result.data.createReceipt).toEqual({ id: R1, sku: '999', processedAt: STORED_AT, amount: '12.99', account: { id: 'a1' } });
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    const stored = await gw.get('ACC#a1', `REC#${STORED_AT}#SKU#999`);
    expect(stored).toMatchObject({ sku: '999', processedAt: STORED_AT, amount: '12.99' });
    expect(Buffer.from(R1, 'base64url').toString()).toBe(`a1#${STORED_AT}#999`);
  });

  it('answers CONFLICT when an item with that key exists, and leaves it as it was', async () => {
    const { result, requests } = await create('a1', '999', '2026-03-02T10:00:00.000Z', '1.00');
    expect(codes(result)).toEqual(['CONFLICT']);
    expect(requests.byOperation).toEqual({ PutItem: 1 });
    expect(await gw.get('ACC#a1', `REC#${STORED_AT}#SKU#999`)).toMatchObject({ amount: '12.99' });
  });

  it('is found by its id alone with one GetItem', async () => {
    const { result, requests } = await gw.counted(`query($id: ID!) { receipt(id: $id) { id sku amount account { id } } }`, { id: R1 });
    expect(result.data.receipt).toEqual({ id: R1, sku: '999', amount: '12.99', account: { id: 'a1' } });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("is found by its key's values with one GetItem, the time in any precision", async () => {
    const { result, requests } = await gw.counted(`{ receiptAt(account: "a1", processedAt: "2026-03-02T10:00:00Z", sku: "999") { id amount } }`);
    expect(result.data.receiptAt).toEqual({ id: R1, amount: '12.99' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it('is null for a well-formed id of no item, and refuses text that is no id of the type before any request', async () => {
    const missing = await gw.counted(`query($id: ID!) { receipt(id: $id) { id } }`, { id: receiptId('a1', STORED_AT, '555') });
    expect(missing.result.data.receipt).toBeNull();
    expect(missing.requests.byOperation).toEqual({ GetItem: 1 });
    for (const id of ['nope', receiptId('a1', '999', 'x').slice(0, -2), formatDerivedId(['a1', '999']), `${R1}=`]) {
      const bad = await gw.counted(`query($id: ID!) { receipt(id: $id) { id } }`, { id });
      expect(codes(bad.result)).toEqual(['BAD_USER_INPUT']);
      expect(bad.requests.byOperation).toEqual({});
    }
  });

  it('is found by node(id:) with one GetItem', async () => {
    const { result: got } = await gw.counted(`query($id: ID!) { receipt(id: $id) { globalId } }`, { id: R1 });
    const { result, requests } = await gw.counted(`query($id: ID!) { node(id: $id) { ... on Receipt { id amount } } }`, { id: got.data.receipt.globalId });
    expect(result.data.node).toEqual({ id: R1, amount: '12.99' });
    expect(requests.byOperation).toEqual({ GetItem: 1 });
  });

  it("is listed in its keyless parent's partition with ids derived from each key, one Query a page", async () => {
    expect((await create('a1', '555', '2026-03-01T09:00:00.000Z', '4.99')).result.errors).toBeUndefined();
    const { result, requests } = await gw.counted(`{ account(id: "a1") { receipts(first: 10) { edges { node { id sku } } } } }`);
    expect(result.data.account.receipts.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { id: receiptId('a1', '2026-03-01T09:00:00.000Z', '555'), sku: '555' },
      { id: R1, sku: '999' },
    ]);
    expect(requests.byOperation).toEqual({ Query: 1 });
  });

  it('reads an item another program wrote with its values in the key alone', async () => {
    await gw.put([{ PK: 'ACC#a9', SK: 'REC#2026-01-01T00:00:00.000Z#SKU#777', amount: '1.00' }]);
    const { result } = await gw.counted(`query($id: ID!) { receipt(id: $id) { sku processedAt amount } }`, {
      id: receiptId('a9', '2026-01-01T00:00:00.000Z', '777'),
    });
    expect(result.data.receipt).toEqual({ sku: '777', processedAt: '2026-01-01T00:00:00.000Z', amount: '1.00' });
  });

  it("is updated by its id, or by its key's values, with one UpdateItem; a missing one is NOT_FOUND", async () => {
    const byId = await gw.counted(`mutation($id: ID!) { updateReceipt(id: $id, input: { amount: "13.99" }) { id amount } }`, { id: R1 });
    expect(byId.result.data.updateReceipt).toEqual({ id: R1, amount: '13.99' });
    expect(byId.requests.byOperation).toEqual({ UpdateItem: 1 });
    const byKey = await gw.counted(`mutation { updateReceiptAt(account: "a1", processedAt: "${AT}", sku: "999", input: { amount: "14.99" }) { id amount } }`);
    expect(byKey.result.data.updateReceiptAt).toEqual({ id: R1, amount: '14.99' });
    expect(byKey.requests.byOperation).toEqual({ UpdateItem: 1 });
    const missing = await gw.counted(`mutation { updateReceiptAt(account: "a1", processedAt: "${AT}", sku: "000", input: { amount: "1" }) { id } }`);
    expect(codes(missing.result)).toEqual(['NOT_FOUND']);
    expect(missing.requests.byOperation).toEqual({ UpdateItem: 1 });
  });

  it('is what a reference holds, read back with one GetItem', async () => {
    const created = await gw.counted(`mutation($r: ID!) { createRefund(input: { id: "f1", receipt: $r, reason: "late" }) { id receipt { sku amount } } }`, {
      r: R1,
    });
    expect(created.result.errors).toBeUndefined();
    const { result, requests } = await gw.counted(`{ refund(id: "f1") { reason receipt { id sku amount } } }`);
    expect(result.data.refund).toEqual({ reason: 'late', receipt: { id: R1, sku: '999', amount: '14.99' } });
    expect(requests.byOperation).toEqual({ GetItem: 2 });
  });

  it('owns children with a counter, created under it by its id and counted in one transaction', async () => {
    const added = await gw.counted(`mutation($r: ID!) { addNote(receipt: $r, input: { id: "n1", text: "paid by card" }) { id receipt { id } } }`, { r: R1 });
    expect(added.result.errors).toBeUndefined();
    expect(added.result.data.addNote).toEqual({ id: 'n1', receipt: { id: R1 } });
    expect(added.requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get(`ACC#a1`, `REC#${STORED_AT}#SKU#999`)).toMatchObject({ noteCount: 1 });
    const { result, requests } = await gw.counted(`query($id: ID!) { receipt(id: $id) { notes(first: 5) { totalCount edges { node { text } } } } }`, {
      id: R1,
    });
    expect(result.data.receipt.notes).toEqual({ totalCount: 1, edges: [{ node: { text: 'paid by card' } }] });
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("is deleted by its key's values with its children (their partition emptied first); a second delete is NOT_FOUND", async () => {
    const { result, requests } = await gw.counted(`mutation { deleteReceiptAt(account: "a1", processedAt: "${AT}", sku: "999") }`);
    // The mark, the notes' partition read, their delete with the counter, the read that finds it empty, the receipt.
    expect(requests.byOperation).toEqual({ UpdateItem: 1, Query: 2, TransactWriteItems: 1, DeleteItem: 1 });
    expect(result.data.deleteReceiptAt).toBe(R1);
    expect(await gw.get('ACC#a1', `REC#${STORED_AT}#SKU#999`)).toBeUndefined();
    expect(await gw.get(`RN#${R1}`, 'NOTE#n1')).toBeUndefined();
    const again = await gw.counted(`mutation($id: ID!) { deleteReceipt(id: $id) }`, { id: R1 });
    expect(codes(again.result)).toEqual(['NOT_FOUND']);
    expect(again.requests.byOperation).toEqual({ UpdateItem: 1, DeleteItem: 1 });
  });
});

describe('a type with a derived id at the node end of edges that copy its fields', () => {
  let shop: TestGateway;
  const K1 = formatDerivedId(['K1']);
  beforeAll(async () => {
    shop = await testGateway({ model: buildModel(SKUS, 'skus.graphql') });
    expect((await shop.run(`mutation { createShop(input: { id: "s1", name: "Corner" }) { id } }`)).errors).toBeUndefined();
    expect((await shop.run(`mutation { createSku(input: { code: "K1", name: "Kettle" }) { id } }`)).data.createSku.id).toBe(K1);
  });
  afterAll(() => shop?.stop());

  it('is linked by its id, the edge holding the copy and the counter moving in one transaction', async () => {
    const { result, requests } = await shop.counted(`mutation($k: ID!) { stock(shopId: "s1", skuId: $k) { node { id name } } }`, { k: K1 });
    expect(result.errors).toBeUndefined();
    expect(result.data.stock.node).toEqual({ id: K1, name: 'Kettle' });
    // Both ends read in one batch, then the edge, its copy and the counter in one transaction.
    expect(requests.byOperation).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(await shop.get('SHOP#s1#skus', `k#${K1}`)).toMatchObject({ skuName: 'Kettle' });
  });

  it('carries a rename to the copies, and lists its owners through the inverted index, one Query', async () => {
    const renamed = await shop.counted(`mutation($k: ID!) { renameSku(id: $k, input: { name: "Kettle XL" }) { name } }`, { k: K1 });
    expect(renamed.result.errors).toBeUndefined();
    await shop.settle();
    expect(await shop.get('SHOP#s1#skus', `k#${K1}`)).toMatchObject({ skuName: 'Kettle XL' });
    const { result, requests } = await shop.counted(`{ shop(id: "s1") { skus(first: 5) { totalCount edges { node { name } } } } }`);
    expect(result.data.shop.skus).toEqual({ totalCount: 1, edges: [{ node: { name: 'Kettle XL' } }] });
    // The shop and its edges' page, each node read from its copy.
    expect(requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
    const owners = await shop.counted(`{ skuByCode(code: "K1") { shops(first: 5) { edges { node { id } } } } }`);
    expect(owners.result.data.skuByCode.shops.edges).toEqual([{ node: { id: 's1' } }]);
    expect(owners.requests.byOperation).toEqual({ GetItem: 1, Query: 1 });
  });

  it("is deleted by its key's value with its edges, the owners' counters following", async () => {
    const { result, requests } = await shop.counted(`mutation { deleteSku(code: "K1") }`);
    expect(result.data.deleteSku).toBe(K1);
    // Marked in one request; the stream processor removes its edges and moves the counters.
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    await shop.settle();
    expect(await shop.get('SHOP#s1#skus', `k#${K1}`)).toBeUndefined();
    expect(await shop.get('SHOP#s1', 'META')).toMatchObject({ skuCount: 0 });
  });
});
