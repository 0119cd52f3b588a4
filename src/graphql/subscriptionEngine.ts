/**
 * The subscription engine of one gateway instance: from a `subscribe`
 * message to a stream of results, transport aside (transport/subscriptionServer.ts
 * speaks graphql-ws).
 *
 * prepare(): everything refused before anything is watched, as for a query
 * over HTTP: the token limit while parsing, validation with the same
 * rules (depth, aliases, directives), the cost and response-field limits
 * (queryLimits.ts's weight), variables, the argument check (ids), then
 * the subscription's own rule (access.ts). Only a subscription operation
 * is accepted; queries and mutations go over HTTP.
 *
 * start(): joins the hub on the topic its arguments name and returns an
 * async generator of results, one per event, in the order of delivery.
 * Per event, results are shared between subscribers of this instance with
 * the same operation, variables and identity class (the identity's fields
 * the rules read), and all of them share one set of loaders: a thousand
 * subscribers of one team cost one execution per operation they send.
 * Events wait in a queue of at most `maxQueued` per subscription; a
 * subscriber that falls further behind is reported (`overflow`) and its
 * transport closes it.
 */
import {
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  execute,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getArgumentValues, getVariableValues } from 'graphql/execution/values.js';
import type { Identity } from '../auth/identity.js';
import { createContext, type Context, type Deps } from './context.js';
import { ErrorCode } from '../errors.js';
import { formatError } from './formatError.js';
import { argumentRules, checkArguments } from './plugins/argumentCheck.js';
import { DEFAULT_LIMITS, operationWeight, queryLimits, type QueryLimits } from './plugins/queryLimits.js';
import { cursorReader } from '../connections/cursor.js';
import { OperationMetrics } from '../dynamo/metrics.js';
import { refusedSubscription } from '../subscriptions/access.js';
import type { DeclaredSubscription } from '../subscriptions/declared.js';
import { collectionTopic, itemTopic } from '../subscriptions/events.js';
import type { ChangeHub, SharedEvent, Subscriber } from '../subscriptions/hub.js';
import { keyValuesOf } from '../subscriptions/resolvers.js';

export interface SubscribePayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

export interface Prepared {
  document: DocumentNode;
  operationName: string | undefined;
  variables: Record<string, unknown>;
  topic: string;
  decl: DeclaredSubscription;
  /** Identifies equal operations (their results are shared per event). */
  key: string;
}

export interface EngineOptions {
  /** The executable schema, rules applied when they are on (graphql/server.ts). */
  schema: GraphQLSchema;
  declared: readonly DeclaredSubscription[];
  hub: ChangeHub;
  deps: Deps;
  limits?: QueryLimits;
  prod: boolean;
  /** Events waiting per subscription before it counts as too slow (default 1000). */
  maxQueued?: number;
}

export interface EngineStats {
  subscriptions: number;
  /** Results produced (one per subscriber and event). */
  delivered: number;
  /** Executions run (shared between subscribers with equal operations). */
  executions: number;
}

/** Valid documents kept by their text (see `parsed`). */
const DOCUMENTS = 500;

const coded = (message: string, code: string, extra: Record<string, unknown> = {}) => new GraphQLError(message, { extensions: { code, ...extra } });

/** The identity's fields the rules read: subscribers alike in these get the same result. */
const identityClass = (who: Identity) =>
  who.kind === 'anonymous'
    ? 'anonymous'
    : `${who.admin ? 'admin' : ''}|${[...who.owns].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([type, id]) => `${type}=${id}`).join('|')}`;

export class SubscriptionEngine {
  private readonly byField: Map<string, DeclaredSubscription>;
  private readonly guard: ReturnType<typeof queryLimits>;
  private readonly rules: typeof specifiedRules;
  private readonly limits: QueryLimits;
  private readonly counts = { subscriptions: 0, delivered: 0, executions: 0 };
  private readonly documents = new Map<string, DocumentNode>();

