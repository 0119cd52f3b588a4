/**
 * Query limits: what an operation may ask for before any DynamoDB request.
 * Tokens: graphql-js's parser limit. Depth, aliases, directives:
 * graphql-armor's rules (field suggestions blanked in prod mode). Cost,
 * response fields and fan-out mutations: `operationWeight` below, since
 * armor's cost does not know that a connection's price is its page size
 * times what each item selects. Every refusal is GRAPHQL_VALIDATION_FAILED
 * and names the limit; what an estimate lets past is stopped by the hard
 * caps on DynamoDB requests (dynamo/metrics.ts).
 *
 * Cost is roughly the items an operation may read (docs/limits.md, "Cost"):
 * a connection costs max(1, size × its selection per item), size clamped to
 * 0‥100; an item field 1 plus its selection; wrappers their selection;
 * leaves 0; a mutation MUTATION_COST plus its selection; totalCount the
 * COUNT Queries it may send; `_entities` (a federated model) 1 plus its
 * selection per representation. Response fields: each leaf once per item
 * the pages above may hold (a filtered page 10×).
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayPlugin, RequestHooks } from './combine.js';
import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValidationContext,
  type ArgumentNode,
  type ValueNode,
} from 'graphql';
import { ErrorCode } from '../../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../connections/args.js';
import { DEFAULTS } from '../../config.js';
import { readAnnotations } from '../../declaration/annotations.js';
import { CATALOG_SHARDS } from '../../dynamo/keys.js';
import { responseSizePlugin } from './responseSize.js';
import { requestBudgetPlugin } from './requestBudget.js';
import { representationCount } from '../../federation/schema.js';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
  /** Leaf fields an operation may return at most (config `MAX_RESPONSE_FIELDS`; default 50000). */
  maxResponseFields?: number;
  /** UTF-8 bytes a response may hold (config `MAX_RESPONSE_BYTES`; default 1000000; plugins/responseSize.ts). */
  maxResponseBytes?: number;
  /** A query may send one DynamoDB request per this many bytes of its text (config `QUERY_BYTES_PER_DYNAMODB_REQUEST`; default 10; 0: off). */
  queryBytesPerRequest?: number;
}

type Variables = Record<string, unknown> | undefined;

const isWrapper = (type: GraphQLNamedType) => type.name === 'PageInfo' || type.name.endsWith('Connection') || type.name.endsWith('Edge');

function pageSize(args: readonly ArgumentNode[], variables: Variables): number {
  let size: number | undefined;
  for (const arg of args) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    const value = arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] : valueFromASTUntyped(arg.value);
    if (typeof value === 'number' && Number.isFinite(value)) size = Math.max(size ?? 0, value);
  }
  return Math.min(MAX_PAGE_SIZE, Math.max(0, Math.floor(size ?? DEFAULT_PAGE_SIZE)));
}

/** A page filtered by a @query(filter) argument may evaluate many items per match (up to its read budget): it counts 10×. */
export const FILTERED_PAGE_FACTOR = 10;

/** A connection field's narrowing arguments, as its @catalog, or its @query beside @children, declares them. */
interface Narrowing {
  /** @catalog: the GSI2 shards the list reads (one Query each), and its prefix argument. */
  catalogShards: number;
  prefix: string | null;
  /** @query's from and until (beside @children: the instant range). */
  range: readonly string[];
  /** @query's filter arguments. */
  where: readonly string[];
}

interface SchemaNarrowing {
  /** By `Type.field`. */
  fields: ReadonlyMap<string, Narrowing>;
  /** Every narrowing argument's name: what the weight may depend on besides first/last. */
  names: ReadonlySet<string>;
}

const narrowingCache = new WeakMap<GraphQLSchema, SchemaNarrowing>();

