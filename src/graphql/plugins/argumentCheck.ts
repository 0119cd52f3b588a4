/**
 * Refuses bad arguments before execution, so a bad request costs no
 * DynamoDB request: ids, page sizes, search prefixes, date ranges, and
 * cursors that do not decode or were issued by another field, for another
 * parent given as an argument above, or under other values of the
 * arguments they are bound to. Resolvers check the same again
 * (connections/args.ts, cursor.ts): this pass only moves the refusal earlier.
 *
 * Runs in `didResolveOperation`. The fields of a document are found with
 * their definitions once per document (kept while the document lives); per
 * request only fields whose arguments come from variables are checked
 * again, so a repeated operation costs a few comparisons per variable.
 */
import type { GatewayPlugin, RequestHooks } from './combine.js';
import {
  getArgumentValues,
  GraphQLError,
  isEnumType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import type { Context } from '../context.js';
import { cursorRefusal, readCursor, type CursorReader } from '../../connections/cursor.js';
import { validateConnectionArgs, validateId } from '../../connections/args.js';
import type { Plan } from '../../plan/plan.js';
import { compileBindings, type CursorBinding } from '../../plan/bindings.js';
import { readGlobalId } from '../../plan/globalId.js';
import { partitionLabel } from '../../dynamo/collection.js';
import { numberValue } from '../../writes/input.js';
import type { Attribute } from '../../declaration/model.js';

/** What the checks need of the model: which connections bind cursors to arguments, and each connection's partition. */
export interface ModelRules {
  binding: (connection: string) => CursorBinding;
  partition: (connection: string, parentId: string, args: Record<string, unknown>) => string | undefined;
  /** `Query.<node field>`, whose id is a global id (plan/globalId.ts), and its check; null without a @get(by: NODE) field. */
  node: { path: string; check: (value: string) => void } | null;
  /** `Mutation.<field>` → the check of the numbers it sets, for mutations that set any. */
  numbers: ReadonlyMap<string, (args: Record<string, unknown>) => void>;
  /**
   * `Parent.field` → its ID arguments that hold ids of a type with a
   * derived id, and their check (a derived id may be longer than 128
   * characters: plan/derivedId.ts); every other ID argument is checked by
   * the id rules.
   */
  ids: ReadonlyMap<string, ReadonlyMap<string, (value: unknown, argumentName: string) => unknown>>;
}

/** The checks' rules of the model a plan serves, made once and kept with the plan. */
export const argumentRules = (plan: Plan): ModelRules => plan.view(modelRules);

function modelRules(plan: Plan): ModelRules {
  const node = plan.node;
  const nodeItems = new Map([...plan.items].filter(([, item]) => item.type.globalId !== null));
  return {
    binding: compileBindings(plan),
    partition: (connection, parentId, args) => {
      const relation = plan.relations.get(connection);
      // A partition its arguments name (or whose sort attributes they fix) is the one read with them.
      const collection = relation && (relation.sorted?.(parentId, args) ?? relation.collection(parentId));
      // A cursor names the whole partition: each attribute of a multi-attribute key.
      return collection && partitionLabel(collection.pk, collection.pkMore);
    },
    node: node && { path: `Query.${node.field}`, check: (value) => void readGlobalId(nodeItems, value, 'id', node.idField) },
    numbers: numberChecks(plan),
    ids: derivedIdArguments(plan),
  };
}

/**
 * The ID arguments that name an item of a type with a derived id: the id
 * of @get, @update and @delete, a child's parent argument, an edge end.
 */
function derivedIdArguments(plan: Plan): Map<string, Map<string, (value: unknown, argumentName: string) => unknown>> {
  const found = new Map<string, Map<string, (value: unknown, argumentName: string) => unknown>>();
  const add = (path: string, argument: string | null | undefined, type: string | undefined) => {
    const item = type === undefined ? undefined : plan.items.get(type);
    if (!argument || !item?.derived) return;
    if (!found.has(path)) found.set(path, new Map());
    found.get(path)!.set(argument, (value, name) => item.checkId(value, name));
  };
  const query = plan.model.schema.getQueryType()?.name ?? 'Query';
  const mutation = plan.model.schema.getMutationType()?.name ?? 'Mutation';
  for (const get of plan.gets) {
    add(`${query}.${get.field}`, get.arguments.id, get.type);
    const parent = plan.items.get(get.type)?.type.parent;
    if (parent) add(`${query}.${get.field}`, get.arguments[parent.field], parent.type);
  }
  for (const m of plan.mutations) {
    if (m.kind === 'create' || m.kind === 'update' || m.kind === 'delete') {
      if (m.kind !== 'create') add(`${mutation}.${m.field}`, 'id', m.type);
      add(`${mutation}.${m.field}`, m.parentArgument, plan.items.get(m.type)?.type.parent?.type);
    } else {
      const r = plan.relations.get(m.edges);
      add(`${mutation}.${m.field}`, m.from, r?.owner.name);
      add(`${mutation}.${m.field}`, m.to, r?.node.name);
    }
  }
  return found;
}

/**
 * The numbers each mutation sets (Int and Float fields of its input, or
 * the edge fields its @addEdge arguments set), checked as the write checks
 * them (writes/input.ts): a value the model's bounds or DynamoDB refuse
 * then costs no request and is answered as a client error.
 */
function numberChecks(plan: Plan): Map<string, (args: Record<string, unknown>) => void> {
  const checks = new Map<string, (args: Record<string, unknown>) => void>();
  const root = plan.model.schema.getMutationType()?.name ?? 'Mutation';
  const numeric = (attributes: readonly Attribute[]) => attributes.filter((a) => a.kind === 'Int' || a.kind === 'Float');
  for (const m of plan.mutations) {
    if (m.kind === 'create' || m.kind === 'update') {
      const numbers = numeric(plan.item(m.type).type.attributes);
      if (numbers.length === 0) continue;
      checks.set(`${root}.${m.field}`, (args) => {
        const input = args.input as Record<string, unknown> | undefined;
        for (const a of numbers) if (typeof input?.[a.name] === 'number') numberValue(a, input[a.name], `input.${a.name}`);
      });
    } else if (m.kind === 'link') {
      const relation = plan.relations.get(m.edges)?.relation;
      const numbers = relation?.kind === 'edges' ? numeric(relation.edgeAttributes) : [];
      if (numbers.length === 0) continue;
      checks.set(`${root}.${m.field}`, (args) => {
        for (const a of numbers) if (typeof args[a.name] === 'number') numberValue(a, args[a.name], a.name);
      });
    }
  }
  return checks;
}

/** The names of a field's arguments of type ID (ids of items: checked by validateId). */
function idArgumentsOf(field: GraphQLField<unknown, unknown>): string[] {
  return field.args.filter((a) => String(a.type).replace(/!$/, '') === 'ID').map((a) => a.name);
}

/**
 * One field of the document that takes arguments, in the order the walk
 * meets it (an enclosing field before the fields inside it).
 */
interface FieldStep {
  field: GraphQLField<unknown, unknown>;
  node: FieldNode;
  /** `Parent.field`, e.g. `Team.players`: what cursors are bound to. */
  connection: string;
  /** Its arguments of type ID (item ids, checked by validateId). */
  ids: string[];
  /** Index of the enclosing field's step; -1 when the enclosing field takes no arguments (or there is none). */
  parent: number;
  /** Its arguments when no variable is among them: the same for every request. */
  fixed: Record<string, unknown> | null;
  /** Otherwise its arguments from a request's variables (null: graphql-js's getArgumentValues). */
  read: ArgumentReader | null;
}

type ArgumentReader = (variables: Record<string, unknown>) => Record<string, unknown>;

/**
 * getArgumentValues for a field whose arguments are literals or bare
 * variables (`team(id: $id)`), with the lookups done once: the same
 * values, defaults and failures (a failure is `{}`, as fieldArguments
 * makes it). Null when an argument nests a variable inside a list or
 * object: those go through graphql-js.
 */
export function argumentReader(field: GraphQLField<unknown, unknown>, node: FieldNode): ArgumentReader | null {
  const given = new Map((node.arguments ?? []).map((arg) => [arg.name.value, arg.value]));
  const fixed: [string, unknown][] = [];
  const fromVariables: { name: string; variable: string; nonNull: boolean; defaultValue: unknown; coerce: ((v: unknown) => unknown) | null }[] = [];
  let fails = false;
  for (const arg of field.args) {
    const value = given.get(arg.name);
    const nonNull = isNonNullType(arg.type);
    if (value?.kind === Kind.VARIABLE) {
      fromVariables.push({ name: arg.name, variable: value.name.value, nonNull, defaultValue: arg.defaultValue, coerce: storedEnumOf(arg.type) });
    } else if (value && usesVariables(value)) {
      return null;
    } else if (!value) {
      if (arg.defaultValue !== undefined) fixed.push([arg.name, arg.defaultValue]);
      else if (nonNull) fails = true;
    } else {
      const coerced = value.kind === Kind.NULL && nonNull ? undefined : valueFromAST(value, arg.type);
      if (coerced === undefined) fails = true;
      else fixed.push([arg.name, coerced]);
    }
  }
  if (fails) return () => ({});
  return (variables) => {
    const args: Record<string, unknown> = {};
    for (const [name, value] of fixed) args[name] = value;
    for (const { name, variable, nonNull, defaultValue, coerce } of fromVariables) {
      if (!Object.prototype.hasOwnProperty.call(variables, variable)) {
        if (defaultValue !== undefined) args[name] = defaultValue;
        else if (nonNull) return {};
        continue;
      }
      const value = variables[variable];
      if (value === undefined || (value === null && nonNull)) return {};
      args[name] = coerce === null || value === null ? value : coerce(value);
    }
    return args;
  };
}

/**
 * What the walk over a document finds, kept per document: the fields to
 * check on every request (`checked`), and every step, whose arguments the
 * checked ones may need as their enclosing field's.
 */
interface DocumentPlan {
  steps: FieldStep[];
  /** Indexes of the steps checked per request: those whose outcome may change with the variables. */
  checked: number[];
}

/**
 * The walk of checkArguments, once per document: every field that takes
 * arguments, with its definition. A field without arguments passes every
 * check (nothing to refuse), so it is not a step.
 */
function planDocument(schema: GraphQLSchema, document: DocumentNode): FieldStep[] {
  const typeInfo = new TypeInfo(schema);
  const steps: FieldStep[] = [];
  // Step index of each field enclosing the current one (innermost last); -1 for fields without arguments.
  const enclosing: number[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const field = typeInfo.getFieldDef();
          if (!field || field.args.length === 0) {
            enclosing.push(-1);
            return;
          }
          const parent = enclosing.length ? enclosing[enclosing.length - 1]! : -1;
          enclosing.push(steps.length);
          steps.push({
            field,
            node,
            connection: `${typeInfo.getParentType()!.name}.${field.name}`,
            ids: idArgumentsOf(field),
            parent,
            ...((node.arguments ?? []).some((arg) => usesVariables(arg.value))
              ? { fixed: null, read: argumentReader(field, node) }
              : { fixed: fieldArguments(field, node, undefined), read: null }),
          });
        },
        leave() {
          enclosing.pop();
        },
      },
    }),
  );
  return steps;
}

