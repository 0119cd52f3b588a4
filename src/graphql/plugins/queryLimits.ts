/**
 * Query limits: what an operation may ask for before any DynamoDB request.
 *
 * - tokens: graphql-js's own parser limit (`parseOptions.maxTokens`), so an
 *   oversized document is refused before it is even parsed in full.
 * - depth, aliases, directives: graphql-armor's validation rules; field
 *   suggestions ("Did you mean …") are blanked by its plugin in production.
 * - cost: `connectionCost` below, because armor's cost limit does not know
 *   that a connection's price is its page size times what each item selects.
 *
 * Every refusal is GRAPHQL_VALIDATION_FAILED (HTTP 400) and names the limit.
 *
 * Terminology (cost)
 * - connection field: a field with `first`/`last` arguments whose type has
 *   `edges`. It costs `size × max(1, cost of its selection per item)`, where
 *   size is `first` or `last` (variables resolved; 20 when absent; clamped
 *   to 0‥100 as connections/args.ts refuses anything else anyway).
 * - wrapper object (…Connection, …Edge, PageInfo): costs its selection only.
 * - any other object field (an entity: `student(id:)`, `node`, `customer`):
 *   1 plus its selection.
 * - leaves cost 0. Fragments count wherever they are spread.
 * So the cost is roughly the number of items an operation may read:
 * e.g. `student { courses(first: 10) { edges { node { students(first: 10) { … node { name } } } } } }`
 * costs 1 + 10 × (1 + 10 × 1) = 111.
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValidationContext,
  type ArgumentNode,
} from 'graphql';
import { ErrorCode } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../connections/args.js';
import { DEFAULTS } from '../../config.js';
import { checkMemo } from '../checkMemo.js';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
}

type Variables = Record<string, unknown> | undefined;

const isWrapper = (type: GraphQLNamedType) =>
  type.name === 'PageInfo' || type.name.endsWith('Connection') || type.name.endsWith('Edge');

function pageSize(args: readonly ArgumentNode[], variables: Variables): number {
  let size: number | undefined;
  for (const arg of args) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    const value = arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] : valueFromASTUntyped(arg.value);
    if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value);
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(0, Math.floor(size ?? DEFAULT_PAGE_SIZE)));
}

/**
 * The cost of one operation (see the module comment). `variables` resolves
 * `first: $n`; a variable not given counts as absent (the default page size).
 */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  getFragment: (name: string) => FragmentDefinitionNode | undefined | null,
  variables: Variables,
): number {
  // Variables not sent take their declared default, as execution will.
  const values: Record<string, unknown> = { ...variables };
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (values[name] === undefined && def.defaultValue) values[name] = valueFromASTUntyped(def.defaultValue);
  }
  // A fragment costs the same wherever it is spread: memoised, so fragment "bombs" stay linear to compute.
  const fragmentCost = new Map<string, number>();

  const selectionCost = (set: SelectionSetNode, type: GraphQLNamedType): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isObjectType(type) && !isInterfaceType(type)) continue;
        const field = type.getFields()[selection.name.value];
        if (!field) continue; // __typename, introspection, or unknown (reported by other rules)
        const named = getNamedType(field.type) as GraphQLNamedType;
        if (!isCompositeType(named)) continue;
        const inner = selection.selectionSet ? selectionCost(selection.selectionSet, named) : 0;
        const isConnection =
          field.args.some((a) => a.name === 'first' || a.name === 'last') &&
          isObjectType(named) &&
          'edges' in named.getFields();
        if (isConnection) total += pageSize(selection.arguments ?? [], values) * Math.max(1, inner);
        else if (isWrapper(named)) total += inner;
        else total += 1 + inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (on) total += selectionCost(selection.selectionSet, on);
      } else {
        const name = selection.name.value;
        if (!fragmentCost.has(name)) {
          fragmentCost.set(name, 0); // a cycle (refused by NoFragmentCycles) counts 0 here
          const fragment = getFragment(name);
          const on = fragment && schema.getType(fragment.typeCondition.name.value);
          fragmentCost.set(name, fragment && on ? selectionCost(fragment.selectionSet, on) : 0);
        }
        total += fragmentCost.get(name)!;
      }
    }
    return total;
  };

  const root = schema.getRootType(operation.operation);
  return root ? selectionCost(operation.selectionSet, root) : 0;
}

const costMessage = (max: number, cost: number) =>
  `Query cost limit of ${max} exceeded, found ${cost}. A connection costs first/last (default ${DEFAULT_PAGE_SIZE}) times what each item selects; ask for smaller pages or fewer nested connections.`;

/**
 * The cost limit as Apollo plugin: it runs once the operation is resolved,
 * when the request's variables are known, and still before execution.
 */
function costPlugin(maxCost: number): ApolloServerPlugin {
  const passed = checkMemo();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          passed(document, request.operationName, request.variables, () => {
            const fragments = new Map<string, FragmentDefinitionNode>();
            for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
            const cost = operationCost(schema, operation, (n) => fragments.get(n), request.variables);
            if (cost > maxCost) {
              throw new GraphQLError(costMessage(maxCost, cost), {
                extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED, http: { status: 400 } },
              });
            }
          });
        },
      };
    },
  };
}

/**
 * armor's rules report through this instead of throwing (a throw inside
 * validation would be a 500) and without their "Syntax Error:" prefix:
 * these are validation failures (GRAPHQL_VALIDATION_FAILED, HTTP 400).
 */
const report = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''))),
  ],
};

/** What createServer needs to enforce the limits: parse options, validation rules, plugins. */
export function queryLimits(limits: QueryLimits, { production }: { production: boolean }) {
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ...report },
    maxAliases: { n: limits.maxAliases, ...report },
    maxDirectives: { n: 50, ...report },
    // Ours below, pagination-aware; graphql-js's parser option for tokens.
    costLimit: { enabled: false },
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: production },
  }).protect();
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: armor.validationRules,
    // armor's typings name Apollo's CommonJS build; the plugin objects are the same shape.
    plugins: [...(armor.plugins as unknown as ApolloServerPlugin[]), costPlugin(limits.maxCost)],
  };
}

/** The configuration's defaults, for tools and tests that build a server without configuration. */
const { maxDepth, maxAliases, maxTokens, maxCost } = DEFAULTS.security;
export const DEFAULT_LIMITS: QueryLimits = { maxDepth, maxAliases, maxTokens, maxCost };
