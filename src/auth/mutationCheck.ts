/**
 * All or nothing for mutations: before the first mutation field of an
 * operation runs, every root field of that mutation is checked against the
 * rules. If any is refused, the first field fails and graphql-js stops the
 * serial execution there, so no field of the operation writes anything.
 * (Field by field alone, `mutation { a: join(own) b: join(someone
 * else's) }` would write `a` and then answer `data: null`.)
 *
 * Arguments are read from the operation's AST with the request's
 * variables, the way look-ahead reads them; an `ID` written as a number
 * literal is compared as the string GraphQL makes of it.
 */
import { Kind, valueFromASTUntyped, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Identity } from './identity.js';
import type { Rule, RuleLookup as Lookup } from './rules.js';
import { includedUnder } from '../declaration/annotations.js';

export interface Refusal {
  field: string;
  /** The field's response key (its alias, if any). */
  key: string;
  rule: Rule;
}

/** What the check reads of an operation: a resolver's info, or a parsed request before execution. */
export type OperationView = Pick<GraphQLResolveInfo, 'operation' | 'fragments' | 'variableValues'>;

function args(node: { arguments?: readonly import('graphql').ArgumentNode[] }, info: OperationView): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const arg of node.arguments ?? []) {
    const value = valueFromASTUntyped(arg.value, info.variableValues);
    values[arg.name.value] = typeof value === 'number' ? String(value) : value;
  }
  return values;
}

function firstRefusal(caller: Identity, set: SelectionSetNode, info: OperationView, seen: Set<string>, rules: Lookup): Refusal | null {
  for (const selection of set.selections) {
    if (!includedUnder(selection, info.variableValues)) continue;
    let found: Refusal | null = null;
    if (selection.kind === Kind.FIELD) {
      const field = selection.name.value;
      if (field.startsWith('__')) continue;
      const rule = rules.ruleFor('Mutation', field);
      if (rule?.allows && !rule.allows(caller, {}, args(selection, info))) found = { field, key: selection.alias?.value ?? field, rule };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      found = firstRefusal(caller, selection.selectionSet, info, seen, rules);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = info.fragments[selection.name.value];
      if (fragment) found = firstRefusal(caller, fragment.selectionSet, info, seen, rules);
    }
    if (found) return found;
  }
  return null;
}

const checked = new WeakMap<object, Refusal | null>();

/** The first root field of this mutation operation the caller may not run, or null; decided once per request. */
export function refusedMutation(caller: Identity, info: OperationView, request: object, rules: Lookup): Refusal | null {
  let refusal = checked.get(request);
  if (refusal === undefined) {
    refusal = caller.kind === 'caller' && caller.admin ? null : firstRefusal(caller, info.operation.selectionSet, info, new Set(), rules);
    checked.set(request, refusal);
  }
  return refusal;
}
