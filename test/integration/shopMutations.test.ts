/**
 * Update and delete of customers, orders, products and parts (schema.graphql)
 * against DynamoDB Local: the stored items, the counters, the cascades, the
 * DynamoDB requests of each, who may run them, and failures that leave the
 * table as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerItem, orderItem, partItem, productItem } from '../support/defaultItems.js';
import { codes, testGateway, type GqlResult, type TestGateway } from '../support/gateway.js';
import { startTestIssuer, testAuthenticator, type TestIssuer } from '../support/oidc.js';

let gw: TestGateway;
let inRequest: TestGateway;
beforeAll(async () => {
  [gw, inRequest] = await Promise.all([testGateway(), testGateway({ fanOut: 'inRequest' })]);
});
afterAll(() => Promise.all([gw?.stop(), inRequest?.stop()]));

const sorted = (items: Record<string, unknown>[]) => items.map((i) => JSON.stringify(i, Object.keys(i).sort())).sort();

async function failsLeavingTableAsItWas(g: TestGateway, query: string, variables: Record<string, unknown>, code: string) {
  await g.settle();
  const before = sorted(await g.scan());
  const result: GqlResult = await g.run(query, variables);
  expect(codes(result)).toEqual([code]);
  expect(sorted(await g.scan())).toEqual(before);
  return result;
}

const shop = (suffix: string) => [
  customerItem({ id: `c${suffix}`, name: 'Cleo', email: 'cleo@example.com', orderCount: 2 }),
  orderItem({ customerId: `c${suffix}`, id: `o${suffix}a`, placedAt: '2026-03-01T00:00:00.000Z', total: 10, status: 'PLACED' }),
  orderItem({ customerId: `c${suffix}`, id: `o${suffix}b`, placedAt: '2026-03-02T00:00:00.000Z', total: 20, status: 'PLACED' }),
  productItem({ id: `p${suffix}`, name: 'Pump', partCount: 2 }),
  partItem({ productId: `p${suffix}`, id: 'seal', name: 'Seal', quantity: 2 }),
  partItem({ productId: `p${suffix}`, id: 'valve', name: 'Valve', quantity: 1 }),
];

describe('updates', () => {
  beforeAll(() => gw.put(shop('1')));

  it('updateCustomer changes the name and clears the email with null: one UpdateItem', async () => {
    const { result, requests } = await gw.counted(`mutation { updateCustomer(id: "c1", input: { name: "Cleo B", email: null }) { id name email } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.updateCustomer).toEqual({ id: 'c1', name: 'Cleo B', email: null });
    expect(requests.byOperation).toEqual({ UpdateItem: 1 });
    expect(await gw.get('CUSTOMER#c1', 'PROFILE')).toEqual({ PK: 'CUSTOMER#c1', SK: 'PROFILE', name: 'Cleo B', orderCount: 2 });
  });

  it('updateOrder finds the order by its id alone (one GSI1 Query) and updates it (one UpdateItem), keys untouched', async () => {
    const { result, requests } = await gw.counted(
      `mutation { updateOrder(id: "o1a", input: { status: PAID, total: 12.5 }) { id total status placedAt customer { id } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.updateOrder).toEqual({ id: 'o1a', total: 12.5, status: 'PAID', placedAt: '2026-03-01T00:00:00.000Z', customer: { id: 'c1' } });
    expect(requests.byOperation).toEqual({ Query: 1, UpdateItem: 1 });
    expect(await gw.get('CUSTOMER#c1', 'ORDER#o1a')).toEqual({
      ...orderItem({ customerId: 'c1', id: 'o1a', placedAt: '2026-03-01T00:00:00.000Z', total: 12.5, status: 'PAID' }),
    });
    const filtered = await gw.run(`{ customer(id: "c1") { orders(status: PAID, placedAfter: "2026-01-01T00:00:00Z") { edges { node { id } } } } }`);
    expect(filtered.data.customer.orders.edges).toEqual([{ node: { id: 'o1a' } }]);
  });

  it("updateProduct and updatePart (by the product's id and its own): one UpdateItem each", async () => {
    const product = await gw.counted(`mutation { updateProduct(id: "p1", input: { name: "Pump II" }) { name } }`);
    expect(product.result.data.updateProduct).toEqual({ name: 'Pump II' });
    expect(product.requests.byOperation).toEqual({ UpdateItem: 1 });
    const part = await gw.counted(`mutation { updatePart(productId: "p1", id: "seal", input: { quantity: 5 }) { id name quantity product { id name } } }`);
    expect(part.result.errors).toBeUndefined();
    expect(part.result.data.updatePart).toEqual({ id: 'seal', name: 'Seal', quantity: 5, product: { id: 'p1', name: 'Pump II' } });
    expect(part.requests.byOperation).toEqual({ UpdateItem: 1, GetItem: 1 });
    expect(await gw.get('PRODUCT#p1', 'PART#seal')).toEqual(partItem({ productId: 'p1', id: 'seal', name: 'Seal', quantity: 5 }));
  });

  it('refuses what is missing or wrong, leaving the table as it was', async () => {
    await failsLeavingTableAsItWas(gw, `mutation { updateOrder(id: "nope", input: { total: 1 }) { id } }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { updatePart(productId: "p1", id: "nope", input: { quantity: 1 }) { id } }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { updatePart(productId: "nope", id: "seal", input: { quantity: 1 }) { id } }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { updateCustomer(id: "nope", input: { name: "X" }) { id } }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { updateOrder(id: "o1a", input: { total: -1 }) { id } }`, {}, 'BAD_USER_INPUT');
    await failsLeavingTableAsItWas(gw, `mutation { updatePart(productId: "p1", id: "seal", input: { quantity: null }) { id } }`, {}, 'BAD_USER_INPUT');
    await failsLeavingTableAsItWas(gw, `mutation { updatePart(productId: "a#b", id: "seal", input: { quantity: 1 }) { id } }`, {}, 'BAD_USER_INPUT');
  });
});

describe('order status, an enum', () => {
  beforeAll(() =>
    gw.put([
      customerItem({ id: 'cs', name: 'Statuses', orderCount: 3 }),
      orderItem({ customerId: 'cs', id: 'os1', placedAt: '2026-04-01T00:00:00.000Z', total: 1, status: 'DELIVERED' }),
      orderItem({ customerId: 'cs', id: 'os2', placedAt: '2026-04-02T00:00:00.000Z', total: 2, status: 'on hold' }),
      orderItem({ customerId: 'cs', id: 'os3', placedAt: '2026-04-03T00:00:00.000Z', total: 3 }),
    ]),
  );

  it('reads the stored values that are OrderStatus values, and null (no error) for one another program wrote outside it', async () => {
    const result = await gw.run(`{ customer(id: "cs") { orders { edges { node { id status total } } } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.customer.orders.edges.map((e: any) => e.node)).toEqual([
      { id: 'os1', status: 'DELIVERED', total: 1 },
      { id: 'os2', status: null, total: 2 },
      { id: 'os3', status: null, total: 3 },
    ]);
    expect((await gw.get('CUSTOMER#cs', 'ORDER#os2'))?.status).toBe('on hold'); // left as it is in the table
  });

  it('filters by an enum value, also from a variable of type OrderStatus', async () => {
    const result = await gw.run(`query($s: OrderStatus) { customer(id: "cs") { orders(status: $s) { totalCount edges { node { id } } } } }`, {
      s: 'DELIVERED',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data.customer.orders).toEqual({ totalCount: 1, edges: [{ node: { id: 'os1' } }] });
  });

  it("stores the value's name, and refuses one that is none (variables too) before any DynamoDB request", async () => {
    const placed = await gw.run(`mutation { placeOrder(customerId: "cs", input: { id: "os4", total: 4, status: CANCELLED }) { status } }`);
    expect(placed).toEqual({ data: { placeOrder: { status: 'CANCELLED' } } });
    expect((await gw.get('CUSTOMER#cs', 'ORDER#os4'))?.status).toBe('CANCELLED');
    for (const [query, variables] of [
      ['mutation { placeOrder(customerId: "cs", input: { total: 1, status: LOST }) { id } }', undefined],
      ['mutation($s: OrderStatus) { updateOrder(id: "os4", input: { status: $s }) { id } }', { s: 'LOST' }],
    ] as const) {
      const { result, requests } = await gw.counted(query, variables);
      expect(codes(result)).toEqual([variables ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED']);
      expect(requests.requests).toBe(0);
    }
  });
});

describe("deletes of children keep the parent's counter exact", () => {
  beforeAll(() => gw.put(shop('2')));

  it('deleteOrder by its id alone: GSI1 Query and one transaction; orderCount follows', async () => {
    const { result, requests } = await gw.counted(`mutation { deleteOrder(id: "o2a") }`);
    expect(result).toEqual({ data: { deleteOrder: 'o2a' } });
    expect(requests.byOperation).toEqual({ Query: 1, TransactWriteItems: 1 });
    expect(await gw.get('CUSTOMER#c2', 'ORDER#o2a')).toBeUndefined();
    expect((await gw.get('CUSTOMER#c2', 'PROFILE'))?.orderCount).toBe(1);
    const left = await gw.run(`{ customer(id: "c2") { orders { totalCount edges { node { id } } } } order(id: "o2a") { id } }`);
    expect(left.data).toEqual({ customer: { orders: { totalCount: 1, edges: [{ node: { id: 'o2b' } }] } }, order: null });
  });

  it('frees an explicit order id: it can be placed again, under another customer too', async () => {
    await gw.put([customerItem({ id: 'c2x', name: 'Other', orderCount: 0 })]);
    const placed = await gw.run(`mutation { placeOrder(customerId: "c2x", input: { id: "o9", total: 1 }) { id } }`);
    expect(placed.errors).toBeUndefined();
    expect(await gw.run(`mutation { deleteOrder(id: "o9") }`)).toEqual({ data: { deleteOrder: 'o9' } });
    const again = await gw.run(`mutation { placeOrder(customerId: "c2", input: { id: "o9", total: 2 }) { id customer { id } } }`);
    expect(again.errors).toBeUndefined();
    expect(again.data.placeOrder.customer.id).toBe('c2');
    expect((await gw.get('CUSTOMER#c2x', 'PROFILE'))?.orderCount).toBe(0);
  });

  it('deletePart: one transaction; partCount follows', async () => {
    const { result, requests } = await gw.counted(`mutation { deletePart(productId: "p2", id: "seal") }`);
    expect(result).toEqual({ data: { deletePart: 'seal' } });
    expect(requests.byOperation).toEqual({ TransactWriteItems: 1 });
    expect(await gw.get('PRODUCT#p2', 'PART#seal')).toBeUndefined();
    expect((await gw.get('PRODUCT#p2', 'PRODUCT'))?.partCount).toBe(1);
  });

  it('deleting a child that is not there is NOT_FOUND and changes nothing', async () => {
    await failsLeavingTableAsItWas(gw, `mutation { deletePart(productId: "p2", id: "seal") }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { deletePart(productId: "nope", id: "valve") }`, {}, 'NOT_FOUND');
    await failsLeavingTableAsItWas(gw, `mutation { deleteOrder(id: "o2a") }`, {}, 'NOT_FOUND');
  });

  it('leaves a parent without a counter without one (a table another program wrote)', async () => {
    await gw.put([{ PK: 'PRODUCT#bare', SK: 'PRODUCT', name: 'Bare' }, partItem({ productId: 'bare', id: 'x', name: 'X', quantity: 1 })]);
    expect(await gw.run(`mutation { deletePart(productId: "bare", id: "x") }`)).toEqual({ data: { deletePart: 'x' } });
    expect(await gw.get('PRODUCT#bare', 'PRODUCT')).toEqual({ PK: 'PRODUCT#bare', SK: 'PRODUCT', name: 'Bare' });
  });
});

describe('deletes of parents cascade to their children', () => {
  for (const mode of ['stream', 'inRequest'] as const) {
    it(`deleteCustomer removes the customer, its orders and their id claims (${mode})`, async () => {
      const g = mode === 'stream' ? gw : inRequest;
      await g.put([customerItem({ id: `cc-${mode}`, name: 'Gone', orderCount: 0 })]);
      for (const id of [`oc1-${mode}`, `oc2-${mode}`]) {
        const placed = await g.run(`mutation($c: ID!, $id: ID!) { placeOrder(customerId: $c, input: { id: $id, total: 1 }) { id } }`, { c: `cc-${mode}`, id });
        expect(placed.errors).toBeUndefined();
      }
      const result = await g.run(`mutation($id: ID!) { deleteCustomer(id: $id) }`, { id: `cc-${mode}` });
      expect(result).toEqual({ data: { deleteCustomer: `cc-${mode}` } });
      // Only the stream gateway's cascade runs after the answer. A processor on the in-request gateway's table would
      // finish its cascades itself, and race the next tests' counted deletes for the marked entity.
      if (mode === 'stream') await g.settle();
      const left = (await g.scan()).filter((i) => String(i.PK).includes(`-${mode}`));
      expect(left).toEqual([]);
      expect((await g.run(`{ customer(id: "cc-${mode}") { id } order(id: "oc1-${mode}") { id } }`)).data).toEqual({ customer: null, order: null });
    });

    it(`deleteProduct removes the product and its parts (${mode})`, async () => {
      const g = mode === 'stream' ? gw : inRequest;
      await g.put(shop(`-${mode}`));
      expect(await g.run(`mutation($id: ID!) { deleteProduct(id: $id) }`, { id: `p-${mode}` })).toEqual({ data: { deleteProduct: `p-${mode}` } });
      if (mode === 'stream') await g.settle();
      expect((await g.scan()).filter((i) => i.PK === `PRODUCT#p-${mode}`)).toEqual([]);
      expect((await g.run(`{ product(id: "p-${mode}") { id } }`)).data).toEqual({ product: null });
    });
  }

  it('a product delete without a stream: read, mark, one page of parts, one transaction per part, final check, delete', async () => {
    await inRequest.put(shop('-count'));
    const { result, requests } = await inRequest.counted(`mutation { deleteProduct(id: "p-count") }`);
    expect(result.errors).toBeUndefined();
    expect(requests.byOperation).toEqual({ GetItem: 1, UpdateItem: 1, Query: 2, TransactWriteItems: 3 });
  });

  it("counts a parent delete as the operation's one fan-out mutation", async () => {
    const result = await gw.run(`mutation { a: deleteProduct(id: "x1") b: deleteCustomer(id: "x2") }`);
    expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('who may run them', () => {
  let issuer: TestIssuer;
  let guarded: TestGateway;
  const tokens: Record<'cleo' | 'other' | 'admin', string> = {} as never;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    guarded = await testGateway({ auth: testAuthenticator(issuer).auth });
    await guarded.put(shop('3'));
    tokens.cleo = await issuer.token({ customer_id: 'c3' });
    tokens.other = await issuer.token({ customer_id: 'someone' });
    tokens.admin = await issuer.token({ groups: ['admin'] });
  });
  afterAll(async () => {
    await guarded?.stop();
    await issuer?.stop();
  });

  it("lets a customer update their own profile, and nobody else's", async () => {
    const own = await guarded.run(`mutation { updateCustomer(id: "c3", input: { email: "new@example.com" }) { email } }`, undefined, tokens.cleo);
    expect(own).toEqual({ data: { updateCustomer: { email: 'new@example.com' } } });
    const { result, requests } = await guarded.counted(`mutation { updateCustomer(id: "c3", input: { name: "Mallory" }) { name } }`, undefined, tokens.other);
    expect(codes(result)).toEqual(['FORBIDDEN']);
    expect(requests.requests).toBe(0);
  });

  it.each([
    ['updateOrder', `mutation { updateOrder(id: "o3a", input: { status: CANCELLED }) { id } }`],
    ['deleteOrder', `mutation { deleteOrder(id: "o3a") }`],
    ['deleteCustomer', `mutation { deleteCustomer(id: "c3") }`],
    ['updateProduct', `mutation { updateProduct(id: "p3", input: { name: "X" }) { id } }`],
    ['deletePart', `mutation { deletePart(productId: "p3", id: "seal") }`],
  ])("keeps %s to admins, even for the order's own customer", async (_, mutation) => {
    const { result, requests } = await guarded.counted(mutation, undefined, tokens.cleo);
    expect(codes(result)).toEqual(['FORBIDDEN']);
    expect(requests.requests).toBe(0);
    const anonymous = await guarded.run(mutation);
    expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
  });

  it('lets an admin run them', async () => {
    const result = await guarded.run(`mutation { updateOrder(id: "o3a", input: { status: SHIPPED }) { status } }`, undefined, tokens.admin);
    expect(result).toEqual({ data: { updateOrder: { status: 'SHIPPED' } } });
  });
});
