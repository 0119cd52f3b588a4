/**
 * Refuses variables the operation does not declare, and variable values
 * nested deeper than any input of the schema can be.
 *
 * graphql-js ignores undeclared variables, so without this a client could
 * attach any amount of data to a request that passes every check; and a
 * value nested thousands of levels deep makes the recursive walks over
 * variables (coercion, checks) fail with a stack overflow, an internal error
 * instead of the caller's. Both are BAD_USER_INPUT (HTTP 400), before any
 * DynamoDB request.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import { GraphQLError, type OperationDefinitionNode } from 'graphql';
import { ErrorCode } from '../../errors.js';

/** Deepest nesting of lists and input objects a variable value may have (the schema needs 2). */
export const MAX_VARIABLE_DEPTH = 10;

/** Is `value` nested deeper than `max` levels of arrays/objects? Iterative, so no depth overflows it. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  // Only objects and arrays are pushed (most variable values are scalars), with their depth beside them.
  const stack: object[] = [value];
  const depths: number[] = [0];
  while (stack.length) {
    const current = stack.pop()!;
    const depth = depths.pop()! + 1;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child === null || typeof child !== 'object') continue;
      if (depth >= max) return true;
      stack.push(child);
      depths.push(depth);
    }
  }
  return false;
}

const refuse = (message: string) => new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } } });

/** Throws BAD_USER_INPUT for undeclared or too deeply nested variables. */
export function checkVariables(declared: Iterable<string>, variables: Record<string, unknown> | undefined): void {
  if (!variables) return;
  const names = declared instanceof Set ? (declared as Set<string>) : new Set(declared);
  let undeclared: string[] | undefined;
  for (const name of Object.keys(variables)) if (!names.has(name)) (undeclared ??= []).push(name);
  if (undeclared) {
    // Names only up to a few characters: they are client text and go back into the response.
    const shown = undeclared
      .slice(0, 3)
      .map((n) => `$${n.slice(0, 40)}`)
      .join(', ');
    throw refuse(`Variables not declared by the operation: ${shown}${undeclared.length > 3 ? ', …' : ''}`);
  }
  if (nestedDeeperThan(variables, MAX_VARIABLE_DEPTH + 1)) {
    throw refuse(`Variable values may be nested at most ${MAX_VARIABLE_DEPTH} levels deep`);
  }
}

export function declaredVariablesPlugin(): GatewayPlugin {
  // The names an operation declares, kept with its node (Apollo's document store keeps the document).
  const declaredBy = new WeakMap<OperationDefinitionNode, Set<string>>();
  const hooks: RequestHooks = {
    didResolveOperation({ operation, request }) {
      if (!operation) return;
      let declared = declaredBy.get(operation);
      if (!declared) declaredBy.set(operation, (declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value))));
      checkVariables(declared, request.variables);
    },
  };
  return { requestDidStart: () => hooks };
}