  constructor(private readonly o: EngineOptions) {
    this.byField = new Map(o.declared.map((d) => [d.field, d]));
    this.limits = o.limits ?? DEFAULT_LIMITS;
    this.guard = queryLimits(this.limits, { prod: o.prod });
    this.rules = [...specifiedRules, ...this.guard.validationRules];
  }

  stats(): EngineStats {
    return { ...this.counts };
  }

  /** Checks a subscribe message for this caller: the errors to answer, or what to start. */
  prepare(payload: SubscribePayload, caller: Identity): GraphQLError[] | Prepared {
    const parsed = this.parsed(payload.query);
    if (Array.isArray(parsed)) return parsed;
    const document = parsed;
    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) return [coded('Name the operation to run (operationName)', ErrorCode.BAD_USER_INPUT)];
    if (operation.operation !== 'subscription') {
      return [coded(`Only subscriptions run over the WebSocket; send ${operation.operation} operations over HTTP`, ErrorCode.GRAPHQL_VALIDATION_FAILED)];
    }
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const weight = operationWeight(this.o.schema, operation, (n) => fragments.get(n), payload.variables ?? undefined);
    if (weight.cost > this.limits.maxCost) {
      return [coded(`Query cost limit of ${this.limits.maxCost} exceeded, found ${weight.cost}. Ask for smaller pages or fewer nested connections.`, ErrorCode.GRAPHQL_VALIDATION_FAILED)];
    }
    const maxFields = this.limits.maxResponseFields ?? DEFAULT_LIMITS.maxResponseFields!;
    if (weight.fields > maxFields) {
      return [coded(`Response size limit of ${maxFields} fields exceeded, found up to ${weight.fields}. Select fewer fields or ask for smaller pages.`, ErrorCode.GRAPHQL_VALIDATION_FAILED)];
    }
    const coerced = getVariableValues(this.o.schema, operation.variableDefinitions ?? [], payload.variables ?? {});
    if (coerced.errors) return coerced.errors.map((e) => coded(e.message, ErrorCode.BAD_USER_INPUT));
    const variables = coerced.coerced;
    try {
      checkArguments(this.o.schema, document, variables, cursorReader(this.o.deps.cursors), argumentRules(this.o.deps.plan));
    } catch (err) {
      if (err instanceof GraphQLError) return [err];
      throw err;
    }
    const node = rootField(operation);
    if (!node) return [coded('Select the subscription field directly in the operation, not through a fragment', ErrorCode.GRAPHQL_VALIDATION_FAILED)];
    const decl = this.byField.get(node.name.value)!;
    const field = this.o.schema.getSubscriptionType()!.getFields()[decl.field]!;
    const args = getArgumentValues(field, node, variables);
    const key = keyValuesOf(decl, args);
    if (this.o.deps.authRequired) {
      const refused = refusedSubscription(decl, caller, key, this.o.deps.rules);
      if (refused) return [refused as GraphQLError];
    }
    const id = key.map(String).join('#');
    const topic = decl.kind === 'item' ? itemTopic(decl.type, id) : collectionTopic(decl.connection, id);
    return { document, operationName, variables, topic, decl, key: `${payload.query}\u0000${operationName ?? ''}\u0000${JSON.stringify(variables)}` };
  }

  /**
   * The parsed and validated document of a query text: kept for the
   * `DOCUMENTS` most recently used texts, so subscribers sending the same
   * operation share one document (memory) and one validation (CPU).
   */
  private parsed(query: string): DocumentNode | GraphQLError[] {
    const known = this.documents.get(query);
    if (known) {
      this.documents.delete(query);
      this.documents.set(query, known);
      return known;
    }
    let document: DocumentNode;
    try {
      document = parse(query, this.guard.parseOptions);
    } catch (err) {
      const message = (err as Error).message;
      const tokens = /tokens/.test(message);
      return [coded(tokens ? `Query token limit of ${this.limits.maxTokens} exceeded; send a smaller document.` : message, tokens ? ErrorCode.GRAPHQL_VALIDATION_FAILED : 'GRAPHQL_PARSE_FAILED')];
    }
    const invalid = validate(this.o.schema, document, this.rules);
    if (invalid.length > 0) return invalid.map((e) => coded(e.message, ErrorCode.GRAPHQL_VALIDATION_FAILED, { locations: e.locations }));
    this.documents.set(query, document);
    if (this.documents.size > DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    return document;
  }

  /**
   * Joins the topic; resolves once its events are received. `overflow` is
   * called (once) when the subscriber falls `maxQueued` events behind.
   */
  async start(prepared: Prepared, caller: Identity, overflow: () => void): Promise<AsyncGenerator<ExecutionResult>> {
    const stream = new EventStream(this, prepared, caller, this.o.maxQueued ?? 1000, overflow);
    stream.leave = await this.o.hub.add(prepared.topic, stream);
    this.counts.subscriptions++;
    return stream;
  }

  /** @internal */
  ended(): void {
    this.counts.subscriptions--;
  }

  /** @internal The result of one event for one subscriber, shared with its likes. */
  run(shared: SharedEvent, prepared: Prepared, caller: Identity): Promise<ExecutionResult> {
    const cls = identityClass(caller);
    const key = `${cls}\u0000${prepared.key}`;
    this.counts.delivered++;
    let result = shared.memo.get(key) as Promise<ExecutionResult> | undefined;
    if (!result) {
      result = this.execute(shared, prepared, caller, cls);
      shared.memo.set(key, result);
    }
    return result;
  }

  private async execute(shared: SharedEvent, prepared: Prepared, caller: Identity, cls: string): Promise<ExecutionResult> {
    this.counts.executions++;
    // One set of loaders per event; the caller's identity per class.
    let base = shared.memo.get('context') as Context | undefined;
    if (!base) shared.memo.set('context', (base = createContext(this.o.deps, new OperationMetrics())));
    let contextValue = shared.memo.get(`context:${cls}`) as Context | undefined;
    if (!contextValue) shared.memo.set(`context:${cls}`, (contextValue = { ...base, identity: caller, shortPages: [] }));
    const result = await execute({
      schema: this.o.schema,
      document: prepared.document,
      operationName: prepared.operationName,
      variableValues: prepared.variables,
      rootValue: shared.event,
      contextValue,
    });
    const prod = this.o.prod;
    const errors: GraphQLFormattedError[] | undefined = result.errors?.map((e) => formatError(e.toJSON(), e, { prod }));
    return (errors ? { data: result.data, errors } : { data: result.data }) as ExecutionResult;
  }
}

