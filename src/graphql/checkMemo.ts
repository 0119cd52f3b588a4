/**
 * Remembers which operations passed a pre-execution check, so a repeated
 * operation skips the document walk.
 *
 * Apollo keeps parsed, validated documents in its document store and hands
 * out the same DocumentNode for the same query string, so (document,
 * operation name, variables) identifies an operation exactly. Only passes
 * are remembered: a refused operation is checked (and refused) every time.
 * Memory is bounded: entries die with their document, and at most
 * `perDocument` variable sets are kept for one document.
 */
import type { DocumentNode } from 'graphql';

export type CheckMemo = (
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
  check: () => void,
) => void;

export function checkMemo(perDocument = 32): CheckMemo {
  const passed = new WeakMap<DocumentNode, Set<string>>();
  return (document, operationName, variables, check) => {
    const key = `${operationName ?? ''}\u0000${variables && Object.keys(variables).length ? JSON.stringify(variables) : ''}`;
    const seen = passed.get(document);
    if (seen?.has(key)) return;
    check();
    const set = seen ?? new Set<string>();
    if (set.size < perDocument) set.add(key);
    passed.set(document, set);
  };
}
