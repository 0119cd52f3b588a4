/**
 * `/health`'s copy figures when DynamoDB does not answer (no DynamoDB
 * here: a client whose requests hang or fail): /health still answers
 * within the timeout, the read figures left null; and what a check leaves
 * stale is what it found less what it repaired.
 */
import { describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { copyHealth, staleLeft } from '../../src/migration/copyHealth.js';
import type { CheckReport } from '../../src/migration/check.js';
import { defaultPlan } from '../support/model.js';

const storeSending = (send: () => Promise<unknown>) => ({ doc: { send } as unknown as DynamoDBDocumentClient, tableName: 'AppTable', plan: defaultPlan });
const source = (send: () => Promise<unknown>) => ({ store: storeSending(send), streamLabel: () => 'label', pending: () => 3, timeoutMs: 50 });
const unknown = { pending: 3, deadLetters: null, deadLettersCapped: false, check: null, stale: null };

describe('copy figures without DynamoDB', () => {
  it('answers within the timeout when the reads hang, with the reader figure alone', async () => {
    expect(await copyHealth(source(() => new Promise(() => {})))).toEqual(unknown);
  });

  it('answers at once when the reads fail, with the reader figure alone', async () => {
    expect(await copyHealth({ ...source(() => Promise.reject(new Error('unreachable'))), timeoutMs: 60_000 })).toEqual(unknown);
  });
});

describe('what a check leaves stale', () => {
  const report = (staleCopies: number, wrongCounters: number, copies: number, counters: number) =>
    ({
      findings: { staleCopies: { count: staleCopies }, wrongCounters: { count: wrongCounters } },
      repaired: { copies, counters, indexKeys: 0 },
    }) as unknown as CheckReport;

  it('is what it found less what it repaired', () => {
    expect(staleLeft(report(3, 2, 0, 0))).toEqual({ copies: 3, counters: 2 });
    expect(staleLeft(report(3, 2, 2, 2))).toEqual({ copies: 1, counters: 0 });
  });
});
