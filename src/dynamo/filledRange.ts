/**
 * Filled reads of a sort-key range on an index partition, with an optional
 * filter, under a read-capacity budget. DynamoDB applies `Limit` before a
 * FilterExpression, so one Query may return few matches and a
 * LastEvaluatedKey; a filled read keeps querying until it holds `want`
 * matches or the range ends (the `want`-th decides "more" exactly), or the
 * units consumed reach `budget`: then it returns what it has and the sort
 * key it evaluated up to, to resume from.
 *
 * - range: `pk = :pk AND sk BETWEEN :lo AND :hi`; exclusive/bound: sort
 *   keys it starts after / stops before (unique: they end with the id).
 * - evaluated: items read for the range, matching or not (what units pay for).
 * Sizing: the first Query asks for `want`; later ones for what the
 * selectivity so far says (×1.25), capped at 1000 and at what the budget
 * left buys, so a request overshoots the budget by little.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ReadPort } from './readPort.js';
import type { Item } from './batchGet.js';
import { capacityUnits } from './metrics.js';
import { partitionCondition, type PartitionPart } from './collection.js';

export interface Filter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface FilledRead {
  /** undefined: the table. */
  index?: string;
  pkAttr: string;
  skAttr: string;
  pk: string;
  /** The further attributes of a multi-attribute partition key. */
  pkMore?: readonly PartitionPart[];
  /** The partition attributes holding numbers (collection.ts `Collection.numbers`). */
  numbers?: readonly string[];
  lo: string;
  hi: string;
  forward: boolean;
  exclusive?: string | null;
  bound?: string | null;
  /** Matches wanted (a page asks for one more than it shows). */
  want: number;
  filter?: Filter | null;
  /** Read capacity units the read may consume before it stops early. */
  budget: number;
}

export interface FilledResult {
  items: Item[];
  /** The range holds nothing beyond what was evaluated. */
  exhausted: boolean;
  /** Stopped by the budget before `want` matches and before the range's end. */
  budgetSpent: boolean;
  /** Sort key of the last item evaluated (where a resumed read starts after); null when nothing was. */
  lastEvaluated: string | null;
  consumedReadUnits: number;
  evaluated: number;
  requests: number;
}

const MAX_LIMIT = 1000;

export async function readFilled(reads: ReadPort, tableName: string, read: FilledRead): Promise<FilledResult> {
  const { forward, want, budget, filter } = read;
  const exclusive = read.exclusive ?? null;
  const bound = read.bound ?? null;
  const [lo, hi] = forward ? [exclusive ?? read.lo, bound ?? read.hi] : [bound ?? read.lo, exclusive ?? read.hi];
  const result: FilledResult = { items: [], exhausted: false, budgetSpent: false, lastEvaluated: null, consumedReadUnits: 0, evaluated: 0, requests: 0 };
  if (want <= 0 || lo > hi) {
    result.exhausted = lo > hi;
    return result;
  }
  const partition = partitionCondition(read.pkAttr, read.pk, read.pkMore, read.numbers);
  const base: QueryCommandInput = {
    TableName: tableName,
    IndexName: read.index,
    KeyConditionExpression: `${partition.expression} AND #sk BETWEEN :lo AND :hi`,
    ExpressionAttributeNames: { ...partition.names, '#sk': read.skAttr, ...filter?.names },
    ExpressionAttributeValues: { ...partition.values, ':lo': lo, ':hi': hi, ...filter?.values },
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ScanIndexForward: forward,
    ReturnConsumedCapacity: 'TOTAL',
  };
  let matched = 0;
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const needed = want - result.items.length;
    let limit = needed;
    if (result.evaluated > 0 && filter) {
      const ratio = Math.max(matched, 1) / result.evaluated;
      limit = Math.ceil((needed / ratio) * 1.25);
    }
    if (result.consumedReadUnits > 0) {
      const itemsPerUnit = result.evaluated / result.consumedReadUnits;
      limit = Math.min(limit, Math.floor((budget - result.consumedReadUnits) * itemsPerUnit));
    }
    // The cursor's own item and the bound item may come back and be dropped.
    limit = Math.max(1, Math.min(MAX_LIMIT, limit + (startKey === undefined && exclusive !== null ? 1 : 0) + (bound !== null ? 1 : 0)));
    const out = await reads.query({ ...base, Limit: limit, ExclusiveStartKey: startKey });
    result.requests += 1;
    result.consumedReadUnits += capacityUnits(out.ConsumedCapacity);
    result.evaluated += out.ScannedCount ?? out.Items?.length ?? 0;
    for (const item of out.Items ?? []) {
      const sk = item[read.skAttr];
      if (sk === exclusive || sk === bound) continue;
      matched += 1;
      if (result.items.length < want) result.items.push(item);
    }
    startKey = out.LastEvaluatedKey;
    if (startKey) result.lastEvaluated = String(startKey[read.skAttr]);
    else {
      result.exhausted = true;
      break;
    }
    if (result.items.length >= want) break;
    if (result.consumedReadUnits >= budget) {
      result.budgetSpent = true;
      break;
    }
  }
  return result;
}

/** Number of matches in the range (Select: COUNT), or null when the budget ran out first. */
export async function countFilled(
  reads: ReadPort,
  tableName: string,
  read: Omit<FilledRead, 'want' | 'forward' | 'exclusive' | 'bound'>,
): Promise<number | null> {
  const { filter } = read;
  const partition = partitionCondition(read.pkAttr, read.pk, read.pkMore, read.numbers);
  // A number sort key is counted whole (its collection has no range): text bounds would not match its type.
  const sk = read.numbers?.includes(read.skAttr)
    ? { expression: partition.expression, names: partition.names, values: partition.values }
    : {
        expression: `${partition.expression} AND #sk BETWEEN :lo AND :hi`,
        names: { ...partition.names, '#sk': read.skAttr },
        values: { ...partition.values, ':lo': read.lo, ':hi': read.hi },
      };
  let count = 0;
  let consumed = 0;
  let scanned = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    if (consumed >= read.budget) return null;
    // Sized so the budget is not overshot by much: first at ≤ 512 bytes an item (16 a unit), then as measured.
    const perUnit = consumed > 0 ? scanned / consumed : 16;
    const limit = Math.max(1, Math.min(10_000, Math.floor((read.budget - consumed) * perUnit)));
    const out = await reads.query({
      TableName: tableName,
      IndexName: read.index,
      Select: 'COUNT',
      Limit: limit,
      KeyConditionExpression: sk.expression,
      ExpressionAttributeNames: { ...sk.names, ...filter?.names },
      ExpressionAttributeValues: { ...sk.values, ...filter?.values },
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ReturnConsumedCapacity: 'TOTAL',
      ExclusiveStartKey: startKey,
    });
    consumed += capacityUnits(out.ConsumedCapacity);
    scanned += out.ScannedCount ?? 0;
    count += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return count;
}
