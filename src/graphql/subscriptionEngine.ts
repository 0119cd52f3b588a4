/**
 * The subscription engine of one gateway instance: from a `subscribe`
 * message to a stream of results, transport aside (transport/subscriptionServer.ts).
 *
 * prepare(): everything refused before anything is watched, as for a query
 * over HTTP (token limit, validation rules, cost, variables, argument
 * checks), then the subscription's own rule; subscriptions only.
 * start(): joins the hub on the topic its arguments name; yields one result
 * per event, in delivery order. Results are shared per event between this
 * instance's subscribers with the same operation, variables and identity
 * class, over one set of loaders: a thousand subscribers of one team cost
 * one execution. Queues are bounded per subscription (`maxQueued`) and per
 * socket in bytes; a subscriber further behind is reported (`overflow`).
 * Memory that grows with what clients send is bounded in bytes, as for
 * HTTP's document store (documentStore.ts's estimate): the documents live
 * subscriptions hold per socket, per address and in all (heldDocuments.ts).
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
import { OperationMetrics, type MetricsSummary, type RequestLimits } from '../dynamo/metrics.js';
import { minimalResponseBytes } from './plugins/responseSize.js';
import { refusedSubscription } from '../subscriptions/access.js';
import type { DeclaredSubscription } from '../subscriptions/declared.js';
import { collectionTopic, itemTopic } from '../subscriptions/events.js';
import type { ChangeHub, SharedEvent, Subscriber } from '../subscriptions/hub.js';
import { keyValuesOf } from '../subscriptions/resolvers.js';
import { DOCUMENT_STORE_BYTES, documentBytes } from './documentStore.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { Outcome } from '../telemetry/port.js';
import type { Logger } from '../logger.js';
import { Reservation, type RequestSource } from './reservation.js';
import { documentRefusal, HeldDocuments, type DocumentHolder, type DocumentLimits } from './heldDocuments.js';
import { SocketBudget } from './socketBudget.js';

export { SocketBudget, type EventRequestBudget } from './socketBudget.js';

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
  /** Identifies equal operations, the same parsed document, operation name and variables (their results are shared per event). */
  key: string;
  /** What the parsed document holds, estimated (documentStore.ts). */
  bytes: number;
  /** Its cost (queryLimits.ts): the DynamoDB requests each execution reserves before it runs. */
  cost: number;
}

/** What one execution of an event did (logs, metrics). */
export interface EventExecution {
  /** The subscription's root field. */
  subscription: string;
  dynamodb: MetricsSummary;
  durationMs: number;
  /** Error codes of the result. */
  errorCodes: string[];
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
  /** Estimated bytes of parsed documents kept for reuse (default DOCUMENT_STORE_BYTES). */
  documentCacheBytes?: number;
  /** Estimated bytes of the documents live subscriptions hold, per client address and in all (WS_MAX_DOCUMENT_BYTES_*; default unbounded). */
  documentLimits?: DocumentLimits;
  /** Each execution's caps on DynamoDB requests and calls in flight, as an HTTP operation's (MAX_DYNAMODB_REQUESTS, MAX_DYNAMODB_IN_FLIGHT). */
  requestLimits?: RequestLimits;
  /** Told of every execution (tests). */
  onExecuted?: (execution: EventExecution) => void;
  /** Subscriptions open, deliveries, and the DynamoDB calls of executions (`gateway.subscriptions.*`, `gateway.dynamodb.*`). */
  telemetry?: Telemetry;
  /** One `subscription event` line per event, once every subscriber it reached here has had it. */
  logger?: Logger;
}

/** What all deliveries of one event on this instance did, for its log line. */
interface EventTally {
  /** Subscribers that have it queued or running. */
  pending: number;
  deliveries: number;
  executions: number;
  requests: number;
  byOperation: Record<string, number>;
  durationMs: number;
  errorCodes: Set<string>;
  subscriptions: Set<string>;
}