/**
 * For an argument of an enum whose values are stored as other text: the
 * variable's value (a value's name) → its stored text, as execution
 * coerces it, so what cursors are bound to is the same here as in the
 * resolver. Null for any other argument (taken as it is).
 */
function storedEnumOf(type: GraphQLInputType): ((value: unknown) => unknown) | null {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const element = storedEnumOf(inner.ofType);
    return element && ((value) => (Array.isArray(value) ? value.map((v) => (v === null ? v : element(v))) : element(value)));
  }
  if (!isEnumType(inner) || inner.getValues().every((v) => v.value === v.name)) return null;
  return (value) => {
    try {
      return inner.parseValue(value);
    } catch {
      return value; // execution reports the bad value itself
    }
  };
}

function usesVariables(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(usesVariables);
    case Kind.OBJECT:
      return value.fields.some((f) => usesVariables(f.value));
    default:
      return false;
  }
}

function fieldArguments(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown> | undefined) {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {}; // execution reports coercion errors itself
  }
}

/** Refuses one field's arguments (BAD_USER_INPUT); `parentArgs` are those of the field enclosing it. */
function checkField(step: FieldStep, args: Record<string, unknown>, parentArgs: Record<string, unknown> | undefined, cursors: CursorReader, rules: ModelRules) {
  if (rules.node !== null && step.connection === rules.node.path) {
    if (typeof args.id === 'string') rules.node.check(args.id);
  } else {
    const derived = rules.ids.get(step.connection);
    for (const name of step.ids) {
      if (typeof args[name] !== 'string') continue;
      const check = derived?.get(name);
      if (check) check(args[name], name);
      else validateId(args[name] as string, name);
    }
  }
  const input = args.input as { id?: unknown } | undefined;
  if (input && typeof input.id === 'string') validateId(input.id, 'input.id');
  const { connection } = step;
  rules.numbers.get(connection)?.(args);
  // Prefixes, date ranges, status: refused here when bad; the form cursors are bound to otherwise.
  const binding = rules.binding(connection)(args);
  if ('first' in args || 'last' in args || 'after' in args || 'before' in args) {
    const page = validateConnectionArgs(args);
    const parentId = typeof parentArgs?.id === 'string' ? parentArgs.id : null;
    const partition = parentId !== null ? rules.partition(connection, parentId, args) : undefined;
    for (const [name, cursor] of [['after', page.after], ['before', page.before]] as const) {
      if (cursor === null) continue;
      const payload = readCursor(cursors, connection, cursor, name);
      if (partition !== undefined && payload.p !== partition) throw cursorRefusal(connection, name, 'it was issued by another connection');
      if ((payload[binding.field] ?? '') !== binding.value) throw cursorRefusal(connection, name, 'it was issued for other arguments');
    }
  }
}

