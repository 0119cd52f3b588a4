/**
 * Copies and counters as `/health` details report them (`details.copies`,
 * docs/stream.md "Copies pending and stale"):
 * - pending: stream records this process's reader has read and not finished
 *   (null when another consumer reads the stream: its own figures say);
 * - deadLetters: dead letters of the local reader waiting for redrive,
 *   counted up to DEAD_LETTER_CAP (`deadLettersCapped`: more than that);
 * - check / stale: when `npm run check` last ran and the stale copies and
 *   wrong counters it left (found and not repaired). The check writes that
 *   summary to one bookkeeping item (`LAYOUT` / `CHECK`, keys.ts), so every
 *   instance reads it with one GetItem.
 * At most two DynamoDB requests: the GetItem and, on a table with a
 * stream, one COUNT Query.
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { within } from '../dynamo/health.js';
import { checkReportKey } from '../dynamo/keys.js';
import type { Plan } from '../plan/plan.js';
import { countDeadLetters } from '../stream/checkpoints.js';
import { readsOf, type Store } from '../writes/store.js';
import type { CheckReport } from './check.js';

/** Dead letters counted at most (the COUNT Query reads one more to know whether there are more). */
export const DEAD_LETTER_CAP = 100;

export interface CheckSummary {
  /** When the check finished (ISO-8601 UTC). */
  at: string;
  /** Whether it ran with `--repair`. */
  repair: boolean;
  scanned: number;
}

export interface CopiesHealth {
  pending: number | null;
  /** null: no stream, or the count could not be read. */
  deadLetters: number | null;
  deadLettersCapped: boolean;
  /** null: no check has run on this table (or its summary could not be read). */
  check: CheckSummary | null;
  stale: { copies: number; counters: number } | null;
}

/** What a check leaves stale: found, less what its repair wrote (an ahead-of-source copy is reported, never rewritten). */
export function staleLeft(report: CheckReport): { copies: number; counters: number } {
  return {
    copies: Math.max(0, report.findings.staleCopies.count - report.repaired.copies),
    counters: Math.max(0, report.findings.wrongCounters.count - report.repaired.counters),
  };
}

/** Keeps the check's summary in the table for `/health` (one PutItem). */
export async function saveCheckSummary(
  doc: DynamoDBDocumentClient,
  tableName: string,
  plan: Plan,
  report: CheckReport,
  repair: boolean,
  at = new Date(),
): Promise<void> {
  const stale = staleLeft(report);
  await doc.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...plan.keys.key(checkReportKey),
        checkedAt: at.toISOString(),
        repair,
        scanned: report.scanned,
        staleCopies: stale.copies,
        wrongCounters: stale.counters,
      },
    }),
  );
}

export interface CopyHealthSource {
  store: Store;
  /** The stream's label (its checkpoint partition), or null without a stream. */
  streamLabel: () => string | null;
  /** Records read and not finished by this process's reader; null when it reads no stream. */
  pending: () => number | null;
  /** How long the two reads may take before the figures are left null (as the layout's details are). */
  timeoutMs?: number;
}

export async function copyHealth({ store, streamLabel, pending, timeoutMs = 2000 }: CopyHealthSource): Promise<CopiesHealth> {
  const label = streamLabel();
  const [letters, summary] = await Promise.all([
    label === null ? null : within(timeoutMs, () => countDeadLetters(store, label, DEAD_LETTER_CAP)),
    within(timeoutMs, async () => (await readsOf(store).get({ TableName: store.tableName, Key: store.plan.keys.key(checkReportKey) })).Item ?? null),
  ]);
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    pending: pending(),
    deadLetters: letters?.count ?? null,
    deadLettersCapped: letters?.capped ?? false,
    check: summary === null ? null : { at: String(summary.checkedAt), repair: summary.repair === true, scanned: num(summary.scanned) },
    stale: summary === null ? null : { copies: num(summary.staleCopies), counters: num(summary.wrongCounters) },
  };
}
