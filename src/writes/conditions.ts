/**
 * Condition and counter pieces of transact items.
 *
 * Counters change in the same transaction as the relation,
 * and only where they exist: a table filled by another program may lack
 * them, and ADD on an absent counter would create it as ±1 while the true
 * count is N. So the writer decides from the entity it read:
 * - counter present → `ADD counter :delta` conditioned on `attribute_exists(counter)`;
 * - counter absent  → a ConditionCheck on `attribute_not_exists(counter)` and no
 *   live counting mark (COUNTING_ATTR), no write;
 * - entity absent   → a ConditionCheck on `attribute_not_exists(<pk>)` (only
 *   cleanup of orphaned edges gets here).
 * If the entity changed between read and transaction, the condition fails
 * and the caller reads again.
 */
import type { Item } from '../dynamo/batchGet.js';
import type { ItemKey, TableKeys } from '../dynamo/keys.js';
import type { TransactItem } from './transact.js';

/** Set while a cascade delete removes the entity's edges; writes that would add an edge refuse such an entity. */
export const DELETING_ATTR = 'deletingAt';

/**
 * Set on an item (ISO timestamp) by a rename while its copies are being
 * brought up to date by the stream processor; removed by the processor
 * once every edge carries the rename's version. Clients see it as a
 * @propagating flag (together with `deletingAt` during a cascade delete).
 */
export const PROPAGATING_ATTR = 'propagatingSince';

/**
 * Set on an item (ISO timestamp) by `npm run migrate` while it counts a
 * counter the item lacks (src/migration/relationFix.ts). Until the count is
 * stored, writes that would move that counter find the mark live and read
 * again (and, after their rounds, answer TRANSACTION_CONFLICT): no edge or
 * child can come or go between the count and its write. A mark older than
 * COUNTING_LEASE_MS is dead (a migration that stopped mid-count) and ignored.
 */
export const COUNTING_ATTR = 'countingSince';
export const COUNTING_LEASE_MS = 30_000;

/** No live counting mark on the item: absent, or older than the lease. */
export const notCounting = (now = Date.now()): Condition => {
  const id = fresh();
  return {
    expression: `(attribute_not_exists(#${id}) OR #${id} < :${id})`,
    names: { [`#${id}`]: COUNTING_ATTR },
    values: { [`:${id}`]: new Date(now - COUNTING_LEASE_MS).toISOString() },
  };
};

/** A condition expression with its placeholders; `and` joins them with fresh placeholder names. */
export interface Condition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

let placeholder = 0;
const fresh = () => `p${(placeholder = (placeholder + 1) % 1_000_000)}`;

export const exists = (attr: string): Condition => {
  const n = `#${fresh()}`;
  return { expression: `attribute_exists(${n})`, names: { [n]: attr }, values: {} };
};

export const absent = (attr: string): Condition => {
  const n = `#${fresh()}`;
  return { expression: `attribute_not_exists(${n})`, names: { [n]: attr }, values: {} };
};

/** `attr = value`, or the attribute's absence when the value read was absent. */
export const unchanged = (attr: string, value: unknown): Condition => {
  if (value === undefined) return absent(attr);
  const id = fresh();
  return { expression: `#${id} = :${id}`, names: { [`#${id}`]: attr }, values: { [`:${id}`]: value } };
};

export const and = (...parts: Condition[]): Condition => ({
  expression: parts.map((p) => p.expression).join(' AND '),
  names: Object.assign({}, ...parts.map((p) => p.names)),
  values: Object.assign({}, ...parts.map((p) => p.values)),
});

/** The placeholder maps of a condition, as the SDK wants them (no empty maps). */
export function expressionParts(c: Condition) {
  return {
    ConditionExpression: c.expression,
    ExpressionAttributeNames: c.names,
    ...(Object.keys(c.values).length > 0 ? { ExpressionAttributeValues: c.values } : {}),
  };
}

export const conditionCheck = (tableName: string, keys: TableKeys, key: ItemKey, c: Condition): TransactItem => ({
  ConditionCheck: { TableName: tableName, Key: keys.key(key), ...expressionParts(c) },
});

/**
 * A move of `counter` of the entity at `key` by `delta`, given the entity
 * as read (`seen`, null when it was absent). `also` adds conditions on the
 * entity (e.g. its name is still the one copied).
 */
export interface CounterMove<C = string> {
  key: ItemKey;
  seen: Item | null;
  counter: C;
  delta: number;
  also?: Condition[];
}

/** The transact item of a CounterMove. */
export function counterChange(tableName: string, keys: TableKeys, { key, seen, counter, delta, also = [] }: CounterMove): TransactItem {
  if (seen === null) return conditionCheck(tableName, keys, key, and(absent(keys.pk), ...also));
  if (typeof seen[counter] !== 'number') {
    // Not maintained: nothing to move, unless `npm run migrate` is counting it right now.
    return conditionCheck(tableName, keys, key, and(exists(keys.pk), absent(counter), notCounting(), ...also));
  }
  const c = and(exists(keys.pk), exists(counter), ...also);
  return {
    Update: {
      TableName: tableName,
      Key: keys.key(key),
      UpdateExpression: 'ADD #counter :delta',
      ConditionExpression: c.expression,
      ExpressionAttributeNames: { ...c.names, '#counter': counter },
      ExpressionAttributeValues: { ...c.values, ':delta': delta },
    },
  };
}

/** The counter as it will be after `delta`, or undefined when it is not maintained. */
export const counterAfter = (seen: Item, counter: string, delta: number): number | undefined =>
  typeof seen[counter] === 'number' ? (seen[counter] as number) + delta : undefined;

/**
 * `counterChange`, or, for a relation without a counter, the same
 * conditions on the entity alone (it exists as read, and `also` holds).
 */
export function counterOrCheck(tableName: string, keys: TableKeys, move: CounterMove<string | null>): TransactItem {
  const { key, seen, counter, also = [] } = move;
  if (counter !== null) return counterChange(tableName, keys, { ...move, counter });
  return conditionCheck(tableName, keys, key, and(seen === null ? absent(keys.pk) : exists(keys.pk), ...also));
}
