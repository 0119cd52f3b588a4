/**
 * TransactionConflict and TransactionInProgress never happen on DynamoDB
 * Local, so a fake document client injects them: the write is retried and
 * succeeds, and when the conflict persists the caller gets UNAVAILABLE with
 * reason TRANSACTION_CONFLICT — and no half-done write, since a cancelled
 * transaction writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createContext } from '../../src/graphql/context.js';
import { createCursorCodec } from '../../src/connections/cursorSigning.js';
import { createServer } from '../../src/graphql/server.js';
import { courseItem, customerItem, studentItem } from '../support/defaultItems.js';
import { enroll, placeOrder } from '../support/writes.js';
import { isTransientConflict, transact, TransactionCancelled } from '../../src/writes/transact.js';
import type { Store } from '../../src/writes/store.js';
import { defaultPlan } from '../support/model.js';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const inProgress = () => Object.assign(new Error('Transaction is ongoing for the item'), { name: 'TransactionInProgressException' });

/** A document client that answers reads from `items` and fails the first `failures.length` transactions. */
function fakeDoc(items: Record<string, unknown>[], failures: Error[]) {
  const sent: string[] = [];
  const transactions: unknown[] = [];
  const byKey = (k: { PK: unknown; SK: unknown }) => items.find((i) => i.PK === k.PK && i.SK === k.SK);
  const doc = {
    send: async (command: unknown) => {
      if (command instanceof BatchGetCommand) {
        sent.push('BatchGetItem');
        const [table, { Keys }] = Object.entries(command.input.RequestItems!)[0];
        return { Responses: { [table]: Keys!.map((k) => byKey(k as never)).filter(Boolean) } };
      }
      if (command instanceof GetCommand) {
        sent.push('GetItem');
        return { Item: byKey(command.input.Key as never) };
      }
      if (command instanceof TransactWriteCommand) {
        sent.push('TransactWriteItems');
        const failure = failures.shift();
        if (failure) throw failure;
        transactions.push(command.input.TransactItems);
        return {};
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, sent, transactions };
}

const items = [studentItem({ id: 's', name: 'Sam', courseCount: 0 }), courseItem({ id: 'C', title: 'Chemistry', studentCount: 0 })];
const fastRetries = { conflictAttempts: 4, conflictDelayMs: 1 };

describe('transient transaction conflicts', () => {
  it('classifies TransactionConflict and TransactionInProgress as transient, a failed condition as not', () => {
    expect(isTransientConflict(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isTransientConflict(inProgress())).toBe(true);
    expect(isTransientConflict(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransientConflict(cancelled('ConditionalCheckFailed', 'None'))).toBe(false);
    expect(isTransientConflict(new Error('boom'))).toBe(false);
  });

  it('enroll retries a transaction cancelled by a conflict and then commits it once', async () => {
    const fake = fakeDoc(items, [cancelled('None', 'TransactionConflict', 'None'), inProgress()]);
    const store: Store = { doc: fake.doc, tableName: 'T', plan: defaultPlan, writeOptions: fastRetries };
    const { edge, course } = await enroll(store, 's', 'C');
    expect(course).toMatchObject({ id: 'C', title: 'Chemistry', studentCount: 1 });
    expect(edge).toMatchObject({ PK: 'STUDENT#s', SK: 'COURSE#C', courseTitle: 'Chemistry', studentName: 'Sam' });
    expect(fake.sent).toEqual(['BatchGetItem', 'TransactWriteItems', 'TransactWriteItems', 'TransactWriteItems']);
    expect(fake.transactions).toHaveLength(1);
  });

  it('a conflict that persists becomes UNAVAILABLE with reason TRANSACTION_CONFLICT after the configured attempts', async () => {
    const fake = fakeDoc(
      items,
      Array.from({ length: 10 }, () => cancelled('TransactionConflict', 'None', 'None')),
    );
    const store: Store = { doc: fake.doc, tableName: 'T', plan: defaultPlan, writeOptions: fastRetries };
    const error = await enroll(store, 's', 'C').catch((e) => e);
    expect(error.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'TRANSACTION_CONFLICT' });
    expect(fake.sent.filter((s) => s === 'TransactWriteItems')).toHaveLength(4);
    expect(fake.transactions).toHaveLength(0);
  });

  it('a transaction throttled on every attempt is plain UNAVAILABLE, without the conflict reason', async () => {
    const fake = fakeDoc(
      items,
      Array.from({ length: 10 }, () => cancelled('None', 'ThrottlingError', 'None')),
    );
    const error = await enroll({ doc: fake.doc, tableName: 'T', plan: defaultPlan, writeOptions: fastRetries }, 's', 'C').catch((e) => e);
    expect(error.extensions).toEqual({ code: 'UNAVAILABLE' });
    expect(fake.transactions).toHaveLength(0);
  });

  it('placeOrder retries a conflict and increments the counter (the customer not read first)', async () => {
    const fake = fakeDoc([customerItem({ id: 'cu', name: 'Cy', orderCount: 3 })], [cancelled('TransactionConflict', 'None')]);
    const order = await placeOrder({ doc: fake.doc, tableName: 'T', plan: defaultPlan, writeOptions: fastRetries }, 'cu', { total: 1 });
    expect(order.customerId).toBe('cu');
    expect(fake.sent).toEqual(['TransactWriteItems', 'TransactWriteItems']);
    expect(fake.transactions).toHaveLength(1);
  });

  it('hands a failed condition back with its per-item reasons instead of retrying it', async () => {
    const fake = fakeDoc([], [cancelled('None', 'ConditionalCheckFailed')]);
    const error = await transact({ doc: fake.doc, tableName: 'T' }, []).catch((e) => e);
    expect(error).toBeInstanceOf(TransactionCancelled);
    expect(error.reasons).toEqual(['None', 'ConditionalCheckFailed']);
    expect(error.failed(1)).toBe(true);
    expect(fake.sent).toEqual(['TransactWriteItems']);
  });

  it('reaches the GraphQL client as UNAVAILABLE with reason TRANSACTION_CONFLICT, also in production', async () => {
    const server = createServer({ prod: true, model: defaultPlan.model });
    await server.start();
    try {
      const fake = fakeDoc(
        items,
        Array.from({ length: 20 }, () => cancelled('None', 'None', 'TransactionConflict')),
      );
      const response = await server.executeOperation(
        { query: `mutation { enroll(studentId: "s", courseId: "C") { cursor } }` },
        {
          contextValue: createContext({
            doc: fake.doc,
            tableName: 'T',
            plan: defaultPlan,
            cursors: createCursorCodec({ current: 'unit-test-cursor-secret-0123456789' }),
          }),
        },
      );
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      const [error] = response.body.singleResult.errors ?? [];
      // Production adds the request id to UNAVAILABLE errors, for support.
      expect(error.extensions).toMatchObject({ code: 'UNAVAILABLE', reason: 'TRANSACTION_CONFLICT' });
      expect(fake.transactions).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });
});