/** The narrowing arguments of every connection field of the schema, from its directives' records (once per schema). */
export function narrowingOf(schema: GraphQLSchema): SchemaNarrowing {
  const known = narrowingCache.get(schema);
  if (known) return known;
  const fields = new Map<string, Narrowing>();
  const names = new Set<string>();
  const notes = readAnnotations(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const c = notes.field(field).catalog;
      // A @query beside @children narrows the children (a range read through another index, filled pages).
      const q = notes.field(field).children ? notes.field(field).query : null;
      const r = q && q.from !== null && q.until !== null ? { after: q.from, before: q.until } : undefined;
      const whereArgs = q?.filter ?? [];
      if (!c && !r && whereArgs.length === 0) continue;
      const narrowing: Narrowing = {
        catalogShards: c ? CATALOG_SHARDS : 0,
        prefix: c?.prefixArgument ?? null,
        range: r ? [r.after, r.before] : [],
        where: whereArgs,
      };
      fields.set(`${type.name}.${field.name}`, narrowing);
      for (const name of [narrowing.prefix, ...narrowing.range, ...narrowing.where]) if (name) names.add(name);
    }
  }
  const out = { fields, names };
  narrowingCache.set(schema, out);
  return out;
}

/** Is argument `name` given a non-null value (a literal, or a variable sent non-null)? */
function given(args: readonly ArgumentNode[], variables: Variables, name: string): boolean {
  const arg = args.find((a) => a.name.value === name);
  if (!arg) return false;
  return (arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] : valueFromASTUntyped(arg.value)) != null;
}

function filterFactor(narrowing: Narrowing | undefined, args: readonly ArgumentNode[], variables: Variables): number {
  return narrowing?.where.some((name) => given(args, variables, name)) ? FILTERED_PAGE_FACTOR : 1;
}

/** A catalog list reads every shard of its GSI2 catalog: one Query each. */
const shardSurcharge = (narrowing: Narrowing | undefined): number => narrowing?.catalogShards ?? 0;

/**
 * The `Select: COUNT` Queries `totalCount` may send: a prefix search counts
 * on every GSI2 shard (one Query each); a list narrowed by the arguments of
 * its @query beside @children counts its range (1). Any other connection reads a
 * counter: from the item in hand, or one BatchGetItem of a catalog's
 * counters; on a table written without counters, one `Select: COUNT`
 * Query, which the connection's least cost of 1 covers.
 */
function totalCountCost(narrowing: Narrowing | undefined, args: readonly ArgumentNode[], variables: Variables): number {
  if (!narrowing) return 0;
  if (narrowing.prefix !== null && given(args, variables, narrowing.prefix)) return narrowing.catalogShards;
  return [...narrowing.range, ...narrowing.where].some((name) => given(args, variables, name)) ? 1 : 0;
}

/** Whether a connection's selection asks for totalCount (directly, or in a fragment on it). */
function selectsTotalCount(set: SelectionSetNode, getFragment: (name: string) => FragmentDefinitionNode | undefined | null, seen = new Set<string>()): boolean {
  return set.selections.some((s) => {
    if (s.kind === Kind.FIELD) return s.name.value === 'totalCount';
    if (s.kind === Kind.INLINE_FRAGMENT) return selectsTotalCount(s.selectionSet, getFragment, seen);
    if (seen.has(s.name.value)) return false;
    seen.add(s.name.value);
    const fragment = getFragment(s.name.value);
    return fragment ? selectsTotalCount(fragment.selectionSet, getFragment, seen) : false;
  });
}

/** What an operation may cost, counted before execution (see the module comment). */
export interface OperationWeight {
  /** Roughly the items (and so DynamoDB reads) it may touch; mutation fields add MUTATION_COST each. */
  cost: number;
  /** Leaf fields it may return at most (each page assumed full). */
  fields: number;
  /** Mutation fields whose work grows with the data (rename or cascade fan-outs). */
  fanOutMutations: number;
}