function rootField(operation: OperationDefinitionNode): FieldNode | null {
  const first = operation.selectionSet.selections[0];
  return first?.kind === Kind.FIELD ? first : null;
}

/** One subscription's events, as an async generator (graphql-ws ends it with `return`). */
class EventStream implements Subscriber, AsyncGenerator<ExecutionResult> {
  leave: () => void = () => {};
  private readonly queue: SharedEvent[] = [];
  private wake: (() => void) | null = null;
  private done = false;
  private overflowed = false;

  constructor(
    private readonly engine: SubscriptionEngine,
    private readonly prepared: Prepared,
    private readonly caller: Identity,
    private readonly maxQueued: number,
    private readonly overflow: () => void,
  ) {}

  deliver(shared: SharedEvent): void {
    if (this.done) return;
    if (this.queue.length >= this.maxQueued) {
      if (!this.overflowed) {
        this.overflowed = true;
        this.overflow();
      }
      return;
    }
    this.queue.push(shared);
    this.wake?.();
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    while (!this.done && this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (this.done) return { done: true, value: undefined };
    const shared = this.queue.shift()!;
    return { done: false, value: await this.engine.run(shared, this.prepared, this.caller) };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.done) {
      this.done = true;
      this.queue.length = 0;
      this.leave();
      this.engine.ended();
      this.wake?.();
    }
    return { done: true, value: undefined };
  }

  async throw(): Promise<IteratorResult<ExecutionResult>> {
    return this.return();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }
}
