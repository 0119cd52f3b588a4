/**
 * Remembers which operations passed a pre-execution check, so a repeated
 * operation skips the document walk.
 *
 * In:  the document's hash (Apollo's `queryHash`: SHA-256 of the query
 *      text), the resolved operation, the request's variables, and the check.
 * Out: runs the check unless this exact (document, operation, declared
 *      variable values) passed before; a check that throws is not remembered,
 *      so a refused operation is checked (and refused) every time.
 *
 * Invariants, so that no client can make this grow:
 * - an entry is a SHA-256 of the inputs (64 characters), never the inputs;
 * - only the variables the operation declares are part of the key (undeclared
 *   ones are refused before execution by plugins/declaredVariables.ts);
 * - the memo holds at most `maxBytes` of entries (estimated per entry) and
 *   forgets the least recently used first.
 */
import { createHash } from 'node:crypto';
import type { OperationDefinitionNode } from 'graphql';

export type CheckMemo = (
  documentHash: string,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
  check: () => void,
) => void;

/** Estimated heap bytes of one entry: the 64-character key (two bytes a character) and the Map slot. */
export const ENTRY_BYTES = 64 * 2 + 80;

/** JSON with object keys sorted: equal values give equal text whatever order the client sent. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The memo key: a hash of the document, the operation and the values of its declared variables. */
export function memoKey(documentHash: string, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined): string {
  const hash = createHash('sha256').update(documentHash).update('\u0000').update(operation.name?.value ?? '');
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    hash.update('\u0000').update(name).update('=').update(variables && name in variables ? stableJson(variables[name]) : '');
  }
  return hash.digest('hex');
}

export function checkMemo(maxBytes = 1 << 20): CheckMemo {
  const maxEntries = Math.max(1, Math.floor(maxBytes / ENTRY_BYTES));
  const passed = new Set<string>();
  return (documentHash, operation, variables, check) => {
    const key = memoKey(documentHash, operation, variables);
    if (passed.has(key)) {
      // Most recently used goes last; the first entry is the one to forget.
      passed.delete(key);
      passed.add(key);
      return;
    }
    check();
    passed.add(key);
    if (passed.size > maxEntries) passed.delete(passed.values().next().value!);
  };
}