/** A mutation field's own price: a write and the reads it conditions on, a few requests each. */
export const MUTATION_COST = 10;
/**
 * Mutations whose DynamoDB work grows with the item's edges, as the model
 * declares them: an @update of a type with @edges (its copies are fanned
 * out), a @delete of a type with @edges or @children (it cascades);
 * updates first, then deletes, in declaration order.
 */
export function fanOutMutations(schema: GraphQLSchema): readonly string[] {
  const known = fanOutCache.get(schema);
  if (known) return known;
  const mutation = schema.getMutationType();
  const fields = mutation ? Object.values(mutation.getFields()) : [];
  const notes = readAnnotations(schema);
  const connectionsOf = (typeName: string, kinds: readonly ('edges' | 'children')[]) => {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) return false;
    return Object.values(type.getFields()).some((f) => kinds.some((k) => notes.field(f)[k] !== null));
  };
  const typeArgument = (f: (typeof fields)[number]) => notes.field(f).delete?.type ?? getNamedType(f.type).name;
  const updates = fields.filter((f) => notes.field(f).update && connectionsOf(getNamedType(f.type).name, ['edges']));
  const deletes = fields.filter((f) => notes.field(f).delete && connectionsOf(typeArgument(f), ['edges', 'children']));
  const names = [...updates, ...deletes].map((f) => f.name);
  fanOutCache.set(schema, names);
  return names;
}
const fanOutCache = new WeakMap<GraphQLSchema, readonly string[]>();
/** How many fan-out mutations one operation may hold. */
export const MAX_FAN_OUT_MUTATIONS = 1;

/**
 * The cost, response fields and fan-out mutations of one operation (see
 * the module comment). `variables` resolves `first: $n`; a variable not
 * given counts as absent (the default page size).
 */
export function operationWeight(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  getFragment: (name: string) => FragmentDefinitionNode | undefined | null,
  variables: Variables,
): OperationWeight {
  // Variables not sent take their declared default, as execution will.
  const values: Record<string, unknown> = { ...variables };
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (values[name] === undefined && def.defaultValue) values[name] = valueFromASTUntyped(def.defaultValue);
  }
  // A fragment weighs the same wherever it is spread: memoised, so fragment "bombs" stay linear to compute.
  const fragmentWeight = new Map<string, [number, number]>();
  const isMutation = operation.operation === 'mutation';
  const fanOut = isMutation ? new Set(fanOutMutations(schema)) : new Set<string>();
  const narrowed = narrowingOf(schema).fields;
  let fanOutCount = 0;

  // [cost, leaf fields] of a selection set on `type`.
  const selectionWeight = (set: SelectionSetNode, type: GraphQLNamedType, root: boolean): [number, number] => {
    let total = 0;
    let fields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isObjectType(type) && !isInterfaceType(type)) continue;
        const field = type.getFields()[selection.name.value];
        if (!field) {
          fields += 1; // __typename (introspection and unknown fields are refused elsewhere)
          continue;
        }
        const named = getNamedType(field.type) as GraphQLNamedType;
        const mutationField = root && isMutation;
        if (mutationField) {
          total += MUTATION_COST;
          if (fanOut.has(field.name)) fanOutCount += 1;
        }
        if (!isCompositeType(named)) {
          fields += 1;
          continue;
        }
        const [inner, innerFields] = selection.selectionSet ? selectionWeight(selection.selectionSet, named, false) : [0, 0];
        // _entities (a federated model): each representation is an entity read, as an item field is.
        const representations = root ? representationCount(field.name, selection.arguments ?? [], values) : null;
        if (representations !== null) {
          total += Math.max(1, representations) * (1 + inner);
          fields += representations * innerFields;
          continue;
        }
        const isConnection = field.args.some((a) => a.name === 'first' || a.name === 'last') && isObjectType(named) && 'edges' in named.getFields();
        if (isConnection) {
          // Even a page of 0 costs a Query: every connection costs at least 1.
          const size = pageSize(selection.arguments ?? [], values);
          const args = selection.arguments ?? [];
          const narrowing = narrowed.get(`${type.name}.${field.name}`);
          total += Math.max(1, size * Math.max(1, inner)) * filterFactor(narrowing, args, values) + shardSurcharge(narrowing);
          if (selection.selectionSet && selectsTotalCount(selection.selectionSet, getFragment)) total += totalCountCost(narrowing, args, values);
          fields += Math.max(1, size) * innerFields;
        } else if (isWrapper(named) || mutationField) {
          total += inner;
          fields += innerFields;
        } else {
          total += 1 + inner;
          fields += innerFields;
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (on) {
          const [c, f] = selectionWeight(selection.selectionSet, on, root);
          total += c;
          fields += f;
        }
      } else {
        const name = selection.name.value;
        if (!fragmentWeight.has(name)) {
          fragmentWeight.set(name, [0, 0]); // a cycle (refused by NoFragmentCycles) counts 0 here
          const fragment = getFragment(name);
          const on = fragment && schema.getType(fragment.typeCondition.name.value);
          fragmentWeight.set(name, fragment && on ? selectionWeight(fragment.selectionSet, on, root) : [0, 0]);
        }
        const [c, f] = fragmentWeight.get(name)!;
        total += c;
        fields += f;
      }
    }
    return [total, fields];
  };

  const rootType = schema.getRootType(operation.operation);
  const [cost, fields] = rootType ? selectionWeight(operation.selectionSet, rootType, true) : [0, 0];
  return { cost, fields, fanOutMutations: fanOutCount };
}

