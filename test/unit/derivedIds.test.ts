/**
 * Types whose keys name no {id}: which are served, what is refused at
 * start-up (one line each, naming the culprit), and the derived id's
 * format: stable, decodable into the key, strict on reading back.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/declaration/buildModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { formatDerivedId, parseDerivedId } from '../../src/plan/derivedId.js';
import { problemsOf } from '../support/problems.js';
import { RECEIPTS } from '../support/receiptsModel.js';

const receipts = () => compilePlan(buildModel(RECEIPTS, 'receipts.graphql')).item('Receipt');

describe('a type whose keys name no {id}', () => {
  it('is served, with its id made of the placeholders in the order pk then sk name them', () => {
    expect(problemsOf(RECEIPTS)).toEqual([]);
    expect(buildModel(RECEIPTS, 'receipts.graphql').items.get('Receipt')!.derivedId).toEqual(['account', 'processedAt', 'sku']);
    expect(buildModel(RECEIPTS, 'receipts.graphql').items.get('Note')!.derivedId).toBeNull();
  });

  it('refuses a key field in an update input (in both update inputs), naming the input field', () => {
    const model = RECEIPTS.replace('input UpdateReceiptInput { amount: String }', 'input UpdateReceiptInput { amount: String sku: String }');
    expect(problemsOf(model)).toEqual([
      "UpdateReceiptInput.sku: Receipt.sku is in Receipt's table key, which an update cannot change: remove it from the update input",
      "UpdateReceiptInput.sku: Receipt.sku is in Receipt's table key, which an update cannot change: remove it from the update input",
    ]);
  });

  it('refuses an id in its create input', () => {
    expect(problemsOf(RECEIPTS.replace('input CreateReceiptInput {', 'input CreateReceiptInput { id: ID '))).toEqual([
      "CreateReceiptInput.id: Receipt's key names no {id}: its id is derived from the key's values (account, processedAt, sku), so a create takes none",
    ]);
  });

  it('refuses inverted: true, which has nothing to find', () => {
    const model = RECEIPTS.replace(
      'type Account {',
      'type Shelf @item(pk: "SHELF#{room}", sk: "S#{row}", inverted: true) { id: ID! room: String! row: String! }\ntype Account {',
    );
    expect(problemsOf(model)).toEqual([
      expect.stringContaining('Shelf: implement Node'),
      expect.stringContaining(
        "Shelf @item(inverted): Shelf's key names no {id}: its id is derived from the key and finds it alone, so inverted: true has nothing to do",
      ),
    ]);
  });

  it('refuses an owner claim, which holds an id a caller is given', () => {
    expect(problemsOf(RECEIPTS.replace('sk: "REC#{processedAt}#SKU#{sku}")', 'sk: "REC#{processedAt}#SKU#{sku}", claim: "receipt")'))).toEqual([
      expect.stringContaining("Receipt @item(claim): Receipt's key names no {id}: its id is derived from the key, which a token's claim does not hold"),
    ]);
  });

  it('refuses keys of literal text alone: every item would have the same key', () => {
    expect(
      problemsOf(RECEIPTS.replace('type Account {', 'type Flag implements Node @item(pk: "FLAG", sk: "ON") { globalId: ID! id: ID! }\ntype Account {')),
    ).toEqual([
      expect.stringContaining(
        'Flag @item: neither pk nor sk holds a placeholder: every item of the type would have the same key (name {id} or the fields that tell items apart)',
      ),
    ]);
  });

  it('refuses an @update or @delete that takes neither its id nor every value of its key, one line each, and a @get mixing both', () => {
    const model = RECEIPTS.replace('updateReceiptAt(account: ID!, processedAt: DateTime!, sku: String!,', 'updateReceiptAt(account: ID!, sku: String!,')
      .replace('deleteReceipt(id: ID!): ID!', 'deleteReceipt(receipt: ID!): ID!')
      .replace('receipt(id: ID!): Receipt @get', 'receipt(id: ID!, sku: String): Receipt @get');
    expect(problemsOf(model)).toEqual([
      expect.stringContaining(
        "Query.receipt(sku): Receipt's id is derived from its key and finds it alone: take id, or the key's values (account, processedAt, sku) instead",
      ),
      expect.stringContaining(
        "Mutation.updateReceiptAt @update: Receipt's id is derived from its key: take id: ID!, or every value of the key (missing: processedAt or processedAtId for {processedAt})",
      ),
      expect.stringContaining(
        "Mutation.deleteReceipt @delete: Receipt's id is derived from its key: take id: ID!, or every value of the key (missing: account or accountId for {account}, processedAt or processedAtId for {processedAt}, sku or skuId for {sku})",
      ),
    ]);
  });
});

describe('a derived id', () => {
  it("is base64url of the key's values joined by '#', DateTime written with three fraction digits", () => {
    const id = receipts().derived!.id({ account: 'a1', processedAt: '2026-03-02T10:00:00Z', sku: '999' });
    expect(id).toBe('YTEjMjAyNi0wMy0wMlQxMDowMDowMC4wMDBaIzk5OQ');
    expect(Buffer.from(id, 'base64url').toString('utf8')).toBe('a1#2026-03-02T10:00:00.000Z#999');
    expect(parseDerivedId(id, 3)).toEqual(['a1', '2026-03-02T10:00:00.000Z', '999']);
  });

  it('is the same read from a stored item as made from its values, and builds that key back', () => {
    const plan = receipts();
    const stored = { PK: 'ACC#a1', SK: 'REC#2026-03-02T10:00:00.000Z#SKU#999', amount: '1' };
    const id = plan.ids(stored)!.id;
    expect(id).toBe(formatDerivedId(['a1', '2026-03-02T10:00:00.000Z', '999']));
    expect(plan.ids(stored)!.parentId).toBe('a1');
    expect(plan.key(id)).toEqual({ PK: 'ACC#a1', SK: 'REC#2026-03-02T10:00:00.000Z#SKU#999' });
    expect(plan.map(stored)).toMatchObject({ id, sku: '999', processedAt: '2026-03-02T10:00:00.000Z', amount: '1' });
  });

  it("is not a stored item of another shape's id", () => {
    expect(receipts().ids({ PK: 'ACC#a1', SK: 'SUB#1#SKU#999' })).toBeNull();
  });

  it('refuses text that is not the canonical id of as many values, and values holding # or missing', () => {
    const plan = receipts();
    const good = formatDerivedId(['a1', '2026-03-02T10:00:00.000Z', '999']);
    for (const bad of [
      '',
      'not an id',
      `${good}=`,
      formatDerivedId(['a1', '999']),
      formatDerivedId(['a1', '', '999']),
      'YTEjMjAyNi0wMy0wMlQxMDowMDowMC4wMDBaIzk5OR',
    ]) {
      expect(() => plan.key(bad)).toThrow(/id is not an id of Receipt/);
    }
    expect(() => plan.derived!.id({ account: 'a1', processedAt: '2026-03-02T10:00:00Z', sku: '9#9' }, { sku: 'input.sku' })).toThrow(
      /input\.sku may not contain '#'/,
    );
    expect(() => plan.derived!.id({ account: 'a1', processedAt: 'yesterday', sku: '9' })).toThrow(/processedAt must be an ISO-8601 UTC time/);
    expect(() => plan.derived!.id({ processedAt: '2026-03-02T10:00:00Z', sku: '9' }, { account: 'account' })).toThrow(/account is part of the key/);
  });
});