/**
 * The plan of a document: its steps, and which of them need checking per
 * request. A step whose arguments are fixed, inside a field whose arguments
 * are fixed too (or none), has the same outcome for every request: checked
 * once here, and per request only if it was refused (so it is refused, with
 * the same error, every time). The cursor codec is fixed for the server's
 * life (one plan cache per server), so a pass stays a pass.
 */
function documentPlan(schema: GraphQLSchema, document: DocumentNode, cursors: CursorReader, rules: ModelRules): DocumentPlan {
  const steps = planDocument(schema, document);
  const checked: number[] = [];
  const fixedParentArgs = (step: FieldStep) => (step.parent < 0 ? {} : steps[step.parent]!.fixed);
  steps.forEach((step, i) => {
    const parentArgs = fixedParentArgs(step);
    if (step.fixed && parentArgs) {
      try {
        checkField(step, step.fixed, step.parent < 0 ? undefined : parentArgs, cursors, rules);
        return;
      } catch {
        // refused every time: checked per request, in document order with the others
      }
    }
    checked.push(i);
  });
  return { steps, checked };
}

/**
 * Throws the first refusal (BAD_USER_INPUT) among the document's fields, in
 * document order. `plans` keeps each document's plan for as long as the
 * document lives (Apollo's document store bounds how many do).
 */