const outcomeOf = (codes: readonly string[]): Outcome =>
  codes.some((c) => c === ErrorCode.INTERNAL_SERVER_ERROR || c === ErrorCode.UNAVAILABLE) ? 'server_error' : codes.length ? 'user_error' : 'ok';

export interface EngineStats {
  subscriptions: number;
  /** Results produced (one per subscriber and event). */
  delivered: number;
  /** Executions run (shared between subscribers with equal operations). */
  executions: number;
  /** Parsed documents kept for reuse, and their estimated bytes. */
  documents: number;
  documentBytes: number;
  /** Distinct documents live subscriptions hold, their estimated bytes, and the client addresses holding any. */
  heldDocuments: number;
  heldDocumentBytes: number;
  documentAddresses: number;
}

const coded = (message: string, code: string, extra: Record<string, unknown> = {}) => new GraphQLError(message, { extensions: { code, ...extra } });

/** The identity's fields the rules read: subscribers alike in these get the same result. */
const identityClass = (who: Identity) =>
  who.kind === 'anonymous'
    ? 'anonymous'
    : `${who.admin ? 'admin' : ''}|${[...who.owns]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([type, id]) => `${type}=${id}`)
        .join('|')}`;

export class SubscriptionEngine {
  private readonly byField: Map<string, DeclaredSubscription>;
  private readonly guard: ReturnType<typeof queryLimits>;
  private readonly rules: typeof specifiedRules;
  private readonly limits: QueryLimits;
  private readonly counts = { subscriptions: 0, delivered: 0, executions: 0 };
  /** Parsed documents by their text, least recently used first, with their estimated bytes. */
  private readonly documents = new Map<string, { document: DocumentNode; bytes: number }>();
  private documentBytes = 0;
  private readonly documentCacheBytes: number;
  private readonly held: HeldDocuments;

  constructor(private readonly o: EngineOptions) {
    this.byField = new Map(o.declared.map((d) => [d.field, d]));
    this.limits = o.limits ?? DEFAULT_LIMITS;
    this.guard = queryLimits(this.limits, { prod: o.prod });
    this.rules = [...specifiedRules, ...this.guard.validationRules];
    this.documentCacheBytes = o.documentCacheBytes ?? DOCUMENT_STORE_BYTES;
    this.held = new HeldDocuments(o.documentLimits);
  }

  stats(): EngineStats {
    return { ...this.counts, documents: this.documents.size, documentBytes: this.documentBytes, ...this.held.stats() };
  }

  /**
   * Checks a subscribe message for this caller: the errors to answer, or
   * what to start. With the socket (`holder`), a document that cannot fit
   * its budgets even at its least estimate (two bytes a character) is
   * refused before it is parsed.
   */
  prepare(payload: SubscribePayload, caller: Identity, holder?: DocumentHolder): GraphQLError[] | Prepared {
    if (holder && typeof payload.query === 'string' && !this.documents.has(payload.query)) {
      const limit = this.held.refusal(holder, 2 * payload.query.length);
      if (limit) return [documentRefusal(limit, this.held.limits, holder)];
    }
    const parsed = this.parsed(payload.query);
    if (Array.isArray(parsed)) return parsed;
    const { document } = parsed;
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
      return [
        coded(
          `Query cost limit of ${this.limits.maxCost} exceeded, found ${weight.cost}. Ask for smaller pages or fewer nested connections.`,
          ErrorCode.GRAPHQL_VALIDATION_FAILED,
        ),
      ];
    }
    const maxFields = this.limits.maxResponseFields ?? DEFAULT_LIMITS.maxResponseFields!;
    if (weight.fields > maxFields) {
      return [
        coded(
          `Response size limit of ${maxFields} fields exceeded, found up to ${weight.fields}. Select fewer fields or ask for smaller pages.`,
          ErrorCode.GRAPHQL_VALIDATION_FAILED,
        ),
      ];
    }
    const maxBytes = this.limits.maxResponseBytes ?? DEFAULT_LIMITS.maxResponseBytes!;
    const bytes = minimalResponseBytes(this.o.schema, operation, fragments, payload.variables ?? undefined);
    if (bytes > maxBytes) {
      return [
        coded(
          `Response byte limit of ${maxBytes} exceeded: with full pages each event's result would hold at least ${bytes} bytes. Ask for smaller pages, fewer aliases or fewer fields.`,
          ErrorCode.GRAPHQL_VALIDATION_FAILED,
        ),
      ];
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
    return {
      document,
      operationName,
      variables,
      topic,
      decl,
      key: `${documentId(document)}\u0000${operationName ?? ''}\u0000${JSON.stringify(variables)}`,
      bytes: parsed.bytes,
      cost: weight.cost,
    };
  }