/** The cost alone (see operationWeight). */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  getFragment: (name: string) => FragmentDefinitionNode | undefined | null,
  variables: Variables,
): number {
  return operationWeight(schema, operation, getFragment, variables).cost;
}

const costMessage = (max: number, cost: number) =>
  `Query cost limit of ${max} exceeded, found ${cost}. A connection costs first/last (default ${DEFAULT_PAGE_SIZE}) times what each item selects; ask for smaller pages or fewer nested connections.`;

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED, http: { status: 400 } } });

/**
 * The names of the variables an operation's weight depends on: those given
 * to `first`, `last`, `representations` or a narrowing argument of the model
 * (a prefix, a @query argument beside @children) anywhere in the document
 * (operationWeight reads no other argument). Empty: the weight is the same for every request.
 */
function weightVariables(schema: GraphQLSchema, document: DocumentNode): Set<string> {
  const narrowing = narrowingOf(schema).names;
  const names = new Set<string>();
  const collect = (value: ValueNode): void => {
    if (value.kind === Kind.VARIABLE) names.add(value.name.value);
    else if (value.kind === Kind.LIST) value.values.forEach(collect);
    else if (value.kind === Kind.OBJECT) value.fields.forEach((f) => collect(f.value));
  };
  visit(document, {
    Argument(node) {
      const name = node.name.value;
      if (name === 'first' || name === 'last' || name === 'representations' || narrowing.has(name)) collect(node.value);
    },
  });
  return names;
}

/**
 * The cost, response-field and fan-out limits as Apollo plugin: it runs once
 * the operation is resolved, when the request's variables are known, and
 * still before execution. An operation whose weight does not depend on its
 * variables is weighed once (kept with the operation's node for as long as
 * Apollo's document store keeps the document); the others on every request.
 */