export function checkArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  cursors: CursorReader,
  rules: ModelRules,
  plans: WeakMap<DocumentNode, DocumentPlan> = new WeakMap(),
): void {
  let plan = plans.get(document);
  if (!plan) plans.set(document, (plan = documentPlan(schema, document, cursors, rules)));
  if (plan.checked.length === 0) return;
  const { steps } = plan;
  // Arguments of the steps met so far this request (the fixed ones need no slot).
  const argsOf: (Record<string, unknown> | undefined)[] = [];
  const argumentsOf = (i: number): Record<string, unknown> => {
    const step = steps[i]!;
    return step.fixed ?? (argsOf[i] ??= step.read ? step.read(variables) : fieldArguments(step.field, step.node, variables));
  };
  for (const i of plan.checked) {
    const step = steps[i]!;
    checkField(step, argumentsOf(i), step.parent < 0 ? undefined : argumentsOf(step.parent), cursors, rules);
  }
}

/** One per server: what passed is remembered for that server's documents and cursor keys only. */
export function argumentCheckPlugin(plan: Plan): GatewayPlugin {
  const plans = new WeakMap<DocumentNode, DocumentPlan>();
  const rules = argumentRules(plan);
  const hooks: RequestHooks = {
    didResolveOperation({ document, schema, request, contextValue, operation }) {
      if (!operation) return;
      try {
        checkArguments(schema, document, request.variables ?? {}, contextValue.cursors, rules, plans);
      } catch (err) {
        // A refused request, like a validation failure: HTTP 400 (Apollo would answer 500
        // for an error thrown from a plugin hook), the GraphQL error itself unchanged.
        if (err instanceof GraphQLError) {
          throw new GraphQLError(err.message, { extensions: { ...err.extensions, http: { status: 400 } } });
        }
        throw err;
      }
    },
  };
  return { requestDidStart: () => hooks };
}
