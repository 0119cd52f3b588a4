/**
 * Writes against an item that a cascade delete has marked (`deletingAt`)
 * but not yet removed, against DynamoDB Local: with a stream the delete
 * answers after the mark and the stream processor removes the children and
 * edges later, so a write that adds to such an item would leave an orphan
 * behind once the processor has passed. Such writes answer NOT_FOUND and
 * write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerItem, productItem } from '../support/defaultItems.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
let inRequest: TestGateway;
beforeAll(async () => {
  [gw, inRequest] = await Promise.all([testGateway(), testGateway({ fanOut: 'inRequest' })]);
});
afterAll(() => Promise.all([gw?.stop(), inRequest?.stop()]));

const sorted = (items: Record<string, unknown>[]) => items.map((i) => JSON.stringify(i, Object.keys(i).sort())).sort();
const MARK = { deletingAt: '2026-12-01T00:00:00.000Z' };

describe('a child created under a parent being deleted', () => {
  for (const [name, g] of [
    ['stream', () => gw],
    ['in request', () => inRequest],
  ] as const) {
    it(`placeOrder under a customer whose delete is under way is NOT_FOUND and writes nothing (${name})`, async () => {
      // The mark as a cascade leaves it: its own counter removed.
      const { orderCount: _, ...customer } = customerItem({ id: `cm-${name}`, name: 'Cleo' });
      await g().put([{ ...customer, ...MARK }]);
      const before = sorted(await g().scan());
      const result = await g().run(`mutation { placeOrder(customerId: "cm-${name}", input: { id: "om", total: 5 }) { id } }`);
      expect(codes(result)).toEqual(['NOT_FOUND']);
      expect(result.errors?.[0]?.message).toBe(`Customer cm-${name} not found`);
      expect(sorted(await g().scan())).toEqual(before);
    });

    it(`addPart under a product whose delete is under way is NOT_FOUND and writes nothing (${name})`, async () => {
      const { partCount: _, ...product } = productItem({ id: `pm-${name}`, name: 'Pump' });
      await g().put([{ ...product, ...MARK }]);
      const before = sorted(await g().scan());
      const result = await g().run(`mutation { addPart(productId: "pm-${name}", input: { name: "Seal", quantity: 1 }) { id } }`);
      expect(codes(result)).toEqual(['NOT_FOUND']);
      expect(sorted(await g().scan())).toEqual(before);
    });
  }

  it('a child is still created under a parent that is not being deleted', async () => {
    await gw.put([customerItem({ id: 'c-live', name: 'Cleo', orderCount: 0 })]);
    const result = await gw.run(`mutation { placeOrder(customerId: "c-live", input: { id: "o-live", total: 5 }) { id } }`);
    expect(result.errors).toBeUndefined();
    expect((await gw.get('CUSTOMER#c-live', 'PROFILE'))?.orderCount).toBe(1);
  });
});

describe('input the table cannot store', () => {
  it('placeOrder with a total too small for DynamoDB is BAD_USER_INPUT and writes nothing', async () => {
    await gw.put([customerItem({ id: 'c-tiny', name: 'Cleo', orderCount: 0 })]);
    const before = sorted(await gw.scan());
    const result = await gw.run(`mutation { placeOrder(customerId: "c-tiny", input: { total: 1e-320 }) { id } }`);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.message).toContain('input.total');
    expect(sorted(await gw.scan())).toEqual(before);
  });

  it('createStudent with a lone surrogate in its name is BAD_USER_INPUT and writes nothing', async () => {
    const before = sorted(await gw.scan());
    const result = await gw.run(`mutation($name: String!) { createStudent(input: { name: $name }) { id } }`, { name: 'Ada \ud800' });
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(sorted(await gw.scan())).toEqual(before);
  });
});