  /**
   * The parsed and validated document of a query text: kept, up to
   * `documentCacheBytes` of them least recently used out, so subscribers
   * sending the same operation share one document (memory) and one
   * validation (CPU). Documents differing only by a comment are distinct
   * texts: the bound is in bytes, not entries.
   */
  private parsed(query: string): { document: DocumentNode; bytes: number } | GraphQLError[] {
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
      return [
        coded(
          tokens ? `Query token limit of ${this.limits.maxTokens} exceeded; send a smaller document.` : message,
          tokens ? ErrorCode.GRAPHQL_VALIDATION_FAILED : 'GRAPHQL_PARSE_FAILED',
        ),
      ];
    }
    const invalid = validate(this.o.schema, document, this.rules);
    if (invalid.length > 0) return invalid.map((e) => coded(e.message, ErrorCode.GRAPHQL_VALIDATION_FAILED, { locations: e.locations }));
    const entry = { document, bytes: documentBytes(document) };
    // One document larger than the whole cache is used, not kept.
    if (entry.bytes > this.documentCacheBytes) return entry;
    this.documents.set(query, entry);
    this.documentBytes += entry.bytes;
    while (this.documentBytes > this.documentCacheBytes) {
      const [oldest, evicted] = this.documents.entries().next().value!;
      this.documents.delete(oldest);
      this.documentBytes -= evicted.bytes;
    }
    return entry;
  }

  /** Charges the socket, its address and the instance for the subscription's document: the refusal, or nothing once charged. */
  hold(prepared: Prepared, holder: DocumentHolder): GraphQLError | undefined {
    const limit = this.held.take(holder, prepared.document, prepared.bytes);
    return limit ? documentRefusal(limit, this.held.limits, holder) : undefined;
  }

  /** A subscription `hold` charged has ended (or never started). */
  release(prepared: Prepared, holder: DocumentHolder): void {
    this.held.give(holder, prepared.document, prepared.bytes);
  }

  /**
   * Joins the topic; resolves once its events are received. `overflow` is
   * called (once) when the subscriber falls `maxQueued` events behind.
   */
  async start(prepared: Prepared, caller: Identity, overflow: () => void, budget?: SocketBudget): Promise<AsyncGenerator<ExecutionResult>> {
    const stream = new EventStream(this, prepared, caller, this.o.maxQueued ?? 1000, overflow, budget ?? new SocketBudget(Infinity, Infinity));
    stream.leave = await this.o.hub.add(prepared.topic, stream);
    this.counts.subscriptions++;
    this.o.telemetry?.subscriptionsChanged(1);
    return stream;
  }

  /** @internal */
  ended(): void {
    this.counts.subscriptions--;
    this.o.telemetry?.subscriptionsChanged(-1);
  }

  /** @internal A subscriber has the event queued: its log line waits for it. */
  queued(shared: SharedEvent): void {
    let tally = shared.memo.get('tally') as EventTally | undefined;
    if (!tally) {
      tally = { pending: 0, deliveries: 0, executions: 0, requests: 0, byOperation: {}, durationMs: 0, errorCodes: new Set(), subscriptions: new Set() };
      shared.memo.set('tally', tally);
    }
    tally.pending++;
  }

  /** @internal A subscriber is done with the event (delivered, or dropped as it left): the last one logs it. */
  settled(shared: SharedEvent, delivered: boolean): void {
    const tally = shared.memo.get('tally') as EventTally | undefined;
    if (!tally) return;
    if (delivered) tally.deliveries++;
    if (--tally.pending > 0) return;
    shared.memo.delete('tally');
    const logger = this.o.logger;
    if (!logger || tally.deliveries === 0 || !logger.isLevelEnabled('info')) return;
    logger.info(
      {
        // The topic's type or connection, never the ids it names.
        topic: shared.event.topic.slice(0, shared.event.topic.indexOf('#')),
        kind: shared.event.kind,
        subscriptions: [...tally.subscriptions],
        deliveries: tally.deliveries,
        executions: tally.executions,
        dynamodb: { requests: tally.requests, byOperation: tally.byOperation },
        durationMs: Math.round(tally.durationMs * 10) / 10,
        errorCodes: [...tally.errorCodes],
      },
      'subscription event',
    );
  }

  /**
   * @internal The result of one event for one subscriber, shared with its
   * likes. The subscriber whose turn runs the execution pays its DynamoDB
   * requests: reserved from its socket's and its caller's budgets before
   * it runs (reservation.ts), never more than they hold (nor than an HTTP
   * operation may send).
   */
  async run(shared: SharedEvent, prepared: Prepared, caller: Identity, budget: SocketBudget): Promise<ExecutionResult> {
    const cls = identityClass(caller);
    const key = `${cls}\u0000${prepared.key}`;
    this.counts.delivered++;
    const delivery = this.o.telemetry?.startDelivery(prepared.decl.field);
    let result = shared.memo.get(key) as Promise<ExecutionResult> | undefined;
    if (!result) {
      result = this.execute(shared, prepared, caller, budget, delivery);
      shared.memo.set(key, result);
    }
    try {
      const value = await result;
      delivery?.finish({ outcome: outcomeOf((value.errors ?? []).map((e) => String(e.extensions?.code))) });
      return value;
    } catch (error) {
      delivery?.finish({ outcome: 'server_error', error });
      throw error;
    }
  }

  private async execute(
    shared: SharedEvent,
    prepared: Prepared,
    caller: Identity,
    budget: SocketBudget,
    delivery: { calls: OperationMetrics['calls'] } | undefined,
  ): Promise<ExecutionResult> {
    this.counts.executions++;
    const started = performance.now();
    // Its own metrics and loaders: the same per-operation caps as over HTTP.
    const metrics = new OperationMetrics(this.o.requestLimits);
    if (delivery) metrics.calls = delivery.calls;
    // Reserved from the socket's and the caller's budgets before it runs, and given back as it ends (reservation.ts).
    const sources: RequestSource[] = budget.requests.burst === Infinity ? [] : [budget];
    if (budget.caller) sources.push(budget.caller.buckets.source(budget.caller.key));
    const reservation = sources.length > 0 ? new Reservation(sources, metrics.requestCap) : undefined;
    if (reservation) {
      await reservation.open(prepared.cost);
      metrics.reserveThrough(reservation);
    }
    const contextValue: Context = { ...createContext(this.o.deps, metrics, caller), shortPages: [] };
    let result: ExecutionResult;
    try {
      result = await execute({
        schema: this.o.schema,
        document: prepared.document,
        operationName: prepared.operationName,
        variableValues: prepared.variables,
        rootValue: shared.event,
        contextValue,
      });
    } finally {
      reservation?.close(metrics.requests);
    }
    const prod = this.o.prod;
    let errors: GraphQLFormattedError[] | undefined = result.errors?.map((e) => formatError(e.toJSON(), e, { prod }));
    let data = result.data;
    const maxBytes = this.limits.maxResponseBytes ?? DEFAULT_LIMITS.maxResponseBytes!;
    const text = JSON.stringify({ errors, data });
    const size = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
    if (size > maxBytes) {
      data = null;
      errors = [
        {
          message: `The result of ${size} bytes exceeds the response byte limit of ${maxBytes}. Ask for smaller pages or fewer fields.`,
          extensions: { code: ErrorCode.BAD_USER_INPUT, reason: 'RESPONSE_TOO_LARGE', bytes: size, limit: maxBytes },
        },
      ];
    }
    const execution: EventExecution = {
      subscription: prepared.decl.field,
      dynamodb: metrics.summary(),
      durationMs: performance.now() - started,
      errorCodes: (errors ?? []).map((e) => String(e.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR)),
    };
    const tally = shared.memo.get('tally') as EventTally | undefined;
    if (tally) {
      tally.executions++;
      tally.requests += execution.dynamodb.requests;
      for (const [operation, n] of Object.entries(execution.dynamodb.byOperation)) tally.byOperation[operation] = (tally.byOperation[operation] ?? 0) + n;
      tally.durationMs += execution.durationMs;
      for (const code of execution.errorCodes) tally.errorCodes.add(code);
      tally.subscriptions.add(execution.subscription);
    }
    this.o.onExecuted?.(execution);
    return (errors ? { data, errors } : { data }) as ExecutionResult;
  }
}

