/**
 * Item types whose records are always their items' own (never built from an
 * edge's copies, never a parent built from a child's key) are read with
 * plain property reads, no resolver per field; types whose records may be
 * partial keep the resolvers that load the item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { buildResolvers } from '../../src/resolvers/index.js';
import { customerItem, orderItem } from '../support/defaultItems.js';
import { codes, testGateway, type TestGateway } from '../support/gateway.js';

const resolvers = buildResolvers(compilePlan(loadModel())) as unknown as Record<string, Record<string, unknown>>;

describe('the resolvers of the default model', () => {
  it('leave the id and stored fields of an always-complete type (Part) to plain reads', () => {
    for (const field of ['id', 'name', 'quantity']) expect(resolvers.Part![field], field).toBeUndefined();
    // Its parent and global id still have theirs.
    expect(typeof resolvers.Part!.product).toBe('function');
  });

  it('keep a resolver for every field of a type whose records may come from copies or a child key', () => {
    // Student and Course: nodes of @edges connections; Customer and Product: parents of child types;
    // Order: guarded fields, which a subscription event's carried image leaves out.
    for (const [type, field] of [
      ['Student', 'name'],
      ['Course', 'title'],
      ['Customer', 'name'],
      ['Product', 'name'],
      ['Order', 'total'],
    ] as const) {
      expect(typeof resolvers[type]![field], `${type}.${field}`).toBe('function');
    }
  });
});

describe('an order read from the table', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway();
    const { total: _, ...withoutTotal } = orderItem({ customerId: 'cr1', id: 'or2', placedAt: '2026-05-02T00:00:00.000Z', total: 0 });
    await gw.put([
      customerItem({ id: 'cr1', name: 'Rae', orderCount: 2 }),
      orderItem({ customerId: 'cr1', id: 'or1', placedAt: '2026-05-01T00:00:00.000Z', total: 12.5, status: 'PLACED' }),
      // Written by another program without its required total.
      withoutTotal,
    ]);
  });
  afterAll(() => gw?.stop());

  it('answers its fields from the stored item', async () => {
    const result = await gw.run('{ order(id: "or1") { id placedAt total status } }');
    expect(result.errors).toBeUndefined();
    expect(result.data.order).toEqual({ id: 'or1', placedAt: '2026-05-01T00:00:00.000Z', total: 12.5, status: 'PLACED' });
  });

  it('gives an internal error at the field a stored item lacks', async () => {
    const result = await gw.run('{ customer(id: "cr1") { orders { edges { node { id total } } } } }');
    expect(codes(result)).toEqual(['INTERNAL_SERVER_ERROR']);
    expect(result.errors![0].path).toEqual(['customer', 'orders', 'edges', 1, 'node', 'total']);
    // Non-null all the way up (edges, node, total): the error nulls the nearest nullable field, as before.
    expect(result.data.customer).toBeNull();
  });
});