function costPlugin(limits: QueryLimits): GatewayPlugin {
  const fixedWeights = new WeakMap<OperationDefinitionNode, OperationWeight | null>();
  const weigh = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return operationWeight(schema, operation, (n) => fragments.get(n), variables);
  };
  const hooks: RequestHooks = {
    didResolveOperation({ schema, document, operation, request, contextValue }) {
      if (!operation) return;
      let weight = fixedWeights.get(operation);
      if (weight === undefined) {
        // null: depends on variables, weighed per request.
        weight = weightVariables(schema, document).size === 0 ? weigh(schema, document, operation, undefined) : null;
        fixedWeights.set(operation, weight);
      }
      weight ??= weigh(schema, document, operation, request.variables);
      // Kept for the operation's span (plugins/telemetry.ts).
      (contextValue as { cost?: number }).cost = weight.cost;
      if (weight.cost > limits.maxCost) throw refusal(costMessage(limits.maxCost, weight.cost));
      if (weight.fields > (limits.maxResponseFields ?? DEFAULT_LIMITS.maxResponseFields!)) {
        throw refusal(
          `Response size limit of ${limits.maxResponseFields ?? DEFAULT_LIMITS.maxResponseFields} fields exceeded, found up to ${weight.fields}. Every leaf field counts once per item a page may hold; select fewer fields or ask for smaller pages.`,
        );
      }
      if (weight.fanOutMutations > MAX_FAN_OUT_MUTATIONS) {
        throw refusal(
          `At most ${MAX_FAN_OUT_MUTATIONS} of ${fanOutMutations(schema).join(', ')} per operation (each may write every edge of its entity); send them as separate requests.`,
        );
      }
    },
  };
  return { requestDidStart: () => hooks };
}

/**
 * armor's rules report through this instead of throwing (a throw inside
 * validation would be a 500) and without their "Syntax Error:" prefix:
 * these are validation failures (GRAPHQL_VALIDATION_FAILED, HTTP 400).
 */
const report = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')))],
};

/** What armor's field-suggestion plugin puts in place of graphql-js's "Did you mean …?". */
export const SUGGESTION_MASK = '[Suggestion hidden]';

/** Prod mode: no field names guessed for the caller in error messages. */
const hiddenSuggestions: GatewayPlugin = {
  requestDidStart: () => suggestionHooks,
};
const suggestionHooks: RequestHooks = {
  didEncounterErrors({ errors }) {
    for (const error of errors) {
      if (error.message.includes('Did you mean')) error.message = error.message.replace(/Did you mean ".+"\?/g, SUGGESTION_MASK).trim();
    }
  },
};

/** What createServer needs to enforce the limits: parse options, validation rules, armor's plugins and the gateway's own. */
export function queryLimits(limits: QueryLimits, { prod }: { prod: boolean }) {
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ...report },
    // armor leaves aliases of `__typename` out by default; they cost the response and the executor like any other.
    maxAliases: { n: limits.maxAliases, allowList: [], ...report },
    maxDirectives: { n: 50, ...report },
    // Ours below, pagination-aware; graphql-js's parser option for tokens.
    costLimit: { enabled: false },
    maxTokens: { enabled: false },
    // Its plugin's work, done by hiddenSuggestions above without one more Apollo plugin per request.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: armor.validationRules,
    // armor's typings name Apollo's CommonJS build; the plugin objects are the same shape.
    plugins: armor.plugins as unknown as ApolloServerPlugin[],
    // The gateway's own, run by plugins/combine.ts.
    gatewayPlugins: [
      ...(prod ? [hiddenSuggestions] : []),
      costPlugin(limits),
      responseSizePlugin(limits.maxResponseBytes ?? DEFAULT_LIMITS.maxResponseBytes!),
      requestBudgetPlugin(limits.queryBytesPerRequest ?? DEFAULT_LIMITS.queryBytesPerRequest!),
    ],
  };
}

/** The configuration's defaults, for tools and tests that build a server without configuration. */
const { maxDepth, maxAliases, maxTokens, maxCost } = DEFAULTS.security;
export const DEFAULT_LIMITS: QueryLimits = {
  maxDepth,
  maxAliases,
  maxTokens,
  maxCost,
  maxResponseFields: DEFAULTS.operationLimits.maxResponseFields,
  maxResponseBytes: DEFAULTS.operationLimits.maxResponseBytes,
  queryBytesPerRequest: DEFAULTS.operationLimits.queryBytesPerRequest,
};