/** A number per parsed document: equal operations are keyed by it, not by a second copy of their text. */
const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;
function documentId(document: DocumentNode): number {
  let id = documentIds.get(document);
  if (id === undefined) documentIds.set(document, (id = ++lastDocumentId));
  return id;
}

function rootField(operation: OperationDefinitionNode): FieldNode | null {
  const first = operation.selectionSet.selections[0];
  return first?.kind === Kind.FIELD ? first : null;
}

/** Estimated bytes an event waiting in a queue holds: its image's JSON, two bytes a character. Once per event and instance. */
function eventBytes(shared: SharedEvent): number {
  let bytes = shared.memo.get('bytes') as number | undefined;
  if (bytes === undefined) shared.memo.set('bytes', (bytes = 2 * (JSON.stringify(shared.event.image)?.length ?? 0) + 200));
  return bytes;
}

/** One subscription's events, as an async generator (graphql-ws ends it with `return`). */
class EventStream implements Subscriber, AsyncGenerator<ExecutionResult> {
  leave: () => void = () => {};
  private readonly queue: SharedEvent[] = [];
  /** What each queued event was charged to the socket's budget. */
  private readonly charged: number[] = [];
  private wake: (() => void) | null = null;
  private done = false;
  private overflowed = false;

  constructor(
    private readonly engine: SubscriptionEngine,
    private readonly prepared: Prepared,
    private readonly caller: Identity,
    private readonly maxQueued: number,
    private readonly overflow: () => void,
    private readonly budget: SocketBudget,
  ) {}

