/**
 * placeOrder / addPart: a child put into its parent's item collection and
 * the parent's counter incremented, in one transaction.
 *
 * The parent is read first (consistently) to learn whether its counter
 * exists (see conditions.ts); the transaction requires the parent to still
 * exist. Missing parent → NOT_FOUND; a child id already in the collection
 * → CONFLICT. An order id is also its GSI1 partition (`ORDER#<oid>`, how
 * `order(id)` finds it), so an order id used under another customer is a
 * CONFLICT too: an explicit order id is claimed by a uniqueness item
 * (keys.ts `orderIdClaimKey`) in the same transaction, so of two concurrent
 * placeOrder calls giving the same id to different customers exactly one
 * succeeds. Orders written before (or by programs) without that item are
 * caught by a GSI1 Query beforehand. Generated ids never collide and need
 * neither.
 */
import type { AddPartInput, PlaceOrderInput } from '../__generated__/resolvers.js';
import type { Item } from '../dynamo/batchGet.js';
import { readRange } from '../dynamo/collection.js';
import { orderIdClaimKey } from '../dynamo/keys.js';
import { conflict, notFound } from '../graphql/errors.js';
import { orderById } from '../model/collections.js';
import { customer, product, type Entity } from '../model/entities.js';
import { orderItem, partItem } from '../model/items.js';
import { toOrder, toPart } from '../model/mappers.js';
import type { OrderRecord, PartRecord } from '../model/records.js';
import { validateId } from '../connections/args.js';
import { counterChange } from './conditions.js';
import { idOrNew } from './ids.js';
import { optionalText, quantity, text, total } from './input.js';
import { READ_AGAIN, untilFresh } from './staleRead.js';
import { getItem, type Store } from './store.js';
import { tryTransact } from './transact.js';

/** Puts `child` into the connection of `parentEntity` `parentId` and increments that connection's counter. */
async function putChild(store: Store, parentEntity: Entity, parentId: string, child: Item, childWhat: string, unique?: Item) {
  const parent = parentEntity.key(parentId);
  const parentWhat = `${parentEntity.typeName} ${parentId}`;
  const counter = parentEntity.connection.counter;
  return untilFresh(store, async () => {
    const seen = await getItem(store, parent);
    if (seen === null) throw notFound(`${parentWhat} not found`);
    const cancelled = await tryTransact(store, [
      { Put: { TableName: store.tableName, Item: child, ConditionExpression: 'attribute_not_exists(PK)' } },
      counterChange(store.tableName, parent, seen, counter, 1),
      ...(unique ? [{ Put: { TableName: store.tableName, Item: unique, ConditionExpression: 'attribute_not_exists(PK)' } }] : []),
    ]);
    if (cancelled === null) return seen;
    if (cancelled.failed(0) || (unique && cancelled.failed(2))) throw conflict(`${childWhat} already exists`);
    // The parent was deleted, or its counter appeared or vanished: read again.
    if (cancelled.failed(1)) return READ_AGAIN;
    throw cancelled;
  });
}

export async function placeOrder(store: Store, customerId: string, input: PlaceOrderInput): Promise<OrderRecord> {
  validateId(customerId, 'customerId');
  const item = orderItem({
    customerId,
    id: idOrNew(input.id),
    placedAt: new Date().toISOString(),
    total: total(input.total, 'input.total'),
    status: optionalText(input.status, 'input.status'),
  });
  const order = toOrder(item);
  if (input.id != null) {
    const [existing] = await readRange(store.doc, store.tableName, { collection: orderById(order.id), forward: true, limit: 1 });
    if (existing) throw conflict(`Order ${order.id} already exists`);
  }
  const unique = input.id != null ? { ...orderIdClaimKey(order.id), customerId } : undefined;
  await putChild(store, customer, customerId, item, `Order ${order.id}`, unique);
  return order;
}

export async function addPart(store: Store, productId: string, input: AddPartInput): Promise<PartRecord> {
  validateId(productId, 'productId');
  const item = partItem({
    productId,
    id: idOrNew(input.id),
    name: text(input.name, 'input.name'),
    quantity: quantity(input.quantity, 'input.quantity'),
  });
  const part = toPart(item);
  await putChild(store, product, productId, item, `Part ${part.id}`);
  return part;
}