  private tooSlow(): void {
    if (this.overflowed) return;
    this.overflowed = true;
    this.overflow();
  }

  deliver(shared: SharedEvent): void {
    if (this.done) return;
    if (this.queue.length >= this.maxQueued) return this.tooSlow();
    // An event handed at once to a waiting consumer is not queued: nothing to estimate.
    const bytes = this.queue.length > 0 || !this.wake ? eventBytes(shared) : 0;
    if (bytes > 0) {
      if (this.budget.queuedBytes + bytes > this.budget.maxQueuedBytes) return this.tooSlow();
      this.budget.queuedBytes += bytes;
    }
    this.queue.push(shared);
    this.charged.push(bytes);
    this.engine.queued(shared);
    this.wake?.();
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    while (!this.done && this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (this.done) return { done: true, value: undefined };
    const shared = this.queue.shift()!;
    this.budget.queuedBytes -= this.charged.shift()!;
    try {
      return { done: false, value: await this.engine.run(shared, this.prepared, this.caller, this.budget) };
    } finally {
      this.engine.settled(shared, true);
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.done) {
      this.done = true;
      for (const shared of this.queue) this.engine.settled(shared, false);
      this.queue.length = 0;
      for (const bytes of this.charged) this.budget.queuedBytes -= bytes;
      this.engine.release(this.prepared, this.budget);
      this.charged.length = 0;
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
